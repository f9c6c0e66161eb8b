// Package farmhand runs a farmhand built from smaller roles (a Walker
// role and a Purse state group, embedded): written from the README by a
// new user.
package farmhand

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Purse is money carried.
type Purse struct {
	Coins int `plan:"state; min=0"`
}

// Walker walks between the farm's places and tires doing so.
type Walker struct {
	At      string `plan:"state"` // barn, field, town, well
	Stamina int    `plan:"state; min=0; max=12"`

	// Fit: able to work.
	Fit struct{} `plan:"goal=Stamina >= 4; priority=high"`
}

// ToBarn walks to the barn.
//
//plan:action pre="At != 'barn'" post="At = 'barn', Stamina -= 1" cost=2
func (w *Walker) ToBarn() { w.At = "barn"; w.Stamina-- }

// ToField walks to the field.
//
//plan:action pre="At != 'field' && Stamina >= 1" post="At = 'field', Stamina -= 1" cost=2
func (w *Walker) ToField() { w.At = "field"; w.Stamina-- }

// ToTown walks to town.
//
//plan:action pre="At != 'town' && Stamina >= 2" post="At = 'town', Stamina -= 2" cost=4
func (w *Walker) ToTown() { w.At = "town"; w.Stamina -= 2 }

// ToWell walks to the well.
//
//plan:action pre="At != 'well' && Stamina >= 1" post="At = 'well', Stamina -= 1" cost=1
func (w *Walker) ToWell() { w.At = "well"; w.Stamina-- }

// Nap naps in the barn.
//
//plan:action pre="At == 'barn'" post="Stamina += 4" cost=4
func (w *Walker) Nap() { w.Stamina += 4 }

// Farmhand grows wheat, waters it, mills nothing and sells what grows.
type Farmhand struct {
	Walker
	Purse
	Seeds int  `plan:"state; min=0"`
	Sown  int  `plan:"state; min=0; max=8"`
	Wheat int  `plan:"state; min=0"`
	Water int  `plan:"state; min=0; max=4"`
	Fed   bool `plan:"state"`
	Bread int  `plan:"state; min=0"`

	// Rich: savings.
	Rich struct{} `plan:"goal=Coins >= 20"`
	// Harvested: wheat in the barn.
	Harvested struct{} `plan:"goal=Wheat >= 6"`
	// Eaten: a meal today.
	Eaten struct{} `plan:"goal=Fed; priority=critical"`
}

// BuySeeds buys seeds in town.
//
//plan:action pre="At == 'town' && Coins >= 2" post="Seeds += 3, Coins -= 2"
func (f *Farmhand) BuySeeds() { f.Seeds += 3; f.Coins -= 2 }

// Sow sows a seed in the field.
//
//plan:action pre="At == 'field' && Seeds >= 1 && Sown < 8" post="Seeds -= 1, Sown += 1"
func (f *Farmhand) Sow() { f.Seeds--; f.Sown++ }

// DrawWater draws water at the well.
//
//plan:action pre="At == 'well'" post="Water = 4" cost=1
func (f *Farmhand) DrawWater() { f.Water = 4 }

// Harvest waters and reaps a sown patch: two sheaves.
//
//plan:action pre="At == 'field' && Sown >= 1 && Water >= 1 && Stamina >= 1" post="Sown -= 1, Water -= 1, Wheat += 2, Stamina -= 1" cost=2
func (f *Farmhand) Harvest() { f.Sown--; f.Water--; f.Wheat += 2; f.Stamina-- }

// SellWheat sells a sheaf in town.
//
//plan:action pre="At == 'town' && Wheat >= 1" post="Wheat -= 1, Coins += 3"
func (f *Farmhand) SellWheat() { f.Wheat--; f.Coins += 3 }

// BakeBread bakes a loaf from two sheaves in the barn.
//
//plan:action pre="At == 'barn' && Wheat >= 2" post="Wheat -= 2, Bread += 1" cost=2
func (f *Farmhand) BakeBread() { f.Wheat -= 2; f.Bread++ }

// BuyBread buys a loaf in town.
//
//plan:action pre="At == 'town' && Coins >= 4" post="Bread += 1, Coins -= 4"
func (f *Farmhand) BuyBread() { f.Bread++; f.Coins -= 4 }

// Eat eats a loaf.
//
//plan:action pre="Bread >= 1 && !Fed" post="Bread -= 1, Fed = true, Stamina += 6" fulfills=Eaten
func (f *Farmhand) Eat() { f.Bread--; f.Fed = true; f.Stamina += 6 }

// DoChores does chores for the neighbour in town.
//
//plan:action pre="At == 'town' && Stamina >= 3" post="Coins += 2, Stamina -= 3" cost=3
func (f *Farmhand) DoChores() { f.Coins += 2; f.Stamina -= 3 }
