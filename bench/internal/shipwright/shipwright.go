// Package shipwright is a shipwright, written from the README by a new
// user for none of the planners' features: she fells trees, has them
// sawn into planks at the mill, buys nails and pitch at the harbour,
// builds a hull in three courses at her yard and caulks it into a boat;
// she earns at the tavern, eats there or forages, and sleeps at the
// yard.
package shipwright

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Place is where she is.
type Place int

const (
	Yard Place = iota
	Forest
	Mill
	Harbor
	Tavern
)

// Wright builds boats.
type Wright struct {
	At     Place `plan:"state"`
	Energy int   `plan:"state; min=0; max=12"`
	Hunger int   `plan:"state; min=0"`
	Edge   int   `plan:"state; min=0; max=3"`
	Logs   int   `plan:"state; min=0"`
	Planks int   `plan:"state; min=0"`
	Nails  int   `plan:"state; min=0"`
	Pitch  int   `plan:"state; min=0"`
	Hull   int   `plan:"state; min=0; max=3"`
	Boats  int   `plan:"state; min=0"`
	Coins  int   `plan:"state; min=0"`

	// Fed: not too hungry to work.
	Fed struct{} `plan:"goal=Hunger < 4; priority=high"`
	// Launched: a boat in the water.
	Launched struct{} `plan:"goal=Boats >= 1"`
	// Rich: savings.
	Rich struct{} `plan:"goal=Coins >= 40; priority=low"`
}

// Walking tires her and makes her hungry.
//
//plan:action pre="At != Yard && Energy >= 1" post="At = Yard, Energy -= 1, Hunger += 1" cost=2
func (w *Wright) ToYard() { w.At = Yard; w.Energy--; w.Hunger++ }

//plan:action pre="At != Forest && Energy >= 1" post="At = Forest, Energy -= 1, Hunger += 1" cost=3
func (w *Wright) ToForest() { w.At = Forest; w.Energy--; w.Hunger++ }

//plan:action pre="At != Mill && Energy >= 1" post="At = Mill, Energy -= 1, Hunger += 1" cost=2
func (w *Wright) ToMill() { w.At = Mill; w.Energy--; w.Hunger++ }

//plan:action pre="At != Harbor && Energy >= 1" post="At = Harbor, Energy -= 1, Hunger += 1" cost=2
func (w *Wright) ToHarbor() { w.At = Harbor; w.Energy--; w.Hunger++ }

//plan:action pre="At != Tavern && Energy >= 1" post="At = Tavern, Energy -= 1, Hunger += 1" cost=2
func (w *Wright) ToTavern() { w.At = Tavern; w.Energy--; w.Hunger++ }

// Fell a tree: two logs, and the axe's edge wears.
//
//plan:action pre="At == Forest && Edge >= 1 && Energy >= 2" post="Logs += 2, Edge -= 1, Energy -= 2, Hunger += 1" cost=3
func (w *Wright) Fell() { w.Logs += 2; w.Edge--; w.Energy -= 2; w.Hunger++ }

// Sharpen the axe on the yard's whetstone.
//
//plan:action pre="At == Yard && Edge < 3" post="Edge = 3" cost=2
func (w *Wright) Sharpen() { w.Edge = 3 }

// Saw a log into three planks; the miller takes a coin.
//
//plan:action pre="At == Mill && Logs >= 1 && Coins >= 1" post="Logs -= 1, Planks += 3, Coins -= 1" cost=2
func (w *Wright) Saw() { w.Logs--; w.Planks += 3; w.Coins-- }

// Buy planks, nails or pitch at the harbour.
//
//plan:action pre="At == Harbor && Coins >= 5" post="Planks += 2, Coins -= 5" cost=1
func (w *Wright) BuyPlanks() { w.Planks += 2; w.Coins -= 5 }

//plan:action pre="At == Harbor && Coins >= 2" post="Nails += 5, Coins -= 2" cost=1
func (w *Wright) BuyNails() { w.Nails += 5; w.Coins -= 2 }

//plan:action pre="At == Harbor && Coins >= 3" post="Pitch += 1, Coins -= 3" cost=1
func (w *Wright) BuyPitch() { w.Pitch++; w.Coins -= 3 }

// Tap pitch from the pines: slow, but free.
//
//plan:action pre="At == Forest && Energy >= 1" post="Pitch += 1, Energy -= 1" cost=4
func (w *Wright) TapPitch() { w.Pitch++; w.Energy-- }

// Build a course of the hull: four planks, five nails.
//
//plan:action pre="At == Yard && Hull < 3 && Planks >= 4 && Nails >= 5 && Energy >= 2" post="Planks -= 4, Nails -= 5, Hull += 1, Energy -= 2, Hunger += 1" cost=3
func (w *Wright) Build() { w.Planks -= 4; w.Nails -= 5; w.Hull++; w.Energy -= 2; w.Hunger++ }

// Caulk a finished hull with two pitch: a boat.
//
//plan:action pre="At == Yard && Hull >= 3 && Pitch >= 2" post="Hull = 0, Pitch -= 2, Boats += 1" fulfills=Launched cost=4
func (w *Wright) Caulk() { w.Hull = 0; w.Pitch -= 2; w.Boats++ }

// Sell a boat at the harbour.
//
//plan:action pre="At == Harbor && Boats >= 1" post="Boats -= 1, Coins += 50" cost=1
func (w *Wright) SellBoat() { w.Boats--; w.Coins += 50 }

// Odd jobs at the tavern.
//
//plan:action pre="At == Tavern && Energy >= 1" post="Coins += 3, Energy -= 1, Hunger += 1" cost=3
func (w *Wright) OddJob() { w.Coins += 3; w.Energy--; w.Hunger++ }

// Eat a meal at the tavern.
//
//plan:action pre="At == Tavern && Coins >= 2" post="Hunger = 0, Coins -= 2" fulfills=Fed cost=1
func (w *Wright) Eat() { w.Hunger = 0; w.Coins -= 2 }

// Forage berries in the forest.
//
//plan:action pre="At == Forest && Hunger >= 2" post="Hunger -= 2" cost=2
func (w *Wright) Forage() { w.Hunger -= 2 }

// Sleep at the yard, or nap anywhere.
//
//plan:action pre="At == Yard" post="Energy = 10, Hunger += 2" cost=6
func (w *Wright) Sleep() { w.Energy = 10; w.Hunger += 2 }

//plan:action pre="Energy < 10" post="Energy += 2, Hunger += 1" cost=3
func (w *Wright) Nap() { w.Energy += 2; w.Hunger++ }
