package runtime_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
)

// travel: walk (cost 2 + Distance/10) or take the cart (cost 5); the goal
// is to arrive. Distance is 100 in one state and 10 in another: the
// cheapest way depends on the state.
type travelState struct {
	Distance int
	Arrived  bool
}

func travel(walk func(travelState) float64) *runtime.Domain[travelState] {
	return runtime.NewDomain(runtime.Domain[travelState]{
		Name: "Traveller",
		Fields: []runtime.Field{
			{Name: "Distance", Type: "int", Kind: runtime.KindInt},
			{Name: "Arrived", Type: "bool", Kind: runtime.KindBool},
		},
		Actions: []runtime.Action[travelState]{
			{Name: "Walk", Cost: 2, CostOf: walk, Weight: 1,
				Effect: func(s travelState) travelState { s.Arrived = true; return s },
				Reads:  []runtime.FieldID{0}, Writes: []runtime.FieldID{1},
				Changes: []runtime.Change{{Field: 1, Op: runtime.ChangeSet, Num: 1}}},
			{Name: "Cart", Cost: 5, Weight: 1,
				Effect: func(s travelState) travelState { s.Arrived = true; return s },
				Writes: []runtime.FieldID{1}, Changes: []runtime.Change{{Field: 1, Op: runtime.ChangeSet, Num: 1}}},
		},
		Goals: []runtime.Goal[travelState]{{
			Name: "There", Cond: func(s travelState) bool { return s.Arrived }, CondText: "Arrived",
			Reads: []runtime.FieldID{1}, Parts: []runtime.Part{{Reads: []runtime.FieldID{1}, Cmp: runtime.CmpEq, Field: 1, Num: 1}},
		}},
	})
}

func TestCostsThatDependOnTheState(t *testing.T) {
	d := travel(func(s travelState) float64 { return 2 + float64(s.Distance)/10 })
	ctx := context.Background()
	for _, tc := range []struct {
		distance int
		want     string
		cost     float64
	}{{100, "Cart", 5}, {10, "Walk", 3}} {
		s := travelState{Distance: tc.distance}
		p, err := runtime.NewAStar(d).PlanGoal(ctx, s, 0)
		require.NoError(t, err)
		assert.Equal(t, []string{tc.want}, names(d, p.Steps), "A* from distance %d", tc.distance)
		assert.Equal(t, tc.cost, p.Cost)

		// The backward chainer prices its plan with the state's cost too.
		bp, err := runtime.NewBackwardChainer(d).PlanGoal(ctx, s, 0)
		require.NoError(t, err)
		want, err := d.PathCost(s, bp.Steps)
		require.NoError(t, err)
		assert.Equal(t, want, bp.Cost)
	}
}

func TestCostThatIsNotPositiveIsAnError(t *testing.T) {
	d := travel(func(s travelState) float64 { return 2 - float64(s.Distance)/10 })
	ctx := context.Background()
	s := travelState{Distance: 30} // Walk costs -1 here
	_, err := runtime.NewAStar(d).PlanGoal(ctx, s, 0)
	var perr *runtime.PlanningError
	require.ErrorAs(t, err, &perr)
	assert.Equal(t, runtime.InvalidCost, perr.Reason)
	assert.Equal(t, "Walk", perr.ActionName)
	assert.Equal(t, -1.0, perr.Cost)
	assert.ErrorIs(t, err, runtime.ErrInvalidCost)
	assert.EqualError(t, err, "rolegen: Traveller: goal There: invalid cost: Walk costs -1 in a state where it was considered; a cost must be positive")

	// The chainer takes Walk (declared first); its plan fails to price.
	_, err = runtime.NewBackwardChainer(d).PlanGoal(ctx, s, 0)
	require.ErrorIs(t, err, runtime.ErrInvalidCost)

	// Where Walk costs 1, all is well.
	p, err := runtime.NewAStar(d).PlanGoal(ctx, travelState{Distance: 10}, 0)
	require.NoError(t, err)
	assert.Equal(t, 1.0, p.Cost)
}
