package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
	"github.com/rolegen/rolegen/runtime/internal/knight"
	"github.com/rolegen/rolegen/runtime/internal/mage"
)

func names[S comparable](d *runtime.Domain[S], steps []runtime.ActionID) []string {
	out := make([]string, len(steps))
	for i, a := range steps {
		out[i] = d.Actions[a].Name
	}
	return out
}

// TestChainerPlansWhatRegressionCannot: the mage's only way to more mana,
// meditating, lets the charge go, so goal regression finds no helper for
// channelling that keeps what it serves; the plan begins with what undoes
// the goal's field. A lead finds it: meditating twice first, the greedy
// pass channels three times (the cheapest plan), where the chainer used
// to say the goal was out of reach. A full charge from one mana needs
// four meditations, more than a lead takes: the forward search over
// states finds the cheapest plan. So for the ward.
func TestChainerPlansWhatRegressionCannot(t *testing.T) {
	d := mage.MageDomain
	var p runtime.Plan
	var tr runtime.Trace
	bc := runtime.NewBackwardChainer(d, runtime.WithTrace(&tr))
	err := bc.PlanGoalInto(t.Context(), mage.MageState{Mana: 1}, mage.MageGoalCharged, &p)
	require.NoError(t, err)
	assert.Equal(t, []string{"Meditate", "Meditate", "Channel", "Channel", "Channel"}, d.Names(p.Steps))
	assert.Equal(t, 7.0, p.Cost)
	assert.Contains(t, tr.String(), "goal Charged: Meditate first, 2 times, then the greedy pass: a plan of 5 steps costing 7")

	err = bc.PlanGoalInto(t.Context(), mage.MageState{Mana: 1, Charge: 1}, mage.MageGoalSurged, &p)
	require.NoError(t, err)
	assert.Equal(t, []string{"Meditate", "Meditate", "Meditate", "Meditate", "Channel", "Channel", "Channel", "Channel", "Channel"}, d.Names(p.Steps))
	assert.Equal(t, 13.0, p.Cost)
	assert.Contains(t, tr.String(), "goal Surged: no greedy plan; search forward: the cheapest plan, of 9 steps")
	assert.NotContains(t, tr.String(), "first,", "no lead reaches it")

	// Without chaining, nothing is searched for it.
	_, err = runtime.NewBackwardChainer(d, runtime.WithoutChaining()).PlanGoal(t.Context(), mage.MageState{Mana: 1}, mage.MageGoalCharged)
	require.Error(t, err)

	// From two rings, no action serves Rings == 1 (widening moves away,
	// erasing sets a value that fails it), so the greedy pass fails at
	// once, with nothing left untried; that proves nothing, and a lead
	// erases: the greedy pass widens.
	err = bc.PlanGoalInto(t.Context(), mage.MageState{Rings: 2}, mage.MageGoalWarded, &p)
	require.NoError(t, err)
	assert.Equal(t, []string{"Erase", "Widen"}, d.Names(p.Steps))
}

func TestSoldierPlan(t *testing.T) {
	d := soldierDomain()
	bc := runtime.NewBackwardChainer(d)
	p, err := bc.Plan(context.Background(), soldierState{})
	require.NoError(t, err)
	assert.Equal(t, []string{"FetchMagazine", "Reload"}, names(d, p.Steps))
	assert.Equal(t, []runtime.GoalID{goalArmed}, p.Goals)
	assert.Equal(t, 3.0, p.Cost)
	require.NoError(t, d.Verify(soldierState{}, &p))
}

func TestSoldierWithMagazineReloadsAtOnce(t *testing.T) {
	d := soldierDomain()
	p, err := runtime.NewBackwardChainer(d).Plan(context.Background(), soldierState{Magazines: 2})
	require.NoError(t, err)
	assert.Equal(t, []string{"Reload"}, names(d, p.Steps))
}

func TestSatisfiedGoalsNeedNoSteps(t *testing.T) {
	d := soldierDomain()
	p, err := runtime.NewBackwardChainer(d).Plan(context.Background(), soldierState{Ammo: 20})
	require.NoError(t, err)
	assert.Empty(t, p.Steps)
	assert.Empty(t, p.Goals)
}

