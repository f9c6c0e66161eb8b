package runtime_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
	"github.com/rolegen/rolegen/runtime/internal/crew"
	"github.com/rolegen/rolegen/runtime/internal/tavern"
)

// A fire of 1 or 2 that sprays put out three at a time never comes to 0:
// the planners say so from the annotations (the fire's values lie on the
// lattice 2 + 3k) or their first pass, not by searching the tank's
// endless fillings, and an agent asks its planner once, then proves it
// on each retry, while it fills its tank.
func TestAFireOffTheSpraysStepsIsProvedOutOfReach(t *testing.T) {
	ctx := context.Background()
	for _, fire := range []int{1, 2} {
		s := crew.CrewState{Fire: fire}
		for name, p := range map[string]runtime.GoalPlanner[crew.CrewState]{
			"chainer": runtime.NewBackwardChainer(crew.CrewDomain),
			"astar":   runtime.NewAStar(crew.CrewDomain),
		} {
			var plan runtime.Plan
			err := p.PlanGoalInto(ctx, s, crew.CrewGoalOut, &plan)
			var perr *runtime.PlanningError
			require.ErrorAs(t, err, &perr, name)
			assert.Equal(t, runtime.Unreachable, perr.Reason, "%s from fire %d: %v", name, fire, err)
			assert.LessOrEqual(t, plan.Expansions, 40, "%s from fire %d: proved, not searched", name, fire)
			if name == "astar" || perr.Relaxed {
				// The error names what no values satisfy.
				require.True(t, perr.Relaxed, "%s from fire %d: %v", name, fire, err)
				assert.Equal(t, "Fire", perr.Fields, name)
				assert.ErrorContains(t, err, "no values the actions can give Fire from here satisfy it", name)
			}
		}
	}
	// From 3 and 6 it is put out.
	for _, fire := range []int{3, 6} {
		p, err := runtime.NewBackwardChainer(crew.CrewDomain).PlanGoal(ctx, crew.CrewState{Fire: fire}, crew.CrewGoalOut)
		require.NoError(t, err)
		assert.Equal(t, fire/3, countOf(p.Steps, crew.CrewSpray))
	}

	c := &crew.Crew{Fire: 2}
	var st runtime.Stats
	ag := runtime.NewAgent(runtime.NewBackwardChainer(crew.CrewDomain), c, runtime.WithAgentStats(&st))
	for range 1000 {
		ag.Tick(ctx)
	}
	n := st.Agents()
	assert.Equal(t, int64(2), n.PlannerCalls, "Out once, and Full")
	assert.Positive(t, n.Unreachable)
	assert.GreaterOrEqual(t, c.Water, 60, "the tank filled meanwhile")
	assert.Equal(t, 2, c.Fire)
}

func countOf(steps []runtime.ActionID, a runtime.ActionID) int {
	n := 0
	for _, s := range steps {
		if s == a {
			n++
		}
	}
	return n
}

// A keeper with no gold and no guests earns nothing, and sings at most
// twice (once grumpy already, once after sweeping the floor no guest will
// dirty again): the planners prove Prosper out of reach by counting what
// the firings can add up to, where her tiredness, growing with every
// walk, would keep a search going to its limit; and an agent asks its
// planner once. With a coin she can advertise, and prospers.
func TestAKeeperWithoutGuestsIsProvedNeverToProsper(t *testing.T) {
	ctx := context.Background()
	poor := tavern.KeeperState{Mood: "grumpy"}
	for name, p := range map[string]runtime.GoalPlanner[tavern.KeeperState]{
		"chainer": runtime.NewBackwardChainer(tavern.KeeperDomain),
		"astar":   runtime.NewAStar(tavern.KeeperDomain),
	} {
		var plan runtime.Plan
		err := p.PlanGoalInto(ctx, poor, tavern.KeeperGoalProsper, &plan)
		require.Error(t, err, name)
		assert.LessOrEqual(t, plan.Expansions, 40, "%s: proved, not searched: %v", name, err)
		if name == "astar" {
			var perr *runtime.PlanningError
			require.ErrorAs(t, err, &perr)
			assert.True(t, perr.Relaxed, "%v", err)
			assert.Equal(t, "Gold and Fame", perr.Fields, "the goal's one part, Gold >= 40 || Fame >= 5")
			assert.Equal(t, "rolegen: Keeper: goal Prosper: unreachable: no plan reaches it (no values the actions can give Gold and Fame from here satisfy it)", err.Error())
		}

		rich := poor
		rich.Gold = 1
		require.NoError(t, p.PlanGoalInto(ctx, rich, tavern.KeeperGoalProsper, &plan), name)
	}

	// The utility planner, proving it the same way, says it the same way.
	var plan runtime.Plan
	err := runtime.NewUtilityPlanner(runtime.NewUtility(tavern.KeeperDomain)).PlanGoalInto(ctx, poor, tavern.KeeperGoalProsper, &plan)
	assert.EqualError(t, err, "rolegen: Keeper: goal Prosper: unreachable: no plan reaches it (no values the actions can give Gold and Fame from here satisfy it)")

	k := &tavern.Keeper{Mood: "grumpy"}
	var st runtime.Stats
	ag := runtime.NewAgent(runtime.NewBackwardChainer(tavern.KeeperDomain), k, runtime.WithAgentStats(&st))
	for range 1000 {
		ag.Tick(ctx)
	}
	n := st.Agents()
	assert.Equal(t, int64(1), n.PlannerCalls)
	assert.Positive(t, n.Unreachable)
	// The agent, waiting, says why as the planners do: the same proof.
	v := ag.View()
	assert.Equal(t, tavern.KeeperGoalProsper, v.Waiting)
	require.Error(t, v.Err)
	assert.Equal(t, "rolegen: Keeper: goal Prosper: unreachable: no plan reaches it (no values the actions can give Gold and Fame from here satisfy it)", v.Err.Error())
	assert.Greater(t, v.RetryAt, v.Tick)
	assert.Equal(t, "agent 0 tick 1000: no plan (last: none): goal Prosper backs off until tick 1024: "+v.Err.Error(), tavern.KeeperDomain.FormatView(v))
}
