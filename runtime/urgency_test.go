package runtime_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
)

type forager struct {
	Food, Energy int
	Home         bool
}

const (
	foragerForage runtime.ActionID = iota
	foragerFeast
	foragerWalk
	foragerGoHome
	foragerSleep
	foragerStarve
)

const (
	foragerFed runtime.GoalID = iota
	foragerRested
	foragerAtHome
)

// foragerDomain is written by hand as rolegen generates it, with the conjuncts and
// changes that tell which way each action moves each field:
//
//	Fed     Food >= 10    critical
//	Rested  Energy > 50   high
//	AtHome  Home          low
//
//	Forage  Food += 4, Energy -= 5             cost 2
//	Feast   pre Home; Food = 20                cost 3
//	Walk    Energy -= 5, Home = false          cost 1
//	GoHome  pre !Home; Home = true             cost 1
//	Sleep   pre Home; Energy = 100; fulfills Rested   cost 4
//	Starve  Food -= 1                          cost 1
func foragerDomain() *runtime.Domain[forager] {
	home := []runtime.Part{{Reads: []runtime.FieldID{2}, Cmp: runtime.CmpEq, Field: 2, Num: 1}}
	away := []runtime.Part{{Reads: []runtime.FieldID{2}, Cmp: runtime.CmpEq, Field: 2, Num: 0}}
	atHome := func(s forager) bool { return s.Home }
	return runtime.NewDomain(runtime.Domain[forager]{
		Name: "Farmer",
		Fields: []runtime.Field{
			{Name: "Food", Type: "int", Kind: runtime.KindInt},
			{Name: "Energy", Type: "int", Kind: runtime.KindInt},
			{Name: "Home", Type: "bool", Kind: runtime.KindBool},
		},
		Number: func(s *forager, f runtime.FieldID) float64 {
			switch f {
			case 0:
				return float64(s.Food)
			case 1:
				return float64(s.Energy)
			}
			if s.Home {
				return 1
			}
			return 0
		},
		Actions: []runtime.Action[forager]{
			{
				Name: "Forage", Cost: 2, Value: 1, Weight: 1,
				Effect: func(s forager) forager { s.Food += 4; s.Energy -= 5; return s },
				Reads:  []runtime.FieldID{0, 1}, Writes: []runtime.FieldID{0, 1},
				Changes: []runtime.Change{{Field: 0, Op: runtime.ChangeAdd, Num: 4}, {Field: 1, Op: runtime.ChangeAdd, Num: -5}},
			},
			{
				Name: "Feast", Cost: 3, Value: 1, Weight: 1,
				Pre: atHome, PreReads: []runtime.FieldID{2}, PreParts: home,
				Effect: func(s forager) forager { s.Food = 20; return s },
				Reads:  []runtime.FieldID{2}, Writes: []runtime.FieldID{0},
				Changes: []runtime.Change{{Field: 0, Op: runtime.ChangeSet, Num: 20}},
			},
			{
				Name: "Walk", Cost: 1, Value: 1, Weight: 1,
				Effect: func(s forager) forager { s.Energy -= 5; s.Home = false; return s },
				Reads:  []runtime.FieldID{1}, Writes: []runtime.FieldID{1, 2},
				Changes: []runtime.Change{{Field: 1, Op: runtime.ChangeAdd, Num: -5}, {Field: 2, Op: runtime.ChangeSet, Num: 0}},
			},
			{
				Name: "GoHome", Cost: 1, Value: 1, Weight: 1,
				Pre: func(s forager) bool { return !s.Home }, PreReads: []runtime.FieldID{2}, PreParts: away,
				Effect: func(s forager) forager { s.Home = true; return s },
				Reads:  []runtime.FieldID{2}, Writes: []runtime.FieldID{2},
				Changes: []runtime.Change{{Field: 2, Op: runtime.ChangeSet, Num: 1}},
			},
			{
				Name: "Sleep", Cost: 4, Value: 1, Weight: 1,
				Pre: atHome, PreReads: []runtime.FieldID{2}, PreParts: home,
				Effect: func(s forager) forager { s.Energy = 100; return s },
				Reads:  []runtime.FieldID{2}, Writes: []runtime.FieldID{1},
				Changes:  []runtime.Change{{Field: 1, Op: runtime.ChangeSet, Num: 100}},
				Fulfills: []runtime.GoalID{foragerRested},
			},
			{
				Name: "Starve", Cost: 1, Value: 1, Weight: 1,
				Effect: func(s forager) forager { s.Food--; return s },
				Reads:  []runtime.FieldID{0}, Writes: []runtime.FieldID{0},
				Changes: []runtime.Change{{Field: 0, Op: runtime.ChangeAdd, Num: -1}},
			},
		},
		Goals: []runtime.Goal[forager]{
			{
				Name: "Fed", Priority: runtime.Critical, CondText: "Food >= 10",
				Cond:  func(s forager) bool { return s.Food >= 10 },
				Reads: []runtime.FieldID{0},
				Parts: []runtime.Part{{Reads: []runtime.FieldID{0}, Cmp: runtime.CmpGe, Field: 0, Num: 10}},
			},
			{
				Name: "Rested", Priority: runtime.High, CondText: "Energy > 50",
				Cond:  func(s forager) bool { return s.Energy > 50 },
				Reads: []runtime.FieldID{1},
				Parts: []runtime.Part{{Reads: []runtime.FieldID{1}, Cmp: runtime.CmpGt, Field: 1, Num: 50}},
			},
			{
				Name: "AtHome", Priority: runtime.Low, CondText: "Home",
				Cond: atHome, Reads: []runtime.FieldID{2}, Parts: home,
			},
		},
	})
}