func TestCandidates(t *testing.T) {
	d := soldierDomain()
	bc := runtime.NewBackwardChainer(d)
	assert.Empty(t, bc.Candidates(goalArmed, soldierState{}))
	assert.Equal(t, []runtime.ActionID{actReload}, bc.Candidates(goalArmed, soldierState{Magazines: 1}))
	assert.Equal(t, []runtime.ActionID{actReload}, d.Serves(goalArmed))
	assert.Equal(t, []runtime.ActionID{actFetch, actReload}, d.Helpers(actReload))
}

func TestWithoutChaining(t *testing.T) {
	d := soldierDomain()
	_, err := runtime.NewBackwardChainer(d, runtime.WithoutChaining()).Plan(context.Background(), soldierState{})
	var perr *runtime.PlanningError
	require.ErrorAs(t, err, &perr)
	assert.Equal(t, runtime.Unreachable, perr.Reason)
	assert.Equal(t, goalArmed, perr.Goal)
	assert.Equal(t, actReload, perr.Action)
	assert.Equal(t, "Magazines > 0", perr.Precondition)
	assert.ErrorIs(t, err, runtime.ErrUnreachable)
	assert.EqualError(t, err, `rolegen: Soldier: goal Armed: unreachable: no action can establish "Magazines > 0" for Reload`)
}

// flags is a state of boolean facts for synthetic domains.
type flags struct{ F [16]bool }

func flagField(i int) runtime.FieldID { return runtime.FieldID(i) }

func flagFields(n int) []runtime.Field {
	fs := make([]runtime.Field, n)
	for i := range fs {
		fs[i] = runtime.Field{Name: fmt.Sprintf("F%d", i), Type: "bool", Kind: runtime.KindBool}
	}
	return fs
}

// chain returns a domain where action Ai sets Fi and needs F(i-1), and the
// goal needs F(n-1).
func chain(n int) *runtime.Domain[flags] {
	acts := make([]runtime.Action[flags], n)
	for i := range acts {
		i := i
		acts[i] = runtime.Action[flags]{
			Name:   fmt.Sprintf("A%d", i),
			Effect: func(s flags) flags { s.F[i] = true; return s },
			Cost:   1,
			Writes: []runtime.FieldID{flagField(i)},
		}
		if i > 0 {
			acts[i].Pre = func(s flags) bool { return s.F[i-1] }
			acts[i].PreText = fmt.Sprintf("F%d", i-1)
			acts[i].PreReads = []runtime.FieldID{flagField(i - 1)}
		}
	}
	return runtime.NewDomain(runtime.Domain[flags]{
		Name:    "Chain",
		Fields:  flagFields(16),
		Actions: acts,
		Goals: []runtime.Goal[flags]{{
			Name:  "Done",
			Cond:  func(s flags) bool { return s.F[n-1] },
			Reads: []runtime.FieldID{flagField(n - 1)},
		}},
	})
}

