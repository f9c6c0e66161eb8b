package runtime_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rolegen/rolegen/runtime"
)

// newRandomPlaceRole is a random role whose goal's field V0 only steps
// move, by actions that need V3 at one value, a place (Sell needs At ==
// 'market'), and may use up V1 or V2, which other actions give back; the
// actions that give those back may need a place of their own (Cast
// needs At == 'sea'); the actions that set V3 (walks) need it at some
// values and may use up V1,
// or now and then give it back, or take from V0, which leaves the place
// uncounted. V3 is a string field in half the roles (p0..p4), an int in
// the others.
func newRandomPlaceRole(r *rand.Rand, str bool) *randomRole {
	rr := &randomRole{nf: 4, str: str}
	at := r.IntN(5)
	for range 1 + r.IntN(3) { // what serves the goal, at the place
		a := roleAction{cost: float64(1 + r.IntN(3))}
		a.adds(0, 1+r.IntN(2))
		where := at
		if r.IntN(8) == 0 {
			where = r.IntN(5)
		}
		a.pre = append(a.pre, roleLit{f: 3, op: runtime.CmpEq, k: where})
		if r.IntN(3) > 0 {
			a.uses(1+r.IntN(4)/3, 1) // V1 mostly: the walks may give it back
		}
		rr.actions = append(rr.actions, a)
	}
	for range r.IntN(4) { // what gives back, at a place of its own now and then
		a := roleAction{cost: float64(1 + r.IntN(4))}
		if f := 1 + r.IntN(2); r.IntN(3) == 0 {
			a.eff = append(a.eff, roleEffect{f: f, k: 2 + r.IntN(3)})
		} else {
			a.adds(f, 1+r.IntN(2))
		}
		if r.IntN(2) == 0 {
			a.pre = append(a.pre, roleLit{f: 3, op: runtime.CmpEq, k: r.IntN(5)})
		}
		if g := 1 + r.IntN(2); r.IntN(2) == 0 && a.eff[0].f != g {
			a.uses(g, 1) // and uses up the other field (Shear tires)
		}
		rr.actions = append(rr.actions, a)
	}
	addWalks(r, rr)
	rr.goal = []roleLit{{f: 0, op: runtime.CmpGe, k: 2 + r.IntN(3)}}
	if r.IntN(4) == 0 {
		rr.goal = append(rr.goal, roleLit{f: 2, op: runtime.CmpGe, k: 1 + r.IntN(3)})
	}
	rr.d = rr.domain()
	return rr
}

// addWalks adds to rr two to four walks: actions that set V3, the place,
// some where V3 is or is not one value or is on one side of one (an
// order: the place's costs are then not by class of value), and now and
// then give back V1, use it up, or take from V0 (which leaves the place
// uncounted).
func addWalks(r *rand.Rand, rr *randomRole) {
	for range 2 + r.IntN(3) { // the walks
		a := roleAction{cost: float64(1 + r.IntN(4))}
		a.eff = append(a.eff, roleEffect{f: 3, k: r.IntN(5)})
		switch r.IntN(4) {
		case 0:
			a.pre = append(a.pre, roleLit{f: 3, op: runtime.CmpEq, k: r.IntN(5)})
		case 1:
			a.pre = append(a.pre, roleLit{f: 3, op: runtime.CmpNe, k: r.IntN(5)})
		case 2:
			a.pre = append(a.pre, roleLit{f: 3, op: []runtime.Cmp{runtime.CmpLe, runtime.CmpGt}[r.IntN(2)], k: 1 + r.IntN(3)})
		}
		switch r.IntN(10) {
		case 0, 1:
			a.adds(1, 1)
		case 2:
			a.uses(0, 1)
		case 3, 4, 5:
			a.uses(1, 1)
		}
		rr.actions = append(rr.actions, a)
	}
}

