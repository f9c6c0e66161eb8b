package runtime_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
	"github.com/rolegen/rolegen/runtime/internal/courier"
	"github.com/rolegen/rolegen/runtime/internal/fridge"
)

// detourState: Done is the goal; Ready enables the cheap route.
type detourState struct{ Ready, Done bool }

// detour has an expensive action that fulfills the goal at once, declared
// first, and a cheap two-step route.
func detour(directCost float64) *runtime.Domain[detourState] {
	return runtime.NewDomain(runtime.Domain[detourState]{
		Name: "Detour",
		Fields: []runtime.Field{
			{Name: "Ready", Type: "bool", Kind: runtime.KindBool},
			{Name: "Done", Type: "bool", Kind: runtime.KindBool},
		},
		Actions: []runtime.Action[detourState]{
			{
				Name: "Direct", Cost: directCost, Value: 1, Weight: 1,
				Effect:   func(s detourState) detourState { s.Done = true; return s },
				Writes:   []runtime.FieldID{1},
				Fulfills: []runtime.GoalID{0},
			},
			{
				Name: "Prepare", Cost: 1, Value: 1, Weight: 1,
				Effect: func(s detourState) detourState { s.Ready = true; return s },
				Writes: []runtime.FieldID{0},
			},
			{
				Name: "Finish", Cost: 1, Value: 1, Weight: 1, PreText: "Ready",
				Pre:      func(s detourState) bool { return s.Ready },
				Effect:   func(s detourState) detourState { s.Done = true; return s },
				PreReads: []runtime.FieldID{0}, Reads: []runtime.FieldID{0}, Writes: []runtime.FieldID{1},
				Fulfills: []runtime.GoalID{0},
			},
		},
		Goals: []runtime.Goal[detourState]{{
			Name: "Done", Cond: func(s detourState) bool { return s.Done }, CondText: "Done",
			Reads: []runtime.FieldID{1},
		}},
	})
}

func TestAStarFindsTheCheapRoute(t *testing.T) {
	d := detour(10)
	ctx := context.Background()

	// The backward chainer orders its candidates by what they cost with
	// the cheapest helper of their precondition: Finish (1 + Prepare's 1)
	// before Direct (10), though Direct applies at once.
	bp, err := runtime.NewBackwardChainer(d).Plan(ctx, detourState{})
	require.NoError(t, err)
	assert.Equal(t, []string{"Prepare", "Finish"}, names(d, bp.Steps))
	assert.Equal(t, 2.0, bp.Cost)

	p, err := runtime.NewAStar(d).PlanGoal(ctx, detourState{}, 0)
	require.NoError(t, err)
	assert.Equal(t, []string{"Prepare", "Finish"}, names(d, p.Steps))
	assert.Equal(t, 2.0, p.Cost)
	assert.Equal(t, []runtime.GoalID{0}, p.Goals)
	assert.Positive(t, p.Expansions)
	assert.GreaterOrEqual(t, p.Generated, p.Expansions)
	require.NoError(t, d.Verify(detourState{}, &p))
}

func TestAStarEqualCostsKeepDeclarationOrder(t *testing.T) {
	// Direct (cost 2, declared first) and Prepare+Finish (1+1) tie: the
	// goal state first put on the open list wins, which is Direct's.
	d := detour(2)
	p, err := runtime.NewAStar(d).Plan(context.Background(), detourState{})
	require.NoError(t, err)
	assert.Equal(t, []string{"Direct"}, names(d, p.Steps))
	assert.Equal(t, 2.0, p.Cost)
}

func TestAStarSoldier(t *testing.T) {
	d := soldierDomain()
	p, err := runtime.NewAStar(d).Plan(context.Background(), soldierState{})
	require.NoError(t, err)
	assert.Equal(t, []string{"FetchMagazine", "Reload"}, names(d, p.Steps))
	assert.Equal(t, []runtime.GoalID{goalArmed}, p.Goals)
	assert.Equal(t, 3.0, p.Cost)

	p, err = runtime.NewAStar(d).Plan(context.Background(), soldierState{Ammo: 20})
	require.NoError(t, err)
	assert.Empty(t, p.Steps, "every goal holds")
	assert.Empty(t, p.Goals)
	assert.Zero(t, p.Cost)
}