func TestGoalUrgency(t *testing.T) {
	d := foragerDomain()
	c := runtime.GoalUrgency(d, 1)
	u := runtime.NewUtility(d, c)
	urgency := func(s forager, a runtime.ActionID) float64 {
		v := u.Score(s, a)
		assert.Equal(t, v, c.Score(s, &d.Actions[a]), "%s: the selector and Score alone agree", d.Actions[a].Name)
		return v
	}

	// Levels with critical, high and low goals: (p − 0 + 1) / 4.
	const fed, rested, atHome = 1.0, 0.75, 0.25

	// Hungry (food 2 of 10) and tired (20 of 50), away from home.
	s := forager{Food: 2, Energy: 20}
	// Forage moves Food from a gap of 10−2+1 = 9 to 5: ½ + ½·4/9 of Fed.
	assert.InDelta(t, fed*(0.5+0.5*4.0/9), urgency(s, foragerForage), 1e-12)
	// Feast makes Fed hold (its precondition fails: Score rates it still).
	assert.InDelta(t, fed, urgency(s, foragerFeast), 1e-12)
	// Sleep fulfills Rested.
	assert.InDelta(t, rested, urgency(s, foragerSleep), 1e-12)
	// GoHome makes AtHome hold (¼), and makes Feast possible, which
	// would make Fed hold: half of 1.
	assert.InDelta(t, 0.5*fed, urgency(s, foragerGoHome), 1e-12)
	// Walk lowers energy and leaves home; Starve lowers food: they serve
	// nothing, whatever fields they write.
	assert.Zero(t, urgency(s, foragerWalk))
	assert.Zero(t, urgency(s, foragerStarve))

	// Fed: GoHome now serves AtHome itself, and Sleep through Rested.
	s = forager{Food: 12, Energy: 20}
	assert.InDelta(t, max(atHome, 0.5*rested), urgency(s, foragerGoHome), 1e-12)
	assert.Zero(t, urgency(s, foragerForage), "Forage serves only Fed, which holds")

	// Every goal holds: nothing is urgent.
	s = forager{Food: 12, Energy: 60, Home: true}
	for a := range d.Actions {
		assert.Zero(t, urgency(s, runtime.ActionID(a)), d.Actions[a].Name)
	}

	// ForGoal keeps the actions that move a failing part the right way.
	s = forager{Food: 2, Energy: 20}
	got := u.ForGoal(foragerFed, s)
	require.Len(t, got, 1, "Feast does not apply; Starve moves Food away")
	assert.Equal(t, foragerForage, got[0].Action)
	assert.Empty(t, u.ForGoal(foragerRested, s), "Sleep does not apply; Forage and Walk lower Energy")
	home := forager{Food: 2, Energy: 20, Home: true}
	assert.Equal(t, []runtime.ActionID{foragerSleep}, actions(u.ForGoal(foragerRested, home)))
	assert.Equal(t, []runtime.ActionID{foragerFeast, foragerForage}, actions(u.ForGoal(foragerFed, home)))
}

