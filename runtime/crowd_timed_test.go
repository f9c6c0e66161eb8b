package runtime_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
	"github.com/rolegen/rolegen/runtime/internal/scout"
)

// A time budget too small for any planner call still plans one agent a
// tick, and serves the agents in the crowd's order (no plan first, by how
// long they have waited, then by index), so that none starves however
// small the budget: with a nanosecond, agent i plans in tick i+1.
func TestCrowdTimeBudgetServesOneAgentATickInOrder(t *testing.T) {
	for _, workers := range []int{1, 2} {
		ctx := t.Context()
		const n = 12
		scouts := make([]scout.Scout, n)
		var planned []int
		crowd := runtime.NewCrowd(scout.ScoutDomain, func() runtime.GoalPlanner[scout.ScoutState] {
			return runtime.NewBackwardChainer(scout.ScoutDomain)
		}, runtime.WithWorkers(workers), runtime.WithPlanTimeBudget(time.Nanosecond),
			runtime.WithAgentObserver(func(v runtime.AgentView) {
				if v.Event == runtime.EventPlanned {
					planned = append(planned, v.ID) // one planner call a tick: no race
				}
			}))
		for i := range scouts {
			scouts[i] = scout.Scout{Hunger: 80, Food: 1} // hungry, with food: Eat
			crowd.Add(&scouts[i])
		}
		for tick := 1; tick <= n; tick++ {
			crowd.Tick(ctx)
			require.Len(t, planned, tick, "workers %d: one plan in tick %d", workers, tick)
		}
		want := make([]int, n)
		for i := range want {
			want[i] = i
		}
		assert.Equal(t, want, planned, "workers %d: served by index, all having waited as long", workers)
		crowd.Close()
	}
}