func TestAStarSurvivalIsCheapest(t *testing.T) {
	d := survival()
	s := survivalState{Hunger: 100}
	p, err := runtime.NewAStar(d).Plan(context.Background(), s)
	require.NoError(t, err)
	// Four meals (1 each), four forages (2 each) and two rests (1 each):
	// one rest gives energy for two forages (30 → 20 → 10).
	assert.Equal(t, 14.0, p.Cost)
	assert.Len(t, p.Steps, 10)
	require.NoError(t, d.Verify(s, &p))

	// The backward chainer's plan for the same state costs as much here;
	// A* is never dearer.
	bp, err := runtime.NewBackwardChainer(d).Plan(context.Background(), s)
	require.NoError(t, err)
	assert.LessOrEqual(t, p.Cost, bp.Cost)
}

// pairState has two goals, A and B, and a Ready flag that enables an
// action making both hold at once.
type pairState struct{ A, B, Ready bool }

const (
	goalA runtime.GoalID = iota
	goalB
)

func pair() *runtime.Domain[pairState] {
	return runtime.NewDomain(runtime.Domain[pairState]{
		Name: "Pair",
		Fields: []runtime.Field{
			{Name: "A", Type: "bool", Kind: runtime.KindBool},
			{Name: "B", Type: "bool", Kind: runtime.KindBool},
			{Name: "Ready", Type: "bool", Kind: runtime.KindBool},
		},
		Actions: []runtime.Action[pairState]{
			{
				Name: "Both", Cost: 1, PreText: "Ready",
				Pre:      func(s pairState) bool { return s.Ready },
				Effect:   func(s pairState) pairState { s.A, s.B = true, true; return s },
				PreReads: []runtime.FieldID{2}, Reads: []runtime.FieldID{2}, Writes: []runtime.FieldID{0, 1},
			},
			{
				Name: "MakeReady", Cost: 1,
				Effect: func(s pairState) pairState { s.Ready = true; return s },
				Writes: []runtime.FieldID{2},
			},
			{
				Name: "SetA", Cost: 1,
				Effect: func(s pairState) pairState { s.A = true; return s },
				Writes: []runtime.FieldID{0},
			},
			{
				Name: "SetB", Cost: 1.5,
				Effect: func(s pairState) pairState { s.B = true; return s },
				Writes: []runtime.FieldID{1},
			},
		},
		Goals: []runtime.Goal[pairState]{
			{Name: "A", Cond: func(s pairState) bool { return s.A }, CondText: "A", Reads: []runtime.FieldID{0}},
			{Name: "B", Cond: func(s pairState) bool { return s.B }, CondText: "B", Reads: []runtime.FieldID{1}},
		},
	})
}

func TestAStarConjunctionOfGoals(t *testing.T) {
	d := pair()
	ctx := context.Background()
	for _, opts := range [][]runtime.AStarOption{nil, {runtime.WithUnsatisfiedGoalsHeuristic()}} {
		as := runtime.NewAStar(d, opts...)
		p, err := as.PlanGoals(ctx, pairState{}, goalA, goalB)
		require.NoError(t, err)
		// MakeReady+Both = 2 beats SetA+SetB = 2.5.
		assert.Equal(t, []string{"MakeReady", "Both"}, names(d, p.Steps))
		assert.Equal(t, 2.0, p.Cost)
		assert.Equal(t, []runtime.GoalID{goalA, goalB}, p.Goals)

		// Duplicates are ignored; goals that already hold must still hold
		// at the end, but are not listed as achieved.
		p, err = as.PlanGoals(ctx, pairState{A: true}, goalA, goalB, goalB)
		require.NoError(t, err)
		assert.Equal(t, []string{"SetB"}, names(d, p.Steps))
		assert.Equal(t, []runtime.GoalID{goalB}, p.Goals)

		p, err = as.PlanGoals(ctx, pairState{A: true, B: true}, goalA, goalB)
		require.NoError(t, err)
		assert.Empty(t, p.Steps)
		assert.Empty(t, p.Goals)

		p, err = as.PlanGoals(ctx, pairState{})
		require.NoError(t, err, "the empty conjunction holds everywhere")
		assert.Empty(t, p.Steps)
	}
}

