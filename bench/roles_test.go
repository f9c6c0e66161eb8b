package bench

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/bench/internal/survival"
	"github.com/rolegen/rolegen/bench/internal/tavern"
	"github.com/rolegen/rolegen/bench/internal/villager"
	"github.com/rolegen/rolegen/bench/internal/woodcutter"
	"github.com/rolegen/rolegen/runtime"
)

// Two roles written from the README, not for the planners: the woodcutter
// (every move costs hunger) and the farm villager (fourteen actions, four
// goals). The backward chainer against A* on many starts: every plan it
// returns replays, and it plans what A* plans.

// chainerVersusAStar plans every goal from every start with both planners
// and returns the share of (start, goal) pairs A* solves that the chainer
// solves too, and the cost ratios of the chainer's plans.
func chainerVersusAStar[S comparable](t *testing.T, d *runtime.Domain[S], starts []S) (share float64, ratios []float64) {
	t.Helper()
	ctx := context.Background()
	bc, as := runtime.NewBackwardChainer(d), runtime.NewAStar(d)
	var plan, ref runtime.Plan
	solved, found := 0, 0
	for _, s := range starts {
		for g := range d.Goals {
			goal := runtime.GoalID(g)
			if d.Holds(goal, s) || as.PlanGoalInto(ctx, s, goal, &ref) != nil {
				continue
			}
			solved++
			if err := bc.PlanGoalInto(ctx, s, goal, &plan); err != nil {
				t.Logf("%s from %+v: %v (A*: %v)", d.Goals[g].Name, s, err, names(d, ref.Steps))
				continue
			}
			end, err := d.Simulate(s, plan.Steps)
			require.NoError(t, err, "%s from %+v", d.Goals[g].Name, s)
			require.True(t, d.Holds(goal, end), "%s from %+v: %v", d.Goals[g].Name, s, names(d, plan.Steps))
			found++
			ratios = append(ratios, plan.Cost/ref.Cost)
		}
	}
	require.Positive(t, solved)
	return float64(found) / float64(solved), ratios
}

func quantile(r []float64, p float64) float64 {
	r = slices.Sorted(slices.Values(r))
	return r[min(len(r)-1, int(p*float64(len(r))))]
}

func TestWoodcutter(t *testing.T) {
	d := woodcutter.WoodcutterDomain
	p, err := runtime.NewBackwardChainer(d).PlanGoal(context.Background(), woodcutter.Start, woodcutter.WoodcutterGoalWarm)
	require.NoError(t, err)
	assert.Equal(t, []string{"GoTown", "BuyAxe", "GoForest", "Chop", "GoHome", "LightFire"}, names(d, p.Steps))

	var starts []woodcutter.WoodcutterState
	for _, loc := range []string{"home", "forest", "town"} {
		for _, axe := range []bool{false, true} {
			for _, wood := range []int{0, 1, 2} {
				for _, gold := range []int{0, 1, 5, 10} {
					for _, hunger := range []float64{0, 4.5, 12} {
						starts = append(starts, woodcutter.WoodcutterState{Location: loc, HasAxe: axe, Wood: wood, Gold: gold, Hunger: hunger})
					}
				}
			}
		}
	}
	share, ratios := chainerVersusAStar(t, d, starts)
	t.Logf("woodcutter: %d plans, %.1f%% of what A* plans; cost/optimal median %.2f, p90 %.2f, max %.2f",
		len(ratios), 100*share, quantile(ratios, 0.5), quantile(ratios, 0.9), quantile(ratios, 1))
	assert.Equal(t, 1.0, share)
	assert.LessOrEqual(t, quantile(ratios, 0.9), 1.5)
}

func villagerStarts(n int) []villager.VillagerState {
	r := rand.New(rand.NewPCG(7, 7))
	locs := []string{"home", "field", "market", "forest"}
	starts := make([]villager.VillagerState, n)
	for i := range starts {
		starts[i] = villager.VillagerState{
			Location: locs[r.IntN(4)], Energy: []int{0, 20, 60, 100}[r.IntN(4)], Hunger: []int{0, 50, 90}[r.IntN(3)],
			Gold: []int{0, 3, 10, 25}[r.IntN(4)], Bread: r.IntN(2), Wheat: []int{0, 2}[r.IntN(2)],
			Seeds: r.IntN(2), Planted: r.IntN(2) == 0, Wood: []int{0, 3}[r.IntN(2)],
		}
	}
	return starts
}

func TestVillager(t *testing.T) {
	d := villager.VillagerDomain
	// Fed from the forest with gold: walk to the market and buy bread.
	s := villager.VillagerState{Location: "forest", Energy: 60, Hunger: 50, Gold: 10}
	p, err := runtime.NewBackwardChainer(d).PlanGoal(context.Background(), s, villager.VillagerGoalFed)
	require.NoError(t, err)
	assert.Equal(t, []string{"GoMarket", "BuyBread", "EatBread"}, names(d, p.Steps))

	share, ratios := chainerVersusAStar(t, d, villagerStarts(150))
	t.Logf("villager: %d plans, %.1f%% of what A* plans; cost/optimal median %.2f, p90 %.2f, max %.2f",
		len(ratios), 100*share, quantile(ratios, 0.5), quantile(ratios, 0.9), quantile(ratios, 1))
	assert.GreaterOrEqual(t, share, 0.98)
	assert.LessOrEqual(t, quantile(ratios, 0.9), 1.5)
}

