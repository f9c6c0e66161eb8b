package synthetic

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/bench/internal/plancase"
	"github.com/rolegen/rolegen/bench/synthetic/blocks6"
	"github.com/rolegen/rolegen/bench/synthetic/blocks8"
	"github.com/rolegen/rolegen/runtime"
)

// Blocksworld runs A* without a heuristic (uniform-cost search), so that
// the search is large enough to measure expansions per second.
func blocks6Case() plancase.Case[blocks6.WorldState] {
	a := runtime.NewAStar(blocks6.WorldDomain)
	return plancase.Case[blocks6.WorldState]{
		Name: "blocksworld6", Domain: blocks6.WorldDomain, Start: blocks6.Start,
		Plan: func(ctx context.Context, s blocks6.WorldState, p *runtime.Plan) error {
			return a.PlanGoalInto(ctx, s, blocks6.WorldGoalSolved, p)
		},
		MinLen: 12, MaxLen: 12,
	}
}

func blocks8Case() plancase.Case[blocks8.WorldState] {
	a := runtime.NewAStar(blocks8.WorldDomain)
	return plancase.Case[blocks8.WorldState]{
		Name: "blocksworld8", Domain: blocks8.WorldDomain, Start: blocks8.Start,
		Plan: func(ctx context.Context, s blocks8.WorldState, p *runtime.Plan) error {
			return a.PlanGoalInto(ctx, s, blocks8.WorldGoalSolved, p)
		},
		MinLen: 16, MaxLen: 16,
	}
}

// BenchmarkPlan is bench's BenchmarkPlan on the blocksworld roles: A*
// with a reused planner and plan (plancase.Bench).
func BenchmarkPlan(b *testing.B) {
	plancase.Bench(b, blocks6Case())
	plancase.Bench(b, blocks8Case())
}

func TestBlocksworldPlans(t *testing.T) {
	for _, c := range []plancase.Case[blocks6.WorldState]{blocks6Case()} {
		p := plancase.Check(t, c)
		end, err := c.Domain.Simulate(c.Start, p.Steps)
		require.NoError(t, err)
		assert.Zero(t, blocks6.Misplaced(end, nil), "every block in place")
		// The estimate is admissible: with it A* finds an equally short
		// plan, expanding fewer states.
		var q runtime.Plan
		require.NoError(t, runtime.NewAStar(c.Domain, runtime.WithHeuristic(blocks6.Misplaced)).PlanGoalInto(t.Context(), c.Start, blocks6.WorldGoalSolved, &q))
		assert.InDelta(t, p.Cost, q.Cost, 0)
		assert.Less(t, q.Expansions, p.Expansions)
	}
	p := plancase.Check(t, blocks8Case())
	end, err := blocks8.WorldDomain.Simulate(blocks8.Start, p.Steps)
	require.NoError(t, err)
	assert.Zero(t, blocks8.Misplaced(end, nil), "every block in place")
	assert.Len(t, blocks6.WorldDomain.Actions, 72)
	assert.Len(t, blocks8.WorldDomain.Actions, 128)
}