func TestAStarConjunctionKeepsGoalsThatHold(t *testing.T) {
	// Cheap makes B hold but A fail; Safe only makes B hold.
	d := runtime.NewDomain(runtime.Domain[pairState]{
		Name: "Keep",
		Fields: []runtime.Field{
			{Name: "A", Type: "bool", Kind: runtime.KindBool},
			{Name: "B", Type: "bool", Kind: runtime.KindBool},
		},
		Actions: []runtime.Action[pairState]{
			{
				Name: "Cheap", Cost: 1,
				Effect: func(s pairState) pairState { s.A, s.B = false, true; return s },
				Writes: []runtime.FieldID{0, 1},
			},
			{
				Name: "Safe", Cost: 3,
				Effect: func(s pairState) pairState { s.B = true; return s },
				Writes: []runtime.FieldID{1},
			},
		},
		Goals: pair().Goals,
	})
	as := runtime.NewAStar(d)
	p, err := as.PlanGoal(context.Background(), pairState{A: true}, goalB)
	require.NoError(t, err)
	assert.Equal(t, []string{"Cheap"}, names(d, p.Steps))

	p, err = as.PlanGoals(context.Background(), pairState{A: true}, goalB, goalA)
	require.NoError(t, err)
	assert.Equal(t, []string{"Safe"}, names(d, p.Steps))
	assert.Equal(t, 3.0, p.Cost)
	assert.Equal(t, []runtime.GoalID{goalB}, p.Goals, "A held already")

	_, err = as.PlanGoals(context.Background(), pairState{}, goalB, goalA)
	var perr *runtime.PlanningError
	require.ErrorAs(t, err, &perr)
	assert.Equal(t, runtime.Unreachable, perr.Reason)
	assert.Equal(t, goalB, perr.Goal, "the first goal of the conjunction that does not hold")
}

// TestNaiveUnsatisfiedGoalsHeuristicIsNotAdmissible shows why the built-in
// heuristic divides by the number of goals one action may change: u × c
// (2 × 1 after MakeReady) overestimates the cost still needed there (1:
// Both makes both goals hold), and A* with it returns SetA+SetB (2.5)
// instead of MakeReady+Both (2).
func TestNaiveUnsatisfiedGoalsHeuristicIsNotAdmissible(t *testing.T) {
	d := pair()
	naive := func(s pairState, goals []runtime.GoalID) float64 {
		u := 0
		for _, g := range goals {
			if !d.Holds(g, s) {
				u++
			}
		}
		return float64(u) * 1 // 1 is the cost of the cheapest action
	}
	ctx := context.Background()

	p, err := runtime.NewAStar(d, runtime.WithHeuristic(naive)).PlanGoals(ctx, pairState{}, goalA, goalB)
	require.NoError(t, err)
	assert.Equal(t, 2.5, p.Cost, "an inadmissible estimate misses the cheapest plan")

	p, err = runtime.NewAStar(d, runtime.WithUnsatisfiedGoalsHeuristic()).PlanGoals(ctx, pairState{}, goalA, goalB)
	require.NoError(t, err)
	assert.Equal(t, 2.0, p.Cost)
}

// survivalEstimate is an admissible estimate for Fed: each meal still
// needed costs 1, and each meal beyond the food at hand a forage (2).
func survivalEstimate(s survivalState, _ []runtime.GoalID) float64 {
	if s.Hunger < 10 {
		return 0
	}
	meals := (s.Hunger-10)/30 + 1
	return float64(meals + 2*max(0, meals-s.Food))
}

func TestAStarHeuristicKeepsCostAndSavesExpansions(t *testing.T) {
	d := survival()
	s := survivalState{Hunger: 200}
	ctx := context.Background()
	uniform, err := runtime.NewAStar(d).Plan(ctx, s)
	require.NoError(t, err)
	informed, err := runtime.NewAStar(d, runtime.WithHeuristic(survivalEstimate)).Plan(ctx, s)
	require.NoError(t, err)
	builtin, err := runtime.NewAStar(d, runtime.WithUnsatisfiedGoalsHeuristic()).Plan(ctx, s)
	require.NoError(t, err)

	assert.Equal(t, uniform.Cost, informed.Cost)
	assert.Equal(t, uniform.Cost, builtin.Cost)
	assert.Less(t, informed.Expansions, uniform.Expansions)
	assert.LessOrEqual(t, builtin.Expansions, uniform.Expansions)
	require.NoError(t, d.Verify(s, &informed))
}

func TestAStarHeuristicEdgeValues(t *testing.T) {
	d := survival()
	ctx := context.Background()
	s := survivalState{Hunger: 40}
	want, err := runtime.NewAStar(d).Plan(ctx, s)
	require.NoError(t, err)
	for _, h := range []float64{math.NaN(), -5} {
		p, err := runtime.NewAStar(d, runtime.WithHeuristic(func(survivalState, []runtime.GoalID) float64 { return h })).Plan(ctx, s)
		require.NoError(t, err, "estimate %v counts as 0", h)
		assert.Equal(t, want.Steps, p.Steps)
	}

	// +Inf marks dead ends: here every state but the start.
	start := s
	deadEnds := func(s survivalState, _ []runtime.GoalID) float64 {
		if s == start {
			return 0
		}
		return math.Inf(1)
	}
	_, err = runtime.NewAStar(d, runtime.WithHeuristic(deadEnds)).Plan(ctx, s)
	require.ErrorIs(t, err, runtime.ErrUnreachable)

	assert.Panics(t, func() {
		runtime.NewAStar(d, runtime.WithHeuristic(func(int, []runtime.GoalID) float64 { return 0 }))
	}, "a heuristic over another state type")
}

