package survivor

import "math/rand/v2"

// Handwritten are the survivor's conditions written by hand in Go, in the
// order of Conditions: the actions' preconditions, then the goals'
// conditions. They sit in a table of func values, as the generated
// conditions sit in SurvivorDomain, so that both are called the same way
// (an indirect call the compiler cannot inline) and a benchmark compares
// the code of the conditions, not the way they are called.
var Handwritten = []func(SurvivorState) bool{
	func(s SurvivorState) bool { return s.Magazines > 0 && s.Ammo < 10 },
	func(s SurvivorState) bool { return s.Hunger > 30 || s.Health < 20 },
	func(s SurvivorState) bool { return s.Armed && s.Ammo+s.Magazines*30 >= 60 },
	func(s SurvivorState) bool { return s.Stance == Standing && s.Threat > 2 },
	func(s SurvivorState) bool { return s.Zone == "market" || s.Zone == "camp" },
	func(s SurvivorState) bool { return s.Energy*2.5 > 60.0 && !(s.Stance == Prone) },
	func(s SurvivorState) bool { return s.Health-s.Hunger/2 >= 50 },
	func(s SurvivorState) bool { return s.Ammo%10 != 0 && s.Stance != Prone && s.Zone != "base" },
}

// Generated returns the generated conditions, in the order of
// Conditions: the Pre of every action, then the Cond of every goal.
func Generated() []func(SurvivorState) bool {
	var out []func(SurvivorState) bool
	for _, a := range SurvivorDomain.Actions {
		out = append(out, a.Pre)
	}
	for _, g := range SurvivorDomain.Goals {
		out = append(out, g.Cond)
	}
	return out
}

// Conditions returns the text of the survivor's conditions as written in
// its annotations: every action's precondition, then every goal's
// condition.
func Conditions() []string {
	var out []string
	for _, a := range SurvivorDomain.Actions {
		out = append(out, a.PreText)
	}
	for _, g := range SurvivorDomain.Goals {
		out = append(out, g.CondText)
	}
	return out
}

// Constants are the package constants the conditions may name, for the
// interpreters that do not see Go's scope.
var Constants = map[string]any{"Standing": Standing, "Crouched": Crouched, "Prone": Prone}

var zones = []string{"base", "market", "camp", "field"}

// States returns n states drawn from seed, with values on both sides of
// every threshold the conditions test.
func States(n int, seed uint64) []SurvivorState {
	r := rand.New(rand.NewPCG(seed, seed^0x5eed))
	out := make([]SurvivorState, n)
	for i := range out {
		out[i] = SurvivorState{
			Health:    r.IntN(101),
			Hunger:    r.IntN(101),
			Ammo:      r.IntN(70),
			Magazines: r.IntN(4),
			Threat:    r.IntN(6),
			Energy:    float64(r.IntN(100)) / 2,
			Stance:    Stance(r.IntN(3)),
			Zone:      zones[r.IntN(len(zones))],
			Armed:     r.IntN(2) == 1,
		}
	}
	return out
}

// Survivors returns n survivors whose states are States(n, seed), with
// their other fields filled.
func Survivors(n int, seed uint64) []*Survivor {
	out := make([]*Survivor, n)
	for i, s := range States(n, seed) {
		out[i] = &Survivor{
			Name:      "survivor",
			Inventory: []string{"knife", "rope"},
			Health:    s.Health,
			Hunger:    s.Hunger,
			Ammo:      s.Ammo,
			Magazines: s.Magazines,
			Threat:    s.Threat,
			Energy:    s.Energy,
			Stance:    s.Stance,
			Zone:      s.Zone,
			Armed:     s.Armed,
		}
	}
	return out
}
