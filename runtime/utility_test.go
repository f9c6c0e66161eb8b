package runtime_test

import (
	"math"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
	"github.com/rolegen/rolegen/runtime/internal/knight"
)

type guardState struct {
	Health, Ammo int
	Hidden       bool
}

const (
	actAttack runtime.ActionID = iota
	actHeal
	actPatrol
	actFlee
	actWait
	actRest
)

const goalHealthy runtime.GoalID = 0

// guard: cost, value and weight chosen so the default scores differ.
func guard() *runtime.Domain[guardState] {
	return runtime.NewDomain(runtime.Domain[guardState]{
		Name: "Guard",
		Fields: []runtime.Field{
			{Name: "Health", Type: "int", Kind: runtime.KindInt},
			{Name: "Ammo", Type: "int", Kind: runtime.KindInt},
			{Name: "Hidden", Type: "bool", Kind: runtime.KindBool},
		},
		Actions: []runtime.Action[guardState]{
			{
				Name: "Attack", Cost: 10, Value: 60, Weight: 1, Tags: []string{"combat"},
				Pre:      func(s guardState) bool { return s.Ammo > 0 },
				Effect:   func(s guardState) guardState { s.Ammo--; return s },
				PreReads: []runtime.FieldID{1}, Reads: []runtime.FieldID{1}, Writes: []runtime.FieldID{1},
			},
			{
				Name: "Heal", Cost: 20, Value: 80, Weight: 1.5, Tags: []string{"support"},
				Pre:      func(s guardState) bool { return s.Health < 100 },
				Effect:   func(s guardState) guardState { s.Health = 100; return s },
				PreReads: []runtime.FieldID{0}, Reads: []runtime.FieldID{0}, Writes: []runtime.FieldID{0},
				Fulfills: []runtime.GoalID{goalHealthy},
			},
			{Name: "Patrol", Cost: 5, Value: 10, Weight: 1},
			{
				Name: "Flee", Cost: 30, Value: 40, Weight: 0.5, Tags: []string{"combat", "cowardly"},
				Pre:      func(s guardState) bool { return s.Health < 30 },
				Effect:   func(s guardState) guardState { s.Hidden = true; return s },
				PreReads: []runtime.FieldID{0}, Reads: []runtime.FieldID{0}, Writes: []runtime.FieldID{2},
			},
			{Name: "Wait", Cost: 5, Value: 10, Weight: 1}, // same numbers as Patrol
			{
				Name: "Rest", Cost: 2, Value: 30, Weight: 1,
				Effect: func(s guardState) guardState { s.Health += 10; return s },
				Reads:  []runtime.FieldID{0}, Writes: []runtime.FieldID{0},
			},
		},
		Goals: []runtime.Goal[guardState]{{
			Name: "Healthy", Cond: func(s guardState) bool { return s.Health >= 100 }, CondText: "Health >= 100",
			Reads: []runtime.FieldID{0},
		}},
	})
}

// Default scores, (8·urgency + RelativeCost + RelativeValue + pre) / 11 ×
// weight, at Health 50 (Healthy, the only goal, fails: its level is 1).
// Costs range from 2 to 30, values from 10 to 80:
//
//	RelativeCost  = 1 − 0.9·(cost − 2)/28
//	RelativeValue = 0.1 + 0.9·(value − 10)/70
//
// Heal fulfills Healthy (urgency 1); Rest writes Health in a way this
// hand-built domain does not describe, and moves the state without making
// Healthy hold (½); the others touch no field Healthy reads (0).
//
//	Attack: (0     + (1 − 0.9·8/28)  + (0.1 + 0.9·50/70) + 1) / 11
//	Heal:   (8·1   + (1 − 0.9·18/28) + 1                 + 1) / 11 × 1.5
//	Patrol: (0     + (1 − 0.9·3/28)  + 0.1               + 1) / 11
//	Flee:   (0     + 0.1             + (0.1 + 0.9·30/70) + 1) / 11 × 0.5
//	Rest:   (8·0.5 + 1               + (0.1 + 0.9·20/70) + 1) / 11
const (
	scoreAttack = (0 + (1 - 0.9*8/28) + (0.1 + 0.9*50/70) + 1) / 11
	scoreHeal   = (8 + (1 - 0.9*18/28) + 1 + 1) / 11 * 1.5
	scorePatrol = (0 + (1 - 0.9*3/28) + 0.1 + 1) / 11
	scoreFlee   = (0 + 0.1 + (0.1 + 0.9*30/70) + 1) / 11 * 0.5
	scoreRest   = (8*0.5 + 1 + (0.1 + 0.9*20/70) + 1) / 11
)

