// Package kitchen is a cook of twelve actions, written for the repair
// benchmark and not for any planner: walks whose cost grows with what the
// cook carries, soup that needs water, fire and two chopped vegetables,
// bowls to serve and wash.
package kitchen

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Place is where the cook stands.
type Place int

// The places of the kitchen.
const (
	Pantry Place = iota
	Stove
	Sink
	Market
)

// Cook serves two bowls of soup and leaves no dirty bowl.
type Cook struct {
	At      Place `plan:"state"`
	Money   int   `plan:"state"`
	Veg     int   `plan:"state"` // vegetables carried
	Chopped int   `plan:"state"`
	Water   bool  `plan:"state"` // the pot is filled
	Fire    bool  `plan:"state"`
	Soup    bool  `plan:"state"`
	Bowls   int   `plan:"state"` // clean bowls
	Dirty   int   `plan:"state"`
	Served  int   `plan:"state"`

	// Fed: two bowls served.
	Fed struct{} `plan:"goal=Served >= 2; priority=high"`
	// Tidy: no dirty bowl left.
	Tidy struct{} `plan:"goal=Dirty == 0; priority=low"`
}

// GoPantry walks to the pantry; the more carried, the dearer.
//
//plan:action pre="At != Pantry && Veg >= 0" post="At = Pantry" cost="1 + Veg"
func (c *Cook) GoPantry() { c.At = Pantry }

// GoStove walks to the stove.
//
//plan:action pre="At != Stove && Veg >= 0" post="At = Stove" cost="1 + Veg"
func (c *Cook) GoStove() { c.At = Stove }

// GoSink walks to the sink.
//
//plan:action pre="At != Sink && Veg >= 0" post="At = Sink" cost="1 + Veg"
func (c *Cook) GoSink() { c.At = Sink }

// GoMarket walks to the market, farther.
//
//plan:action pre="At != Market && Veg >= 0" post="At = Market" cost="3 + Veg"
func (c *Cook) GoMarket() { c.At = Market }

// TakeVeg takes a vegetable from the pantry.
//
//plan:action pre="At == Pantry && Veg < 2" post="Veg += 1"
func (c *Cook) TakeVeg() { c.Veg++ }

// BuyVeg buys two vegetables at the market.
//
//plan:action pre="At == Market && Money >= 3" post="Veg += 2, Money -= 3" cost=2
func (c *Cook) BuyVeg() { c.Veg += 2; c.Money -= 3 }

// Chop chops a vegetable at the stove.
//
//plan:action pre="At == Stove && Veg >= 1" post="Veg -= 1, Chopped += 1"
func (c *Cook) Chop() { c.Veg--; c.Chopped++ }

// FillPot fills the pot at the sink.
//
//plan:action pre="At == Sink && !Water" post="Water = true"
func (c *Cook) FillPot() { c.Water = true }

// LightFire lights the stove.
//
//plan:action pre="At == Stove && !Fire" post="Fire = true"
func (c *Cook) LightFire() { c.Fire = true }

// Boil makes soup of two chopped vegetables.
//
//plan:action pre="At == Stove && Water && Fire && Chopped >= 2" post="Soup = true, Chopped -= 2, Water = false" cost=3
func (c *Cook) Boil() { c.Soup = true; c.Chopped -= 2; c.Water = false }

// Serve serves a bowl of soup.
//
//plan:action pre="Soup && Bowls >= 1" post="Served += 1, Bowls -= 1, Dirty += 1" fulfills=Fed
func (c *Cook) Serve() { c.Served++; c.Bowls--; c.Dirty++ }

// Wash washes a bowl at the sink.
//
//plan:action pre="At == Sink && Dirty >= 1" post="Dirty -= 1, Bowls += 1"
func (c *Cook) Wash() { c.Dirty--; c.Bowls++ }