func TestChainWithinDepth(t *testing.T) {
	d := chain(11) // A10 needs 10 helper levels below it
	p, err := runtime.NewBackwardChainer(d).Plan(context.Background(), flags{})
	require.NoError(t, err)
	assert.Equal(t, []string{"A0", "A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "A9", "A10"}, names(d, p.Steps))
}

func TestMaxDepthExceeded(t *testing.T) {
	d := chain(12)
	_, err := runtime.NewBackwardChainer(d).Plan(context.Background(), flags{})
	var perr *runtime.PlanningError
	require.ErrorAs(t, err, &perr)
	assert.Equal(t, runtime.MaxDepthExceeded, perr.Reason)
	assert.ErrorIs(t, err, runtime.ErrMaxDepthExceeded)
	assert.Equal(t, 10, perr.Limit)
	assert.Equal(t, 10, perr.Depth)
	assert.Equal(t, "Done", perr.GoalName)

	p, err := runtime.NewBackwardChainer(d, runtime.WithMaxDepth(11)).Plan(context.Background(), flags{})
	require.NoError(t, err)
	assert.Len(t, p.Steps, 12)
}

// A failure the planner has not seen before allocates nothing either (the
// room for the errors it keeps is made with the planner), the backward
// chainer's or A*'s: an agent whose world moves into a new way of failing
// late in a game makes no garbage.
func TestFailingANewWayDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	ctx := context.Background()
	flag := func(i int) runtime.Goal[flags] {
		return runtime.Goal[flags]{Name: fmt.Sprintf("F%d", i), Cond: func(s flags) bool { return s.F[i] }, Reads: []runtime.FieldID{flagField(i)}}
	}
	d := runtime.NewDomain(runtime.Domain[flags]{
		Name:   "Stuck",
		Fields: flagFields(16),
		Actions: []runtime.Action[flags]{{
			Name: "A", Cost: 1, Writes: []runtime.FieldID{flagField(0)},
			Effect: func(s flags) flags { s.F[0] = true; return s },
			Pre:    func(s flags) bool { return s.F[1] }, PreText: "F1", PreReads: []runtime.FieldID{flagField(1)},
		}},
		Goals: []runtime.Goal[flags]{flag(0), flag(2), flag(3)}, // no action sets F1, F2 or F3
	})
	for name, planner := range map[string]runtime.GoalPlanner[flags]{
		"chainer": runtime.NewBackwardChainer(d),
		"astar":   runtime.NewAStar(d),
	} {
		var p runtime.Plan
		errs := make([]error, 0, 3)
		g := runtime.GoalID(0)
		allocs := testing.AllocsPerRun(1, func() {
			errs = append(errs, planner.PlanGoalInto(ctx, flags{}, g, &p))
			g++
		})
		require.Len(t, errs, 2, name) // AllocsPerRun's warm-up call, and the one it counts
		var first, second *runtime.PlanningError
		require.ErrorAs(t, errs[0], &first, name)
		require.ErrorAs(t, errs[1], &second, name)
		assert.Equal(t, "F0", first.GoalName, name)
		assert.Equal(t, "F2", second.GoalName, name)
		assert.Zero(t, allocs, name)
		// The same failure again: the same error.
		again := planner.PlanGoalInto(ctx, flags{}, 0, &p)
		assert.Same(t, first, again, name)
	}
}

// A goal that fails again the same way gets the error the chainer
// returned before, and allocates nothing: an agent that keeps trying a
// hopeless goal in a game loop must not make garbage.
func TestFailingAgainDoesNotAllocate(t *testing.T) {
	ctx := context.Background()
	bc := runtime.NewBackwardChainer(chain(12))
	var p runtime.Plan
	first := bc.PlanGoalInto(ctx, flags{}, 0, &p)
	var perr *runtime.PlanningError
	require.ErrorAs(t, first, &perr)
	require.Equal(t, runtime.MaxDepthExceeded, perr.Reason)
	text := first.Error()

	var again error
	allocs := testing.AllocsPerRun(100, func() { again = bc.PlanGoalInto(ctx, flags{}, 0, &p) })
	assert.Zero(t, allocs)
	assert.Same(t, perr, again)
	assert.Equal(t, text, again.Error())
	assert.ErrorIs(t, again, runtime.ErrMaxDepthExceeded)

	// Another failure is another error: a shorter chain fails by its budget.
	short := runtime.NewBackwardChainer(chain(8), runtime.WithSearchBudget(5))
	err := short.PlanGoalInto(ctx, flags{}, 0, &p)
	assert.ErrorIs(t, err, runtime.ErrSearchBudgetExceeded)
	assert.NotSame(t, perr, err)
}

func TestMaxDepthIsClamped(t *testing.T) {
	d := chain(16)
	p, err := runtime.NewBackwardChainer(d, runtime.WithMaxDepth(1_000_000)).Plan(context.Background(), flags{})
	require.NoError(t, err)
	assert.Len(t, p.Steps, 16)
	_, err = runtime.NewBackwardChainer(d, runtime.WithMaxDepth(-3)).Plan(context.Background(), flags{})
	assert.ErrorIs(t, err, runtime.ErrMaxDepthExceeded)
}

func TestSearchBudgetExceeded(t *testing.T) {
	d := chain(8)
	_, err := runtime.NewBackwardChainer(d, runtime.WithSearchBudget(5)).Plan(context.Background(), flags{})
	var perr *runtime.PlanningError
	require.ErrorAs(t, err, &perr)
	assert.Equal(t, runtime.SearchBudgetExceeded, perr.Reason)
	assert.Equal(t, 5, perr.Limit)
	assert.ErrorIs(t, err, runtime.ErrSearchBudgetExceeded)
	assert.Equal(t, "Done", perr.GoalName)
}

func TestUnreachableWithoutCandidates(t *testing.T) {
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
	_, err := runtime.NewBackwardChainer(d).Plan(context.Background(), flags{})
	var perr *runtime.PlanningError
	require.ErrorAs(t, err, &perr)
	assert.Equal(t, runtime.Unreachable, perr.Reason)
	assert.Equal(t, runtime.NoAction, perr.Action)
	assert.EqualError(t, err, "rolegen: Empty: goal Lit: unreachable: no action can make a failing part of it hold")
}

func TestCyclicPrecondition(t *testing.T) {
	// Without FetchMagazine the only action that writes Magazines is
	// Reload itself.
	full := soldierDomain()
	d := runtime.NewDomain(runtime.Domain[soldierState]{
		Name:    "Soldier",
		Fields:  full.Fields,
		Actions: full.Actions[actReload:],
		Goals:   []runtime.Goal[soldierState]{full.Goals[0]},
	})
	d.Actions[0].Fulfills = []runtime.GoalID{0}
	_, err := runtime.NewBackwardChainer(d).Plan(context.Background(), soldierState{})
	var perr *runtime.PlanningError
	require.ErrorAs(t, err, &perr)
	assert.Equal(t, runtime.CyclicPrecondition, perr.Reason)
	assert.Equal(t, "Reload", perr.ActionName)
	assert.ErrorIs(t, err, runtime.ErrCyclicPrecondition)
	assert.EqualError(t, err, `rolegen: Soldier: goal Armed: cyclic precondition: establishing "Magazines > 0" for Reload needs Reload itself`)
}

func TestCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d := chain(16)
	_, err := runtime.NewBackwardChainer(d, runtime.WithMaxDepth(256), runtime.WithSearchBudget(1_000_000)).
		Plan(ctx, flags{})
	// Small searches may finish before the first context check; a long
	// one must stop.
	if err != nil {
		assert.ErrorIs(t, err, context.Canceled)
	}
	big := survival()
	_, err = runtime.NewBackwardChainer(big, runtime.WithSearchBudget(1_000_000)).Plan(ctx, survivalState{Hunger: 1_000_000})
	require.ErrorIs(t, err, context.Canceled)
}

