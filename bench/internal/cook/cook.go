// Package cook runs an inn's kitchen: pies baked from flour and eggs,
// soup stewed from the garden's vegetables, on a stove lit with wood from
// the cellar; written from the README by a new user after the beekeeper.
// Her evening's goal counts pies and soup together (Pies + Soup >= 4),
// a comparison of a sum: the planners knew it only as a conjunct of no
// form until it was measured here.
package cook

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Cook makes pies and soup.
type Cook struct {
	At    string `plan:"state"` // kitchen, garden, market or cellar
	Flour int    `plan:"state; min=0; max=6"`
	Eggs  int    `plan:"state; min=0; max=6"`
	Veg   int    `plan:"state; min=0; max=8"`
	Coins int    `plan:"state; min=0; max=50"`
	Pies  int    `plan:"state; min=0"`
	Soup  int    `plan:"state; min=0"`
	Fire  bool   `plan:"state"`
	Wood  int    `plan:"state; min=0; max=4"`

	// Served: enough dishes for the evening.
	Served struct{} `plan:"goal=Pies + Soup >= 4"`
	// Saved: money for the rent.
	Saved struct{} `plan:"goal=Coins >= 30; priority=low"`
	// Stocked: the pantry full for tomorrow.
	Stocked struct{} `plan:"goal=Flour >= 4 && Eggs >= 4"`
}

// ToKitchen walks to the kitchen.
//
//plan:action pre="At != 'kitchen'" post="At = 'kitchen'" cost=2
func (c *Cook) ToKitchen() { c.At = "kitchen" }

// ToGarden walks to the garden.
//
//plan:action pre="At != 'garden'" post="At = 'garden'" cost=2
func (c *Cook) ToGarden() { c.At = "garden" }

// ToMarket walks to the market.
//
//plan:action pre="At != 'market'" post="At = 'market'" cost=4
func (c *Cook) ToMarket() { c.At = "market" }

// ToCellar goes down to the cellar.
//
//plan:action pre="At != 'cellar'" post="At = 'cellar'" cost=1
func (c *Cook) ToCellar() { c.At = "cellar" }

// Pick picks vegetables.
//
//plan:action pre="At == 'garden' && Veg < 8" post="Veg += 2" cost=2
func (c *Cook) Pick() { c.Veg += 2 }

// Collect collects eggs from the hens.
//
//plan:action pre="At == 'garden' && Eggs < 6" post="Eggs += 1" cost=2
func (c *Cook) Collect() { c.Eggs++ }

// BuyFlour buys a sack of flour.
//
//plan:action pre="At == 'market' && Coins >= 3 && Flour < 6" post="Flour += 2, Coins -= 3"
func (c *Cook) BuyFlour() { c.Flour += 2; c.Coins -= 3 }

// BuyEggs buys eggs.
//
//plan:action pre="At == 'market' && Coins >= 2 && Eggs < 6" post="Eggs += 2, Coins -= 2"
func (c *Cook) BuyEggs() { c.Eggs += 2; c.Coins -= 2 }

// Chop fetches wood from the cellar.
//
//plan:action pre="At == 'cellar' && Wood < 4" post="Wood += 2" cost=2
func (c *Cook) Chop() { c.Wood += 2 }

// Light lights the stove.
//
//plan:action pre="At == 'kitchen' && !Fire && Wood >= 1" post="Fire = true, Wood -= 1"
func (c *Cook) Light() { c.Fire = true; c.Wood-- }

// Bake bakes a pie.
//
//plan:action pre="At == 'kitchen' && Fire && Flour >= 2 && Eggs >= 1" post="Pies += 1, Flour -= 2, Eggs -= 1" cost=3
func (c *Cook) Bake() { c.Pies++; c.Flour -= 2; c.Eggs-- }

// Stew makes soup.
//
//plan:action pre="At == 'kitchen' && Fire && Veg >= 3" post="Soup += 1, Veg -= 3" cost=2
func (c *Cook) Stew() { c.Soup++; c.Veg -= 3 }

// SellVeg sells vegetables.
//
//plan:action pre="At == 'market' && Veg >= 2" post="Veg -= 2, Coins += 3"
func (c *Cook) SellVeg() { c.Veg -= 2; c.Coins += 3 }

// SellPie sells a pie.
//
//plan:action pre="At == 'market' && Pies >= 1" post="Pies -= 1, Coins += 9"
func (c *Cook) SellPie() { c.Pies--; c.Coins += 9 }

// Douse puts the fire out to save wood.
//
//plan:action pre="Fire" post="Fire = false"
func (c *Cook) Douse() { c.Fire = false }