func TestAStarUnreachableByExhaustion(t *testing.T) {
	d := runtime.NewDomain(runtime.Domain[flags]{
		Name:   "Empty",
		Fields: flagFields(2),
		Actions: []runtime.Action[flags]{{
			Name: "SetOther", Cost: 1, Effect: func(s flags) flags { s.F[1] = true; return s },
			Writes: []runtime.FieldID{1},
		}},
		Goals: []runtime.Goal[flags]{{
			Name: "Lit", Cond: func(s flags) bool { return s.F[0] }, Reads: []runtime.FieldID{0},
		}},
	})
	p, err := runtime.NewAStar(d).Plan(context.Background(), flags{})
	var perr *runtime.PlanningError
	require.ErrorAs(t, err, &perr)
	assert.Equal(t, runtime.Unreachable, perr.Reason)
	assert.Equal(t, runtime.GoalID(0), perr.Goal)
	assert.Equal(t, "Lit", perr.GoalName)
	assert.Equal(t, runtime.NoAction, perr.Action)
	assert.ErrorIs(t, err, runtime.ErrUnreachable)
	assert.Empty(t, p.Steps, "no partial plan")
	assert.Empty(t, p.Goals)
	assert.Zero(t, p.Expansions, "no action writes Lit: the estimate says so before any search")
	assert.EqualError(t, err, "rolegen: Empty: goal Lit: unreachable: no action can make a failing part of it hold")

	p, err = runtime.NewAStar(d, runtime.WithUniformCost()).Plan(context.Background(), flags{})
	require.ErrorIs(t, err, runtime.ErrUnreachable)
	assert.Equal(t, 2, p.Expansions, "without the estimate, both reachable states are expanded")
}

func TestAStarSearchBudgetExceeded(t *testing.T) {
	d := chain(8)
	_, err := runtime.NewAStar(d, runtime.WithSearchBudget(3)).Plan(context.Background(), flags{})
	var perr *runtime.PlanningError
	require.ErrorAs(t, err, &perr)
	assert.Equal(t, runtime.SearchBudgetExceeded, perr.Reason)
	assert.Equal(t, 3, perr.Limit)
	assert.Equal(t, "Done", perr.GoalName)
	assert.ErrorIs(t, err, runtime.ErrSearchBudgetExceeded)

	p, err := runtime.NewAStar(d, runtime.WithSearchBudget(8)).Plan(context.Background(), flags{})
	require.NoError(t, err, "eight expansions suffice for eight steps")
	assert.Len(t, p.Steps, 8)
	assert.LessOrEqual(t, p.Expansions, 8)
}

func TestAStarMaxStepsExceeded(t *testing.T) {
	d := survival()
	s := survivalState{Hunger: 100} // the cheapest plan has 10 steps
	_, err := runtime.NewAStar(d, runtime.WithMaxSteps(9)).Plan(context.Background(), s)
	var perr *runtime.PlanningError
	require.ErrorAs(t, err, &perr)
	assert.Equal(t, runtime.MaxStepsExceeded, perr.Reason)
	assert.Equal(t, 9, perr.Limit)
	assert.Equal(t, "Fed", perr.GoalName)
	assert.ErrorIs(t, err, runtime.ErrMaxStepsExceeded)

	p, err := runtime.NewAStar(d, runtime.WithMaxSteps(10)).Plan(context.Background(), s)
	require.NoError(t, err)
	assert.Len(t, p.Steps, 10)

	_, err = runtime.NewAStar(chain(12), runtime.WithMaxSteps(-1)).Plan(context.Background(), flags{})
	assert.ErrorIs(t, err, runtime.ErrMaxStepsExceeded, "the limit is clamped to at least 1")
}

func TestAStarCancelledContext(t *testing.T) {
	d := survival()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	as := runtime.NewAStar(d)
	_, err := as.Plan(ctx, survivalState{Hunger: 100})
	require.ErrorIs(t, err, context.Canceled)
	_, err = as.PlanGoal(ctx, survivalState{Hunger: 100}, 0)
	require.ErrorIs(t, err, context.Canceled)

	// Cancelled mid-search: the search notices within 256 expansions.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	cancelling := func(survivalState, []runtime.GoalID) float64 {
		if calls++; calls == 10 {
			cancel()
		}
		return 0
	}
	var p runtime.Plan
	err = runtime.NewAStar(d, runtime.WithHeuristic(cancelling), runtime.WithSearchBudget(1_000_000)).
		PlanInto(ctx, survivalState{Hunger: 1_000_000}, &p)
	require.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, p.Steps)
	assert.LessOrEqual(t, p.Expansions, 256)
}

