package runtime_test

import (
	"context"
	"fmt"

	"github.com/rolegen/rolegen/runtime"
	"github.com/rolegen/rolegen/runtime/internal/scout"
)

// An agent in a game loop: one Tick a frame. The walk to the forest takes
// ticks, a threat interrupts it within the tick, and the agent goes back
// to its walk once safe.
func ExampleAgent() {
	ctx := context.Background()
	d := scout.ScoutDomain
	s := &scout.Scout{Hunger: 60, Ammo: 1}
	agent := runtime.NewAgent(runtime.NewBackwardChainer(d), s,
		runtime.WithAgentObserver(func(v runtime.AgentView) {
			switch v.Event {
			case runtime.EventPlanned:
				fmt.Printf("tick %d: plans %s for %s (%s)\n", v.Tick, scoutNames(v.Plan), d.GoalName(v.Goal), v.Reason)
			case runtime.EventInterrupted, runtime.EventStepDone:
				fmt.Printf("tick %d: %s %s after %d ticks\n", v.Tick, d.ActionName(v.Action), v.Event, v.Ticks)
			}
		}))
	for tick := 1; tick <= 16; tick++ {
		if tick == 3 {
			s.Threat = 1
		}
		agent.Tick(ctx)
	}
	fmt.Println(s.Log, "hunger", s.Hunger)
	// Output:
	// tick 1: plans [Walk Forage Eat] for Fed (no plan)
	// tick 3: Walk interrupted after 2 ticks
	// tick 3: plans [Fight] for Safe (interrupted)
	// tick 3: Fight step done after 1 ticks
	// tick 4: plans [Walk Forage Eat] for Fed (plan done)
	// tick 11: Walk step done after 8 ticks
	// tick 12: Forage step done after 1 ticks
	// tick 15: Eat step done after 3 ticks
	// [walk walk interrupted fight walk forage eat ate] hunger 20
}

// A crowd ticks many agents within a budget of planner calls a tick, the
// same with any number of workers.
func ExampleCrowd() {
	ctx := context.Background()
	crowd := runtime.NewCrowd(scout.ScoutDomain,
		func() runtime.GoalPlanner[scout.ScoutState] { return runtime.NewBackwardChainer(scout.ScoutDomain) },
		runtime.WithWorkers(2), runtime.WithPlanBudget(10))
	defer crowd.Close()
	scouts := make([]scout.Scout, 100)
	for i := range scouts {
		scouts[i] = scout.Scout{Pos: i % 20, Hunger: 40 + i%40, Food: i % 3}
		crowd.Add(&scouts[i])
	}
	for range 50 {
		crowd.Tick(ctx)
	}
	c := crowd.Counts()
	fmt.Println("agent-ticks:", c.Ticks, "planner calls:", c.PlannerCalls, "plans:", c.PlansMade())
	fed := 0
	for i := range scouts {
		if scouts[i].Hunger < 50 {
			fed++
		}
	}
	fmt.Println("fed:", fed, "of", len(scouts))
	// Output:
	// agent-ticks: 5000 planner calls: 70 plans: 70
	// fed: 100 of 100
}
