package runtime_test

import (
	"context"
	"fmt"
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

// wander is a state of four counters; in wanderDomain(k) the goal Far is
// N >= k, and three actions count A, B and C, which no goal reads: A*,
// whose estimate knows nothing of a hand-made domain's conditions,
// expands every state closer than k to the start before it finds a plan
// (about 14 ms for k = 25 on this project's machine), where the chainer
// takes k expansions.
type wander struct{ N, A, B, C int }

func wanderDomain(k int) *runtime.Domain[wander] {
	count := func(name string, f runtime.FieldID, eff func(s wander) wander) runtime.Action[wander] {
		return runtime.Action[wander]{Name: name, Cost: 1, Effect: eff,
			Reads: []runtime.FieldID{f}, Writes: []runtime.FieldID{f}}
	}
	field := func(name string) runtime.Field { return runtime.Field{Name: name, Type: "int", Kind: runtime.KindInt} }
	return runtime.NewDomain(runtime.Domain[wander]{
		Name:   "Wander",
		Fields: []runtime.Field{field("N"), field("A"), field("B"), field("C")},
		Actions: []runtime.Action[wander]{
			count("Step", 0, func(s wander) wander { s.N++; return s }),
			count("A", 1, func(s wander) wander { s.A++; return s }),
			count("B", 2, func(s wander) wander { s.B++; return s }),
			count("C", 3, func(s wander) wander { s.C++; return s }),
		},
		Goals: []runtime.Goal[wander]{{Name: "Far", CondText: fmt.Sprintf("N >= %d", k),
			Cond: func(s wander) bool { return s.N >= k }, Reads: []runtime.FieldID{0}}},
	})
}

// wanderer performs wanderDomain's actions on its own state, each in one
// tick.
type wanderer struct {
	d *runtime.Domain[wander]
	s wander
}

func (w *wanderer) PlanState() wander { return w.s }

func (w *wanderer) PerformStep(_ context.Context, a runtime.ActionID, t runtime.Step) (runtime.Status, error) {
	if !t.Interrupted {
		w.s = w.d.Apply(a, w.s)
	}
	return runtime.Done, nil
}

// A crowd's time budget bounds every planner call of a tick but the
// first: a call that begins before the time is spent ends once it is, and
// its agent, which does not back off, plans first at the next tick, where
// its call runs whole. Two agents on A*: the near one plans a step in
// microseconds, then the far one's call (a search of tens of milliseconds)
// is cut at the budget of 2 ms; at the next tick it is the tick's first,
// and plans.
func TestCrowdTimeBudgetCutsALaterCallShort(t *testing.T) {
	const far = 30
	d := wanderDomain(far)
	for _, workers := range []int{1, 2} {
		ctx := t.Context()
		var planned []string
		var tick uint64
		crowd := runtime.NewCrowd(d, func() runtime.GoalPlanner[wander] {
			return runtime.NewAStar(d, runtime.WithSearchBudget(1<<30), runtime.WithMaxSteps(100))
		}, runtime.WithWorkers(workers), runtime.WithPlanTimeBudget(2*time.Millisecond),
			runtime.WithAgentObserver(func(v runtime.AgentView) {
				switch v.Event {
				case runtime.EventPlanned:
					planned = append(planned, fmt.Sprintf("tick %d: agent %d, %d steps", tick, v.ID, len(v.Plan)))
				case runtime.EventPlanFailed:
					t.Errorf("workers %d: tick %d: agent %d failed: %v", workers, tick, v.ID, v.Err)
				}
			}))
		crowd.Add(&wanderer{d: d, s: wander{N: far - 1}})
		crowd.Add(&wanderer{d: d})
		tick = 1
		crowd.Tick(ctx)
		c := crowd.Counts()
		assert.Equal(t, []string{"tick 1: agent 0, 1 steps"}, planned, "workers %d", workers)
		assert.Equal(t, int64(2), c.PlannerCalls, "workers %d", workers)
		assert.Equal(t, int64(1), c.CallsCut, "workers %d: the far agent's call cut short", workers)
		assert.Zero(t, c.PlanFailures, "workers %d", workers)

		tick = 2
		crowd.Tick(ctx)
		c = crowd.Counts()
		assert.Equal(t, []string{"tick 1: agent 0, 1 steps", fmt.Sprintf("tick 2: agent 1, %d steps", far)}, planned,
			"workers %d: the far agent plans whole as the tick's first", workers)
		assert.Equal(t, int64(1), c.CallsCut, "workers %d", workers)
		assert.Equal(t, c.PlannerCalls, c.PlansMade()+c.PlanFailures+c.CallsCut, "workers %d", workers)
		crowd.Close()
	}
}

// A crowd's time budget counts from the start of the tick's planning:
// the agents' look before it (here a world that takes 5 ms over its
// first agent) does not spend it, and three agents with a plan of a
// step each all plan in the first tick under a budget of 2 ms.
func TestCrowdTimeBudgetCountsThePlanningAlone(t *testing.T) {
	d := wanderDomain(1)
	crowd := runtime.NewCrowd(d, func() runtime.GoalPlanner[wander] { return runtime.NewAStar(d) },
		runtime.WithWorkers(2), runtime.WithPlanTimeBudget(2*time.Millisecond),
		runtime.WithBeforeTick(func(agent int, _ uint64) {
			if agent == 0 {
				time.Sleep(5 * time.Millisecond)
			}
		}))
	defer crowd.Close()
	for range 3 {
		crowd.Add(&wanderer{d: d})
	}
	crowd.Tick(t.Context())
	c := crowd.Counts()
	assert.Equal(t, int64(3), c.PlansMade())
	assert.Equal(t, int64(3), c.Plans[runtime.ReplanNoPlan])
}
