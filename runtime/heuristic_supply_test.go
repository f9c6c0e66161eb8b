package runtime_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
)

// newRandomSupplyRole is a random role whose goal's field V0 only steps
// move: its actions add to it and use up another field (Sell: Coins +=
// 3, Fish -= 1, needs Fish >= 1), which other actions give back by steps
// or by setting it, some of them using up a field of their own (Cast
// needs bait), and some take from V0 as they do (buying the cloth that
// sells); other actions take from V0, or move the other fields.
// Every field stays within 0..4: a step's precondition leaves it room.
// With both, a giver may give back a second field too (a shot brings
// meat for one sale and a hide for another).
func newRandomSupplyRole(r *rand.Rand) *randomRole { return newSupplyRole(r, false) }

func newSupplyRole(r *rand.Rand, both bool) *randomRole {
	rr := &randomRole{nf: 4}
	other := func(not int) int {
		for {
			if f := 1 + r.IntN(3); f != not {
				return f
			}
		}
	}
	for range 1 + r.IntN(3) { // what serves the goal
		a := roleAction{cost: float64(1 + r.IntN(3))}
		a.adds(0, 1+r.IntN(2))
		if r.IntN(5) > 0 {
			a.uses(other(0), 1+r.IntN(2))
		}
		rr.actions = append(rr.actions, a)
	}
	for range 1 + r.IntN(4) { // what gives back
		a := roleAction{cost: float64(1 + r.IntN(4))}
		f := other(0)
		if r.IntN(3) == 0 {
			a.eff = append(a.eff, roleEffect{f: f, k: 1 + r.IntN(4)})
		} else {
			a.adds(f, 1+r.IntN(2))
		}
		if r.IntN(2) == 0 {
			a.uses(other(f), 1)
		}
		if r.IntN(3) == 0 {
			a.uses(0, 1) // and takes from the goal's field (BuyCloth: Gold -= 5)
		}
		if both && r.IntN(2) == 0 {
			if g := other(0); g != f && !slices.ContainsFunc(a.eff, func(e roleEffect) bool { return e.f == g }) {
				a.adds(g, 1+r.IntN(2)) // and gives back another field
			}
		}
		rr.actions = append(rr.actions, a)
	}
	for range r.IntN(3) { // the rest
		a := roleAction{cost: float64(1 + r.IntN(4))}
		switch f := r.IntN(4); {
		case f == 0:
			a.uses(0, 1)
		case r.IntN(2) == 0:
			a.uses(f, 1)
		default:
			a.eff = append(a.eff, roleEffect{f: f, k: r.IntN(5)})
		}
		rr.actions = append(rr.actions, a)
	}
	op := []runtime.Cmp{runtime.CmpGe, runtime.CmpGt}[r.IntN(2)]
	rr.goal = []roleLit{{f: 0, op: op, k: 2 + r.IntN(2)}}
	if r.IntN(3) == 0 {
		rr.goal = append(rr.goal, roleLit{f: other(0), op: runtime.CmpGe, k: 1 + r.IntN(3)})
	}
	rr.d = rr.domain()
	return rr
}

// The supplies' estimate (heuristic_supply.go) never exceeds the cost to
// go and no step lowers it by more than the step's cost, on random roles
// built for it; A* with it returns the cheapest plans (admissibility's
// check); and it raises the estimate of some states above what the
// steps alone bound.
func TestSuppliesAreAdmissibleAndConsistent(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 0x5a9))
	checkRandomEstimates(t, "supplies", func(int) *randomRole { return newRandomSupplyRole(r) }, runtime.WithoutSupplies)
}

// The same where givers may give back two fields that sales use up:
// their cost is split between the supplies (Domain.splitGivers).
func TestSuppliesSplitAreAdmissibleAndConsistent(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(8, 0x5a9))
	checkRandomEstimates(t, "supplies, givers of two fields", func(int) *randomRole { return newSupplyRole(r, true) }, runtime.WithoutSupplies)
}

