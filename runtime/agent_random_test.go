package runtime_test

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
)

// randomActor performs a random role's actions on its own state, each in
// one tick, and adds up what they cost.
type randomActor struct {
	rr    *randomRole
	s     roleState
	spent float64
	steps int
}

func (r *randomActor) PlanState() roleState { return r.s }

func (r *randomActor) PerformStep(_ context.Context, a runtime.ActionID, t runtime.Step) (runtime.Status, error) {
	if t.Interrupted {
		return runtime.Done, nil
	}
	r.spent += r.rr.actions[a].cost
	r.s = r.rr.apply(&r.rr.actions[a], r.s)
	r.steps++
	return runtime.Done, nil
}

// Agents on random roles nobody wrote for them, held to A*'s optimal cost
// from each start: with A* every agent reaches its goal at the optimal
// cost, with one planner call (the plan is kept: no check breaks a plan
// that stands); with the backward chainer nearly every agent does, near
// the optimal cost.
func TestAgentsOnRandomRoles(t *testing.T) {
	problems := roleProblems(11, 80, 6, false)
	require.Greater(t, len(problems), 150)
	for name, newPlanner := range map[string]func(d *runtime.Domain[roleState]) runtime.GoalPlanner[roleState]{
		"astar": func(d *runtime.Domain[roleState]) runtime.GoalPlanner[roleState] {
			return runtime.NewAStar(d, runtime.WithMaxSteps(8))
		},
		"backward": func(d *runtime.Domain[roleState]) runtime.GoalPlanner[roleState] {
			return runtime.NewBackwardChainer(d)
		},
	} {
		t.Run(name, func(t *testing.T) {
			reached, extraCalls := 0, 0
			var ratios []float64
			for _, pr := range problems {
				actor := &randomActor{rr: pr.rr, s: pr.start}
				stats := runtime.NewStats(pr.rr.d)
				agent := runtime.NewAgent(newPlanner(pr.rr.d), actor, runtime.WithAgentStats(stats))
				for range 20 {
					agent.Tick(t.Context())
				}
				if !pr.rr.d.Holds(0, actor.s) {
					continue
				}
				reached++
				ratios = append(ratios, actor.spent/pr.optimal)
				if calls := stats.Agents().PlannerCalls; calls != 1 {
					extraCalls++
				}
			}
			slices.Sort(ratios)
			share := float64(reached) / float64(len(problems))
			p90, worst := ratios[len(ratios)*9/10], ratios[len(ratios)-1]
			t.Logf("%s: %d of %d reached (%.1f%%), cost ÷ optimal p90 %.2f, worst %.2f, %d with more than one planner call",
				name, reached, len(problems), 100*share, p90, worst, extraCalls)
			if name == "astar" {
				assert.Equal(t, len(problems), reached)
				assert.InDelta(t, 1, worst, 1e-9)
				assert.Zero(t, extraCalls)
				return
			}
			assert.GreaterOrEqual(t, share, 0.95)
			assert.LessOrEqual(t, p90, 1.5)
			assert.Zero(t, extraCalls)
		})
	}
}

// The world moves under the agents: after the first tick a field of each
// random role takes a random value. Every agent whose goal A* can still
// reach from there reaches it (with A*), replanning when the rest of its
// plan no longer does, and only then.
func TestAgentsOnRandomRolesReplanWhenTheWorldMoves(t *testing.T) {
	ctx := context.Background()
	problems := roleProblems(12, 80, 6, false)
	reachable, reached, replanned, needed := 0, 0, 0, 0
	var ref runtime.Plan
	for i, pr := range problems {
		actor := &randomActor{rr: pr.rr, s: pr.start}
		stats := runtime.NewStats(pr.rr.d)
		p := runtime.NewAStar(pr.rr.d, runtime.WithMaxSteps(8))
		agent := runtime.NewAgent(p, actor, runtime.WithAgentStats(stats))
		agent.Tick(ctx)
		v := agent.View()
		if v.Goal == runtime.NoGoal {
			continue // done in one step
		}
		rest := slices.Clone(v.Plan[v.Step:])
		actor.s.V[i%pr.rr.nf] = (i / pr.rr.nf) % 5
		// Whether the rest of the plan still reaches the goal from there.
		s, stands := actor.s, true
		for _, a := range rest {
			if !pr.rr.d.Applicable(a, s) {
				stands = false
				break
			}
			s = pr.rr.d.Actions[a].Effect(s)
		}
		stands = stands && pr.rr.d.Holds(0, s)
		if !stands {
			needed++
		}
		if pr.rr.d.Holds(0, actor.s) || runtime.NewAStar(pr.rr.d, runtime.WithMaxSteps(8)).PlanGoalInto(ctx, actor.s, 0, &ref) == nil {
			reachable++
		}
		for range 20 {
			agent.Tick(ctx)
		}
		if pr.rr.d.Holds(0, actor.s) {
			reached++
		}
		calls := stats.Agents().PlannerCalls
		if stands {
			assert.Equal(t, int64(1), calls, "problem %d: the plan stood, yet the agent replanned", i)
		} else if calls > 1 {
			replanned++
		}
	}
	t.Logf("%d problems, %d reachable after the change, %d reached; %d plans broken by it, %d replanned",
		len(problems), reachable, reached, needed, replanned)
	require.Positive(t, needed)
	assert.Equal(t, reachable, reached)
}