func actions(ss []runtime.Scored) []runtime.ActionID {
	out := make([]runtime.ActionID, len(ss))
	for i, s := range ss {
		out[i] = s.Action
	}
	return out
}

// With the defaults the farmer eats before anything else, goes home to
// sleep when tired and fed, and does not walk for nothing.
func TestUtilityDefaultsServeGoals(t *testing.T) {
	d := foragerDomain()
	u := runtime.NewUtility(d)
	for _, c := range []struct {
		s    forager
		want runtime.ActionID
	}{
		{forager{Food: 2, Energy: 20, Home: true}, foragerFeast},  // hungry and tired at home
		{forager{Food: 12, Energy: 20, Home: true}, foragerSleep}, // tired at home
		{forager{Food: 12, Energy: 20}, foragerGoHome},            // tired away: home, to sleep
		{forager{Food: 2, Energy: 60}, foragerForage},             // hungry away
	} {
		best, ok := u.Best(c.s)
		require.True(t, ok)
		assert.Equal(t, d.ActionName(c.want), d.ActionName(best), "%+v", c.s)
	}
}

// GoalUrgency of another domain, or inside Combine, is scored action by
// action, by name: the same figures, only slower.
func TestGoalUrgencyElsewhere(t *testing.T) {
	d, other := foragerDomain(), foragerDomain()
	s := forager{Food: 2, Energy: 20}
	own := runtime.NewUtility(d, runtime.GoalUrgency(d, 1))
	foreign := runtime.NewUtility(d, runtime.GoalUrgency(other, 1))
	combined := runtime.NewUtility(d, runtime.Combine(1, runtime.GoalUrgency(d, 1)))
	for a := range d.Actions {
		id := runtime.ActionID(a)
		assert.Equal(t, own.Score(s, id), foreign.Score(s, id), d.Actions[a].Name)
		assert.Equal(t, own.Score(s, id), combined.Score(s, id), d.Actions[a].Name)
	}
	stranger := runtime.Action[forager]{Name: "Dance", Cost: 1}
	assert.Zero(t, runtime.GoalUrgency(d, 1).Score(s, &stranger), "an action the domain does not have")

	// A domain without actions (Enabled is then never called).
	none := runtime.NewDomain(runtime.Domain[forager]{
		Goals:   []runtime.Goal[forager]{{Name: "Fed", Cond: func(s forager) bool { return s.Food > 0 }}},
		Enabled: func(*forager, []uint64) { panic("Enabled with no actions") },
	})
	_, ok := runtime.NewUtility(none).Best(s)
	assert.False(t, ok)
	assert.Empty(t, runtime.NewUtility(none).Ranked(s))

	// A domain without goals: nothing is urgent.
	bare := runtime.NewDomain(runtime.Domain[forager]{Actions: []runtime.Action[forager]{{Name: "Wait", Cost: 1, Weight: 1}}})
	assert.Zero(t, runtime.NewUtility(bare, runtime.GoalUrgency(bare, 1)).Score(s, 0))
}