// prioritized has a critical goal no action serves and a normal one
// reachable in one step.
type prioritizedState struct{ Lit, Other bool }

func prioritized() *runtime.Domain[prioritizedState] {
	return runtime.NewDomain(runtime.Domain[prioritizedState]{
		Name: "Prioritized",
		Fields: []runtime.Field{
			{Name: "Lit", Type: "bool", Kind: runtime.KindBool},
			{Name: "Other", Type: "bool", Kind: runtime.KindBool},
		},
		Actions: []runtime.Action[prioritizedState]{{
			Name: "SetOther", Cost: 1,
			Effect: func(s prioritizedState) prioritizedState { s.Other = true; return s },
			Writes: []runtime.FieldID{1},
		}},
		Goals: []runtime.Goal[prioritizedState]{
			{Name: "Easy", Priority: runtime.Normal, Cond: func(s prioritizedState) bool { return s.Other }, Reads: []runtime.FieldID{1}},
			{Name: "Hard", Priority: runtime.Critical, Cond: func(s prioritizedState) bool { return s.Lit }, Reads: []runtime.FieldID{0}},
			{Name: "AlsoHard", Priority: runtime.Critical, Cond: func(s prioritizedState) bool { return s.Lit && s.Other }, Reads: []runtime.FieldID{0, 1}},
		},
	})
}

func TestAStarPlanPlansEveryGoalByPriority(t *testing.T) {
	d := prioritized()
	as := runtime.NewAStar(d)
	p, err := as.Plan(context.Background(), prioritizedState{})
	var skipped *runtime.PlanningError
	require.ErrorAs(t, err, &skipped, "the plan comes with the error of the goal it could not reach")
	assert.Equal(t, "Hard", skipped.GoalName, "the first goal by priority that failed")
	assert.Equal(t, []string{"SetOther"}, names(d, p.Steps))
	assert.Equal(t, []runtime.GoalID{0}, p.Goals, "Hard and AlsoHard are unreachable")

	// When nothing is reachable, the error is the highest-priority goal's
	// (Hard: declared before AlsoHard).
	_, err = as.Plan(context.Background(), prioritizedState{Other: true})
	var perr *runtime.PlanningError
	require.ErrorAs(t, err, &perr)
	assert.Equal(t, runtime.Unreachable, perr.Reason)
	assert.Equal(t, "Hard", perr.GoalName)

	// Every goal, each from where the previous one's plan ends, each
	// cheapest for its goal without undoing one of higher priority that
	// holds: Douse, which gives most wood a step, would put the fire out.
	// Warm costs 3 (two chops, a light), Fed 6 (two forages, two meals),
	// Stocked 3 (three chops).
	c := camp()
	p, err = runtime.NewAStar(c).Plan(context.Background(), campState{Hunger: 50})
	require.NoError(t, err)
	assert.Equal(t, []runtime.GoalID{campWarm, campFed, campStocked}, p.Goals)
	assert.Equal(t, 12.0, p.Cost)
	assert.NotContains(t, names(c, p.Steps), "Douse")
	require.NoError(t, c.Verify(campState{Hunger: 50}, &p))

	// The step limit is the call's: Warm and Fed fit in seven steps,
	// Stocked does not.
	p, err = runtime.NewAStar(c, runtime.WithMaxSteps(7)).Plan(context.Background(), campState{Hunger: 50})
	require.ErrorIs(t, err, runtime.ErrMaxStepsExceeded)
	require.ErrorAs(t, err, &perr)
	assert.Equal(t, "Stocked", perr.GoalName)
	assert.Equal(t, []runtime.GoalID{campWarm, campFed}, p.Goals)
	assert.Len(t, p.Steps, 7)
}

func TestAStarIsDeterministic(t *testing.T) {
	d := survival()
	s := survivalState{Hunger: 250, Energy: 5}
	first, err := runtime.NewAStar(d).Plan(context.Background(), s)
	require.NoError(t, err)
	reused := runtime.NewAStar(d)
	var p runtime.Plan
	for range 20 {
		again, err := runtime.NewAStar(d).Plan(context.Background(), s)
		require.NoError(t, err)
		require.Equal(t, first, again)
		require.NoError(t, reused.PlanInto(context.Background(), s, &p))
		require.Equal(t, first.Steps, p.Steps)
		require.Equal(t, first.Expansions, p.Expansions)
		require.Equal(t, first.Generated, p.Generated)
	}
}

