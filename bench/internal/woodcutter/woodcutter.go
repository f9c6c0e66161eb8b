// Package woodcutter is a role where every move costs a little hunger: a
// field that every walk and every chop advances and no goal needs. A
// planner that takes "a state not seen before" for progress walks back and
// forth here forever; the plan is six steps.
package woodcutter

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Woodcutter keeps a fire burning at home.
type Woodcutter struct {
	Location string  `plan:"state"` // home, forest or town
	HasAxe   bool    `plan:"state"`
	Wood     int     `plan:"state"`
	Gold     int     `plan:"state"`
	FireLit  bool    `plan:"state"`
	Hunger   float64 `plan:"state"`

	// Warm: a fire burns at home, and the woodcutter is there.
	Warm struct{} `plan:"goal=FireLit && Location == 'home'; priority=high"`
	// Fed: not too hungry.
	Fed struct{} `plan:"goal=Hunger < 5"`
}

// Start is the woodcutter at home, with gold and nothing else.
var Start = WoodcutterState{Location: "home", Gold: 10}

// GoForest walks to the forest.
//
//plan:action pre="Location != 'forest'" post="Location = 'forest', Hunger += 0.5"
func (w *Woodcutter) GoForest() { w.Location = "forest"; w.Hunger += 0.5 }

// GoTown walks to town.
//
//plan:action pre="Location != 'town'" post="Location = 'town', Hunger += 0.5"
func (w *Woodcutter) GoTown() { w.Location = "town"; w.Hunger += 0.5 }

// GoHome walks home.
//
//plan:action pre="Location != 'home'" post="Location = 'home', Hunger += 0.5"
func (w *Woodcutter) GoHome() { w.Location = "home"; w.Hunger += 0.5 }

// BuyAxe buys an axe in town.
//
//plan:action pre="Location == 'town' && Gold >= 5 && !HasAxe" post="HasAxe = true, Gold -= 5" cost=2
func (w *Woodcutter) BuyAxe() { w.HasAxe = true; w.Gold -= 5 }

// Chop cuts two logs in the forest.
//
//plan:action pre="Location == 'forest' && HasAxe" post="Wood += 2, Hunger += 1" cost=2
func (w *Woodcutter) Chop() { w.Wood += 2; w.Hunger++ }

// LightFire burns two logs at home.
//
//plan:action pre="Location == 'home' && Wood >= 2" post="FireLit = true, Wood -= 2" fulfills=Warm
func (w *Woodcutter) LightFire() { w.FireLit = true; w.Wood -= 2 }

// Eat spends a coin on a meal, anywhere.
//
//plan:action pre="Gold >= 1" post="Hunger = 0, Gold -= 1"
func (w *Woodcutter) Eat() { w.Hunger = 0; w.Gold-- }
