package runtime_test

import (
	"context"
	"fmt"
	goruntime "runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
)

// Pathological domains end with the right PlanningError within their
// budget, and without memory growing past it.

type counter struct{ N, M int }

// climb: the goal needs N >= goal, and the only action adds 1.
func climb(goal int, branching int) *runtime.Domain[counter] {
	acts := []runtime.Action[counter]{{
		Name: "Inc", Cost: 1,
		Effect: func(s counter) counter { s.N++; return s },
		Reads:  []runtime.FieldID{0}, Writes: []runtime.FieldID{0},
	}}
	// Many actions that change M only: branching without progress.
	for i := range branching {
		acts = append(acts, runtime.Action[counter]{
			Name: fmt.Sprintf("Noise%d", i), Cost: 1,
			Effect: func(s counter) counter { s.M += i + 1; return s },
			Reads:  []runtime.FieldID{1}, Writes: []runtime.FieldID{1},
		})
	}
	return runtime.NewDomain(runtime.Domain[counter]{
		Name:    "Climb",
		Fields:  []runtime.Field{{Name: "N", Type: "int", Kind: runtime.KindInt}, {Name: "M", Type: "int", Kind: runtime.KindInt}},
		Actions: acts,
		Goals: []runtime.Goal[counter]{{
			Name: "High", CondText: fmt.Sprintf("N >= %d", goal),
			Cond:  func(s counter) bool { return s.N >= goal },
			Reads: []runtime.FieldID{0},
		}},
	})
}

func TestBackwardChainerGoalBeyondBudget(t *testing.T) {
	d := climb(1_000_000, 0)
	// A million steps: longer than the longest plan the chainer returns.
	p, err := runtime.NewBackwardChainer(d, runtime.WithSearchBudget(5_000)).Plan(context.Background(), counter{})
	var perr *runtime.PlanningError
	require.ErrorAs(t, err, &perr)
	assert.Equal(t, runtime.MaxStepsExceeded, perr.Reason)
	assert.ErrorIs(t, err, runtime.ErrMaxStepsExceeded)
	assert.Equal(t, runtime.DefaultMaxSteps, perr.Limit)
	assert.EqualError(t, err, "rolegen: Climb: goal High: max steps exceeded: no plan of at most 64 steps reaches it")
	assert.Empty(t, p.Steps, "no partial plan on failure")

	// With no step limit to speak of, the budget ends it.
	p, err = runtime.NewBackwardChainer(d, runtime.WithSearchBudget(5_000), runtime.WithMaxSteps(1<<30)).Plan(context.Background(), counter{})
	require.ErrorAs(t, err, &perr)
	assert.Equal(t, runtime.SearchBudgetExceeded, perr.Reason)
	assert.Equal(t, "High", perr.GoalName)
	assert.LessOrEqual(t, p.Expansions, 5_001)
	assert.Empty(t, p.Steps, "no partial plan on failure")
}

func TestAStarHugeBranchingStaysWithinBudget(t *testing.T) {
	d := climb(1_000_000, 200)
	var before, after goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&before)
	a := runtime.NewAStar(d, runtime.WithSearchBudget(2_000), runtime.WithMaxSteps(1_000_000))
	p, err := a.Plan(context.Background(), counter{})
	goruntime.ReadMemStats(&after)
	var perr *runtime.PlanningError
	require.ErrorAs(t, err, &perr)
	assert.Equal(t, runtime.SearchBudgetExceeded, perr.Reason)
	assert.Equal(t, 2_000, p.Expansions)
	// 2,000 expansions × 201 successors: some 400k states of 16 bytes,
	// well under the 1,000,000-state bound; memory stays in the tens of MB.
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(200<<20))
}

func TestAStarStateBoundStopsMemory(t *testing.T) {
	d := climb(1_000_000, 200)
	a := runtime.NewAStar(d, runtime.WithSearchBudget(1_000_000), runtime.WithAStarMaxStates(10_000), runtime.WithMaxSteps(1_000_000))
	_, err := a.Plan(context.Background(), counter{})
	var perr *runtime.PlanningError
	require.ErrorAs(t, err, &perr)
	assert.Equal(t, runtime.MaxStatesExceeded, perr.Reason)
	assert.ErrorIs(t, err, runtime.ErrMaxStatesExceeded)
	assert.Equal(t, 10_000, perr.States)
}