// A goal that is a disjunction of comparisons (Ale >= 6 || Barley >= 8)
// is estimated as the least of its comparisons' estimates: on random
// roles, and on supply roles whose goal's field or a second field will
// do, never above the cost to go, and no step lowers it by more than the
// step's cost; without the comparisons, the part had the cheapest
// serving action's cost whatever the state.
func TestDisjunctionsAreAdmissibleAndConsistent(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(9, 0x5a9))
	checkRandomEstimates(t, "comparisons of a disjunction", func(k int) *randomRole {
		var rr *randomRole
		if k%2 == 0 {
			rr = newRandomRoleWithGoal(r, 3+r.IntN(2), 4+r.IntN(4), false, 2+r.IntN(2))
		} else {
			rr = newSupplyRole(r, k%4 == 1)
			if len(rr.goal) < 2 {
				rr.goal = append(rr.goal, roleLit{f: 1 + r.IntN(3), op: runtime.CmpGe, k: 2 + r.IntN(3)})
			}
		}
		rr.anyGoal = true
		rr.d = rr.domain()
		return rr
	}, runtime.WithoutAny)
}

// checkRandomEstimates holds the estimate of 300 random roles (100 with
// -short), the k-th built by build(k), to admissibility's check and to
// consistency, and asserts that A* with it expands fewer states than
// uniform-cost search and that it raises the estimate of some states
// above what forget leaves of it (what names that in the log).
func checkRandomEstimates(t *testing.T, what string, build func(k int) *randomRole, forget func(*runtime.Domain[roleState])) {
	t.Helper()
	checkRandomEstimatesAgainst(t, what, build, func(rr *randomRole) *runtime.Domain[roleState] {
		d := rr.domain()
		forget(d)
		return d
	})
}

// checkRandomEstimatesAgainst is checkRandomEstimates, with the estimate
// compared with that of the domain bare(rr) builds for each role rr.
func checkRandomEstimatesAgainst(t *testing.T, what string, build func(k int) *randomRole, bare func(*randomRole) *runtime.Domain[roleState]) {
	t.Helper()
	var st admissibility
	roles := 300
	if testing.Short() {
		roles = 100
	}
	for k := range roles {
		rr := build(k)
		st.check(t, rr)
		st.consistent(t, rr, bare(rr))
	}
	t.Logf("%v; the %s raised the estimate of %d of %d states with a plan", &st, what, st.raised, st.states)
	assert.Less(t, st.derived, st.uniform)
	assert.Positive(t, st.raised)
}

// consistent holds the derived estimate of rr's goal to consistency on
// every transition from every state with a plan (no step lowers it by
// more than the step's cost), and counts in st the states where it is
// above that of bare (rr's domain without what the test measures).
func (st *admissibility) consistent(t *testing.T, rr *randomRole, bare *runtime.Domain[roleState]) {
	t.Helper()
	all, togo := costsToGo(t, rr.d)
	for i, s := range all {
		h := rr.d.LowerBound(0, s)
		if h > bare.LowerBound(0, s) {
			st.raised++
		}
		if math.IsInf(togo[i], 1) || math.IsInf(h, 1) {
			continue
		}
		st.states++
		for ai := range rr.actions {
			a := &rr.actions[ai]
			if !a.applies(s) {
				continue
			}
			next := rr.apply(a, s)
			require.LessOrEqual(t, h, a.cost+rr.d.LowerBound(0, next)+1e-9,
				"goal %s: h(%v) = %g, A%d (cost %g) leads to %v, h = %g; %+v", rr.d.Goals[0].CondText, s.V, h, ai, a.cost, next.V, rr.d.LowerBound(0, next), rr.actions)
		}
	}
}

// A supply given back by an action that takes from the part's own field
// (Buy: V0 -= 1 for the V1 that Sell: V0 += 3 uses up) brings only the
// difference a run: the merchant who buys a bolt for 5 and sells it for
// 9 is 4 richer for the cost of both steps.
func TestABoughtSupplyBringsWhatItNets(t *testing.T) {
	sell := roleAction{cost: 1}
	sell.adds(0, 3)
	sell.uses(1, 1)
	buy := roleAction{cost: 1}
	buy.adds(1, 1)
	buy.uses(0, 1)
	work := roleAction{cost: 3}
	work.adds(0, 1)
	rr := &randomRole{nf: 2, actions: []roleAction{sell, buy, work}, goal: []roleLit{{f: 0, op: runtime.CmpGe, k: 4}}}
	// Four units at one a unit (a Buy and a Sell for two), where a Sell
	// alone would count 3 for one: 4, not 2.67. The cheapest plan costs
	// 8 (Work, Buy, Sell, Work).
	assertEstimate(t, rr, 4)
}