// survival: eat lowers hunger and needs food; forage makes food and needs
// energy; rest restores energy.
type survivalState struct{ Hunger, Food, Energy int }

func survival() *runtime.Domain[survivalState] {
	return runtime.NewDomain(runtime.Domain[survivalState]{
		Name: "Survivor",
		Fields: []runtime.Field{
			{Name: "Hunger", Type: "int", Kind: runtime.KindInt},
			{Name: "Food", Type: "int", Kind: runtime.KindInt},
			{Name: "Energy", Type: "int", Kind: runtime.KindInt},
		},
		Actions: []runtime.Action[survivalState]{
			{
				Name: "Eat", Cost: 1, PreText: "Food > 0",
				Pre:      func(s survivalState) bool { return s.Food > 0 },
				Effect:   func(s survivalState) survivalState { s.Hunger, s.Food = s.Hunger-30, s.Food-1; return s },
				PreReads: []runtime.FieldID{1}, Reads: []runtime.FieldID{0, 1}, Writes: []runtime.FieldID{0, 1},
				Fulfills: []runtime.GoalID{0},
			},
			{
				Name: "Forage", Cost: 2, PreText: "Energy > 10",
				Pre:      func(s survivalState) bool { return s.Energy > 10 },
				Effect:   func(s survivalState) survivalState { s.Food, s.Energy = s.Food+1, s.Energy-10; return s },
				PreReads: []runtime.FieldID{2}, Reads: []runtime.FieldID{1, 2}, Writes: []runtime.FieldID{1, 2},
			},
			{
				Name: "Rest", Cost: 1,
				Effect: func(s survivalState) survivalState { s.Energy += 30; return s },
				Reads:  []runtime.FieldID{2}, Writes: []runtime.FieldID{2},
			},
		},
		Goals: []runtime.Goal[survivalState]{{
			Name: "Fed", Cond: func(s survivalState) bool { return s.Hunger < 10 }, CondText: "Hunger < 10",
			Reads: []runtime.FieldID{0},
		}},
	})
}

