package main

import (
	"bytes"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/examples/arena/world"
	"github.com/rolegen/rolegen/runtime"
)

// summary runs an arena and returns its report.
func summary(t *testing.T, agents, ticks int, seed uint64, planner string, opts ...runtime.CrowdOption) string {
	t.Helper()
	sim := world.NewSim(agents, seed, world.Planners[planner], opts...)
	defer sim.Close()
	run(sim, ticks)
	var b bytes.Buffer
	report(&b, sim)
	return b.String()
}

// What the agents did depends on the seed, the budget and the planner,
// not on how many workers tick them.
func TestDeterministicAcrossWorkers(t *testing.T) {
	for _, budget := range []int{0, 25} {
		one := summary(t, 700, 200, 42, "backward", runtime.WithPlanBudget(budget))
		for _, workers := range []int{2, 3, 8} {
			assert.Equal(t, one, summary(t, 700, 200, 42, "backward", runtime.WithWorkers(workers), runtime.WithPlanBudget(budget)),
				"%d workers, budget %d", workers, budget)
		}
		assert.NotEqual(t, one, summary(t, 700, 200, 43, "backward", runtime.WithPlanBudget(budget)), "another seed gives another world")
	}
}

// Every planner runs the arena; the counts add up.
func TestPlanners(t *testing.T) {
	for name := range world.Planners {
		sim := world.NewSim(300, 1, world.Planners[name], runtime.WithWorkers(2))
		run(sim, 300)
		sim.Close()
		c := sim.Counts()
		require.Equal(t, c.Ticks, c.Acting+c.Waiting+c.Idle, name)
		require.Equal(t, c.Acting, c.StepsRunning+c.StepsDone+c.StepsFailed, name)
		require.Equal(t, c.PlannerCalls, c.PlansMade()+c.PlanFailures, name)
		var done int64
		for _, n := range sim.Finished() {
			done += n
		}
		require.Equal(t, c.StepsDone, done, name)
		assert.Positive(t, c.Interrupted, "%s: threats interrupt", name)
		assert.Less(t, float64(c.PlannerCalls)/float64(c.Ticks), 0.1, name)
	}
}

// A short run, seed 1: what the agents did and the checksum.
func Example() {
	sim := world.NewSim(200, 1, nil)
	defer sim.Close()
	run(sim, 300)
	report(os.Stdout, sim)
	// Output:
	// agent-ticks 60000 = acting 11762 + waiting 6922 (a goal fails, no plan yet) + idle 41316 (every goal holds)
	// step calls 11762, one an acting agent-tick = running on 8180 + done 3582 + failed 0
	// steps done 3582 = GoToForest 374 + GoToRuins 147 + GoToCamp 440 + Forage 444 + Eat 1012 + Scavenge 160 + Rest 503 + Fight 414 + Flee 83 + Hide 5
	// running steps interrupted, each told: 140
	// planner calls 2372, 0.0395 an agent-tick = plans made 2372 + calls that found none 0
	// plans made 2372, by why = no plan 1428 + plan done 714 + precondition stale 6 + plan broken 49 + interrupted 105 + retry 5 + woken 65
	// goals proven out of reach without a planner call, each then backing off: 601
	// plans checked against the live state, only when a field they read changed: 6910
	// checksum: 74e158f1390925d7
}