// A supply whose giver uses up a field of its own, given back by an
// action that takes from the part's field (Sell: V0 += 2 uses a loaf,
// V1; Bake gives two loaves for a sack, V2; Buy gives a sack for a coin
// of V0), nets only what the sale brings less what the sack cost: past
// the loaves and the sacks at hand, a unit costs (1 + 1/2 + 1/2) / (2 -
// 1/2) = 4/3, not (1 + 1/2 + 1/2) / 2 = 1 (the baker who busks, buys
// flour with the coins, bakes and sells).
func TestASupplyBoughtTwoStepsAwayNets(t *testing.T) {
	sell := roleAction{cost: 1}
	sell.adds(0, 2)
	sell.uses(1, 1)
	bake := roleAction{cost: 1}
	bake.adds(1, 2)
	bake.uses(2, 1)
	buy := roleAction{cost: 1}
	buy.adds(2, 1)
	buy.uses(0, 1)
	work := roleAction{cost: 4}
	work.adds(0, 1)
	rr := &randomRole{nf: 3, actions: []roleAction{sell, bake, buy, work}, goal: []roleLit{{f: 0, op: runtime.CmpGe, k: 4}}}
	// Four units at 4/3 a unit; the cheapest plan costs 8 (Work, Buy,
	// Bake, Sell, Sell).
	assertEstimate(t, rr, 16.0/3)
}

// Two parts whose supplies use up one field (V1, which one action gives
// back) cannot both count its runs; the first part keeps its supply, and
// the estimate stays consistent and admissible.
func TestSharedSuppliesKeepTheFirstPart(t *testing.T) {
	serve := func(f int, cost float64, uses bool) roleAction {
		a := roleAction{cost: cost, pre: []roleLit{{f: f, op: runtime.CmpLe, k: 3}}, eff: []roleEffect{{f: f, add: true, k: 1}}}
		if uses {
			a.pre = append(a.pre, roleLit{f: 1, op: runtime.CmpGe, k: 1})
			a.eff = append(a.eff, roleEffect{f: 1, add: true, k: -1})
		}
		return a
	}
	rr := &randomRole{nf: 4, actions: []roleAction{
		serve(0, 1, true), serve(0, 4, false), serve(2, 1, true), serve(2, 4, false),
		{cost: 2, pre: []roleLit{{f: 1, op: runtime.CmpLe, k: 2}}, eff: []roleEffect{{f: 1, add: true, k: 2}}},
	}, goal: []roleLit{{f: 0, op: runtime.CmpGe, k: 3}, {f: 2, op: runtime.CmpGe, k: 3}}}
	// V0: three runs at 1, each with half a giving back (2 for two
	// units): 6; V2: three runs at 1, its supply left out: 3. The
	// cheapest plan costs 12 (six runs, three givings back).
	assertEstimate(t, rr, 9)
}