func TestSurvivalChainsHelpersRepeatedly(t *testing.T) {
	d := survival()
	p, err := runtime.NewBackwardChainer(d).Plan(context.Background(), survivalState{Hunger: 100})
	require.NoError(t, err)
	// Energy runs out after two forages: the chainer rests again.
	assert.Equal(t, []string{
		"Rest", "Forage", "Eat", "Forage", "Eat",
		"Rest", "Forage", "Eat", "Forage", "Eat",
	}, names(d, p.Steps))
	require.NoError(t, d.Verify(survivalState{Hunger: 100}, &p))
}

func TestPlanIsDeterministic(t *testing.T) {
	d := survival()
	first, err := runtime.NewBackwardChainer(d).Plan(context.Background(), survivalState{Hunger: 250})
	require.NoError(t, err)
	for range 20 {
		p, err := runtime.NewBackwardChainer(d).Plan(context.Background(), survivalState{Hunger: 250})
		require.NoError(t, err)
		require.Equal(t, first.Steps, p.Steps)
	}
}

func TestPlanIntoDoesNotAllocate(t *testing.T) {
	d := survival()
	bc := runtime.NewBackwardChainer(d)
	var p runtime.Plan
	ctx := context.Background()
	require.NoError(t, bc.PlanInto(ctx, survivalState{Hunger: 100}, &p))
	allocs := testing.AllocsPerRun(100, func() {
		if err := bc.PlanInto(ctx, survivalState{Hunger: 100}, &p); err != nil {
			t.Fatal(err)
		}
	})
	assert.Zero(t, allocs)

	sd := soldierDomain()
	sbc := runtime.NewBackwardChainer(sd)
	require.NoError(t, sbc.PlanInto(ctx, soldierState{}, &p))
	allocs = testing.AllocsPerRun(100, func() {
		if err := sbc.PlanInto(ctx, soldierState{}, &p); err != nil {
			t.Fatal(err)
		}
	})
	assert.Zero(t, allocs)
}

func TestErrorsIsMatchesOnlyItsReason(t *testing.T) {
	err := error(&runtime.PlanningError{Reason: runtime.CyclicPrecondition, Goal: runtime.NoGoal, Action: runtime.NoAction})
	assert.True(t, errors.Is(err, runtime.ErrCyclicPrecondition))
	assert.False(t, errors.Is(err, runtime.ErrUnreachable))
}

func TestTraceExplainsThePlan(t *testing.T) {
	var tr runtime.Trace
	d := soldierDomain()
	_, err := runtime.NewBackwardChainer(d, runtime.WithTrace(&tr)).Plan(context.Background(), soldierState{})
	require.NoError(t, err)
	assert.Equal(t, `goal Armed: Ammo > 10 does not hold
  try Reload
  Reload: precondition "Magazines > 0" fails, chaining helpers
    try FetchMagazine
    step 1: FetchMagazine
  step 2: Reload
goal Armed holds
`, tr.String())

	// Without FetchMagazine, the trace says why the goal fails.
	full := soldierDomain()
	only := runtime.NewDomain(runtime.Domain[soldierState]{
		Name: "Soldier", Fields: full.Fields, Actions: full.Actions[actReload:],
		Goals: []runtime.Goal[soldierState]{full.Goals[0]},
	})
	only.Actions[0].Fulfills = []runtime.GoalID{0}
	_, err = runtime.NewBackwardChainer(only, runtime.WithTrace(&tr)).Plan(context.Background(), soldierState{})
	require.Error(t, err)
	assert.Equal(t, `goal Armed: Ammo > 10 does not hold
  try Reload
  Reload: precondition "Magazines > 0" fails, chaining helpers
    skip Reload: already being established (cycle)
  reject Reload: cyclic precondition
goal Armed: no greedy plan; search forward: no plan, after 1 state
goal Armed fails: rolegen: Soldier: goal Armed: cyclic precondition: establishing "Magazines > 0" for Reload needs Reload itself
`, tr.String())
}

