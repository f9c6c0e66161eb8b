// Package sourdough is a baker of sourdough, written from the README by
// a new user for none of the planners' features: she mixes, kneads,
// proofs, shapes and bakes one loaf at a time (the dough's stage an
// enum each step sets), keeps her oven stoked with wood she chops in
// the yard, buys flour at the mill and sells loaves at the market.
package sourdough

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Place is where she is.
type Place int

const (
	Kitchen Place = iota
	Yard
	Mill
	Market
)

// Dough is how far the loaf in hand has come.
type Dough int

const (
	None Dough = iota
	Mixed
	Kneaded
	Risen
	Shaped
)

// Baker bakes.
type Baker struct {
	At     Place `plan:"state"`
	Stage  Dough `plan:"state"`
	Flour  int   `plan:"state"`
	Wood   int   `plan:"state"`
	Heat   int   `plan:"state"`
	Loaves int   `plan:"state"`
	Coins  int   `plan:"state"`
	Hunger int   `plan:"state"`

	// Fed: not too hungry to work.
	Fed struct{} `plan:"goal=Hunger < 3; priority=high"`
	// Stocked: loaves on the shelf.
	Stocked struct{} `plan:"goal=Loaves >= 3"`
	// Rich: savings.
	Rich struct{} `plan:"goal=Coins >= 15; priority=low"`
}

//plan:action pre="At != Kitchen" post="At = Kitchen, Hunger += 1" cost=2
func (b *Baker) ToKitchen() { b.At = Kitchen; b.Hunger++ }

//plan:action pre="At != Yard" post="At = Yard, Hunger += 1" cost=1
func (b *Baker) ToYard() { b.At = Yard; b.Hunger++ }

//plan:action pre="At != Mill" post="At = Mill, Hunger += 1" cost=3
func (b *Baker) ToMill() { b.At = Mill; b.Hunger++ }

//plan:action pre="At != Market" post="At = Market, Hunger += 1" cost=3
func (b *Baker) ToMarket() { b.At = Market; b.Hunger++ }

// Mix flour and starter.
//
//plan:action pre="At == Kitchen && Stage == None && Flour >= 2" post="Stage = Mixed, Flour -= 2"
func (b *Baker) Mix() { b.Stage = Mixed; b.Flour -= 2 }

//plan:action pre="Stage == Mixed" post="Stage = Kneaded, Hunger += 1" cost=2
func (b *Baker) Knead() { b.Stage = Kneaded; b.Hunger++ }

// Proof the dough by the warm oven.
//
//plan:action pre="At == Kitchen && Stage == Kneaded && Heat >= 1" post="Stage = Risen" cost=3
func (b *Baker) Proof() { b.Stage = Risen }

//plan:action pre="Stage == Risen" post="Stage = Shaped"
func (b *Baker) Shape() { b.Stage = Shaped }

// Bake the loaf in a hot oven.
//
//plan:action pre="At == Kitchen && Stage == Shaped && Heat >= 3" post="Stage = None, Loaves += 1, Heat -= 1" cost=2
func (b *Baker) Bake() { b.Stage = None; b.Loaves++; b.Heat-- }

// Stoke the oven.
//
//plan:action pre="At == Kitchen && Wood >= 1 && Heat <= 4" post="Wood -= 1, Heat += 2"
func (b *Baker) Stoke() { b.Wood--; b.Heat += 2 }

//plan:action pre="At == Yard" post="Wood += 2, Hunger += 1" cost=3
func (b *Baker) Chop() { b.Wood += 2; b.Hunger++ }

//plan:action pre="At == Mill && Coins >= 2" post="Flour += 4, Coins -= 2" cost=1
func (b *Baker) BuyFlour() { b.Flour += 4; b.Coins -= 2 }

//plan:action pre="At == Market && Loaves >= 1" post="Loaves -= 1, Coins += 5" cost=1
func (b *Baker) Sell() { b.Loaves--; b.Coins += 5 }

// Sweep the market for a coin.
//
//plan:action pre="At == Market" post="Coins += 1, Hunger += 1" cost=3
func (b *Baker) Sweep() { b.Coins++; b.Hunger++ }

//plan:action pre="Loaves >= 1" post="Loaves -= 1, Hunger = 0" cost=1
func (b *Baker) Eat() { b.Loaves--; b.Hunger = 0 }

// Porridge at the kitchen, from flour.
//
//plan:action pre="At == Kitchen && Flour >= 1" post="Flour -= 1, Hunger -= 2" cost=2
func (b *Baker) Porridge() { b.Flour--; b.Hunger -= 2 }
