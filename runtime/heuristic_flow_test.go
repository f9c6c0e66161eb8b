package runtime_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
)

// newRandomChainRole draws a role whose goal's field is the end of a
// chain of supplies: V0 is raised by steps that use up V1, V1 by steps
// that use up V2, V2 by steps that use nothing (or V1 again, a loop),
// each within 0..4; other actions take from the fields or set them. With
// place, V3 is a place: each producer runs at one of p0..p2, and movers
// set it, some only from elsewhere. The goal needs V0 at 2 or more, and
// sometimes V1 too; half the roles are mirrored (see mirror).
func newRandomChainRole(r *rand.Rand, place bool) *randomRole {
	rr := &randomRole{nf: 4, str: place}
	if r.IntN(2) == 0 {
		rr.ranges = make([]runtime.Range, roleFields)
		for f := range 3 {
			rr.ranges[f] = runtime.Range{Max: 4, HasMin: true, HasMax: true}
		}
	}
	at := func(a *roleAction) {
		if place && r.IntN(4) > 0 {
			a.pre = append(a.pre, roleLit{f: 3, op: runtime.CmpEq, k: r.IntN(3)})
		}
	}
	for level := range 3 {
		for range 1 + r.IntN(2) {
			a := roleAction{cost: float64(1 + r.IntN(3))}
			a.adds(level, 1+r.IntN(2))
			switch {
			case level < 2 && r.IntN(6) > 0:
				a.uses(level+1, 1+r.IntN(2))
			case level == 2 && r.IntN(4) == 0:
				a.uses(1, 1)
			}
			at(&a)
			rr.actions = append(rr.actions, a)
		}
	}
	for range r.IntN(3) { // what takes, or sets
		a := roleAction{cost: float64(1 + r.IntN(3))}
		if f := r.IntN(3); r.IntN(3) == 0 {
			a.eff = append(a.eff, roleEffect{f: f, k: r.IntN(5)})
		} else {
			a.uses(f, 1)
		}
		at(&a)
		rr.actions = append(rr.actions, a)
	}
	if place {
		for p := range 3 {
			a := roleAction{cost: float64(1 + r.IntN(3)), eff: []roleEffect{{f: 3, k: p}}}
			if r.IntN(2) == 0 {
				a.pre = []roleLit{{f: 3, op: runtime.CmpNe, k: p}}
			}
			rr.actions = append(rr.actions, a)
		}
	} else if r.IntN(2) == 0 {
		a := roleAction{cost: float64(1 + r.IntN(3))}
		a.adds(3, 1)
		rr.actions = append(rr.actions, a)
	}
	rr.goal = []roleLit{{f: 0, op: []runtime.Cmp{runtime.CmpGe, runtime.CmpGt}[r.IntN(2)], k: 2 + r.IntN(2)}}
	if r.IntN(3) == 0 {
		rr.goal = append(rr.goal, roleLit{f: 1, op: runtime.CmpGe, k: 1 + r.IntN(2)})
	}
	if r.IntN(2) == 0 {
		mirror(rr)
	}
	rr.d = rr.domain()
	return rr
}

// mirror turns V0..V2 of rr upside down (v to 4 - v): what rose falls,
// >= becomes <=, so that the goal needs fields at most some value and the
// guards keep them from rising (debts paid with what other debts
// bring), the flow's rows of the other direction.
func mirror(rr *randomRole) {
	flip := map[runtime.Cmp]runtime.Cmp{runtime.CmpGe: runtime.CmpLe, runtime.CmpGt: runtime.CmpLt,
		runtime.CmpLe: runtime.CmpGe, runtime.CmpLt: runtime.CmpGt, runtime.CmpEq: runtime.CmpEq, runtime.CmpNe: runtime.CmpNe}
	lits := func(ls []roleLit) {
		for i := range ls {
			if ls[i].f < 3 {
				ls[i].op, ls[i].k = flip[ls[i].op], 4-ls[i].k
			}
		}
	}
	for a := range rr.actions {
		lits(rr.actions[a].pre)
		for i := range rr.actions[a].eff {
			if e := &rr.actions[a].eff[i]; e.f < 3 {
				if e.add {
					e.k = -e.k
				} else {
					e.k = 4 - e.k
				}
			}
		}
	}
	lits(rr.goal)
}

// The flow's bound (heuristic_flow.go) never exceeds the cost to go and
// no step lowers it by more than the step's cost, on random chains of
// supplies; A* with it returns the cheapest plans; and it raises the
// estimate of some states above what the bounds of the goal's parts
// give.
func TestFlowsAreAdmissibleAndConsistent(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(46, 0xf10))
	checkRandomEstimates(t, "flows", func(int) *randomRole { return newRandomChainRole(r, false) }, runtime.WithoutFlow)
}

// The same with a place each producer runs at: the tour of the places a
// plan must go to adds to the flow's bound.
func TestFlowsWithPlacesAreAdmissibleAndConsistent(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(47, 0xf10))
	checkRandomEstimates(t, "flows with places", func(int) *randomRole { return newRandomChainRole(r, true) }, runtime.WithoutFlow)
}

