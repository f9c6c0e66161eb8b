package runtime_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
)

// PlanGoalKeepingInto plans goal G of random roles along a way on which a
// second goal K, holding at the start, holds after every step. The
// reference is Dijkstra over the role's 625 states with the states where
// K fails taken out: A* and the backward chainer (whose forward search
// plans it) must find a plan wherever one exists, at its cost, keep K on
// every state of the way, and say Unreachable wherever none does. On the
// same starts, plans that do not keep K are cheaper (or K holds
// throughout them anyway): the constraint is not vacuous.
func TestPlannersKeepGoalsOnTheWay(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 0xbac))
	ctx := context.Background()
	const kGoal = runtime.GoalID(1)
	roles := 60
	if testing.Short() {
		roles = 15
	}
	var starts, found, dearer int
	for range roles {
		rr := newRandomRole(r, 4, 8, false)
		rr.keep = []roleLit{{f: r.IntN(4), op: roleOps[r.IntN(len(roleOps))], k: r.IntN(5)}}
		rr.d = rr.domain()
		d := rr.d
		states, toGo := costsToGoThrough(t, d, func(s roleState) bool { return d.Holds(kGoal, s) })
		planners := map[string]runtime.KeepingPlanner[roleState]{
			"astar":    runtime.NewAStar(d, runtime.WithMaxSteps(700)),
			"backward": runtime.NewBackwardChainer(d, runtime.WithMaxSteps(700)),
		}
		free := runtime.NewAStar(d, runtime.WithMaxSteps(700))
		var p, q runtime.Plan
		for i, s := range states {
			if !d.Holds(kGoal, s) || d.Holds(0, s) {
				continue
			}
			starts++
			for name, pl := range planners {
				err := pl.PlanGoalKeepingInto(ctx, s, 0, []runtime.GoalID{kGoal}, &p)
				if math.IsInf(toGo[i], 1) {
					require.ErrorIs(t, err, runtime.ErrUnreachable, "%s from %v: %v", name, s, p.Steps)
					continue
				}
				require.NoError(t, err, "%s from %v", name, s)
				require.InDelta(t, toGo[i], p.Cost, 1e-9, "%s from %v: %v", name, s, p.Steps)
				at := s
				for _, a := range p.Steps {
					require.True(t, d.Applicable(a, at))
					at = d.Apply(a, at)
					require.True(t, d.Holds(kGoal, at), "%s from %v: K fails after %s", name, s, d.Actions[a].Name)
				}
				require.True(t, d.Holds(0, at))
				if name == "astar" {
					found++
					if free.PlanGoalInto(ctx, s, 0, &q) == nil && q.Cost < p.Cost {
						dearer++
					}
				}
			}
		}
	}
	t.Logf("%d starts where K holds and G fails, %d with a plan that keeps K; on %d of them the cheapest plan does not keep it", starts, found, dearer)
	assert.Positive(t, dearer)
	assert.Less(t, found, starts)
}
