package bench

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/bench/internal/crafting"
	"github.com/rolegen/rolegen/bench/internal/plancase"
	"github.com/rolegen/rolegen/bench/internal/soldier"
	"github.com/rolegen/rolegen/bench/internal/survival"
	"github.com/rolegen/rolegen/bench/internal/tactics"
	"github.com/rolegen/rolegen/runtime"
)

func soldierCase() plancase.Case[soldier.SoldierState] {
	return plancase.Case[soldier.SoldierState]{
		Name: "soldier", Domain: soldier.SoldierDomain,
		Plan:   runtime.NewBackwardChainer(soldier.SoldierDomain).PlanInto,
		MinLen: 2, MaxLen: 2,
	}
}

func survivalCases() []plancase.Case[survival.SurvivorState] {
	d := survival.SurvivorDomain
	return []plancase.Case[survival.SurvivorState]{
		{Name: "survival/backward", Domain: d, Start: survival.Starving, Plan: runtime.NewBackwardChainer(d).PlanInto, MinLen: 12, MaxLen: 12},
		{Name: "survival/astar", Domain: d, Start: survival.Starving, Plan: runtime.NewAStar(d).PlanInto, MinLen: 12, MaxLen: 12},
	}
}

func craftingCases() []plancase.Case[crafting.CrafterState] {
	d := crafting.CrafterDomain
	return []plancase.Case[crafting.CrafterState]{
		{Name: "crafting/backward", Domain: d, Plan: runtime.NewBackwardChainer(d).PlanInto, MinLen: 15, MaxLen: 25},
		{Name: "crafting/astar", Domain: d, Plan: runtime.NewAStar(d, runtime.WithHeuristic(crafting.Estimate)).PlanInto, MinLen: 15, MaxLen: 25},
	}
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
	plancase.Bench(b, soldierCase())
	for _, c := range survivalCases() {
		plancase.Bench(b, c)
	}
	for _, c := range craftingCases() {
		plancase.Bench(b, c)
	}

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

func TestPlans(t *testing.T) {
	p := plancase.Check(t, soldierCase())
	assert.Equal(t, []runtime.ActionID{soldier.SoldierFetchMagazine, soldier.SoldierReload}, p.Steps)

	for _, c := range survivalCases() {
		p := plancase.Check(t, c)
		assert.InDelta(t, 12.0, p.Cost, 0, c.Name)
	}
	bc, astar := craftingCases()[0], craftingCases()[1]
	plancase.Check(t, bc)
	best := plancase.Check(t, astar)
	// The estimate is admissible: with it A* finds a plan as cheap as the
	// built-in heuristic does.
	astar.Plan = runtime.NewAStar(astar.Domain, runtime.WithUnsatisfiedGoalsHeuristic(), runtime.WithSearchBudget(1_000_000)).PlanInto
	other := plancase.Check(t, astar)
	assert.InDelta(t, other.Cost, best.Cost, 0)

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