func TestRejectedBranchesDoNotAllocate(t *testing.T) {
	// Two candidates for the goal: the first needs a key nobody can make,
	// the second works. Every plan rejects the first branch.
	type door struct{ Open, Key bool }
	d := runtime.NewDomain(runtime.Domain[door]{
		Name:   "Door",
		Fields: []runtime.Field{{Name: "Open", Type: "bool", Kind: runtime.KindBool}, {Name: "Key", Type: "bool", Kind: runtime.KindBool}},
		Actions: []runtime.Action[door]{
			{Name: "Unlock", Cost: 1, PreText: "Key", Pre: func(s door) bool { return s.Key }, PreReads: []runtime.FieldID{1},
				Effect: func(s door) door { s.Open = true; return s }, Writes: []runtime.FieldID{0}},
			{Name: "Kick", Cost: 5,
				Effect: func(s door) door { s.Open = true; return s }, Writes: []runtime.FieldID{0}},
		},
		Goals: []runtime.Goal[door]{{Name: "Through", Cond: func(s door) bool { return s.Open }, Reads: []runtime.FieldID{0}}},
	})
	bc := runtime.NewBackwardChainer(d)
	var p runtime.Plan
	ctx := context.Background()
	require.NoError(t, bc.PlanInto(ctx, door{}, &p))
	require.Equal(t, []string{"Kick"}, names(d, p.Steps))
	allocs := testing.AllocsPerRun(100, func() {
		if err := bc.PlanInto(ctx, door{}, &p); err != nil {
			t.Fatal(err)
		}
	})
	assert.Zero(t, allocs)
}

// seesaw: DoB makes B and undoes A; DoA makes A again, but only while
// restorable (a precondition that B ends when false).
func seesaw(restorable bool) *runtime.Domain[pairState] {
	doA := runtime.Action[pairState]{Name: "DoA", Cost: 1, Effect: func(s pairState) pairState { s.A = true; return s },
		Writes: []runtime.FieldID{0}, Fulfills: []runtime.GoalID{goalA}}
	if !restorable {
		doA.Pre, doA.PreText, doA.PreReads = func(s pairState) bool { return !s.B }, "!B", []runtime.FieldID{1}
	}
	return runtime.NewDomain(runtime.Domain[pairState]{
		Name: "Seesaw",
		Fields: []runtime.Field{
			{Name: "A", Type: "bool", Kind: runtime.KindBool},
			{Name: "B", Type: "bool", Kind: runtime.KindBool},
			{Name: "Ready", Type: "bool", Kind: runtime.KindBool},
		},
		Actions: []runtime.Action[pairState]{
			doA,
			{Name: "DoB", Cost: 1, Effect: func(s pairState) pairState { s.A, s.B = false, true; return s },
				Writes: []runtime.FieldID{0, 1}, Fulfills: []runtime.GoalID{goalB}},
		},
		Goals: []runtime.Goal[pairState]{
			{Name: "GA", Priority: runtime.High, Cond: func(s pairState) bool { return s.A }, Reads: []runtime.FieldID{0}},
			{Name: "GB", Priority: runtime.Normal, Cond: func(s pairState) bool { return s.B }, Reads: []runtime.FieldID{1}},
		},
	})
}

