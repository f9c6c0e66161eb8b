package runtime_test

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
	"github.com/rolegen/rolegen/runtime/internal/diver"
)

// The diver sells every pearl in her bag at once (Coins += 7 * Bag) and
// gathers them at the bottom, four at most. From the surface with no air,
// the cheapest plan for 30 coins fills the bag in one dive, sells, and
// dives once more (43); the chainer used to sell a pearl a trip (71).
func TestAChainerFillsTheBagBeforeSelling(t *testing.T) {
	ctx := context.Background()
	d := diver.DiverDomain
	ref := runtime.NewAStar(d, runtime.WithAStarMaxStates(2_000_000), runtime.WithSearchBudget(2_000_000))
	ch := runtime.NewBackwardChainer(d)
	var cheapest, plan runtime.Plan
	require.NoError(t, ref.PlanGoalInto(ctx, diver.DiverState{}, diver.DiverGoalRich, &cheapest))
	require.NoError(t, ch.PlanGoalInto(ctx, diver.DiverState{}, diver.DiverGoalRich, &plan))
	assert.Equal(t, cheapest.Cost, plan.Cost, "%s", d.Format(plan))
	sells := 0
	for _, a := range plan.Steps {
		if a == diver.DiverSell {
			sells++
		}
	}
	assert.Equal(t, 2, sells, "%s", d.Format(plan))
}

// Over every start of a grid (depths, air, pearls, cold, coins, in port
// or not, a tank or not) and every goal the reference reaches, the
// chainer plans, near the cheapest. Before it filled the bag: p90 1.58,
// worst 3.31 of the cheapest.
func TestAChainerNearTheCheapestWhereOneStepSellsAll(t *testing.T) {
	ctx := context.Background()
	d := diver.DiverDomain
	ref := runtime.NewAStar(d, runtime.WithAStarMaxStates(2_000_000), runtime.WithSearchBudget(2_000_000))
	ch := runtime.NewBackwardChainer(d)
	var cheapest, plan runtime.Plan
	var ratios []float64
	every := 1
	if raceEnabled || testing.Short() {
		every = 11
	}
	n := 0
	for dp := 0; dp <= 4; dp++ {
		for _, air := range []float64{0, 5, 12.5, 40, 100} {
			for _, bag := range []int{0, 2, 4} {
				for _, cold := range []int{0, 3, 6} {
					for _, coins := range []int{0, 5, 20} {
						for b := range 4 {
							port := b&1 != 0
							if port && dp > 0 {
								continue
							}
							if n++; n%every != 0 {
								continue
							}
							s := diver.DiverState{Depth: dp, Air: air, Bag: bag, Cold: cold, Coins: coins, InPort: port, Tank: b&2 != 0}
							for g := range d.Goals {
								gid := runtime.GoalID(g)
								if d.Goals[g].Cond(s) || ref.PlanGoalInto(ctx, s, gid, &cheapest) != nil {
									continue
								}
								require.NoError(t, ch.PlanGoalInto(ctx, s, gid, &plan), "%+v %s", s, d.Goals[g].Name)
								cost, ok := replayCost(d, s, plan.Steps)
								require.True(t, ok && d.Goals[g].Cond(replayEnd(d, s, plan.Steps)), "%+v %s: %s", s, d.Goals[g].Name, d.Format(plan))
								ratios = append(ratios, cost/cheapest.Cost)
							}
						}
					}
				}
			}
		}
	}
	slices.Sort(ratios)
	p90 := ratios[int(math.Ceil(0.9*float64(len(ratios))))-1]
	t.Logf("%d pairs: cost ÷ cheapest p90 %.3f, worst %.3f", len(ratios), p90, ratios[len(ratios)-1])
	assert.LessOrEqual(t, p90, 1.2)
	assert.LessOrEqual(t, ratios[len(ratios)-1], 2.0)
}

// replayCost is what steps cost from s, false when one does not apply.
func replayCost[S comparable](d *runtime.Domain[S], s S, steps []runtime.ActionID) (float64, bool) {
	c := 0.0
	for _, a := range steps {
		act := &d.Actions[a]
		if !act.Pre(s) {
			return 0, false
		}
		if act.CostOf != nil {
			c += act.CostOf(s)
		} else {
			c += act.Cost
		}
		s = act.Effect(s)
	}
	return c, true
}

