package runtime_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
)

// A* bounded by a cost opens no state whose g + h reaches it, the search
// the chainer's improvement runs for a plan cheaper than one it has
// (branch and bound). On random roles, weighed four times: bounded just
// above the cheapest plan's cost, it returns a cheapest plan, where
// unbounded it returns a dearer one now and then; bounded just below,
// it proves that none is cheaper (it runs out of states to open) and
// returns no plan.
func TestAStarBelowABoundOpensOnlyCheaperStates(t *testing.T) {
	ctx := context.Background()
	var p runtime.Plan
	n, dearer := 0, 0
	for _, pr := range roleProblems(43, 120, 12, false) {
		d := pr.rr.d
		free := runtime.NewAStar(d, runtime.WithMaxSteps(8), runtime.WithWeight(4))
		require.NoError(t, free.PlanGoalInto(ctx, pr.start, 0, &p), "role %d from %v", pr.role, pr.start)
		if p.Cost > pr.optimal+1e-9 {
			dearer++
		}
		bounded := runtime.NewAStar(d, runtime.WithMaxSteps(8), runtime.WithWeight(4))
		runtime.SetBelow(bounded, pr.optimal*(1+1e-9))
		require.NoError(t, bounded.PlanGoalInto(ctx, pr.start, 0, &p), "role %d from %v", pr.role, pr.start)
		assert.InDelta(t, pr.optimal, p.Cost, 1e-9, "role %d from %v: %v", pr.role, pr.start, d.Names(p.Steps))
		end, err := d.Simulate(pr.start, p.Steps)
		require.NoError(t, err)
		assert.True(t, d.Holds(0, end), "role %d from %v: %v", pr.role, pr.start, d.Names(p.Steps))

		runtime.SetBelow(bounded, pr.optimal*(1-1e-9))
		err = bounded.PlanGoalInto(ctx, pr.start, 0, &p)
		require.Error(t, err, "role %d from %v: a plan cheaper than the cheapest, %v", pr.role, pr.start, d.Names(p.Steps))
		assert.NotErrorIs(t, err, runtime.ErrSearchBudgetExceeded)
		assert.Empty(t, p.Steps)
		n++
	}
	t.Logf("%d problems; weighed four times without a bound, %d plans dearer than the cheapest", n, dearer)
	assert.Positive(t, dearer, "the bound changed nothing to test")
}