// When the only way to a goal undoes a goal of higher priority for good,
// the error names the action and the goal it would undo.
func TestBackwardNamesTheGoalACandidateWouldUndo(t *testing.T) {
	d := seesaw(false)
	plan, err := runtime.NewBackwardChainer(d).Plan(context.Background(), pairState{})
	var perr *runtime.PlanningError
	require.ErrorAs(t, err, &perr)
	assert.Equal(t, runtime.Unreachable, perr.Reason)
	assert.Equal(t, "GB", perr.GoalName)
	assert.Equal(t, "DoB", perr.ActionName)
	assert.Equal(t, "GA", perr.Undoes)
	assert.Equal(t, "rolegen: Seesaw: goal GB: unreachable: DoB would undo goal GA of higher priority", err.Error())
	assert.Equal(t, []runtime.ActionID{0}, plan.Steps, "GA is still planned")
}

// A step may undo a goal of higher priority when later steps of the same
// goal restore it: at the end of the goal's steps, both hold.
func TestBackwardRestoresAGoalOfHigherPriority(t *testing.T) {
	d := seesaw(true)
	plan, err := runtime.NewBackwardChainer(d).Plan(context.Background(), pairState{})
	require.NoError(t, err)
	assert.Equal(t, []string{"DoA", "DoB", "DoA"}, names(d, plan.Steps))
	assert.Equal(t, []runtime.GoalID{goalA, goalB}, plan.Goals)
}

// The rescue reuses its search space: in steady state it allocates
// nothing either.
func TestRescueDoesNotAllocate(t *testing.T) {
	d := seesaw(true) // the greedy pass refuses to undo GA; the rescue restores it
	bc := runtime.NewBackwardChainer(d)
	var p runtime.Plan
	ctx := context.Background()
	require.NoError(t, bc.PlanInto(ctx, pairState{}, &p))
	require.Equal(t, []string{"DoA", "DoB", "DoA"}, names(d, p.Steps))
	allocs := testing.AllocsPerRun(100, func() {
		if err := bc.PlanInto(ctx, pairState{}, &p); err != nil {
			t.Fatal(err)
		}
	})
	assert.Zero(t, allocs)
}

// A saturating field that the live state has far outside its range lands
// in it at the first write: from Health -100 in 0..100, the first Rest
// (+10) leaves 0 and five more make 50, cost 6, where counting from -100
// the chainer would guess 15 rests and drink the potion (8).
func TestChainerCountsStepsFromOutsideTheRange(t *testing.T) {
	d := knight.KnightDomain
	ctx := t.Context()
	for _, h := range []int{-100, -5000, 0, 20} {
		s := knight.KnightState{Health: h}
		want, err := runtime.NewAStar(d).PlanGoal(ctx, s, knight.KnightGoalFit)
		require.NoError(t, err)
		got, err := runtime.NewBackwardChainer(d).PlanGoal(ctx, s, knight.KnightGoalFit)
		require.NoError(t, err)
		assert.Equal(t, want.Cost, got.Cost, "from Health %d: %v against A*'s %v", h, names(d, got.Steps), names(d, want.Steps))
	}
	p, err := runtime.NewBackwardChainer(d).PlanGoal(ctx, knight.KnightState{Health: -100}, knight.KnightGoalFit)
	require.NoError(t, err)
	assert.Equal(t, []string{"Rest", "Rest", "Rest", "Rest", "Rest", "Rest"}, names(d, p.Steps))
}

// A trader who must buy what she sells, in another market, buys enough
// for the gold she lacks at what a trip nets, not at what a sale brings:
// selling at 3 what she buys at 1 brings 2 a bolt, so five more gold is
// three bolts in one trip, where counting 3 a bolt bought two and made a
// second trip for the last.
func TestChainerBuysForWhatATripNets(t *testing.T) {
	rr := trader(3, 1, 15)
	assertChainerCheapest(t, rr, roleState{V: [roleFields]int{10, 0, 1}}, 12)
}