func TestAStarExhaustsFiniteSpaceAsUnreachable(t *testing.T) {
	// Flags that only a missing action could set.
	d := runtime.NewDomain(runtime.Domain[counter]{
		Name:   "Stuck",
		Fields: []runtime.Field{{Name: "N", Type: "int", Kind: runtime.KindInt}, {Name: "M", Type: "int", Kind: runtime.KindInt}},
		Actions: []runtime.Action[counter]{{
			Name: "Toggle", Cost: 1,
			Effect: func(s counter) counter { s.M = 1 - s.M; return s },
			Writes: []runtime.FieldID{1},
		}},
		Goals: []runtime.Goal[counter]{{Name: "Set", Cond: func(s counter) bool { return s.N == 1 }, Reads: []runtime.FieldID{0}}},
	})
	_, err := runtime.NewAStar(d).Plan(context.Background(), counter{})
	var perr *runtime.PlanningError
	require.ErrorAs(t, err, &perr)
	assert.Equal(t, runtime.Unreachable, perr.Reason)
	assert.EqualError(t, err, "rolegen: Stuck: goal Set: unreachable: no action can make a failing part of it hold")
	_, err = runtime.NewAStar(d, runtime.WithUniformCost()).Plan(context.Background(), counter{})
	assert.EqualError(t, err, "rolegen: Stuck: goal Set: unreachable: no plan reaches it (2 states searched)")

	_, err = runtime.NewBackwardChainer(d).Plan(context.Background(), counter{})
	require.ErrorIs(t, err, runtime.ErrUnreachable)
}

func TestMutuallyCyclicPreconditions(t *testing.T) {
	// A needs B done, B needs A done; the goal needs both.
	type ab struct{ A, B bool }
	d := runtime.NewDomain(runtime.Domain[ab]{
		Name:   "Knot",
		Fields: []runtime.Field{{Name: "A", Type: "bool", Kind: runtime.KindBool}, {Name: "B", Type: "bool", Kind: runtime.KindBool}},
		Actions: []runtime.Action[ab]{
			{Name: "DoA", Cost: 1, PreText: "B", Pre: func(s ab) bool { return s.B }, PreReads: []runtime.FieldID{1},
				Effect: func(s ab) ab { s.A = true; return s }, Writes: []runtime.FieldID{0}},
			{Name: "DoB", Cost: 1, PreText: "A", Pre: func(s ab) bool { return s.A }, PreReads: []runtime.FieldID{0},
				Effect: func(s ab) ab { s.B = true; return s }, Writes: []runtime.FieldID{1}},
		},
		Goals: []runtime.Goal[ab]{{Name: "Both", Cond: func(s ab) bool { return s.A && s.B }, Reads: []runtime.FieldID{0, 1}}},
	})
	p, err := runtime.NewBackwardChainer(d).Plan(context.Background(), ab{})
	require.ErrorIs(t, err, runtime.ErrCyclicPrecondition)
	// The greedy pass, the leads and the forward search each see the
	// knot at once.
	assert.Less(t, p.Expansions, 16)
	_, err = runtime.NewAStar(d).Plan(context.Background(), ab{})
	require.ErrorIs(t, err, runtime.ErrUnreachable)
}

func TestDeepChainWithHugeBranchingEndsWithinBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole budget of single-threaded search")
	}
	// 60 levels, each precondition served by 60 helpers that all need the
	// level below: the search tree is far larger than the budget.
	const levels, width = 60, 60
	type deep struct{ L [levels]bool }
	var acts []runtime.Action[deep]
	for l := range levels {
		for w := range width {
			act := runtime.Action[deep]{
				Name: fmt.Sprintf("L%dW%d", l, w), Cost: 1,
				Effect: func(s deep) deep { s.L[l] = true; return s },
				Writes: []runtime.FieldID{runtime.FieldID(l)},
			}
			if l > 0 {
				act.PreText = fmt.Sprintf("L%d", l-1)
				act.Pre = func(s deep) bool { return s.L[l-1] && w < 0 } // never holds
				act.PreReads = []runtime.FieldID{runtime.FieldID(l - 1)}
			}
			acts = append(acts, act)
		}
	}
	fields := make([]runtime.Field, levels)
	for i := range fields {
		fields[i] = runtime.Field{Name: fmt.Sprintf("L%d", i), Type: "bool", Kind: runtime.KindBool}
	}
	d := runtime.NewDomain(runtime.Domain[deep]{
		Name: "Deep", Fields: fields, Actions: acts,
		Goals: []runtime.Goal[deep]{{Name: "Top", Cond: func(s deep) bool { return s.L[levels-1] }, Reads: []runtime.FieldID{levels - 1}}},
	})
	p, err := runtime.NewBackwardChainer(d, runtime.WithMaxDepth(256), runtime.WithSearchBudget(20_000)).Plan(context.Background(), deep{})
	var perr *runtime.PlanningError
	require.ErrorAs(t, err, &perr)
	assert.Contains(t, []runtime.Reason{runtime.SearchBudgetExceeded, runtime.Unreachable}, perr.Reason)
	assert.LessOrEqual(t, p.Expansions, 20_001)
}
