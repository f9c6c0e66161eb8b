package world

import (
	"context"
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
)

// Every plan an agent makes reaches its goal from the state it was made
// in: replayed in the domain, the goal holds at the end.
func TestPlansVerify(t *testing.T) {
	var sim *Sim
	checked := 0
	sim = NewSim(300, 5, nil, runtime.WithAgentObserver(func(v runtime.AgentView) {
		if v.Event != runtime.EventPlanned {
			return
		}
		checked++
		end, err := AgentDomain.Simulate(sim.Agents[v.ID].PlanState(), v.Plan)
		require.NoError(t, err, "agent %d: plan %v", v.ID, v.Plan)
		require.True(t, AgentDomain.Holds(v.Goal, end), "agent %d: plan %v does not reach %s", v.ID, v.Plan, AgentDomain.GoalName(v.Goal))
	}))
	defer sim.Close()
	for range 300 {
		sim.Tick(t.Context())
	}
	assert.Greater(t, checked, 300)
	for i, n := range sim.Finished() {
		assert.Positive(t, n, "action %s never finished", AgentDomain.Actions[i].Name)
	}
}

// Once warm, the arena's ticks allocate nothing, with each of its planners.
func TestTicksDoNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	ctx := context.Background()
	for _, name := range slices.Sorted(maps.Keys(Planners)) {
		sim := NewSim(2000, 1, Planners[name], runtime.WithWorkers(2))
		for range 200 {
			sim.Tick(ctx)
		}
		assert.Zero(t, testing.AllocsPerRun(200, func() { sim.Tick(ctx) }), name)
		sim.Close()
	}
}
