package bench

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/bench/internal/blocks6"
	"github.com/rolegen/rolegen/bench/internal/blocks8"
	"github.com/rolegen/rolegen/bench/internal/crafting"
	"github.com/rolegen/rolegen/bench/internal/soldier"
	"github.com/rolegen/rolegen/bench/internal/survival"
	"github.com/rolegen/rolegen/bench/internal/tactics"
	"github.com/rolegen/rolegen/runtime"
)

// planCase is one planning problem: a planner's Into method and the state
// it plans from.
type planCase[S comparable] struct {
	name   string
	domain *runtime.Domain[S]
	start  S
	// plan plans from s into p, reusing p's storage.
	plan func(ctx context.Context, s S, p *runtime.Plan) error
	// minLen and maxLen bound the plan's length.
	minLen, maxLen int
}

func soldierCase() planCase[soldier.SoldierState] {
	return planCase[soldier.SoldierState]{
		name: "soldier", domain: soldier.SoldierDomain,
		plan:   runtime.NewBackwardChainer(soldier.SoldierDomain).PlanInto,
		minLen: 2, maxLen: 2,
	}
}

func survivalCases() []planCase[survival.SurvivorState] {
	d := survival.SurvivorDomain
	return []planCase[survival.SurvivorState]{
		{name: "survival/backward", domain: d, start: survival.Starving, plan: runtime.NewBackwardChainer(d).PlanInto, minLen: 12, maxLen: 12},
		{name: "survival/astar", domain: d, start: survival.Starving, plan: runtime.NewAStar(d).PlanInto, minLen: 12, maxLen: 12},
	}
}

func craftingCases() []planCase[crafting.CrafterState] {
	d := crafting.CrafterDomain
	return []planCase[crafting.CrafterState]{
		{name: "crafting/backward", domain: d, plan: runtime.NewBackwardChainer(d).PlanInto, minLen: 15, maxLen: 25},
		{name: "crafting/astar", domain: d, plan: runtime.NewAStar(d, runtime.WithHeuristic(crafting.Estimate)).PlanInto, minLen: 15, maxLen: 25},
	}
}

// Blocksworld runs A* without a heuristic (uniform-cost search), so that
// the search is large enough to measure expansions per second.
func blocks6Case() planCase[blocks6.WorldState] {
	a := runtime.NewAStar(blocks6.WorldDomain)
	return planCase[blocks6.WorldState]{
		name: "blocksworld6", domain: blocks6.WorldDomain, start: blocks6.Start,
		plan: func(ctx context.Context, s blocks6.WorldState, p *runtime.Plan) error {
			return a.PlanGoalInto(ctx, s, blocks6.WorldGoalSolved, p)
		},
		minLen: 12, maxLen: 12,
	}
}

func blocks8Case() planCase[blocks8.WorldState] {
	a := runtime.NewAStar(blocks8.WorldDomain)
	return planCase[blocks8.WorldState]{
		name: "blocksworld8", domain: blocks8.WorldDomain, start: blocks8.Start,
		plan: func(ctx context.Context, s blocks8.WorldState, p *runtime.Plan) error {
			return a.PlanGoalInto(ctx, s, blocks8.WorldGoalSolved, p)
		},
		minLen: 16, maxLen: 16,
	}
}

// benchPlan plans c's problem once per op with a reused planner and plan,
// and reports the plan's length and the expansions per second (for the
// backward chainer: actions considered; for A*: states expanded).
func benchPlan[S comparable](b *testing.B, c planCase[S]) {
	b.Run(c.name, func(b *testing.B) {
		p, expansions := planLoop(b, c)
		b.ReportMetric(float64(len(p.Steps)), "steps")
		b.ReportMetric(float64(p.Expansions), "expansions/op")
		b.ReportMetric(float64(expansions)/b.Elapsed().Seconds(), "expansions/s")
	})
}

// utilitySelector weighs the squaddie's twenty actions by five
// considerations.
func utilitySelector() *runtime.UtilitySelector[tactics.SquaddieState] {
	health := func(s tactics.SquaddieState) float64 { return float64(s.Health) }
	return runtime.NewUtility(tactics.SquaddieDomain,
		runtime.Cost[tactics.SquaddieState](0.3),
		runtime.Value[tactics.SquaddieState](0.5),
		runtime.PreconditionSatisfied[tactics.SquaddieState](),
		runtime.Curve(0.4, runtime.LogisticCurve(-10, 1, 0.5, 0), health, 0, 100),
		runtime.HasTag[tactics.SquaddieState]("combat", 0.6),
	)
}

// squaddies are states for the utility benchmark, varied so that
// different actions apply.
func squaddies() []tactics.SquaddieState {
	out := make([]tactics.SquaddieState, 64)
	for i := range out {
		out[i] = tactics.SquaddieState{
			Health: 5 + i*37%100, Energy: i * 13 % 100, Ammo: i * 7 % 31, Magazines: i % 3,
			Medkits: i % 2, Grenades: i % 4 / 3, Threat: i % 6, Distance: i * 5 % 11,
			InCover: i%3 == 0, Radio: i%5 == 0,
		}
	}
	return out
}

