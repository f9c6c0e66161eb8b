// Package goapdeep is the "deep" planning benchmark of kelindar/goap
// (its BenchmarkPlan/deep) as a rolegen role: three actions over three
// numbers, hunger 80 with no food and no fatigue, and the goal Food > 80,
// which takes twelve steps (nine forages and three sleeps).
//
// kelindar/goap stores every value as an integer clamped to 0..100, so
// its effects saturate: hunger 30 minus 50 is 0, hunger 98 plus 5 is 100.
// The role says so with a range on each field (plan:"state; min=0;
// max=100"), and its generated effects clamp as kelindar/goap's do.
package goapdeep

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Forager eats, forages and sleeps.
type Forager struct {
	Hunger int `plan:"state; min=0; max=100"`
	Food   int `plan:"state; min=0; max=100"`
	Tired  int `plan:"state; min=0; max=100"`

	// Stocked means more than 80 food put by.
	Stocked struct{} `plan:"goal=Food > 80; priority=high"`
}

// Eat eats five food, sating fifty hunger (down to 0).
//
//plan:action pre="Food > 0" post="Hunger -= 50, Food -= 5"
func (f *Forager) Eat() {
	f.Hunger = max(f.Hunger-50, 0)
	f.Food = max(f.Food-5, 0)
}

// Forage finds ten food, for twenty fatigue and five hunger (up to 100).
//
//plan:action pre="Tired < 50" post="Tired += 20, Food += 10, Hunger += 5"
func (f *Forager) Forage() {
	f.Tired = min(f.Tired+20, 100)
	f.Food = min(f.Food+10, 100)
	f.Hunger = min(f.Hunger+5, 100)
}

// Sleep rests off fifty fatigue (down to 0).
//
//plan:action pre="Tired > 30" post="Tired -= 50"
func (f *Forager) Sleep() { f.Tired = max(f.Tired-50, 0) }

// Start is the benchmark's start state: hunger 80, no food, not tired.
var Start = ForagerState{Hunger: 80}