func TestUtilityDefaults(t *testing.T) {
	d := guard()
	u := runtime.NewUtility(d)
	s := guardState{Health: 50, Ammo: 5} // Flee does not apply

	ranked := u.Ranked(s)
	require.Len(t, ranked, 5)
	want := []runtime.Scored{
		{Action: actHeal, Score: scoreHeal},
		{Action: actRest, Score: scoreRest},
		{Action: actAttack, Score: scoreAttack},
		{Action: actPatrol, Score: scorePatrol},
		{Action: actWait, Score: scorePatrol}, // ties with Patrol, declared after it
	}
	for i, w := range want {
		assert.Equal(t, w.Action, ranked[i].Action, "rank %d", i)
		assert.InDelta(t, w.Score, ranked[i].Score, 1e-12, "rank %d", i)
	}

	best, ok := u.Best(s)
	require.True(t, ok)
	assert.Equal(t, actHeal, best)

	// At full health Healthy holds: no urgency. Without ammo Heal and
	// Attack do not apply; Rest, the cheapest, is best.
	best, ok = u.Best(guardState{Health: 100})
	require.True(t, ok)
	assert.Equal(t, actRest, best)
	assert.InDelta(t, (1+(0.1+0.9*20/70)+1)/11, u.Score(guardState{Health: 100}, actRest), 1e-12)

	// Score ignores preconditions; PreconditionSatisfied then gives 0.
	assert.InDelta(t, (0.1+(0.1+0.9*30/70))/11*0.5, u.Score(guardState{Health: 100}, actFlee), 1e-12)
	assert.InDelta(t, scoreFlee, u.Score(guardState{Health: 10}, actFlee), 1e-12)

	cs := u.Considerations()
	require.Len(t, cs, 4)
	var names []string
	var weights []float64
	for _, c := range cs {
		names = append(names, c.Name)
		weights = append(weights, c.Weight)
	}
	assert.Equal(t, []string{"GoalUrgency", "RelativeCost", "RelativeValue", "PreconditionSatisfied"}, names)
	assert.Equal(t, []float64{8, 1, 1, 1}, weights)
	assert.Same(t, d, u.Domain())
}