// replayEnd is the state after steps from s.
func replayEnd[S comparable](d *runtime.Domain[S], s S, steps []runtime.ActionID) S {
	for _, a := range steps {
		s = d.Actions[a].Effect(s)
	}
	return s
}

// A domain whose change adds a multiple of a field that is not another
// number's is inconsistent: NewDomain panics and says which.
func TestAMultipleOfNoOtherNumberIsRefused(t *testing.T) {
	type two struct {
		N int
		B bool
	}
	fields := []runtime.Field{{Name: "N", Kind: runtime.KindInt}, {Name: "B", Kind: runtime.KindBool}}
	build := func(by runtime.FieldID) func() {
		return func() {
			runtime.NewDomain(runtime.Domain[two]{
				Name:   "Two",
				Fields: fields,
				Actions: []runtime.Action[two]{{
					Name: "Double", Cost: 1, Effect: func(s two) two { return s },
					Writes:  []runtime.FieldID{0},
					Changes: []runtime.Change{{Field: 0, Op: runtime.ChangeAddTimes, Num: 2, By: by}},
				}},
			})
		}
	}
	for _, by := range []runtime.FieldID{0, 1, 2} {
		assert.PanicsWithValue(t, `runtime.NewDomain: action "Double": the change of field 0 adds a multiple of field `+string(rune('0'+by))+`, which is not another numeric field`, build(by))
	}
}

// The flow counts the diver's sales in pearls (a sale of u pearls is u
// units, each a quarter of a sale's cost, as her bag holds four): its
// bound from nothing counts the pearls' gathering and the air it takes,
// not one sale. It stays below the cheapest plan from every start
// of the grid, and falls by no more than a step costs along that plan.
func TestAFlowCountsSalesInUnits(t *testing.T) {
	ctx := context.Background()
	d := diver.DiverDomain
	assert.GreaterOrEqual(t, d.LowerBound(diver.DiverGoalRich, diver.DiverState{}), 11.0, "one sale's cost was the bound")
	ref := runtime.NewAStar(d, runtime.WithAStarMaxStates(2_000_000), runtime.WithSearchBudget(2_000_000))
	var cheapest runtime.Plan
	every := 1
	if raceEnabled || testing.Short() {
		every = 11
	}
	n, pairs := 0, 0
	for dp := 0; dp <= 4; dp++ {
		for _, air := range []float64{0, 5, 12.5, 40, 100} {
			for _, bag := range []int{0, 2, 4} {
				for _, coins := range []int{0, 5, 20} {
					for b := range 4 {
						port := b&1 != 0
						if port && dp > 0 {
							continue
						}
						if n++; n%every != 0 {
							continue
						}
						s := diver.DiverState{Depth: dp, Air: air, Bag: bag, Cold: 3, Coins: coins, InPort: port, Tank: b&2 != 0}
						for g := range d.Goals {
							gid := runtime.GoalID(g)
							if d.Goals[g].Cond(s) || ref.PlanGoalInto(ctx, s, gid, &cheapest) != nil {
								continue
							}
							pairs++
							require.LessOrEqual(t, d.LowerBound(gid, s), cheapest.Cost+1e-9, "%+v %s", s, d.Goals[g].Name)
							st := s
							for _, a := range cheapest.Steps {
								next := d.Actions[a].Effect(st)
								require.LessOrEqual(t, d.LowerBound(gid, st), d.Actions[a].Cost+d.LowerBound(gid, next)+1e-9, "%+v %s, %s", st, d.Goals[g].Name, d.Actions[a].Name)
								st = next
							}
						}
					}
				}
			}
		}
	}
	require.Positive(t, pairs)

	// A live bag fuller than its range (nine pearls where it holds four)
	// sells more than four units at once: the bound stays below that one
	// sale (the flow gives such a state none of its own).
	full := diver.DiverState{Air: 100, Bag: 9, InPort: true}
	assert.LessOrEqual(t, d.LowerBound(diver.DiverGoalRich, full), 1.0, "one sale of nine pearls is 63 coins")
}