// The cost of going to the place the serving actions need
// (heuristic_place.go) keeps the estimate admissible and consistent, and
// A* with it returns the cheapest plans, on random roles built for it
// (string and int places); it raises the estimate of some states.
func TestPlacesAreAdmissibleAndConsistent(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(8, 0x91ace))
	checkRandomEstimates(t, "places", func(k int) *randomRole { return newRandomPlaceRole(r, k%2 == 0) }, runtime.WithoutPlaces)
}

// newRandomSoldElsewhereRole builds a random role whose goal, V0 >= k,
// is served only at one value of V3 (the market) by actions that use up
// V1 (fish), which only actions at other values of V3 give back (casting
// at sea), some of them using up V2 (vigor), which a rest gives back now
// and then, or which sells too (pelts) and a hunt elsewhere gives back: a
// plan that needs more than what is at hand goes to a giver's place and
// comes back (place.tour).
func newRandomSoldElsewhereRole(r *rand.Rand, str bool) *randomRole {
	rr := &randomRole{nf: 4, str: str}
	at := r.IntN(5)
	for range 1 + r.IntN(2) { // sells, at the market
		a := roleAction{cost: float64(1 + r.IntN(3))}
		a.adds(0, 1+r.IntN(2))
		a.pre = append(a.pre, roleLit{f: 3, op: runtime.CmpEq, k: at})
		a.uses(1, 1)
		rr.actions = append(rr.actions, a)
	}
	for range 1 + r.IntN(2) { // casts, elsewhere
		a := roleAction{cost: float64(1 + r.IntN(3))}
		a.adds(1, 1+r.IntN(2))
		a.pre = append(a.pre, roleLit{f: 3, op: runtime.CmpEq, k: (at + 1 + r.IntN(4)) % 5})
		if r.IntN(2) == 0 {
			a.uses(2, 1)
		}
		rr.actions = append(rr.actions, a)
	}
	if r.IntN(2) == 0 {
		// Pelts (V2) sell at the market too, hunted elsewhere: the
		// casts' vigor and the pelts share V2, and the chainer's
		// supplies leave some shares out (boundSupplies).
		a := roleAction{cost: float64(1 + r.IntN(3))}
		a.adds(0, 1+r.IntN(2))
		a.pre = append(a.pre, roleLit{f: 3, op: runtime.CmpEq, k: at})
		a.uses(2, 1)
		rr.actions = append(rr.actions, a)
		h := roleAction{cost: float64(1 + r.IntN(4))}
		h.adds(2, 1+r.IntN(2))
		h.pre = append(h.pre, roleLit{f: 3, op: runtime.CmpEq, k: (at + 1 + r.IntN(4)) % 5})
		rr.actions = append(rr.actions, h)
	} else if r.IntN(2) == 0 { // rests
		a := roleAction{cost: float64(1 + r.IntN(3))}
		a.adds(2, 1+r.IntN(2))
		rr.actions = append(rr.actions, a)
	}
	for range 2 + r.IntN(3) { // walks, some of them tiring
		a := roleAction{cost: float64(1 + r.IntN(4))}
		a.eff = append(a.eff, roleEffect{f: 3, k: r.IntN(5)})
		switch r.IntN(3) {
		case 0:
			a.pre = append(a.pre, roleLit{f: 3, op: runtime.CmpEq, k: r.IntN(5)})
		case 1:
			a.pre = append(a.pre, roleLit{f: 3, op: runtime.CmpNe, k: r.IntN(5)})
		}
		if r.IntN(3) == 0 {
			a.uses(2, 1)
		}
		rr.actions = append(rr.actions, a)
	}
	rr.goal = []roleLit{{f: 0, op: runtime.CmpGe, k: 2 + r.IntN(3)}}
	rr.d = rr.domain()
	return rr
}

