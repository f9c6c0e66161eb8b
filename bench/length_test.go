package bench

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/bench/internal/survival"
	"github.com/rolegen/rolegen/runtime"
)

// lengths are the plan lengths of BenchmarkPlanLength: survival from
// hunger 20·k takes 3·k steps (k times rest, forage, eat).
var lengths = []int{3, 12, 24, 48}

func starving(steps int) survival.SurvivorState {
	return survival.SurvivorState{Hunger: 20 * steps / 3}
}

// BenchmarkPlanLength plans the survival role for longer and longer
// plans, to show how planning time grows with plan length: linearly for
// the backward chainer, faster for A* (uniform-cost search), whose search
// space grows with the plan.
func BenchmarkPlanLength(b *testing.B) {
	d := survival.SurvivorDomain
	for _, planner := range []struct {
		name string
		plan func(context.Context, survival.SurvivorState, *runtime.Plan) error
	}{
		{"backward", runtime.NewBackwardChainer(d).PlanInto},
		{"astar", runtime.NewAStar(d).PlanInto},
	} {
		for _, n := range lengths {
			benchPlan(b, planCase[survival.SurvivorState]{
				name: fmt.Sprintf("%s/%d", planner.name, n), domain: d, start: starving(n),
				plan: planner.plan, minLen: n, maxLen: n,
			})
		}
	}
}

func TestPlanLengths(t *testing.T) {
	d := survival.SurvivorDomain
	for _, n := range lengths {
		checkPlan(t, planCase[survival.SurvivorState]{name: fmt.Sprint("backward ", n), domain: d, start: starving(n),
			plan: runtime.NewBackwardChainer(d).PlanInto, minLen: n, maxLen: n})
		checkPlan(t, planCase[survival.SurvivorState]{name: fmt.Sprint("astar ", n), domain: d, start: starving(n),
			plan: runtime.NewAStar(d).PlanInto, minLen: n, maxLen: n})
	}
	require.Equal(t, survival.Starving, starving(12))
}