// The first version's defaults stay available as explicit options.
// (0.3·max(0, 1 − cost/100) + 0.5·min(1, value/100) + 1·pre) / 1.8 × weight:
//
//	Attack: (0.3·0.90 + 0.5·0.6 + 1) / 1.8 × 1   = 1.570 / 1.8       = 0.872222…
//	Heal:   (0.3·0.80 + 0.5·0.8 + 1) / 1.8 × 1.5 = 1.640 / 1.8 × 1.5 = 1.366666…
//	Patrol: (0.3·0.95 + 0.5·0.1 + 1) / 1.8 × 1   = 1.335 / 1.8       = 0.741666…
//	Flee:   (0.3·0.70 + 0.5·0.4 + 1) / 1.8 × 0.5 = 1.410 / 1.8 × 0.5 = 0.391666…
//	Wait:   as Patrol                                               = 0.741666…
//	Rest:   (0.3·0.98 + 0.5·0.3 + 1) / 1.8 × 1   = 1.444 / 1.8       = 0.802222…
func TestUtilityFixedScale(t *testing.T) {
	d := guard()
	u := runtime.NewUtility(d, runtime.Cost[guardState](0.3), runtime.Value[guardState](0.5), runtime.PreconditionSatisfied[guardState]())
	s := guardState{Health: 50, Ammo: 5}
	ranked := u.Ranked(s)
	want := []runtime.Scored{
		{Action: actHeal, Score: 1.640 / 1.8 * 1.5},
		{Action: actAttack, Score: 1.570 / 1.8},
		{Action: actRest, Score: 1.444 / 1.8},
		{Action: actPatrol, Score: 1.335 / 1.8},
		{Action: actWait, Score: 1.335 / 1.8},
	}
	require.Len(t, ranked, len(want))
	for i, w := range want {
		assert.Equal(t, w.Action, ranked[i].Action, "rank %d", i)
		assert.InDelta(t, w.Score, ranked[i].Score, 1e-12, "rank %d", i)
	}
	assert.InDelta(t, 1.410/1.8*0.5, u.Score(guardState{Health: 10}, actFlee), 1e-12)
	// (0.3·0.7 + 0.5·0.4 + 0) / 1.8 × 0.5 = 0.41 / 3.6.
	assert.InDelta(t, 0.41/3.6, u.Score(guardState{Health: 100}, actFlee), 1e-12)
}

func TestUtilityTiesByDeclarationOrder(t *testing.T) {
	d := guard()
	// Every action scores 1 × its weight: Attack, Patrol, Wait and Rest
	// (weight 1) tie, and rank in declaration order after Heal (1.5).
	u := runtime.NewUtility(d, runtime.Func(1, func(guardState, *runtime.Action[guardState]) float64 { return 1 }))
	ranked := u.Ranked(guardState{Health: 50, Ammo: 1})
	var order []runtime.ActionID
	for _, r := range ranked {
		order = append(order, r.Action)
	}
	assert.Equal(t, []runtime.ActionID{actHeal, actAttack, actPatrol, actWait, actRest}, order)

	best, ok := u.Best(guardState{Health: 100, Ammo: 1})
	require.True(t, ok)
	assert.Equal(t, actAttack, best, "the first of the equals")
}

func TestUtilityNoApplicableAction(t *testing.T) {
	d := runtime.NewDomain(runtime.Domain[guardState]{
		Name: "Stuck",
		Actions: []runtime.Action[guardState]{{
			Name: "Shoot", Cost: 1, Weight: 1, Pre: func(s guardState) bool { return s.Ammo > 0 },
		}},
	})
	u := runtime.NewUtility(d)
	best, ok := u.Best(guardState{})
	assert.False(t, ok)
	assert.Equal(t, runtime.NoAction, best)
	assert.Empty(t, u.Ranked(guardState{}))
}

func TestUtilityConsiderations(t *testing.T) {
	d := guard()
	s := guardState{Health: 50, Ammo: 5}
	score := func(c runtime.Consideration[guardState], a runtime.ActionID) float64 {
		return runtime.NewUtility(d, c).Score(s, a)
	}

	// Utility = (value − cost + 100) / 200, × action weight.
	assert.InDelta(t, (60-10+100)/200.0, score(runtime.Utility[guardState](1), actAttack), 1e-12) // 0.75
	assert.InDelta(t, (80-20+100)/200.0*1.5, score(runtime.Utility[guardState](1), actHeal), 1e-12)

	// Cost and Value alone.
	assert.InDelta(t, 0.9, score(runtime.Cost[guardState](0.3), actAttack), 1e-12)
	assert.InDelta(t, 0.6, score(runtime.Value[guardState](0.5), actAttack), 1e-12)

	// HasTag.
	assert.Equal(t, 1.0, score(runtime.HasTag[guardState]("combat", 2), actAttack))
	assert.Equal(t, 0.0, score(runtime.HasTag[guardState]("combat", 2), actPatrol))
	assert.Equal(t, 0.5, score(runtime.HasTag[guardState]("cowardly", 1), actFlee), "× Flee's weight 0.5")

	// A weighted mean: (Cost 0.95 × 1 + 0.2 × 3) / (1 + 3) = 1.55 / 4.
	u := runtime.NewUtility(d,
		runtime.Cost[guardState](1),
		runtime.Func(3, func(guardState, *runtime.Action[guardState]) float64 { return 0.2 }))
	assert.InDelta(t, 1.55/4, u.Score(s, actPatrol), 1e-12)

	// A curve over the state: 1 − Health/100 at Health 50 is 0.5; × 1.5
	// for Heal.
	hurt := runtime.Curve(1, runtime.LinearCurve(-1, 1), func(s guardState) float64 { return float64(s.Health) }, 0, 100)
	assert.InDelta(t, 0.75, score(hurt, actHeal), 1e-12)
	assert.Equal(t, "linear", hurt.Name)
}