// A plan that sells at the market what it casts at sea goes to sea and
// then to the market: the estimate's tour ends there, and stays
// admissible and consistent, and A* with it returns the cheapest plans,
// on random roles built for it, most of which have such a place.
func TestToursEndWhereTheSupplyIsSold(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(12, 0x50d))
	roles, tagged, cut := 0, 0, 0
	checkRandomEstimates(t, "places", func(k int) *randomRole {
		rr := newRandomSoldElsewhereRole(r, k%2 == 0)
		tg, ct := runtime.TaggedPlaces(rr.d)
		roles, tagged, cut = roles+1, tagged+tg, cut+ct
		return rr
	}, runtime.WithoutPlaces)
	t.Logf("%d roles: %d places through the givers' places, %d of them also where the shares left out are given", roles, tagged, cut)
	assert.Greater(t, tagged, roles/2)
	assert.Greater(t, cut, roles/30)
}

// newRandomJointRole builds a random role whose goal has two parts, each
// served at a place of its own (V0 at one value of V3, V2 at another, or
// the same now and then), with the walks of addWalks, and actions that
// give back V1, which serving uses up, some at a place of their own.
func newRandomJointRole(r *rand.Rand, str bool) *randomRole {
	rr := &randomRole{nf: 4, str: str}
	for _, f := range []int{0, 2} { // what serves each part, at its place
		at := r.IntN(5)
		for range 1 + r.IntN(2) {
			a := roleAction{cost: float64(1 + r.IntN(3))}
			a.adds(f, 1+r.IntN(2))
			a.pre = append(a.pre, roleLit{f: 3, op: runtime.CmpEq, k: at})
			if r.IntN(3) == 0 {
				a.uses(1, 1)
			}
			rr.actions = append(rr.actions, a)
		}
	}
	for range r.IntN(3) { // what gives back V1, at a place of its own now and then
		a := roleAction{cost: float64(1 + r.IntN(4))}
		a.adds(1, 1+r.IntN(2))
		if r.IntN(2) == 0 {
			a.pre = append(a.pre, roleLit{f: 3, op: runtime.CmpEq, k: r.IntN(5)})
		}
		rr.actions = append(rr.actions, a)
	}
	addWalks(r, rr)
	rr.goal = []roleLit{{f: 0, op: runtime.CmpGe, k: 1 + r.IntN(3)}, {f: 2, op: runtime.CmpGe, k: 1 + r.IntN(3)}}
	rr.d = rr.domain()
	return rr
}

// A goal of two parts, each served at a place of its own, counts one
// tour of both places (heuristic_place.go's joint): the estimate stays
// admissible and consistent, A* with it returns the cheapest plans, and
// it raises the estimate of some states.
func TestJointPlacesAreAdmissibleAndConsistent(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(8, 0x701e7))
	checkRandomEstimates(t, "tours", func(k int) *randomRole { return newRandomJointRole(r, k%2 == 0) }, runtime.WithoutPlaces)
}

// newRandomPlacesApartRole builds a random role whose goal has two parts,
// each served at a place on a field of its own: V0 where V3 is one value,
// V2 where V1 is one value; walks set V3 or V1, and now and then one
// action sets both (a ride that moves the cart and the crew), or a
// serving action serves both parts.
func newRandomPlacesApartRole(r *rand.Rand, str bool) *randomRole {
	rr := &randomRole{nf: 4, str: str}
	for _, p := range [][2]int{{0, 3}, {2, 1}} { // the part's field, its place's
		at := r.IntN(5)
		for range 1 + r.IntN(2) {
			a := roleAction{cost: float64(1 + r.IntN(3))}
			a.adds(p[0], 1+r.IntN(2))
			if r.IntN(5) == 0 {
				a.adds(2-p[0], 1)
			}
			a.pre = append(a.pre, roleLit{f: p[1], op: runtime.CmpEq, k: at})
			rr.actions = append(rr.actions, a)
		}
	}
	for _, f := range []int{3, 1} { // the walks on each place's field
		for range 2 + r.IntN(2) {
			a := roleAction{cost: float64(1 + r.IntN(4)), eff: []roleEffect{{f: f, k: r.IntN(5)}}}
			switch r.IntN(3) {
			case 0:
				a.pre = append(a.pre, roleLit{f: f, op: runtime.CmpEq, k: r.IntN(5)})
			case 1:
				a.pre = append(a.pre, roleLit{f: f, op: runtime.CmpNe, k: r.IntN(5)})
			}
			rr.actions = append(rr.actions, a)
		}
	}
	if r.IntN(3) == 0 { // a ride: both places at once
		rr.actions = append(rr.actions, roleAction{cost: float64(1 + r.IntN(3)), eff: []roleEffect{{f: 3, k: r.IntN(5)}, {f: 1, k: r.IntN(5)}}})
	}
	rr.goal = []roleLit{{f: 0, op: runtime.CmpGe, k: 1 + r.IntN(3)}, {f: 2, op: runtime.CmpGe, k: 1 + r.IntN(3)}}
	rr.d = rr.domain()
	return rr
}