// Every goal at once, as Think plans: the plan replays and the goals it
// promises hold.
func TestVillagerPlansEveryGoal(t *testing.T) {
	d := villager.VillagerDomain
	bc := runtime.NewBackwardChainer(d)
	planned := 0
	for _, s := range villagerStarts(150) {
		p, err := bc.Plan(context.Background(), s)
		if err != nil {
			var perr *runtime.PlanningError
			require.ErrorAs(t, err, &perr, "from %+v", s)
		}
		require.NoError(t, d.Verify(s, &p), "from %+v", s)
		planned += len(p.Goals)
	}
	assert.Positive(t, planned)
}

// names returns the names of the actions of steps.
func names[S comparable](d *runtime.Domain[S], steps []runtime.ActionID) []string {
	out := make([]string, len(steps))
	for i, a := range steps {
		out[i] = d.ActionName(a)
	}
	return out
}

// hopeless are calls that cannot succeed, on the roles above and the
// survival role: each must end with a PlanningError, within the default
// budget. BenchmarkHopeless times them.
func hopeless() []struct {
	name string
	plan func(ctx context.Context) (runtime.Plan, error)
} {
	wc := runtime.NewBackwardChainer(woodcutter.WoodcutterDomain)
	poor := woodcutter.WoodcutterState{Location: "home"} // no gold, no axe, no wood
	vl := runtime.NewBackwardChainer(villager.VillagerDomain)
	broke := villager.VillagerState{Location: "home", Energy: 100} // nothing to sell, nothing to sell it for
	sv := runtime.NewBackwardChainer(survival.SurvivorDomain)
	wa := runtime.NewAStar(woodcutter.WoodcutterDomain)
	va := runtime.NewAStar(villager.VillagerDomain)
	sa := runtime.NewAStar(survival.SurvivorDomain)
	tk, ta := runtime.NewBackwardChainer(tavern.KeeperDomain), runtime.NewAStar(tavern.KeeperDomain)
	// No gold and no guests: nothing earns, and she sings twice at most.
	empty := tavern.KeeperState{Where: tavern.Bar, Mood: "grumpy", Fatigue: 3}
	// Grain for one keg, which is four ale of the six: the rest needs gold.
	dry := tavern.KeeperState{Where: tavern.Bar, Grain: 3}
	return []struct {
		name string
		plan func(ctx context.Context) (runtime.Plan, error)
	}{
		{"woodcutter/warm-without-gold", func(ctx context.Context) (runtime.Plan, error) {
			return wc.PlanGoal(ctx, poor, woodcutter.WoodcutterGoalWarm)
		}},
		{"villager/wealthy-without-means", func(ctx context.Context) (runtime.Plan, error) {
			return vl.PlanGoal(ctx, broke, villager.VillagerGoalWealthy)
		}},
		{"villager/everything-without-means", func(ctx context.Context) (runtime.Plan, error) {
			return vl.Plan(ctx, villager.VillagerState{Location: "forest", Hunger: 90})
		}},
		{"survival/beyond-the-step-limit", func(ctx context.Context) (runtime.Plan, error) {
			return sv.Plan(ctx, survival.SurvivorState{Hunger: 1_000_000})
		}},
		{"tavern/prosper-without-guests", func(ctx context.Context) (runtime.Plan, error) {
			return tk.PlanGoal(ctx, empty, tavern.KeeperGoalProsper)
		}},
		{"tavern/stocked-with-one-keg", func(ctx context.Context) (runtime.Plan, error) {
			return tk.PlanGoal(ctx, dry, tavern.KeeperGoalStocked)
		}},
		{"astar/woodcutter/warm-without-gold", func(ctx context.Context) (runtime.Plan, error) {
			return wa.PlanGoal(ctx, poor, woodcutter.WoodcutterGoalWarm)
		}},
		{"astar/villager/wealthy-without-means", func(ctx context.Context) (runtime.Plan, error) {
			return va.PlanGoal(ctx, broke, villager.VillagerGoalWealthy)
		}},
		{"astar/villager/everything-without-means", func(ctx context.Context) (runtime.Plan, error) {
			return va.Plan(ctx, villager.VillagerState{Location: "forest", Hunger: 90})
		}},
		{"astar/survival/beyond-the-step-limit", func(ctx context.Context) (runtime.Plan, error) {
			return sa.Plan(ctx, survival.SurvivorState{Hunger: 1_000_000})
		}},
		{"astar/tavern/prosper-without-guests", func(ctx context.Context) (runtime.Plan, error) {
			return ta.PlanGoal(ctx, empty, tavern.KeeperGoalProsper)
		}},
		{"astar/tavern/stocked-with-one-keg", func(ctx context.Context) (runtime.Plan, error) {
			return ta.PlanGoal(ctx, dry, tavern.KeeperGoalStocked)
		}},
	}
}

func TestHopeless(t *testing.T) {
	for _, h := range hopeless() {
		p, err := h.plan(context.Background())
		var perr *runtime.PlanningError
		require.ErrorAs(t, err, &perr, h.name)
		t.Logf("%s: %v (%d expansions)", h.name, err, p.Expansions)
		assert.LessOrEqual(t, p.Expansions, runtime.DefaultSearchBudget, h.name)
	}
}

func BenchmarkHopeless(b *testing.B) {
	for _, h := range hopeless() {
		b.Run(h.name, func(b *testing.B) {
			var p runtime.Plan
			for range b.N {
				p, _ = h.plan(context.Background())
			}
			b.ReportMetric(float64(p.Expansions), "expansions")
		})
	}
}