func TestAStarPlanIntoDoesNotAllocate(t *testing.T) {
	ctx := context.Background()
	var p runtime.Plan
	for _, opts := range [][]runtime.AStarOption{
		nil,
		{runtime.WithUnsatisfiedGoalsHeuristic()},
		{runtime.WithHeuristic(survivalEstimate)},
	} {
		as := runtime.NewAStar(survival(), opts...)
		s := survivalState{Hunger: 100}
		require.NoError(t, as.PlanInto(ctx, s, &p))
		allocs := testing.AllocsPerRun(100, func() {
			if err := as.PlanInto(ctx, s, &p); err != nil {
				t.Fatal(err)
			}
		})
		assert.Zero(t, allocs, "PlanInto")
		allocs = testing.AllocsPerRun(100, func() {
			if err := as.PlanGoalInto(ctx, s, 0, &p); err != nil {
				t.Fatal(err)
			}
		})
		assert.Zero(t, allocs, "PlanGoalInto")
	}

	// A generated domain: A* runs its generated search loop.
	cd := courier.CourierDomain
	require.NotNil(t, cd.Search)
	ca := runtime.NewAStar(cd)
	cs := courier.CourierState{Storm: true}
	require.NoError(t, ca.PlanInto(ctx, cs, &p))
	require.NotEmpty(t, p.Steps)
	allocs := testing.AllocsPerRun(100, func() {
		if err := ca.PlanInto(ctx, cs, &p); err != nil {
			t.Fatal(err)
		}
	})
	assert.Zero(t, allocs, "PlanInto with the generated search loop")

	pd := pair()
	as := runtime.NewAStar(pd, runtime.WithUnsatisfiedGoalsHeuristic())
	goals := []runtime.GoalID{goalA, goalB}
	require.NoError(t, as.PlanGoalsInto(ctx, pairState{}, goals, &p))
	allocs = testing.AllocsPerRun(100, func() {
		if err := as.PlanGoalsInto(ctx, pairState{}, goals, &p); err != nil {
			t.Fatal(err)
		}
	})
	assert.Zero(t, allocs, "PlanGoalsInto")
}

func TestThinkWithAStar(t *testing.T) {
	d := soldierDomain()
	s := &soldier{}
	var as runtime.Planner[soldierState] = runtime.NewAStar(d)
	ran, err := runtime.Think(context.Background(), as, s)
	require.NoError(t, err)
	assert.Equal(t, []runtime.ActionID{actFetch, actReload}, ran)
	assert.Equal(t, soldierState{Ammo: 30}, s.soldierState)

	s = &soldier{fetchFails: true}
	_, err = runtime.Think(context.Background(), as, s)
	require.ErrorIs(t, err, runtime.ErrPreconditionStale)
}

// graphState is a position in a small weighted graph.
type graphState struct{ At int }

// graphDomain has one action per edge "from→to" of the given cost, and
// the goal At == goal.
func graphDomain(goal int, edges ...[3]int) *runtime.Domain[graphState] {
	var acts []runtime.Action[graphState]
	for _, e := range edges {
		from, to := e[0], e[1]
		acts = append(acts, runtime.Action[graphState]{
			Name: fmt.Sprintf("%d→%d", from, to), Cost: float64(e[2]),
			Pre:    func(s graphState) bool { return s.At == from },
			Effect: func(s graphState) graphState { s.At = to; return s },
		})
	}
	return runtime.NewDomain(runtime.Domain[graphState]{
		Name:    "Graph",
		Actions: acts,
		Goals:   []runtime.Goal[graphState]{{Name: "There", Cond: func(s graphState) bool { return s.At == goal }}},
	})
}

// TestAStarReopensClosedStates uses an admissible but inconsistent
// estimate: h(A) = 4 is the true cost from A, but h(B) = 0 is more than
// 1 below it although A→B costs 1. A* closes B first by the dear edge
// S→B (3), finds the cheaper way through A afterwards, and must reopen B
// to return the cheapest plan S→A→B→G (5) rather than S→B→G (6).
func TestAStarReopensClosedStates(t *testing.T) {
	const S, A, B, G = 0, 1, 2, 3
	d := graphDomain(G, [3]int{S, A, 1}, [3]int{S, B, 3}, [3]int{A, B, 1}, [3]int{B, G, 3})
	h := func(s graphState, _ []runtime.GoalID) float64 {
		if s.At == A {
			return 4
		}
		return 0
	}
	p, err := runtime.NewAStar(d, runtime.WithHeuristic(h)).PlanGoal(context.Background(), graphState{At: S}, 0)
	require.NoError(t, err)
	assert.Equal(t, []string{"0→1", "1→2", "2→3"}, names(d, p.Steps))
	assert.Equal(t, 5.0, p.Cost)
}

