package runtime_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
	"github.com/rolegen/rolegen/runtime/internal/scout"
)

// WithMaxBackoff caps the wait of a goal that cannot be planned: waits of
// 1, 2, 4, 8 ticks, then 8 ticks each, so about T/8 calls over T ticks
// where the default makes about log2(T).
func TestWithMaxBackoffCapsTheWait(t *testing.T) {
	ctx := t.Context()
	s := &scout.Scout{Pos: scout.Forest, Market: true}
	p := &counting{GoalPlanner: runtime.NewBackwardChainer(scout.ScoutDomain, runtime.WithSearchBudget(1))}
	rec := &recorder{}
	a := runtime.NewAgent(p, s, runtime.WithMaxBackoff(8), runtime.WithAgentObserver(rec.observe))
	for range 1000 {
		a.Tick(ctx)
	}
	require.ErrorIs(t, p.lastErr, runtime.ErrSearchBudgetExceeded)
	assert.InDelta(t, 1000/8, p.calls, 6)
	for _, v := range rec.events(runtime.EventPlanFailed) {
		assert.LessOrEqual(t, v.RetryAt-v.Tick, uint64(8), "tick %d", v.Tick)
	}
}

// WithAgentID is the ID a lone agent's views carry.
func TestWithAgentIDNamesTheViews(t *testing.T) {
	s := &scout.Scout{Hunger: 80, Food: 1}
	rec := &recorder{}
	a := runtime.NewAgent(runtime.NewBackwardChainer(scout.ScoutDomain), s,
		runtime.WithAgentID(7), runtime.WithAgentObserver(rec.observe))
	a.Tick(t.Context())
	assert.Equal(t, 7, a.View().ID)
	require.NotEmpty(t, rec.views)
	for _, v := range rec.views {
		assert.Equal(t, 7, v.ID)
	}
}

// WithBlindHeuristic keeps A* optimal (it is admissible), at the price of
// expansions: on random roles, the optimal cost on every problem, and
// more expansions in all than the default estimate (so it is not the
// default).
func TestWithBlindHeuristicIsOptimal(t *testing.T) {
	ctx := context.Background()
	var p runtime.Plan
	var blind, derived int
	problems := roleProblems(21, 60, 8, false)
	require.Greater(t, len(problems), 100)
	for _, pr := range problems {
		as := runtime.NewAStar(pr.rr.d, runtime.WithMaxSteps(8), runtime.WithBlindHeuristic())
		require.NoError(t, as.PlanGoalInto(ctx, pr.start, 0, &p))
		assert.InDelta(t, pr.optimal, p.Cost, 1e-9, "role %d from %v", pr.role, pr.start)
		blind += p.Expansions
		require.NoError(t, runtime.NewAStar(pr.rr.d, runtime.WithMaxSteps(8)).PlanGoalInto(ctx, pr.start, 0, &p))
		derived += p.Expansions
	}
	assert.Greater(t, blind, derived, "the blind estimate expands more than the derived one")
}

// WithImprovement(0) returns the greedy pass's first plan; the default
// lets the improvement look for a cheaper one, bounded by it: never
// dearer, and on random roles cheaper on some starts.
func TestWithImprovementFindsCheaperPlans(t *testing.T) {
	ctx := context.Background()
	var first, improved runtime.Plan
	cheaper := 0
	for _, pr := range roleProblems(5, 200, 8, false) {
		errFirst := runtime.NewBackwardChainer(pr.rr.d, runtime.WithImprovement(0)).PlanGoalInto(ctx, pr.start, 0, &first)
		errImproved := runtime.NewBackwardChainer(pr.rr.d).PlanGoalInto(ctx, pr.start, 0, &improved)
		if errFirst != nil || errImproved != nil {
			continue
		}
		require.LessOrEqual(t, improved.Cost, first.Cost+1e-9, "role %d from %v", pr.role, pr.start)
		if improved.Cost < first.Cost-1e-9 {
			cheaper++
		}
	}
	assert.Positive(t, cheaper, "the improvement never found a cheaper plan")
}