func TestUtilityClampsConsiderations(t *testing.T) {
	d := guard()
	s := guardState{Health: 50}
	for _, c := range []struct {
		raw, want float64
	}{{2, 1}, {-1, 0}, {math.NaN(), 0}, {math.Inf(1), 1}, {0.25, 0.25}} {
		u := runtime.NewUtility(d, runtime.Func(1, func(guardState, *runtime.Action[guardState]) float64 { return c.raw }))
		assert.Equal(t, c.want, u.Score(s, actPatrol), "raw %v", c.raw)
	}
	// Utility itself clamps: (500 − 1 + 100)/200 > 1 and (0 − 300 + 100)/200 < 0.
	rich := runtime.Action[guardState]{Cost: 1, Value: 500, Weight: 1}
	poor := runtime.Action[guardState]{Cost: 300, Value: 0, Weight: 1}
	util := runtime.Utility[guardState](1)
	assert.Greater(t, util.Score(s, &rich), 1.0, "raw")
	u := runtime.NewUtility(runtime.NewDomain(runtime.Domain[guardState]{Actions: []runtime.Action[guardState]{
		{Name: "Rich", Cost: 1, Value: 500, Weight: 1},
		{Name: "Poor", Cost: 300, Value: 0, Weight: 1},
	}}), util)
	assert.Equal(t, 1.0, u.Score(s, 0))
	assert.Equal(t, 0.0, u.Score(s, 1))
	assert.Less(t, util.Score(s, &poor), 0.0, "raw")
}

func TestUtilityWeights(t *testing.T) {
	d := guard()
	one := func(guardState, *runtime.Action[guardState]) float64 { return 1 }
	// All weights zero (or negative, or NaN, which count as zero): every
	// score is 0.
	u := runtime.NewUtility(d, runtime.Func(0, one), runtime.Func(-2, one), runtime.Func(math.NaN(), one))
	for _, r := range u.Ranked(guardState{Health: 50, Ammo: 1}) {
		assert.Zero(t, r.Score)
	}
	// A negative weight is not subtracted: (1 × 1) / 1.
	u = runtime.NewUtility(d, runtime.Func(1, one), runtime.Func(-5, func(guardState, *runtime.Action[guardState]) float64 { return 0 }))
	assert.Equal(t, 1.0, u.Score(guardState{}, actPatrol))

	assert.Panics(t, func() { runtime.NewUtility(d, runtime.Consideration[guardState]{Name: "nil", Weight: 1}) })
}

