package runtime_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
	"github.com/rolegen/rolegen/runtime/internal/courier"
	"github.com/rolegen/rolegen/runtime/internal/laborer"
)

// courierCalls counts a planner's calls.
type courierCalls struct {
	runtime.GoalPlanner[courier.CourierState]
	calls int
}

func (c *courierCalls) PlanGoalInto(ctx context.Context, s courier.CourierState, g runtime.GoalID, p *runtime.Plan) error {
	c.calls++
	return c.GoalPlanner.PlanGoalInto(ctx, s, g, p)
}

// A plan for a goal that would make a goal of higher priority stop
// holding on its way is not adopted: the agent would be interrupted by
// its own step (here: drive into the storm, be sent home, drive out
// again). The goal backs off, and is planned again in the tick the
// refused plan would no longer undo it.
func TestAgentRefusesAPlanThatUndoesAGoalOfHigherPriority(t *testing.T) {
	for name, newPlanner := range map[string]func() runtime.GoalPlanner[courier.CourierState]{
		"backward": func() runtime.GoalPlanner[courier.CourierState] {
			return runtime.NewBackwardChainer(courier.CourierDomain)
		},
		"astar": func() runtime.GoalPlanner[courier.CourierState] { return runtime.NewAStar(courier.CourierDomain) },
	} {
		t.Run(name, func(t *testing.T) {
			ctx := t.Context()
			c := &courier.Courier{Drive: 3, Storm: true}
			p := &courierCalls{GoalPlanner: newPlanner()}
			rec := &recorder{}
			agent := runtime.NewAgent(p, c, runtime.WithAgentObserver(rec.observe))
			for range 1000 {
				agent.Tick(ctx)
			}
			assert.Empty(t, c.Log, "the courier stays at the depot in the storm")
			assert.Equal(t, courier.Depot, c.At)
			assert.LessOrEqual(t, p.calls, 12, "backing off: about log2(1000) calls, not one a tick")
			failed := rec.events(runtime.EventPlanFailed)
			require.NotEmpty(t, failed)
			var perr *runtime.PlanningError
			require.ErrorAs(t, failed[0].Err, &perr)
			assert.Equal(t, "Sheltered", perr.Undoes)
			assert.Equal(t, "DriveToTown", perr.ActionName)
			assert.Equal(t, "Busy", perr.GoalName)

			c.Storm = false // the refused plan undoes nothing now
			agent.Tick(ctx)
			v := agent.View()
			assert.Equal(t, courier.CourierGoalBusy, v.Goal, "planned in the tick the storm ends")
			assert.Equal(t, runtime.ReplanWoken, v.Reason)
			for range 30 {
				agent.Tick(ctx)
			}
			assert.Equal(t, 3, c.Delivered)
			assert.NotContains(t, c.Log, "interrupted to town")
		})
	}
}

// Without a storm the same plan undoes nothing, and is adopted at once;
// a storm that begins on the way interrupts it, as any goal of higher
// priority that stops holding does.
func TestAgentAdoptsAPlanThatUndoesNothing(t *testing.T) {
	ctx := t.Context()
	c := &courier.Courier{Drive: 3}
	agent := runtime.NewAgent(runtime.NewBackwardChainer(courier.CourierDomain), c)
	agent.Tick(ctx)
	assert.Equal(t, courier.CourierGoalBusy, agent.View().Goal)
	for range 3 {
		agent.Tick(ctx)
	}
	require.Equal(t, courier.Town, c.At)
	c.Storm = true
	agent.Tick(ctx)
	assert.Equal(t, courier.CourierGoalSheltered, agent.View().Goal)
	assert.Equal(t, runtime.ReplanInterrupted, agent.View().Reason)
}

// A plan that gets somewhere before it makes a goal of higher priority
// stop holding is adopted: work earns gold, then hunger interrupts it,
// the laborer eats and works again. (Refusing it would leave the laborer
// poor for ever: every plan for gold makes it hungry.)
func TestAgentAdoptsAPlanThatProgressesBeforeItUndoes(t *testing.T) {
	for name, p := range map[string]runtime.GoalPlanner[laborer.LaborerState]{
		"backward": runtime.NewBackwardChainer(laborer.LaborerDomain),
		"astar":    runtime.NewAStar(laborer.LaborerDomain),
	} {
		t.Run(name, func(t *testing.T) {
			l := &laborer.Laborer{Hunger: 40}
			agent := runtime.NewAgent(p, l)
			for range 10 {
				agent.Tick(t.Context())
			}
			assert.GreaterOrEqual(t, l.Gold, 10, "steps: %v", l.Log)
			assert.Less(t, l.Hunger, 50, "steps: %v", l.Log)
		})
	}
}

// Checking that a new plan does not undo a goal of higher priority on its
// way allocates nothing: the courier replans every tick (an interval of
// one), and each plan drives to town, which Sheltered reads.
func TestAgentUndoCheckDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	ctx := t.Context()
	c := &courier.Courier{Drive: 1 << 30} // never arrives: every tick plans the same drive
	p := &courierCalls{GoalPlanner: runtime.NewBackwardChainer(courier.CourierDomain)}
	agent := runtime.NewAgent(p, c, runtime.WithReplanInterval(1))
	for range 10 {
		agent.Tick(ctx)
	}
	calls := p.calls
	allocs := testing.AllocsPerRun(100, func() { agent.Tick(ctx) })
	require.Greater(t, p.calls-calls, 90, "a plan a tick")
	assert.Equal(t, courier.CourierGoalBusy, agent.View().Goal)
	assert.Zero(t, allocs)
}
