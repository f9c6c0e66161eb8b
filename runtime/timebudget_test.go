package runtime_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
)

// A time budget already spent when the planners first read the clock
// (one nanosecond: they read it at the 16th expansion) stops every call
// that gets that far, and no other, on random roles. The chainer then
// returns the plan it has, never cheaper than the one it returns without
// the budget (the same search, cut short), or fails with
// TimeBudgetExceeded when it has none yet; A*, whose plan is its search's
// end, fails. A call that ends before the clock is read is the call
// without the budget.
func TestTimeBudgetCutsCallsShort(t *testing.T) {
	ctx := context.Background()
	var full, cut runtime.Plan
	var same, dearer, failed, astarSame, astarFailed int
	var cutShort []roleProblem // a dearer plan, a failure
	for _, pr := range roleProblems(41, 120, 12, false) {
		d := pr.rr.d
		errFull := runtime.NewBackwardChainer(d).PlanGoalInto(ctx, pr.start, 0, &full)
		errCut := runtime.NewBackwardChainer(d, runtime.WithTimeBudget(time.Nanosecond)).PlanGoalInto(ctx, pr.start, 0, &cut)
		switch {
		case full.Expansions < 16:
			require.Equal(t, errFull, errCut, "role %d from %v", pr.role, pr.start)
			require.Equal(t, full.Steps, cut.Steps, "role %d from %v", pr.role, pr.start)
			same++
		case errCut != nil:
			require.ErrorIs(t, errCut, runtime.ErrTimeBudgetExceeded, "role %d from %v", pr.role, pr.start)
			assert.Contains(t, errCut.Error(), "time budget of 1ns exceeded before a plan was found")
			assert.Empty(t, cut.Steps)
			if failed == 0 {
				cutShort = append(cutShort, pr)
			}
			failed++
		default:
			require.NoError(t, errFull, "role %d from %v", pr.role, pr.start)
			end, err := d.Simulate(pr.start, cut.Steps)
			require.NoError(t, err, "role %d from %v", pr.role, pr.start)
			require.True(t, d.Holds(0, end), "role %d from %v: %v", pr.role, pr.start, d.Names(cut.Steps))
			require.GreaterOrEqual(t, cut.Cost, full.Cost-1e-9, "role %d from %v", pr.role, pr.start)
			if cut.Cost > full.Cost+1e-9 {
				if dearer == 0 {
					cutShort = append(cutShort, pr)
				}
				dearer++
			}
		}

		errFull = runtime.NewAStar(d).PlanGoalInto(ctx, pr.start, 0, &full)
		require.NoError(t, errFull)
		errCut = runtime.NewAStar(d, runtime.WithTimeBudget(time.Nanosecond)).PlanGoalInto(ctx, pr.start, 0, &cut)
		if full.Expansions < 16 {
			require.NoError(t, errCut, "role %d from %v", pr.role, pr.start)
			require.Equal(t, full.Steps, cut.Steps, "role %d from %v", pr.role, pr.start)
			astarSame++
			continue
		}
		require.ErrorIs(t, errCut, runtime.ErrTimeBudgetExceeded, "role %d from %v", pr.role, pr.start)
		var perr *runtime.PlanningError
		require.ErrorAs(t, errCut, &perr)
		assert.Equal(t, time.Nanosecond, perr.TimeBudget)
		assert.Equal(t, 16, cut.Expansions, "the clock is read at the 16th expansion")
		astarFailed++
	}
	t.Logf("chainer: %d the same, %d dearer plans, %d failed; A*: %d the same, %d failed", same, dearer, failed, astarSame, astarFailed)
	assert.Positive(t, same)
	assert.Positive(t, dearer, "no call returned the plan it had when its time ran out")
	assert.Positive(t, failed, "no call ran out of time before its first plan")
	assert.Positive(t, astarSame)
	assert.Positive(t, astarFailed)

	// Reading the clock allocates nothing, nor does a call it ends.
	if raceEnabled {
		return // the race detector allocates
	}
	for _, pr := range cutShort {
		bc := runtime.NewBackwardChainer(pr.rr.d, runtime.WithTimeBudget(time.Nanosecond))
		as := runtime.NewAStar(pr.rr.d, runtime.WithTimeBudget(time.Nanosecond))
		_ = bc.PlanGoalInto(ctx, pr.start, 0, &cut)
		_ = as.PlanGoalInto(ctx, pr.start, 0, &cut)
		assert.Zero(t, testing.AllocsPerRun(20, func() {
			_ = bc.PlanGoalInto(ctx, pr.start, 0, &cut)
			_ = as.PlanGoalInto(ctx, pr.start, 0, &cut)
		}), "role %d from %v", pr.role, pr.start)
	}
}

// A budget that does not run out changes nothing: the same plans, found
// with the same expansions.
func TestTimeBudgetNotSpentChangesNothing(t *testing.T) {
	ctx := context.Background()
	var a, b runtime.Plan
	for _, pr := range roleProblems(43, 40, 8, false) {
		d := pr.rr.d
		errA := runtime.NewBackwardChainer(d).PlanGoalInto(ctx, pr.start, 0, &a)
		errB := runtime.NewBackwardChainer(d, runtime.WithTimeBudget(time.Hour)).PlanGoalInto(ctx, pr.start, 0, &b)
		require.Equal(t, errA, errB)
		require.Equal(t, a.Steps, b.Steps)
		require.Equal(t, a.Expansions, b.Expansions)
		require.NoError(t, runtime.NewAStar(d).PlanGoalInto(ctx, pr.start, 0, &a))
		require.NoError(t, runtime.NewAStar(d, runtime.WithTimeBudget(time.Hour)).PlanGoalInto(ctx, pr.start, 0, &b))
		require.Equal(t, a.Steps, b.Steps)
		require.Equal(t, a.Expansions, b.Expansions)
	}
}