// The first sale of a trip's bolts need not make up what buying them all
// cost; the trip must: bought at 5 and sold at 9, three bolts take a
// trader from 30 gold to 42, though the first sale leaves her at 24.
func TestChainerJudgesATripByItsLastSale(t *testing.T) {
	work := roleAction{cost: 2, pre: []roleLit{{f: 2, op: runtime.CmpEq, k: 1}}, eff: []roleEffect{{f: 0, add: true, k: 1}}}
	rr := trader(9, 5, 40, work)
	assertChainerCheapest(t, rr, roleState{V: [roleFields]int{30, 0, 1}}, 12)
}

// A trader with the gold for one bolt compounds: she buys the bolt, sells
// it, and comes back for two, then four. Her greedy pass batched the
// sales for the gold she lacks and chained a way to the gold for the
// bolts they need, which is what the sales were for: it failed, and the
// rescue searched. It now buys what the gold at hand buys, and plans the
// cheapest plan alone.
func TestChainerCompoundsATrade(t *testing.T) {
	rr := trader(4, 2, 40)
	start := roleState{V: [roleFields]int{2, 0, 0}}
	var ref, p runtime.Plan
	var tr runtime.Trace
	require.NoError(t, runtime.NewAStar(rr.d).PlanGoalInto(context.Background(), start, 0, &ref))
	require.NoError(t, runtime.NewBackwardChainer(rr.d, runtime.WithImprovement(0), runtime.WithTrace(&tr)).PlanGoalInto(context.Background(), start, 0, &p))
	assert.Equal(t, 65.0, ref.Cost, "A*: %v", names(rr.d, ref.Steps))
	assert.Equal(t, ref.Cost, p.Cost, "the chainer: %v", names(rr.d, p.Steps))
	trace := tr.String()
	assert.False(t, strings.Contains(trace, "no greedy plan"), "the greedy pass plans it")
	assert.True(t, strings.Contains(trace, "batched for 1 of"), "the first sale is of the bolt the gold at hand buys")
}

// trader is a role that sells bolts for sell gold and buys them for buy,
// in two markets three apart, with more actions besides, and wants gold
// gold: V0 is her gold, V1 her bolts, V2 the market she is at (0 buys, 1
// sells).
func trader(sell, buy, gold int, more ...roleAction) *randomRole {
	actions := []roleAction{
		{cost: 1, pre: []roleLit{{f: 2, op: runtime.CmpEq, k: 1}, {f: 1, op: runtime.CmpGe, k: 1}},
			eff: []roleEffect{{f: 0, add: true, k: sell}, {f: 1, add: true, k: -1}}},
		{cost: 1, pre: []roleLit{{f: 2, op: runtime.CmpEq, k: 0}, {f: 0, op: runtime.CmpGe, k: buy}},
			eff: []roleEffect{{f: 1, add: true, k: 1}, {f: 0, add: true, k: -buy}}},
		{cost: 3, pre: []roleLit{{f: 2, op: runtime.CmpNe, k: 0}}, eff: []roleEffect{{f: 2, k: 0}}},
		{cost: 3, pre: []roleLit{{f: 2, op: runtime.CmpNe, k: 1}}, eff: []roleEffect{{f: 2, k: 1}}},
	}
	rr := &randomRole{nf: 3, actions: append(actions, more...), goal: []roleLit{{f: 0, op: runtime.CmpGe, k: gold}}}
	rr.d = rr.domain()
	return rr
}

// assertChainerCheapest holds A*'s plan for rr's goal from start to cost
// want, and the chainer's to A*'s cost.
func assertChainerCheapest(t *testing.T, rr *randomRole, start roleState, want float64) {
	t.Helper()
	var ref, p runtime.Plan
	require.NoError(t, runtime.NewAStar(rr.d).PlanGoalInto(context.Background(), start, 0, &ref))
	require.NoError(t, runtime.NewBackwardChainer(rr.d).PlanGoalInto(context.Background(), start, 0, &p))
	assert.Equal(t, want, ref.Cost, "A*: %v", names(rr.d, ref.Steps))
	assert.Equal(t, ref.Cost, p.Cost, "the chainer: %v", names(rr.d, p.Steps))
}