func TestCombineAndCompensation(t *testing.T) {
	// Compensate: modification = 1 − 1/n, makeUp = (1 − x)·modification,
	// result = x + makeUp·x.
	//   n=2, x=0.5: 0.5 + (0.5·0.5)·0.5     = 0.625
	//   n=2, x=0.8: 0.8 + (0.2·0.5)·0.8     = 0.88
	//   n=3, x=0.5: 0.5 + (0.5·2/3)·0.5     = 0.666…
	//   n=3, x=0.8: 0.8 + (0.2·2/3)·0.8     = 0.906…
	assert.InDelta(t, 0.625, runtime.Compensate(0.5, 2), 1e-12)
	assert.InDelta(t, 0.88, runtime.Compensate(0.8, 2), 1e-12)
	assert.InDelta(t, 2.0/3, runtime.Compensate(0.5, 3), 1e-12)
	assert.InDelta(t, 0.8+0.2*2/3*0.8, runtime.Compensate(0.8, 3), 1e-12)
	for _, n := range []int{0, 1, 2, 3, 10} {
		assert.Equal(t, 0.0, runtime.Compensate(0, n))
		assert.Equal(t, 1.0, runtime.Compensate(1, n))
	}
	assert.Equal(t, 0.3, runtime.Compensate(0.3, 1), "one factor is not compensated")

	d := guard()
	s := guardState{Health: 50, Ammo: 1}
	half := runtime.Func(7, func(guardState, *runtime.Action[guardState]) float64 { return 0.5 })
	most := runtime.Func(9, func(guardState, *runtime.Action[guardState]) float64 { return 0.8 })
	zero := runtime.Func(1, func(guardState, *runtime.Action[guardState]) float64 { return 0 })

	// Two factors: 0.625 × 0.88 = 0.55 (the inner weights do not count).
	u := runtime.NewUtility(d, runtime.Combine(2, half, most))
	assert.InDelta(t, 0.55, u.Score(s, actPatrol), 1e-12)
	assert.InDelta(t, 0.55*1.5, u.Score(s, actHeal), 1e-12)
	// Three: (2/3) × (2/3) × 0.9066… ; a zero vetoes.
	u = runtime.NewUtility(d, runtime.Combine(1, half, half, most))
	assert.InDelta(t, 2.0/3*2.0/3*(0.8+0.2*2/3*0.8), u.Score(s, actPatrol), 1e-12)
	u = runtime.NewUtility(d, runtime.Combine(1, half, zero, most))
	assert.Zero(t, u.Score(s, actPatrol))
	// Combining nothing gives 1.
	assert.Equal(t, 1.0, runtime.NewUtility(d, runtime.Combine[guardState](1)).Score(s, actPatrol))
}

func TestUtilityForGoal(t *testing.T) {
	d := guard()
	u := runtime.NewUtility(d)
	// Healthy is served by Heal (fulfills) and Rest (writes Health);
	// Heal scores higher.
	got := u.ForGoal(goalHealthy, guardState{Health: 50})
	require.Len(t, got, 2)
	assert.Equal(t, actHeal, got[0].Action)
	assert.InDelta(t, scoreHeal, got[0].Score, 1e-12)
	assert.Equal(t, actRest, got[1].Action)
	assert.InDelta(t, scoreRest, got[1].Score, 1e-12)

	// Heal's precondition fails at 100; and Healthy holds, so nothing
	// serves it.
	assert.Empty(t, u.ForGoal(goalHealthy, guardState{Health: 100}))
	assert.Empty(t, u.ForGoal(goalHealthy, guardState{Health: 120}))
}

func TestUtilityDoesNotAllocate(t *testing.T) {
	d := guard()
	u := runtime.NewUtility(d, append(runtime.DefaultConsiderations(d),
		runtime.Utility[guardState](1),
		runtime.HasTag[guardState]("combat", 0.5),
		runtime.Combine(1, runtime.Cost[guardState](1), runtime.Value[guardState](1)),
		runtime.Curve(1, runtime.LogisticCurve(10, 1, 0.5, 0), func(s guardState) float64 { return float64(s.Health) }, 0, 100),
	)...)
	s := guardState{Health: 50, Ammo: 3}
	buf := u.RankedInto(s, nil)
	var sink runtime.ActionID
	allocs := allocsPerCall(100, func() {
		sink, _ = u.Best(s)
	})
	assert.Zero(t, allocs, "Best")
	assert.Equal(t, actHeal, sink)
	allocs = allocsPerCall(100, func() {
		buf = u.RankedInto(s, buf)
	})
	assert.Zero(t, allocs, "RankedInto")
	allocs = allocsPerCall(100, func() {
		buf = u.ForGoalInto(goalHealthy, s, buf)
	})
	assert.Zero(t, allocs, "ForGoalInto")
}

