package replanarena

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