var scoredSink []runtime.Scored

// BenchmarkPlan plans with a reused planner and plan (PlanInto) or ranks
// with a reused slice (RankedInto): steady state, as in a game loop.
func BenchmarkPlan(b *testing.B) {
	benchPlan(b, soldierCase())
	for _, c := range survivalCases() {
		benchPlan(b, c)
	}
	for _, c := range craftingCases() {
		benchPlan(b, c)
	}
	benchPlan(b, blocks6Case())
	benchPlan(b, blocks8Case())

	states := squaddies()
	b.Run("utility/ranked", func(b *testing.B) {
		u := utilitySelector()
		dst := u.RankedInto(states[0], nil)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			dst = u.RankedInto(states[i&63], dst)
			i++
		}
		scoredSink = dst
	})
	b.Run("utility/best", func(b *testing.B) {
		u := utilitySelector()
		b.ReportAllocs()
		i, n := 0, 0
		for b.Loop() {
			a, _ := u.Best(states[i&63])
			n += int(a)
			i++
		}
		sink += n
	})
}

// planLoop plans c's problem once per op with a reused planner and plan,
// after a warm-up that grows their storage, and returns the last plan and
// the expansions of all the ops.
func planLoop[S comparable](b *testing.B, c planCase[S]) (runtime.Plan, int) {
	ctx := context.Background()
	var p runtime.Plan
	require.NoError(b, c.plan(ctx, c.start, &p))
	expansions := 0
	b.ReportAllocs()
	for b.Loop() {
		if err := c.plan(ctx, c.start, &p); err != nil {
			b.Fatal(err)
		}
		expansions += p.Expansions
	}
	return p, expansions
}

// checkPlan plans c's problem twice with the same planner (the second
// time reusing the plan) and checks the plan verifies and has the length
// the benchmark claims.
func checkPlan[S comparable](t *testing.T, c planCase[S]) runtime.Plan {
	t.Helper()
	var p runtime.Plan
	for range 2 {
		require.NoError(t, c.plan(t.Context(), c.start, &p), c.name)
		require.NoError(t, c.domain.Verify(c.start, &p), c.name)
		require.NotEmpty(t, p.Goals, c.name)
		assert.GreaterOrEqual(t, len(p.Steps), c.minLen, c.name)
		assert.LessOrEqual(t, len(p.Steps), c.maxLen, c.name)
	}
	return p.Clone()
}

func TestPlans(t *testing.T) {
	p := checkPlan(t, soldierCase())
	assert.Equal(t, []runtime.ActionID{soldier.SoldierFetchMagazine, soldier.SoldierReload}, p.Steps)

	for _, c := range survivalCases() {
		p := checkPlan(t, c)
		assert.InDelta(t, 12.0, p.Cost, 0, c.name)
	}
	bc, astar := craftingCases()[0], craftingCases()[1]
	checkPlan(t, bc)
	best := checkPlan(t, astar)
	// The estimate is admissible: with it A* finds a plan as cheap as the
	// built-in heuristic does.
	astar.plan = runtime.NewAStar(astar.domain, runtime.WithUnsatisfiedGoalsHeuristic(), runtime.WithSearchBudget(1_000_000)).PlanInto
	other := checkPlan(t, astar)
	assert.InDelta(t, other.Cost, best.Cost, 0)

	for _, c := range []planCase[blocks6.WorldState]{blocks6Case()} {
		p := checkPlan(t, c)
		end, err := c.domain.Simulate(c.start, p.Steps)
		require.NoError(t, err)
		assert.Zero(t, blocks6.Misplaced(end, nil), "every block in place")
		// The estimate is admissible: with it A* finds an equally short
		// plan, expanding fewer states.
		var q runtime.Plan
		require.NoError(t, runtime.NewAStar(c.domain, runtime.WithHeuristic(blocks6.Misplaced)).PlanGoalInto(t.Context(), c.start, blocks6.WorldGoalSolved, &q))
		assert.InDelta(t, p.Cost, q.Cost, 0)
		assert.Less(t, q.Expansions, p.Expansions)
	}
	p = checkPlan(t, blocks8Case())
	end, err := blocks8.WorldDomain.Simulate(blocks8.Start, p.Steps)
	require.NoError(t, err)
	assert.Zero(t, blocks8.Misplaced(end, nil), "every block in place")
	assert.Len(t, blocks6.WorldDomain.Actions, 72)
	assert.Len(t, blocks8.WorldDomain.Actions, 128)
}

func TestUtility(t *testing.T) {
	u := utilitySelector()
	require.Len(t, tactics.SquaddieDomain.Actions, 20)
	require.Len(t, u.Considerations(), 5)
	var dst []runtime.Scored
	for _, s := range squaddies() {
		dst = u.RankedInto(s, dst)
		require.NotEmpty(t, dst)
		best, ok := u.Best(s)
		require.True(t, ok)
		assert.Equal(t, dst[0].Action, best)
		for _, sc := range dst {
			assert.True(t, tactics.SquaddieDomain.Applicable(sc.Action, s))
		}
	}
}