// newRandomReachRole is a random chain of supplies whose producers of
// V0 (the goal's field) need more of V1 than they take (a furnace hot
// enough to blow glass, V1 >= 3, that each vase cools by 1 or not at
// all), V1 raised by producers that may use up V2, and actions that
// lower V1 or V2 with no such guard (a walk that cools the furnace): the
// flow's rows of V1 and V2 then bound only their values at the end, and
// its reach rows what V1 must get to first.
func newRandomReachRole(r *rand.Rand, place bool) *randomRole {
	rr := &randomRole{nf: 4, str: place}
	if r.IntN(2) == 0 {
		rr.ranges = make([]runtime.Range, roleFields)
		for f := range 3 {
			rr.ranges[f] = runtime.Range{Max: 4, HasMin: true, HasMax: true}
		}
	}
	at := func(a *roleAction) {
		if place && r.IntN(4) > 0 {
			a.pre = append(a.pre, roleLit{f: 3, op: runtime.CmpEq, k: r.IntN(3)})
		}
	}
	for range 1 + r.IntN(2) { // makes V0 where V1 is high enough
		a := roleAction{cost: float64(1 + r.IntN(3))}
		a.adds(0, 1+r.IntN(2))
		guard := 2 + r.IntN(3)
		a.pre = append(a.pre, roleLit{f: 1, op: []runtime.Cmp{runtime.CmpGe, runtime.CmpGt}[r.IntN(2)], k: guard - 1 + r.IntN(2)})
		if r.IntN(3) > 0 {
			a.eff = append(a.eff, roleEffect{f: 1, add: true, k: -1})
		}
		at(&a)
		rr.actions = append(rr.actions, a)
	}
	for level := 1; level < 3; level++ {
		for range 1 + r.IntN(2) {
			a := roleAction{cost: float64(1 + r.IntN(3))}
			a.adds(level, 1+r.IntN(2))
			if level == 1 && r.IntN(3) > 0 {
				a.uses(2, 1+r.IntN(2))
			}
			at(&a)
			rr.actions = append(rr.actions, a)
		}
	}
	for range 1 + r.IntN(2) { // lowers V1 or V2, unguarded or to 0
		a := roleAction{cost: float64(1 + r.IntN(3))}
		f := 1 + r.IntN(2)
		if r.IntN(3) == 0 {
			a.eff = append(a.eff, roleEffect{f: f, k: 0})
		} else {
			a.eff = append(a.eff, roleEffect{f: f, add: true, k: -1})
			a.pre = append(a.pre, roleLit{f: f, op: runtime.CmpGe, k: 1})
		}
		if place {
			a.eff = append(a.eff, roleEffect{f: 3, k: r.IntN(3)}) // a walk
		}
		rr.actions = append(rr.actions, a)
	}
	rr.goal = []roleLit{{f: 0, op: []runtime.Cmp{runtime.CmpGe, runtime.CmpGt}[r.IntN(2)], k: 2 + r.IntN(2)}}
	if r.IntN(2) == 0 {
		mirror(rr)
	}
	rr.d = rr.domain()
	return rr
}

// The flow's reach rows (a guard that other steps wear down, asked of
// the field before the guarded action runs, where every plan runs it)
// keep it admissible and consistent on random roles, with and without
// places, and raise the estimate of some states.
func TestReachRowsAreAdmissibleAndConsistent(t *testing.T) {
	t.Parallel()
	for _, place := range []bool{false, true} {
		r := rand.New(rand.NewPCG(61, 0x3eac))
		if place {
			r = rand.New(rand.NewPCG(62, 0x3eac))
		}
		checkRandomEstimatesAgainst(t, "reach rows", func(int) *randomRole { return newRandomReachRole(r, place) }, func(rr *randomRole) *runtime.Domain[roleState] {
			bare := rr.domain()
			runtime.WithoutReach(bare)
			return bare
		})
	}
}

// A conjunct that no value of its field's range meets (V1 < 0, where V1
// runs from 0 to 4) lets no run of its action follow a restore: the
// estimate of a goal only that action serves is +Inf once the runs the
// state allows are spent. Its steps a restore once were 1 ÷ -0, which
// made the estimate -Inf, and NaN beside a place's tour.
func TestAConjunctNoValueMeetsAllowsNoRestores(t *testing.T) {
	lower := roleAction{cost: 2, pre: []roleLit{{f: 1, op: runtime.CmpLt, k: 0}}}
	lower.eff = []roleEffect{{f: 0, add: true, k: -1}, {f: 1, add: true, k: 1}}
	restore := roleAction{cost: 2}
	restore.uses(1, 1)
	rr := &randomRole{nf: 2, actions: []roleAction{lower, restore}, goal: []roleLit{{f: 0, op: runtime.CmpLe, k: 1}}}
	rr.ranges = make([]runtime.Range, roleFields)
	for f := range 2 {
		rr.ranges[f] = runtime.Range{Max: 4, HasMin: true, HasMax: true}
	}
	rr.d = rr.domain()
	for v1 := range 5 {
		lb := rr.d.LowerBound(0, roleState{V: [roleFields]int{2, v1}})
		assert.True(t, math.IsInf(lb, 1), "V1 = %d: %v", v1, lb)
	}
}