// Two parts served at places on fields of their own both count their
// places, where no action sets both fields (Domain.apart): the estimate
// stays admissible and consistent, A* with it returns the cheapest
// plans, and the second place raises the estimate of some states above
// what the first alone gives.
func TestPlacesApartAreAdmissibleAndConsistent(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(10, 0xa9a7))
	checkRandomEstimates(t, "second places", func(k int) *randomRole { return newRandomPlacesApartRole(r, k%2 == 0) }, runtime.WithOnePlace)
}

// newRandomErrandsRole builds a random role whose goal is two or three
// flags or stages (V0 == 1, V2 == 3), each set at a place of its own (a
// letter delivered at the mill, at the farm), now and then also by a
// step, or undone somewhere else; the walks are those of addWalks, and
// in half the roles, roads: walks that set V3 from one of a few values
// only (At == Office || At == Farm).
func newRandomErrandsRole(r *rand.Rand, str bool) *randomRole {
	rr := &randomRole{nf: 4, str: str}
	fields := []int{0, 1, 2}
	r.Shuffle(len(fields), func(i, j int) { fields[i], fields[j] = fields[j], fields[i] })
	for _, f := range fields[:2+r.IntN(2)] {
		k := 1
		if r.IntN(3) == 0 {
			k = 1 + r.IntN(4) // a stage
		}
		at := r.IntN(5)
		for range 1 + r.IntN(2) { // what sets it, at its place
			a := roleAction{cost: float64(1 + r.IntN(3))}
			if r.IntN(6) == 0 {
				a.adds(f, 1) // now and then by steps
			} else {
				a.eff = append(a.eff, roleEffect{f: f, k: k})
			}
			a.pre = append(a.pre, roleLit{f: 3, op: runtime.CmpEq, k: at})
			if r.IntN(3) == 0 {
				a.pre = append(a.pre, roleLit{f: f, op: runtime.CmpNe, k: k})
			}
			rr.actions = append(rr.actions, a)
		}
		if r.IntN(4) == 0 { // what undoes it, somewhere
			a := roleAction{cost: float64(1 + r.IntN(3)), eff: []roleEffect{{f: f, k: 0}}}
			a.pre = append(a.pre, roleLit{f: 3, op: runtime.CmpEq, k: r.IntN(5)})
			rr.actions = append(rr.actions, a)
		}
		rr.goal = append(rr.goal, roleLit{f: f, op: runtime.CmpEq, k: k})
	}
	if r.IntN(2) == 0 {
		addWalks(r, rr)
	} else {
		for to := range 5 { // roads
			a := roleAction{cost: float64(1 + r.IntN(4)), eff: []roleEffect{{f: 3, k: to}}}
			for from := range 5 {
				if from != to && r.IntN(5) < 2 {
					a.anyOf = append(a.anyOf, roleLit{f: 3, op: runtime.CmpEq, k: from})
				}
			}
			if len(a.anyOf) < 2 { // one road in: a plain conjunct
				a.pre, a.anyOf = []roleLit{{f: 3, op: runtime.CmpEq, k: (to + 1 + r.IntN(4)) % 5}}, nil
			}
			rr.actions = append(rr.actions, a)
		}
	}
	rr.d = rr.domain()
	return rr
}

