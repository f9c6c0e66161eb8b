package bench

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/bench/internal/plancase"
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
			plancase.Bench(b, plancase.Case[survival.SurvivorState]{
				Name: fmt.Sprintf("%s/%d", planner.name, n), Domain: d, Start: starving(n),
				Plan: planner.plan, MinLen: n, MaxLen: n,
			})
		}
	}
}

func TestPlanLengths(t *testing.T) {
	d := survival.SurvivorDomain
	for _, n := range lengths {
		plancase.Check(t, plancase.Case[survival.SurvivorState]{Name: fmt.Sprint("backward ", n), Domain: d, Start: starving(n),
			Plan: runtime.NewBackwardChainer(d).PlanInto, MinLen: n, MaxLen: n})
		plancase.Check(t, plancase.Case[survival.SurvivorState]{Name: fmt.Sprint("astar ", n), Domain: d, Start: starving(n),
			Plan: runtime.NewAStar(d).PlanInto, MinLen: n, MaxLen: n})
	}
	require.Equal(t, survival.Starving, starving(12))
}