// A chain of three trades: V0 (gold) is a trade of 3 V1 (silver), V1 a
// trade of 4 V2 (copper), and V2 is smelted, 2 at a time, for 1. From
// nothing, 2 gold take 2 trades, 6 silver, 24 copper: 12 smelts. The
// parts' bounds see the first trade alone; the flow counts all 20 runs.
func TestAFlowFollowsAChainToItsEnd(t *testing.T) {
	gold := roleAction{cost: 1}
	gold.adds(0, 1)
	gold.uses(1, 3)
	silver := roleAction{cost: 1}
	silver.adds(1, 1)
	silver.uses(2, 4)
	smelt := roleAction{cost: 1}
	smelt.adds(2, 2)
	rr := &randomRole{nf: 4, actions: []roleAction{gold, silver, smelt}, goal: []roleLit{{f: 0, op: runtime.CmpGe, k: 2}}}
	rr.d = rr.domain()
	// The fields stay within 0..4, so the cheapest plan is dearer than
	// the flow (it interleaves), but not cheaper.
	assert.InDelta(t, 20, rr.d.LowerBound(0, roleState{}), 1e-9)
	var st admissibility
	st.check(t, rr)
	st.consistent(t, rr, rr.domain())
	runtime.WithoutFlow(rr.d)
	assert.Less(t, rr.d.LowerBound(0, roleState{}), 20.0)
}

// Runs come whole: gold (V0) comes 2 at a time from a trade of a silver
// (V1), silver from a trade of a copper (V2), copper is smelted one at a
// time. 3 gold from nothing take 2 trades of each kind, not 1.5: the
// flow rounds gold's shortfall of 3 up to the 4 that whole trades give,
// and its bound is the cheapest plan's cost, 6 (4.5 without).
func TestAFlowCountsWholeRuns(t *testing.T) {
	gold := roleAction{cost: 1}
	gold.adds(0, 2)
	gold.uses(1, 1)
	silver := roleAction{cost: 1}
	silver.adds(1, 1)
	silver.uses(2, 1)
	smelt := roleAction{cost: 1}
	smelt.adds(2, 1)
	rr := &randomRole{nf: 4, actions: []roleAction{gold, silver, smelt}, goal: []roleLit{{f: 0, op: runtime.CmpGe, k: 3}}}
	rr.d = rr.domain()
	assert.InDelta(t, 6, rr.d.LowerBound(0, roleState{}), 1e-9)
	p, err := runtime.NewAStar(rr.d).PlanGoal(t.Context(), roleState{}, 0)
	require.NoError(t, err)
	assert.Equal(t, 6.0, p.Cost)
	var st admissibility
	st.check(t, rr)
	st.consistent(t, rr, rr.domain())
}

// A run that empties what its precondition asks for takes at least the
// guard's worth: a boat (V0) is caulked from a hull of three courses (V1
// >= 3, then V1 = 0), each course is built from a plank (V2), and each
// plank is bought. Two boats from nothing take 2 caulks, 6 courses and 6
// planks: 14, with the fields bounded or not. Counted as taking nothing
// (from the range's 0, or without end), the setter left the courses out.
func TestAFlowCountsWhatASetterEmpties(t *testing.T) {
	caulk := roleAction{cost: 1, pre: []roleLit{{f: 1, op: runtime.CmpGe, k: 3}}}
	caulk.adds(0, 1)
	caulk.eff = append(caulk.eff, roleEffect{f: 1, k: 0})
	build := roleAction{cost: 1}
	build.adds(1, 1)
	build.uses(2, 1)
	buy := roleAction{cost: 1}
	buy.adds(2, 1)
	for _, bounded := range []bool{false, true} {
		rr := &randomRole{nf: 4, actions: []roleAction{caulk, build, buy}, goal: []roleLit{{f: 0, op: runtime.CmpGe, k: 2}}}
		if bounded {
			rr.ranges = make([]runtime.Range, roleFields)
			for f := range 3 {
				rr.ranges[f] = runtime.Range{Max: 4, HasMin: true, HasMax: true}
			}
		}
		rr.d = rr.domain()
		assert.InDelta(t, 14, rr.d.LowerBound(0, roleState{}), 1e-9, "bounded %v", bounded)
		assert.InDelta(t, 5, rr.d.LowerBound(0, roleState{V: [roleFields]int{1, 1}}), 1e-9, "bounded %v", bounded)
		p, err := runtime.NewAStar(rr.d).PlanGoal(t.Context(), roleState{}, 0)
		require.NoError(t, err)
		assert.InDelta(t, 14, p.Cost, 1e-9)
		var st admissibility
		st.check(t, rr)
		st.consistent(t, rr, rr.domain())
	}
}