// Two actions that raise V1 both use up two of V2 (a pool, see
// Domain.pool: its units counted from a threshold one run's use lower),
// and one action sets V2 to 1: no giver to either of them (1 allows no
// run of 2), but a unit of the pool. Counted as no giver, its run (cost 1)
// lowered the estimate of V0 >= 3 && V1 >= 2 by 2, from 13 to 11 (found
// by TestFlowsWithPlacesAreAdmissibleAndConsistent); the users have no
// supplies then, and the estimate stays consistent.
func TestASetterOfAPooledFieldKeepsTheEstimateConsistent(t *testing.T) {
	rr := &randomRole{nf: 4, actions: []roleAction{
		{pre: []roleLit{{f: 0, op: runtime.CmpLe, k: 3}, {f: 1, op: runtime.CmpGe, k: 1}}, eff: []roleEffect{{f: 0, add: true, k: 1}, {f: 1, add: true, k: -1}}, cost: 1},
		{pre: []roleLit{{f: 1, op: runtime.CmpLe, k: 3}, {f: 2, op: runtime.CmpGe, k: 2}, {f: 3, op: runtime.CmpEq, k: 0}}, eff: []roleEffect{{f: 1, add: true, k: 1}, {f: 2, add: true, k: -2}}, cost: 1},
		{pre: []roleLit{{f: 1, op: runtime.CmpLe, k: 3}, {f: 2, op: runtime.CmpGe, k: 2}, {f: 3, op: runtime.CmpEq, k: 2}}, eff: []roleEffect{{f: 1, add: true, k: 1}, {f: 2, add: true, k: -2}}, cost: 3},
		{pre: []roleLit{{f: 2, op: runtime.CmpLe, k: 3}, {f: 3, op: runtime.CmpEq, k: 1}}, eff: []roleEffect{{f: 2, add: true, k: 1}}, cost: 2},
		{pre: []roleLit{{f: 3, op: runtime.CmpEq, k: 2}}, eff: []roleEffect{{f: 2, k: 1}}, cost: 1},
		{eff: []roleEffect{{f: 3, k: 0}}, cost: 1},
		{pre: []roleLit{{f: 3, op: runtime.CmpNe, k: 1}}, eff: []roleEffect{{f: 3, k: 1}}, cost: 3},
		{pre: []roleLit{{f: 3, op: runtime.CmpNe, k: 2}}, eff: []roleEffect{{f: 3, k: 2}}, cost: 3},
	}, goal: []roleLit{{f: 0, op: runtime.CmpGe, k: 3}, {f: 1, op: runtime.CmpGe, k: 2}}}
	rr.d = rr.domain()
	var st admissibility
	st.check(t, rr)
	st.consistent(t, rr, rr.domain())
}

// assertEstimate holds the estimate of rr's goal from all-zero fields to
// want, and from every state to admissibility's check and consistency.
func assertEstimate(t *testing.T, rr *randomRole, want float64) {
	t.Helper()
	rr.d = rr.domain()
	assert.InDelta(t, want, rr.d.LowerBound(0, roleState{}), 1e-9)
	var st admissibility
	st.check(t, rr)
	st.consistent(t, rr, rr.domain())
}

// A part served by one action that uses up a field (its consumption,
// partBound.use) may keep a supply of that same field: its bound is the
// more of the two, not their sum.
func TestAPartKeepsItsSupplyBesideItsConsumption(t *testing.T) {
	rr := &randomRole{nf: 4, actions: []roleAction{
		{cost: 1, pre: []roleLit{{f: 0, op: runtime.CmpLe, k: 3}, {f: 1, op: runtime.CmpGe, k: 1}},
			eff: []roleEffect{{f: 0, add: true, k: 1}, {f: 1, add: true, k: -1}}},
		{cost: 2, pre: []roleLit{{f: 1, op: runtime.CmpLe, k: 2}}, eff: []roleEffect{{f: 1, add: true, k: 2}}},
	}, goal: []roleLit{{f: 0, op: runtime.CmpGe, k: 3}}}
	// Three runs at 1, each with half a giving back (2 for two units):
	// 6, where the consumption alone counts one giving back: 5. The
	// cheapest plan costs 7 (two givings back, three runs).
	assertEstimate(t, rr, 6)
}

