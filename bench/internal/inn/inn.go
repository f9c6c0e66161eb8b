// Package inn keeps an inn at the edge of the woods: written from the
// README by a new user, with a goal that either of two fields meets
// (Ale >= 6 || Barley >= 8).
package inn

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Place is where the innkeeper is.
type Place int

// The places.
const (
	Inn Place = iota
	Market
	Woods
)

// Innkeeper runs a small inn: ale brewed from barley bought at the
// market, a fire of wood chopped in the woods, guests found on the road.
type Innkeeper struct {
	At     Place `plan:"state"`
	Gold   int   `plan:"state; min=0"`
	Barley int   `plan:"state; min=0; max=10"`
	Ale    int   `plan:"state; min=0; max=12"`
	Wood   int   `plan:"state; min=0; max=6"`
	Fire   bool  `plan:"state"`
	Clean  bool  `plan:"state"`
	Guests int   `plan:"state; min=0; max=8"`
	Energy int   `plan:"state; min=0; max=10"`
	Load   int   `plan:"state; min=0; max=6"`

	// Profitable: money for the rent.
	Profitable struct{} `plan:"goal=Gold >= 30"`
	// Cozy: a warm, clean common room.
	Cozy struct{} `plan:"goal=Fire && Clean; priority=high"`
	// Stocked: enough to serve tonight, or to brew it.
	Stocked struct{} `plan:"goal=Ale >= 6 || Barley >= 8"`
	// Rested: fit to work.
	Rested struct{} `plan:"goal=Energy >= 6; priority=critical"`
}

// GoToMarket walks to the market: the more she carries, the dearer.
//
//plan:action pre="At != Market && Energy >= 1" post="At = Market, Energy -= 1" cost="2 + Load / 2"
func (k *Innkeeper) GoToMarket() { k.At = Market; k.Energy-- }

// GoToWoods walks to the woods.
//
//plan:action pre="At != Woods && Energy >= 1" post="At = Woods, Energy -= 1" cost="2 + Load / 2"
func (k *Innkeeper) GoToWoods() { k.At = Woods; k.Energy-- }

// GoHome walks back to the inn and unloads.
//
//plan:action pre="At != Inn" post="At = Inn, Load = 0" cost="2 + Load / 2"
func (k *Innkeeper) GoHome() { k.At = Inn; k.Load = 0 }

// BuyBarley buys two sacks of barley.
//
//plan:action pre="At == Market && Gold >= 2" post="Barley += 2, Gold -= 2, Load += 1"
func (k *Innkeeper) BuyBarley() { k.Barley += 2; k.Gold -= 2; k.Load++ }

// Chop chops wood.
//
//plan:action pre="At == Woods && Energy >= 2" post="Wood += 2, Energy -= 2, Load += 1" cost=2
func (k *Innkeeper) Chop() { k.Wood += 2; k.Energy -= 2; k.Load++ }

// Brew brews ale.
//
//plan:action pre="At == Inn && Barley >= 2" post="Barley -= 2, Ale += 3" cost=3
func (k *Innkeeper) Brew() { k.Barley -= 2; k.Ale += 3 }

// LightFire lights the fire.
//
//plan:action pre="At == Inn && Wood >= 1 && !Fire" post="Fire = true, Wood -= 1"
func (k *Innkeeper) LightFire() { k.Fire = true; k.Wood-- }

// Sweep sweeps the common room.
//
//plan:action pre="At == Inn && Energy >= 1" post="Clean = true, Energy -= 1" cost=2
func (k *Innkeeper) Sweep() { k.Clean = true; k.Energy-- }

// Serve serves a guest a mug of ale; the room gets dirty.
//
//plan:action pre="At == Inn && Ale >= 1 && Guests >= 1" post="Ale -= 1, Guests -= 1, Gold += 5, Clean = false"
func (k *Innkeeper) Serve() { k.Ale--; k.Guests--; k.Gold += 5; k.Clean = false }

// PostNotice puts up a notice where travellers pass.
//
//plan:action pre="At == Market || At == Woods" post="Guests += 2"
func (k *Innkeeper) PostNotice() { k.Guests += 2 }

// SellAle sells a keg at the market.
//
//plan:action pre="At == Market && Ale >= 2" post="Ale -= 2, Gold += 4"
func (k *Innkeeper) SellAle() { k.Ale -= 2; k.Gold += 4 }

// Nap naps by the hearth.
//
//plan:action pre="At == Inn" post="Energy += 3" cost=3
func (k *Innkeeper) Nap() { k.Energy += 3 }

// Sleep sleeps the night by the fire, which burns out.
//
//plan:action pre="At == Inn && Fire" post="Energy = 10, Fire = false" fulfills=Rested cost=6
func (k *Innkeeper) Sleep() { k.Energy = 10; k.Fire = false }

// DrinkAle drinks a mug.
//
//plan:action pre="Ale >= 1" post="Ale -= 1, Energy += 2"
func (k *Innkeeper) DrinkAle() { k.Ale--; k.Energy += 2 }
