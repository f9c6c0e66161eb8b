package corrupt_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/bench/internal/corrupt"
	"github.com/rolegen/rolegen/bench/internal/depot"
	"github.com/rolegen/rolegen/runtime"
)

func TestAllAndSample(t *testing.T) {
	plan := []runtime.ActionID{0, 1, 1}
	all := corrupt.All(plan, 3)
	count := map[corrupt.Kind]int{}
	for _, c := range all {
		count[c.Kind]++
	}
	// 3 drops, 2 swaps (the two 1s are not swapped), 3 repeats, 3×2 replacements.
	assert.Equal(t, map[corrupt.Kind]int{corrupt.Drop: 3, corrupt.Swap: 2, corrupt.Repeat: 3, corrupt.Replace: 6}, count)
	assert.Equal(t, []runtime.ActionID{1, 0, 1}, all[3].Steps, "the first swap")
	assert.Len(t, corrupt.All([]runtime.ActionID{0}, 1), 1, "a plan of one step of the only action can only be repeated")
	assert.Equal(t, corrupt.Sample(all, 2, 7), corrupt.Sample(all, 2, 7))
	assert.Len(t, corrupt.Sample(all, 2, 7), 8)
}

// The reference finds the cheapest insertion repair, keeping the plan's
// steps in order, and none when the step limit or the insertable actions
// leave none.
func TestCheapestInsertion(t *testing.T) {
	d := depot.KeeperDomain
	start := depot.KeeperState{Distance: 30}
	goals := []runtime.GoalID{depot.KeeperGoalDelivered}
	good, err := runtime.NewAStar(d).PlanGoals(context.Background(), start, goals...)
	require.NoError(t, err)
	require.True(t, corrupt.Verifies(d, start, good.Steps, goals))
	all := []bool{true, true, true, true, true, true}

	dropped := append([]runtime.ActionID{}, good.Steps[1:]...) // no truck called
	ref := corrupt.CheapestInsertion(d, start, dropped, goals, all, 20, 100_000)
	require.True(t, ref.Found)
	assert.Equal(t, good.Cost, ref.Cost)
	assert.True(t, corrupt.Verifies(d, start, ref.Steps, goals))

	ref = corrupt.CheapestInsertion(d, start, dropped, goals, all, len(dropped), 100_000)
	assert.False(t, ref.Found, "no room for the missing step")
	assert.False(t, ref.Exhausted)

	none := make([]bool, len(all))
	ref = corrupt.CheapestInsertion(d, start, dropped, goals, none, 20, 100_000)
	assert.False(t, ref.Found)

	ref = corrupt.CheapestInsertion(d, start, dropped, goals, all, 20, 3)
	assert.True(t, ref.Exhausted)
}
