package bench

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/bench/internal/fisher"
	"github.com/rolegen/rolegen/runtime"
)

// An agent trapped at sea: the fisher has the vigor to cast once more but
// not to row back, and resting needs land, so no coin and no supper is
// within reach. The relaxed reachability proves it from where the fisher
// is (the place, a string, keeps to the places the actions can reach from
// there), so the agent does not ask its planner again as its goals back
// off: one call for each goal, the first time, and proofs after.
func TestAgentTrappedAtSeaStopsPlanning(t *testing.T) {
	ctx := context.Background()
	f := &fisher.Fisher{At: "sea", Vigor: 2, Bait: 3}
	var st runtime.Stats
	ag := runtime.NewAgent(runtime.NewBackwardChainer(fisher.FisherDomain), f, runtime.WithAgentStats(&st))
	for range 1000 {
		ag.Tick(ctx)
	}
	c := st.Agents()
	t.Logf("1,000 ticks: %d planner calls, %d proofs that the goals are out of reach", c.PlannerCalls, c.Unreachable)
	assert.Equal(t, int64(2), c.PlannerCalls, "Purse and Fed, once each")
	assert.Positive(t, c.Unreachable)
	// The planners say so at once too: A* before any search, the chainer
	// once its first pass has taken 32 expansions (it used to take its
	// whole budget of 192 first).
	var p runtime.Plan
	err := runtime.NewAStar(fisher.FisherDomain).PlanGoalInto(ctx, f.PlanState(), fisher.FisherGoalPurse, &p)
	var perr *runtime.PlanningError
	require.ErrorAs(t, err, &perr)
	assert.Equal(t, runtime.Unreachable, perr.Reason)
	err = runtime.NewBackwardChainer(fisher.FisherDomain).PlanGoalInto(ctx, f.PlanState(), fisher.FisherGoalPurse, &p)
	require.ErrorAs(t, err, &perr)
	assert.Equal(t, runtime.Unreachable, perr.Reason)
	assert.True(t, perr.Relaxed, "the proof, not its first pass's lack of a choice, is the reason")
	assert.EqualError(t, err, "rolegen: Fisher: goal Purse: unreachable: no plan reaches it (no values the actions can give Coins from here satisfy it)")
	assert.LessOrEqual(t, p.Expansions, 40, "proved early in the first pass, no search after it")
}
