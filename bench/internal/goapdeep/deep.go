// Package goapdeep is the "deep" planning benchmark of kelindar/goap
// (its BenchmarkPlan/deep) as a rolegen role: three actions over three
// numbers, hunger 80 with no food and no fatigue, and the goal Food > 80,
// which takes twelve steps (nine forages and three sleeps).
//
// kelindar/goap stores every value as an integer clamped to 0..100, so
// its effects saturate: hunger 30 minus 50 is 0, hunger 98 plus 5 is 100.
// The condition language has no min or max, so the effects that can
// saturate write the clamp in integer arithmetic, exact over 0..100:
//
//	max(x-50, 0)  = (x - 50) * ((x + 50) / 100)      for 0 <= x < 150
//	min(x+5, 100) = x + 5 - (x + 5) / 101 * (x - 95)  for 0 <= x < 197
//
// The other effects never reach a bound in a state the search expands
// (TestGoapDeepMatchesClampedSemantics in the bench module checks every
// one against the clamped arithmetic), so they are written plainly:
// Food += 10 only from Food <= 80 (a state with more is a goal state,
// never expanded), Food -= 5 only from Food > 0 and Food is a multiple of
// 5, Tired += 20 only from Tired < 50.
package goapdeep

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Forager eats, forages and sleeps.
type Forager struct {
	Hunger int `plan:"state"`
	Food   int `plan:"state"`
	Tired  int `plan:"state"`

	// Stocked means more than 80 food put by.
	Stocked struct{} `plan:"goal=Food > 80; priority=high"`
}

// Eat eats five food, sating fifty hunger (down to 0).
//
//plan:action pre="Food > 0" post="Hunger = (Hunger - 50) * ((Hunger + 50) / 100), Food -= 5"
func (f *Forager) Eat() {
	f.Hunger = max(f.Hunger-50, 0)
	f.Food -= 5
}

// Forage finds ten food, for twenty fatigue and five hunger (up to 100).
//
//plan:action pre="Tired < 50" post="Tired += 20, Food += 10, Hunger = Hunger + 5 - (Hunger + 5) / 101 * (Hunger - 95)"
func (f *Forager) Forage() {
	f.Tired += 20
	f.Food += 10
	f.Hunger = min(f.Hunger+5, 100)
}

// Sleep rests off fifty fatigue (down to 0).
//
//plan:action pre="Tired > 30" post="Tired = (Tired - 50) * ((Tired + 50) / 100)"
func (f *Forager) Sleep() { f.Tired = max(f.Tired-50, 0) }

// Start is the benchmark's start state: hunger 80, no food, not tired.
var Start = ForagerState{Hunger: 80}