// A supply the domain drops as bounding nothing the part's consumption
// does not (Domain.dropDominated) would have left every estimate as it
// is: on random supply roles whose fields have ranges (so that a giving
// back allows a bounded run of steps), the estimate with the supplies
// kept is the estimate without, in every state. Some of the roles drop
// one, and some keep theirs.
func TestDroppedSuppliesBoundNothingMore(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 0xd0e))
	dropped, kept := 0, 0
	for range 400 {
		rr := newRandomSupplyRole(r)
		rr.ranges = make([]runtime.Range, roleFields)
		for f := range rr.nf {
			rr.ranges[f] = runtime.Range{Max: float64(3 + r.IntN(2)), HasMin: true, HasMax: true}
		}
		rr.d = rr.domain()
		all := rr.domain()
		n := runtime.KeepDominatedSupplies(all)
		if n == 0 {
			if hasSupply(rr) {
				kept++
			}
			continue
		}
		dropped++
		for _, s := range allRoleStates() {
			require.InDelta(t, all.LowerBound(0, s), rr.d.LowerBound(0, s), 1e-9, "goal %s at %v; %+v", rr.d.Goals[0].CondText, s.V, rr.actions)
		}
	}
	t.Logf("%d roles dropped a supply, %d kept one", dropped, kept)
	assert.Positive(t, dropped)
	assert.Positive(t, kept)
}

// hasSupply reports whether rr's goal keeps a supply: its estimate is
// not the estimate without its supplies somewhere.
func hasSupply(rr *randomRole) bool {
	bare := rr.domain()
	runtime.WithoutSupplies(bare)
	for _, s := range allRoleStates() {
		if rr.d.LowerBound(0, s) != bare.LowerBound(0, s) {
			return true
		}
	}
	return false
}

// Kelindar/goap's deep, small: Forage (Food += 1, Tired += 1 while Tired
// <= 1) and Sleep (Tired -= 2), fields within 0..4. Its supply bounds
// nothing its consumption does not, so the domain drops it, and A* for
// Food >= 4 reads its estimate from Food and Tired as the generated
// search hands them (Search.start): the way a supply kept there took
// A* on deep from 13.6k to 21k instructions a plan.
func TestDeepReadsItsEstimateFromTwoFields(t *testing.T) {
	forage := roleAction{cost: 1, pre: []roleLit{{f: 1, op: runtime.CmpLe, k: 1}},
		eff: []roleEffect{{f: 0, add: true, k: 1}, {f: 1, add: true, k: 1}}}
	sleep := roleAction{cost: 2, pre: []roleLit{{f: 1, op: runtime.CmpGe, k: 1}}, eff: []roleEffect{{f: 1, add: true, k: -2}}}
	rr := &randomRole{nf: 2, actions: []roleAction{forage, sleep}, goal: []roleLit{{f: 0, op: runtime.CmpGe, k: 4}},
		ranges: make([]runtime.Range, roleFields)}
	for f := range rr.ranges {
		rr.ranges[f] = runtime.Range{Max: 4, HasMin: true, HasMax: true}
	}
	// Four forages, a sleep after the second: 6.
	assertEstimate(t, rr, 6)
	assert.True(t, runtime.OneFieldEstimate(rr.d, 0))
	assert.Equal(t, 1, runtime.KeepDominatedSupplies(rr.d), "the supply the domain dropped")
	assert.False(t, runtime.OneFieldEstimate(rr.d, 0))
}

// Two actions that serve a part use up one field (Serve and SellAle
// both take ale, which Brew gives back): counted each on its own, the
// ale at hand would count for both, and a brew could lower the bound by
// more than its cost, so the supplies were dropped and only the steps
// bounded the part (2 here). They now count as one (Domain.pool): a
// unit of ale moves the part's field as far as Serve does (2), at the
// least cost a unit of either (1/2), and a brew gives back two units
// for its cost (4): four units at (1 + 2) / 2. The cheapest plan costs
// 6 (Brew, Serve, Serve).
func TestUsersOfOneFieldArePooled(t *testing.T) {
	serve := roleAction{cost: 1}
	serve.adds(0, 2)
	serve.uses(1, 1)
	sell := roleAction{cost: 1}
	sell.adds(0, 1)
	sell.uses(1, 2)
	brew := roleAction{cost: 4}
	brew.adds(1, 2)
	work := roleAction{cost: 3}
	work.adds(0, 1)
	rr := &randomRole{nf: 2, actions: []roleAction{serve, sell, brew, work}, goal: []roleLit{{f: 0, op: runtime.CmpGe, k: 4}}}
	assertEstimate(t, rr, 6)
}
