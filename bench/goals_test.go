package bench

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/bench/internal/bargeman"
	"github.com/rolegen/rolegen/runtime"
)

// goalPlanner is what both planners offer: every goal, or one.
type goalPlanner[S comparable] interface {
	runtime.Planner[S]
	runtime.GoalPlanner[S]
}

// TestPlanServesGoalsOneAtATime: Plan serves the bargeman's goals one
// after the other, each as cheaply as it can be from where the goal
// before left him (the README says so under "Plan(ctx, s) means the
// same for every planner"). Rich's cheapest plan sells three crates (9)
// and leaves him in town with no coins to spare for the stove's fuel;
// Cosy then costs 16 more. One goal that asks for both, Both, is
// planned as one: four crates first, 13.
func TestPlanServesGoalsOneAtATime(t *testing.T) {
	d := bargeman.BargemanDomain
	s := bargeman.BargemanState{At: "quay", Fuel: 1}
	planners := map[string]goalPlanner[bargeman.BargemanState]{
		"backward chainer": runtime.NewBackwardChainer(d),
		"A*":               runtime.NewAStar(d),
	}
	for name, p := range planners {
		t.Run(name, func(t *testing.T) {
			ctx := t.Context()
			var rich, both runtime.Plan
			require.NoError(t, p.PlanGoalInto(ctx, s, bargeman.BargemanGoalRich, &rich))
			assert.Equal(t, 9.0, rich.Cost, "Rich alone: %v", d.Names(rich.Steps))
			plan, err := p.Plan(ctx, s)
			require.NoError(t, err)
			assert.Equal(t, 25.0, plan.Cost, "every goal, one at a time: %v", d.Names(plan.Steps))
			assert.Equal(t, d.Names(rich.Steps), d.Names(plan.Steps[:len(rich.Steps)]), "Rich's steps first")
			end, err := d.Simulate(s, plan.Steps)
			require.NoError(t, err)
			assert.True(t, d.Holds(bargeman.BargemanGoalRich, end) && d.Holds(bargeman.BargemanGoalCosy, end))
			require.NoError(t, p.PlanGoalInto(ctx, s, bargeman.BargemanGoalBoth, &both))
			assert.Equal(t, 13.0, both.Cost, "both goals as one: %v", d.Names(both.Steps))
		})
	}
}