func TestAStarTrace(t *testing.T) {
	var tr runtime.Trace
	d := soldierDomain()
	_, err := runtime.NewAStar(d, runtime.WithTrace(&tr)).Plan(context.Background(), soldierState{})
	require.NoError(t, err)
	assert.Equal(t, `goal Armed: Ammo > 10 does not hold
expand depth 0, cost g=0 h=2
expand depth 1, cost g=1 h=2 after FetchMagazine
  step 1: FetchMagazine
  step 2: Reload
goal Armed holds
`, tr.String())
}

func TestAStarStateBound(t *testing.T) {
	// Survival with an unreachable hunger: every Rest makes a new state.
	d := survival()
	a := runtime.NewAStar(d, runtime.WithAStarMaxStates(500), runtime.WithSearchBudget(1_000_000), runtime.WithMaxSteps(10_000))
	_, err := a.Plan(context.Background(), survivalState{Hunger: 1 << 40})
	var perr *runtime.PlanningError
	require.ErrorAs(t, err, &perr)
	assert.Equal(t, runtime.MaxStatesExceeded, perr.Reason, "the limit hit is the state bound, not the expansion budget")
	assert.ErrorIs(t, err, runtime.ErrMaxStatesExceeded)
	assert.Equal(t, 500, perr.States)
	assert.Equal(t, 500, perr.Limit)
	assert.EqualError(t, err, "rolegen: Survivor: goal Fed: max states exceeded: the search holds 500 states, the limit")
}

// A domain's Enabled, when generated, must give the same plans as one
// precondition call per action.
func TestAStarEnabledAgreesWithPre(t *testing.T) {
	base := survival()
	withBits := runtime.NewDomain(runtime.Domain[survivalState]{
		Name: base.Name, Fields: base.Fields, Actions: base.Actions, Goals: base.Goals,
		Enabled: func(s *survivalState, bits []uint64) {
			var w uint64
			for i, a := range base.Actions {
				if a.Pre == nil || a.Pre(*s) {
					w |= 1 << i
				}
			}
			bits[0] = w
		},
	})
	for _, hunger := range []int{0, 40, 100, 250} {
		s := survivalState{Hunger: hunger, Energy: hunger % 30}
		p1, err1 := runtime.NewAStar(base).Plan(context.Background(), s)
		p2, err2 := runtime.NewAStar(withBits).Plan(context.Background(), s)
		require.Equal(t, err1, err2)
		require.Equal(t, p1.Steps, p2.Steps)
		require.Equal(t, p1.Expansions, p2.Expansions)
	}
	a := runtime.NewAStar(withBits)
	var p runtime.Plan
	require.NoError(t, a.PlanInto(context.Background(), survivalState{Hunger: 100}, &p))
	allocs := testing.AllocsPerRun(50, func() { _ = a.PlanInto(context.Background(), survivalState{Hunger: 100}, &p) })
	assert.Zero(t, allocs)
}

// LowerBound passes its state's address to the domain's Number, a
// function value: it must not make every call allocate that state.
func TestLowerBoundDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates, and makes sync.Pool drop items")
	}
	d := courier.CourierDomain
	s := courier.CourierState{Parcels: 2}
	want := d.LowerBound(courier.CourierGoalBusy, s)
	require.Positive(t, want)
	var got float64
	allocs := testing.AllocsPerRun(100, func() {
		got = d.LowerBound(courier.CourierGoalBusy, s)
	})
	assert.Zero(t, allocs)
	assert.Equal(t, want, got)
}

