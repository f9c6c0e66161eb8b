package main

import (
	"os"
	goruntime "runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The totals and the checksum depend on the seed only: not on GOMAXPROCS
// nor on how many workers share the agents.
func TestDeterministicAcrossGOMAXPROCS(t *testing.T) {
	defer goruntime.GOMAXPROCS(goruntime.GOMAXPROCS(0))
	var results []Stats
	for _, procs := range []int{1, 2} {
		goruntime.GOMAXPROCS(procs)
		for _, workers := range []int{1, procs, 3} {
			st, _ := run(700, 40, 42, workers)
			results = append(results, st)
		}
	}
	for _, st := range results[1:] {
		assert.Equal(t, results[0], st)
	}
	other, _ := run(700, 40, 43, 2)
	assert.NotEqual(t, results[0].Checksum, other.Checksum, "another seed gives another world")
}

// Every plan the agents make is valid: replaying each agent's plan on its
// state in the domain reaches the goals the plan promises.
func TestPlansVerify(t *testing.T) {
	sim := NewSim(300, 5, 1)
	defer sim.Close()
	w := sim.workers[0]
	for range 30 {
		sim.Tick()
		for i := range sim.Agents {
			s := sim.Agents[i].PlanState()
			_ = w.planner.PlanInto(t.Context(), s, &w.plan)
			require.NoError(t, AgentDomain.Verify(s, &w.plan), "agent %d state %+v", i, s)
		}
	}
	st := sim.Stats()
	for i, n := range st.Performed {
		assert.Positive(t, n, "action %s never performed", AgentDomain.Actions[i].Name)
	}
}

// A short run, seed 1: what the agents did and the checksum.
func Example() {
	st, _ := run(200, 20, 1, goruntime.GOMAXPROCS(0))
	report(os.Stdout, st)
	// Output:
	// plans: 4000 (steps 1744, idle 2992, partial 13)
	// performed: Forage 78 Eat 314 Rest 68 Scavenge 170 Fight 318 Flee 37 Hide 10
	// checksum: 76954185ff8c74e0
}
