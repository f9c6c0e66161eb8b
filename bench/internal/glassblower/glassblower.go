// Package glassblower is a glassblower, written from the README by a new
// user for none of the planners' features: she shovels sand at the beach
// (a cart of twelve scoops, four vases' worth, where the goal asks for
// five), chops wood, stokes her furnace (hot enough at 900, which each
// walk away from the workshop cools by 200), blows vases, mends or buys
// a cracked pipe, and sells at the market; the sun makes her thirsty.
package glassblower

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Place is where the glassblower is.
type Place int

const (
	Workshop Place = iota
	Beach
	Woods
	Market
)

// Blower melts sand into vases at her furnace and sells them.
type Blower struct {
	At      Place `plan:"state"`
	Sand    int   `plan:"state; min=0; max=12"`
	Wood    int   `plan:"state; min=0; max=6"`
	Heat    int   `plan:"state; min=0; max=1200"`
	Vases   int   `plan:"state; min=0; max=8"`
	Coins   int   `plan:"state; min=0"`
	Thirst  int   `plan:"state; min=0; max=10"`
	Cracked bool  `plan:"state"`

	Hydrated struct{} `plan:"goal=Thirst < 6; priority=high"`
	Stocked  struct{} `plan:"goal=Vases >= 5"`
	Wealthy  struct{} `plan:"goal=Coins >= 50; priority=low"`
}

// Walk between the workshop and the other places: the sun makes her thirsty.
//
//plan:action pre="At != Beach" post="At = Beach, Thirst += 2, Heat -= 200" cost=4
func (b *Blower) ToBeach() { b.At = Beach; b.Thirst += 2; b.Heat = max(0, b.Heat-200) }

//plan:action pre="At != Woods" post="At = Woods, Thirst += 1, Heat -= 200" cost=3
func (b *Blower) ToWoods() { b.At = Woods; b.Thirst++; b.Heat = max(0, b.Heat-200) }

//plan:action pre="At != Market" post="At = Market, Thirst += 1, Heat -= 200" cost=3
func (b *Blower) ToMarket() { b.At = Market; b.Thirst++; b.Heat = max(0, b.Heat-200) }

//plan:action pre="At != Workshop" post="At = Workshop, Thirst += 1" cost=3
func (b *Blower) ToWorkshop() { b.At = Workshop; b.Thirst++ }

// Shovel sand into the cart.
//
//plan:action pre="At == Beach && Sand < 12" post="Sand += 4" cost=2
func (b *Blower) Shovel() { b.Sand = min(12, b.Sand+4) }

// Chop wood for the furnace.
//
//plan:action pre="At == Woods && Wood < 6" post="Wood += 2, Thirst += 1" cost=2
func (b *Blower) Chop() { b.Wood = min(6, b.Wood+2); b.Thirst++ }

// Stoke the furnace with a log.
//
//plan:action pre="At == Workshop && Wood >= 1 && Heat < 1200" post="Wood -= 1, Heat += 400" cost=1
func (b *Blower) Stoke() { b.Wood--; b.Heat = min(1200, b.Heat+400) }

// Blow a vase: hot glass, three scoops of sand, a sound pipe.
//
//plan:action pre="At == Workshop && Heat >= 900 && Sand >= 3 && !Cracked && Vases < 8" post="Sand -= 3, Vases += 1, Heat -= 100, Thirst += 1" cost=2
func (b *Blower) Blow() { b.Sand -= 3; b.Vases++; b.Heat -= 100; b.Thirst++ }

// Mend a cracked pipe with a log's worth of charcoal.
//
//plan:action pre="Cracked && Wood >= 1 && At == Workshop" post="Cracked = false, Wood -= 1" cost=3
func (b *Blower) Mend() { b.Cracked = false; b.Wood-- }

// BuyPipe at the market.
//
//plan:action pre="Cracked && At == Market && Coins >= 8" post="Cracked = false, Coins -= 8" cost=1
func (b *Blower) BuyPipe() { b.Cracked = false; b.Coins -= 8 }

// Sell a vase at the market.
//
//plan:action pre="At == Market && Vases > 0" post="Vases -= 1, Coins += 12" cost=1
func (b *Blower) Sell() { b.Vases--; b.Coins += 12 }

// Drink from the well at the workshop, or buy cider at the market.
//
//plan:action pre="At == Workshop && Thirst > 0" post="Thirst = 0" cost=1
func (b *Blower) Drink() { b.Thirst = 0 }

//plan:action pre="At == Market && Coins >= 2 && Thirst > 0" post="Thirst -= 5, Coins -= 2" cost=1
func (b *Blower) Cider() { b.Thirst = max(0, b.Thirst-5); b.Coins -= 2 }

// Busk on the market with a small glass whistle.
//
//plan:action pre="At == Market" post="Coins += 1, Thirst += 1" cost=2
func (b *Blower) Busk() { b.Coins++; b.Thirst++ }