// A generated domain's search loop ends on each limit as the planner's
// own loop does: the same reason, after the same expansions.
func TestGeneratedSearchStopsAtTheLimits(t *testing.T) {
	d := courier.CourierDomain
	require.NotNil(t, d.Search)
	plain := *d // the same tables, without the generated loop
	plain.Search = nil
	s := courier.CourierState{Storm: true}
	ctx := context.Background()
	for _, c := range []struct {
		name string
		opts []runtime.AStarOption
		want runtime.Reason
	}{
		{"budget", []runtime.AStarOption{runtime.WithSearchBudget(2)}, runtime.SearchBudgetExceeded},
		{"states", []runtime.AStarOption{runtime.WithAStarMaxStates(3)}, runtime.MaxStatesExceeded},
		{"steps", []runtime.AStarOption{runtime.WithMaxSteps(1), runtime.WithUniformCost()}, runtime.MaxStepsExceeded},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := runtime.NewAStar(d, c.opts...).PlanGoal(ctx, s, courier.CourierGoalBusy)
			q, errq := runtime.NewAStar(&plain, c.opts...).PlanGoal(ctx, s, courier.CourierGoalBusy)
			var perr, perrq *runtime.PlanningError
			require.ErrorAs(t, err, &perr)
			require.ErrorAs(t, errq, &perrq)
			assert.Equal(t, c.want, perr.Reason)
			assert.Equal(t, perrq.Reason, perr.Reason)
			assert.Equal(t, q.Expansions, p.Expansions)
			assert.Equal(t, q.Generated, p.Generated)
		})
	}
}

// A goal on a float32 field whose constant float32 cannot hold exactly is
// tested by its condition, not by the field's value as a float64: from
// 16,777,224 one Chill reaches 16,777,220, where Temp <= 16777219 holds
// (Go compares with the constant rounded to float32, 16,777,220), and
// that is the cheapest plan; tested on the float64 interval the search
// would miss it and chill twice.
func TestAStarFloat32GoalOnItsCondition(t *testing.T) {
	d := fridge.FridgeDomain
	require.NotNil(t, d.Search, "the role has a generated search loop")
	s := fridge.FridgeState{Temp: 16777224}
	after := d.Apply(fridge.FridgeChill, s)
	require.True(t, d.Goals[fridge.FridgeGoalCool].Cond(after), "the condition holds after one Chill")
	p, err := runtime.NewAStar(d).PlanGoal(t.Context(), s, fridge.FridgeGoalCool)
	require.NoError(t, err)
	assert.Equal(t, []runtime.ActionID{fridge.FridgeChill}, p.Steps)
	assert.Equal(t, 1.0, p.Cost)
}

// TestAStarResumesWhereItPaused: A* run in parts, as the chainer's
// forward search runs it (begun, then resumed a few expansions at a
// time, between its looks at the bound it is to beat), is the same search as A* run at once: the same
// plan or error, the same expansions and successors, from every 5th
// state of 40 random roles and from the courier's states with its
// generated search loop and without it; and it did pause.
func TestAStarResumesWhereItPaused(t *testing.T) {
	ctx := context.Background()
	same := func(t *testing.T, name string, whole, parts runtime.Plan, errWhole, errParts error, n, turn int) {
		t.Helper()
		assert.Equal(t, errWhole, errParts, name)
		assert.Equal(t, whole.Steps, parts.Steps, name)
		assert.Equal(t, whole.Cost, parts.Cost, name)
		assert.Equal(t, whole.Expansions, parts.Expansions, name)
		assert.Equal(t, whole.Generated, parts.Generated, name)
		assert.GreaterOrEqual(t, n, whole.Expansions/turn, "%s: %d parts of %d expansions", name, n, whole.Expansions)
	}
	r := rand.New(rand.NewPCG(61, 61))
	paused := 0
	for i := range 40 {
		rr := newRandomRole(r, 4, 8, false)
		whole, inParts := runtime.NewAStar(rr.d), runtime.NewAStar(rr.d)
		for k, s := range allRoleStates() {
			if k%5 != 0 {
				continue
			}
			turn := 1 + k%7
			var p, q runtime.Plan
			err := whole.PlanGoalInto(ctx, s, 0, &p)
			n, errq := runtime.PlanGoalInParts(inParts, s, 0, turn, &q)
			same(t, fmt.Sprintf("role %d from %v, turns of %d", i, s.V, turn), p, q, err, errq, n, turn)
			if n > 1 {
				paused++
			}
		}
	}
	assert.Greater(t, paused, 800)
	d := courier.CourierDomain
	plain := *d
	plain.Search = nil
	for _, dom := range []*runtime.Domain[courier.CourierState]{d, &plain} {
		for _, s := range []courier.CourierState{{Storm: true}, {}, {At: courier.Town, Parcels: 1}, {Delivered: 2, Storm: true}} {
			var p, q runtime.Plan
			err := runtime.NewAStar(dom).PlanGoalInto(ctx, s, courier.CourierGoalBusy, &p)
			n, errq := runtime.PlanGoalInParts(runtime.NewAStar(dom), s, courier.CourierGoalBusy, 1, &q)
			same(t, fmt.Sprintf("courier from %+v, generated loop %v", s, dom.Search != nil), p, q, err, errq, n, 1)
		}
	}
}