// Errands: a goal of flags or stages, each set at a place of its own,
// counts one tour of their places (joint), or the way to the place of
// each (over roads, where a walk starts only from some places): the
// estimate stays admissible and consistent, A* with it returns the
// cheapest plans, and it raises the estimate of some states.
func TestErrandsAreAdmissibleAndConsistent(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(14, 0xe4a9d))
	checkRandomEstimates(t, "errands' places", func(k int) *randomRole { return newRandomErrandsRole(r, k%2 == 0) }, runtime.WithoutPlaces)
}

// newRandomStagesRole builds a random role whose goal, V0 >= k, is
// served by actions that need V3 at one value (a place: the kitchen)
// and V2 at another (a stage: the loaf shaped), and that now and then set
// V2 back (a bake leaves no dough): the stage is moved by setters, each
// from one stage or a few, now and then by one that also walks or serves
// another field; the walks are those of addWalks.
func newRandomStagesRole(r *rand.Rand, str bool) *randomRole {
	rr := &randomRole{nf: 4, str: str}
	at, ready := r.IntN(5), 1+r.IntN(4)
	for range 1 + r.IntN(2) { // bakes
		a := roleAction{cost: float64(1 + r.IntN(3))}
		a.adds(0, 1+r.IntN(2))
		a.pre = append(a.pre, roleLit{f: 3, op: runtime.CmpEq, k: at}, roleLit{f: 2, op: runtime.CmpEq, k: ready})
		if r.IntN(4) > 0 {
			a.eff = append(a.eff, roleEffect{f: 2, k: r.IntN(ready)})
		}
		if r.IntN(3) == 0 {
			a.uses(1, 1)
		}
		rr.actions = append(rr.actions, a)
	}
	for range 2 + r.IntN(4) { // the stages' steps
		a := roleAction{cost: float64(1 + r.IntN(3)), eff: []roleEffect{{f: 2, k: r.IntN(5)}}}
		switch r.IntN(4) {
		case 0, 1:
			a.pre = append(a.pre, roleLit{f: 2, op: runtime.CmpEq, k: r.IntN(5)})
		case 2:
			a.pre = append(a.pre, roleLit{f: 2, op: runtime.CmpLe, k: r.IntN(4)})
		}
		switch r.IntN(8) {
		case 0:
			a.eff = append(a.eff, roleEffect{f: 3, k: r.IntN(5)}) // and walks: no second place then
		case 1:
			a.uses(1, 1)
		case 2:
			a.adds(0, 1) // serves too
		}
		rr.actions = append(rr.actions, a)
	}
	if r.IntN(2) == 0 { // what gives back V1
		a := roleAction{cost: float64(1 + r.IntN(3))}
		a.adds(1, 2)
		rr.actions = append(rr.actions, a)
	}
	addWalks(r, rr)
	rr.goal = []roleLit{{f: 0, op: runtime.CmpGe, k: 2 + r.IntN(3)}}
	rr.d = rr.domain()
	return rr
}

// Stages: a goal served where a stage field is at one value besides the
// place, by actions that set the stage back, counts the way to both and
// the stage's way back between runs (place.also, place.ret): the
// estimate stays admissible and consistent, A* with it returns the
// cheapest plans, and it raises the estimate of some states.
func TestStagesAreAdmissibleAndConsistent(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(15, 0x57a9e))
	roles, also, back := 0, 0, 0
	checkRandomEstimates(t, "stages' places", func(k int) *randomRole {
		rr := newRandomStagesRole(r, k%2 == 0)
		a, b := runtime.StagedPlaces(rr.d)
		roles, also, back = roles+1, also+a, back+b
		return rr
	}, runtime.WithoutPlaces)
	t.Logf("%d roles: %d places with a stage's way, %d with a way back between runs", roles, also, back)
	assert.Greater(t, also, roles/8)
	assert.Greater(t, back, roles/8)
}
