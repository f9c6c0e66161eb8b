// Package survival is a three-action role whose plan is long: from
// starvation, with no food and no energy, being fed takes twelve steps
// (rest, forage and eat, four times).
package survival

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Survivor keeps itself fed.
type Survivor struct {
	Hunger int `plan:"state"`
	Food   int `plan:"state"`
	Energy int `plan:"state"`

	// Fed means not hungry at all.
	Fed struct{} `plan:"goal=Hunger <= 0; priority=high"`
}

// Eat eats one ration.
//
//plan:action pre="Food > 0" post="Food--, Hunger -= 20" fulfills=Fed
func (s *Survivor) Eat() { s.Food--; s.Hunger -= 20 }

// Forage finds one ration, spending energy.
//
//plan:action pre="Energy > 0" post="Food++, Energy--"
func (s *Survivor) Forage() { s.Food++; s.Energy-- }

// Rest recovers energy.
//
//plan:action post="Energy++"
func (s *Survivor) Rest() { s.Energy++ }

// Starving is the state the benchmarks plan from: very hungry, with
// nothing to eat and no energy.
var Starving = SurvivorState{Hunger: 80}