func TestRelativeCostAndValue(t *testing.T) {
	d := guard() // costs 2 to 30, values 10 to 80
	s := guardState{Health: 50}
	cost, value := runtime.RelativeCost(d, 1), runtime.RelativeValue(d, 1)
	score := func(c runtime.Consideration[guardState], a runtime.ActionID) float64 {
		return c.Score(s, &d.Actions[a])
	}
	assert.Equal(t, 1.0, score(cost, actRest), "the cheapest")
	assert.InDelta(t, 0.1, score(cost, actFlee), 1e-12, "the dearest")
	assert.InDelta(t, 1-0.9*8.0/28, score(cost, actAttack), 1e-12)
	assert.Equal(t, 1.0, score(value, actHeal), "the most valuable")
	assert.InDelta(t, 0.1, score(value, actPatrol), 1e-12, "the least")
	assert.InDelta(t, 0.1+0.9*50.0/70, score(value, actAttack), 1e-12)

	// One cost, one value: every action scores 1.
	same := runtime.NewDomain(runtime.Domain[guardState]{Actions: []runtime.Action[guardState]{
		{Name: "A", Cost: 2, Value: 5, Weight: 1}, {Name: "B", Cost: 2, Value: 5, Weight: 1},
	}})
	for a := range same.Actions {
		assert.Equal(t, 1.0, runtime.RelativeCost(same, 1).Score(s, &same.Actions[a]))
		assert.Equal(t, 1.0, runtime.RelativeValue(same, 1).Score(s, &same.Actions[a]))
	}
}

// Judged from the changes the domain describes, or by running the effects
// when it describes none, every step scores the same.
func TestGoalUrgencyChangesAgreeWithEffects(t *testing.T) {
	described := foragerDomain()
	bare := *foragerDomain()
	bare.Actions = append([]runtime.Action[forager](nil), bare.Actions...)
	for i := range bare.Actions {
		bare.Actions[i].Changes = nil
	}
	undescribed := runtime.NewDomain(bare)
	a := runtime.NewUtility(described, runtime.GoalUrgency(described, 1))
	b := runtime.NewUtility(undescribed, runtime.GoalUrgency(undescribed, 1))
	n := 0
	for food := -2; food <= 14; food++ {
		for energy := 0; energy <= 110; energy += 5 {
			for _, home := range []bool{false, true} {
				s := forager{Food: food, Energy: energy, Home: home}
				for id := range described.Actions {
					want := a.Score(s, runtime.ActionID(id))
					require.Equal(t, want, b.Score(s, runtime.ActionID(id)), "%s in %+v", described.Actions[id].Name, s)
					if want > 0 {
						n++
					}
				}
			}
		}
	}
	assert.Greater(t, n, 500)
}

// When costs depend on the state, RelativeCost scales them by the
// actions' costs in the state at hand.
func TestRelativeCostThatDependsOnTheState(t *testing.T) {
	d := travel(func(s travelState) float64 { return 2 + float64(s.Distance)/10 })
	u := runtime.NewUtility(d)
	cost := runtime.RelativeCost(d, 1)
	only := runtime.NewUtility(d, cost)
	for _, c := range []struct {
		distance   int
		best       string
		walk, cart float64
	}{
		{100, "Cart", 0.1, 1}, // Walk costs 12, Cart 5
		{10, "Walk", 1, 0.1},  // Walk costs 3
		{30, "Walk", 1, 1},    // both cost 5
	} {
		s := travelState{Distance: c.distance}
		best, ok := u.Best(s)
		require.True(t, ok)
		assert.Equal(t, c.best, d.ActionName(best), "distance %d", c.distance)
		assert.InDelta(t, c.walk, only.Score(s, 0), 1e-12, "Walk at %d", c.distance)
		assert.InDelta(t, c.cart, only.Score(s, 1), 1e-12, "Cart at %d", c.distance)
		for a := range d.Actions {
			assert.Equal(t, only.Score(s, runtime.ActionID(a)), cost.Score(s, &d.Actions[a]), "the selector and Score alone agree")
		}
		ranked := only.Ranked(s)
		require.Len(t, ranked, 2)
		assert.Equal(t, only.Score(s, ranked[0].Action), ranked[0].Score)
	}
	s := travelState{Distance: 50}
	if !raceEnabled { // the race detector makes sync.Pool drop items, which Best's urgency draws from
		assert.Zero(t, allocsPerCall(100, func() { u.Best(s) }), "Best")
	}

	// A cost that is not positive: the action cannot be priced there.
	bad := travel(func(s travelState) float64 { return 2 - float64(s.Distance)/10 })
	s = travelState{Distance: 30}
	assert.Zero(t, runtime.NewUtility(bad, runtime.RelativeCost(bad, 1)).Score(s, 0))
	assert.Equal(t, 1.0, runtime.NewUtility(bad, runtime.RelativeCost(bad, 1)).Score(s, 1))
}
