package runtime_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
)

// rows returns the rows of s as "planner goal outcome calls expansions".
func rows(s *runtime.Stats) []string {
	var out []string
	s.Each(func(r runtime.StatsRow) {
		goal := r.GoalName
		if r.Goal == runtime.NoGoal {
			goal = "-"
		}
		out = append(out, fmt.Sprintf("%s %s %s calls=%d expansions=%d", r.Planner, goal, r.Outcome(), r.Calls, r.Expansions))
		if r.Calls > 0 {
			// Durations are the clock's; they add up.
			if r.Duration < 0 {
				panic("negative duration")
			}
		}
	})
	return out
}

// Stats counts the calls of each planner by goal and outcome, with the
// work they did; Think's own outcome is counted apart.
func TestStatsCountCallsByPlannerGoalAndOutcome(t *testing.T) {
	d := soldierDomain()
	stats := runtime.NewStats(d)
	ctx := context.Background()
	var p runtime.Plan

	// The counts add up the calls' own: the stats are checked against
	// the plans, not against a number of expansions a search happens to
	// make.
	bc := runtime.NewBackwardChainer(d, runtime.WithStats(stats))
	chained := 0
	for range 3 {
		require.NoError(t, bc.PlanInto(ctx, soldierState{}, &p))
		chained += p.Expansions
	}
	require.NoError(t, bc.PlanInto(ctx, soldierState{Ammo: 30}, &p), "nothing to plan")
	noChain := runtime.NewBackwardChainer(d, runtime.WithStats(stats), runtime.WithoutChaining())
	require.ErrorIs(t, noChain.PlanGoalInto(ctx, soldierState{}, goalArmed, &p), runtime.ErrUnreachable)
	unchained := p.Expansions

	astar := runtime.NewAStar(d, runtime.WithStats(stats))
	require.NoError(t, astar.PlanGoalInto(ctx, soldierState{}, goalArmed, &p))
	expansions := p.Expansions
	tight := runtime.NewAStar(d, runtime.WithStats(stats), runtime.WithMaxSteps(1))
	require.ErrorIs(t, tight.PlanInto(ctx, soldierState{}, &p), runtime.ErrMaxStepsExceeded)
	cut := p.Expansions
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	require.Error(t, astar.PlanInto(cancelled, soldierState{}, &p))

	_, err := runtime.Think(ctx, runtime.NewBackwardChainer(d), &soldier{}, runtime.WithThinkStats(stats))
	require.NoError(t, err)
	thought := chained / 3 // Think plans the soldier as PlanInto did
	_, err = runtime.Think(ctx, runtime.NewBackwardChainer(d), &soldier{fetchFails: true}, runtime.WithThinkStats(stats))
	require.ErrorIs(t, err, runtime.ErrPreconditionStale)

	assert.Equal(t, []string{
		"backward - planned calls=1 expansions=0",
		fmt.Sprintf("backward Armed planned calls=3 expansions=%d", chained),
		fmt.Sprintf("backward Armed unreachable calls=1 expansions=%d", unchained),
		"astar - error calls=1 expansions=0",
		fmt.Sprintf("astar Armed planned calls=1 expansions=%d", expansions),
		fmt.Sprintf("astar Armed max steps exceeded calls=1 expansions=%d", cut),
		fmt.Sprintf("think Armed planned calls=1 expansions=%d", thought),
		fmt.Sprintf("think Armed precondition stale calls=1 expansions=%d", thought),
	}, rows(stats))
	assert.Equal(t, "Soldier", stats.Domain())
}

// Recording allocates nothing, and neither does reading; several
// planners may share one Stats.
func TestStatsAllocateNothingAndAreSafeToShare(t *testing.T) {
	d := soldierDomain()
	stats := runtime.NewStats(d)
	ctx := context.Background()
	bc := runtime.NewBackwardChainer(d, runtime.WithStats(stats))
	astar := runtime.NewAStar(d, runtime.WithStats(stats))
	var p runtime.Plan
	require.NoError(t, bc.PlanInto(ctx, soldierState{}, &p))
	require.NoError(t, astar.PlanInto(ctx, soldierState{}, &p))
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = bc.PlanInto(ctx, soldierState{}, &p) }))
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = astar.PlanInto(ctx, soldierState{}, &p) }))
	var calls int64
	assert.Zero(t, testing.AllocsPerRun(100, func() { stats.Each(func(r runtime.StatsRow) { calls += r.Calls }) }))

	shared := runtime.NewStats(d)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			bc := runtime.NewBackwardChainer(d, runtime.WithStats(shared))
			var p runtime.Plan
			for range 1000 {
				_ = bc.PlanInto(ctx, soldierState{}, &p)
			}
		})
	}
	wg.Wait()
	require.NoError(t, bc.PlanInto(ctx, soldierState{}, &p))
	assert.Equal(t, []string{fmt.Sprintf("backward Armed planned calls=4000 expansions=%d", 4000*p.Expansions)}, rows(shared))
}