// The selector scores each consideration only as often as what it reads
// requires; its scores are still the weighted mean of every consideration
// on every action, for any mix of kinds, and Ranked agrees with Score.
func TestUtilityScoresEveryKindOfConsideration(t *testing.T) {
	d := guard()
	all := []runtime.Consideration[guardState]{
		runtime.Cost[guardState](0.3), runtime.Value[guardState](0.5), runtime.PreconditionSatisfied[guardState](),
		runtime.Utility[guardState](0.7), runtime.HasTag[guardState]("combat", 0.4),
		runtime.Curve[guardState](0.9, runtime.LogisticCurve(10, 1, 0.5, 0), func(s guardState) float64 { return float64(s.Health) }, 0, 100),
		runtime.Func[guardState](0.6, func(s guardState, a *runtime.Action[guardState]) float64 { return float64(s.Ammo) / 10 * a.Value / 100 }),
		runtime.Combine[guardState](0.2, runtime.Cost[guardState](1), runtime.Value[guardState](1)),
		runtime.GoalUrgency(d, 2.5), runtime.RelativeCost(d, 0.8), runtime.RelativeValue(d, 1.1),
	}
	naive := func(s guardState, id runtime.ActionID) float64 {
		a := &d.Actions[id]
		var sum, total float64
		for _, c := range all {
			sum += min(1, max(0, c.Score(s, a))) * c.Weight
			total += c.Weight
		}
		return sum / total * a.Weight
	}
	u := runtime.NewUtility(d, all...)
	for _, s := range []guardState{{Health: 10, Ammo: 3}, {Health: 100}, {Health: 50, Ammo: 7, Hidden: true}, {Health: 95, Ammo: 1}} {
		ranked := u.Ranked(s)
		require.NotEmpty(t, ranked)
		for _, r := range ranked {
			assert.InDelta(t, naive(s, r.Action), r.Score, 1e-12, "%+v %s", s, d.Actions[r.Action].Name)
			assert.Equal(t, u.Score(s, r.Action), r.Score, "Ranked and Score agree exactly")
		}
		best, ok := u.Best(s)
		require.True(t, ok)
		assert.Equal(t, ranked[0].Action, best)
	}
	// Score also rates an action whose precondition fails.
	s := guardState{Health: 100}
	assert.InDelta(t, naive(s, actHeal), u.Score(s, actHeal), 1e-12)
}

// allocsPerCall is testing.AllocsPerRun with the collector off. A
// selector keeps its scratch in a sync.Pool (it is safe for concurrent
// use), which collections empty: on a busy machine a collection during
// the measurement would count the pool's refill, not the call.
func allocsPerCall(runs int, f func()) float64 {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	return testing.AllocsPerRun(runs, f)
}

// The selector judges a step on a saturating field where the generated
// effect leaves it, in its range: from Health 95 in 0..100, Rest (+10)
// leaves 100, which Hale (Health == 100) needs, not 105.
func TestGoalUrgencyClampsIntoTheRange(t *testing.T) {
	d := knight.KnightDomain
	u := runtime.NewUtility(d)
	s := knight.KnightState{Health: 95, Morale: 3}
	ranked := u.ForGoal(knight.KnightGoalHale, s)
	require.Len(t, ranked, 1)
	assert.Equal(t, knight.KnightRest, ranked[0].Action)
	// Hale is the lowest of three priorities: a third, all the way.
	assert.InDelta(t, 1.0/3, runtime.GoalUrgency(d, 1).Score(s, &d.Actions[knight.KnightRest]), 1e-12)
}
