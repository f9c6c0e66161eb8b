package runtime

import (
	"math"
	"math/bits"
	"slices"
)

// The estimate rolegen derives from the annotations: a lower bound on the
// cost of making a goal hold, from how far each of its conjuncts is from
// holding and what the actions can do to it. No GOAP library has it: they
// count unsatisfied goals, or ask the user for a distance.
//
// For a conjunct Field Cmp constant that fails, a plan needs at least one
// action that serves it (see Relation). The last action to set the field
// (to a constant v, or in a way the forms do not tell) may be followed by
// actions that add constants to it, each moving it at most its step for
// its cost: so the plan costs at least the cheapest of, over the ways to
// end, the setter's cost plus what the steps from v need; or, with no
// setter, what the steps from the field's value now need: the distance ×
// the lowest cost per unit of the actions that move it the right way, and
// at least ⌈distance / the furthest step⌉ × the cheapest of them.
//
// Where the actions that move the field use up a field of their own
// precondition that costs something to give back, their units cost more
// once the field at hand runs out (see supplies); where they all need
// another field at one value, the way there adds (see place).
//
// A plan must serve every failing conjunct. Conjuncts that no action
// serves together (no action is in a serving relation to both) need
// actions of their own, so the bounds of such groups of conjuncts add up;
// within a group the largest counts. A conjunct nothing can serve makes
// the bound +Inf: the goal cannot hold from here.
//
// The bound never overestimates, and no step lowers it by more than the
// step's cost, so A* with it returns cheapest plans without reopening
// states. Actions whose cost depends on the state count at their declared
// lower bound (Action.Cost).

// partBound is what bounds the cost of making one conjunct hold.
type partBound struct {
	// reset is the cheapest way that ends with an action that sets the
	// field: its cost plus the steps from the value it sets (for one
	// that writes the field in a way the forms do not tell, its cost).
	reset float64
	// stepUp and stepDown are the cheapest actions that add to the field
	// (up) or take from it (down), when those serve the part; perUp and
	// perDown their lowest cost per unit moved; maxUp and maxDown the
	// furthest one step of them moves it.
	stepUp, stepDown, perUp, perDown, maxUp, maxDown float64
	// integer: the field holds integers, so x > c needs x >= c+1.
	integer bool
	// terms, for a part whose form is a Sum, are its fields with their
	// coefficients and ranges: the bound is then that of the sum's value
	// as of one field's.
	terms []sumTerm
	// The part holds only with its field at lo or more and hi or less
	// (lo > x holds for Gt and Ge, x < hi for Lt and Le, both for Eq, none
	// for Ne: -Inf and +Inf); byStep is what moving it costs when that
	// does not tell how far (Ne, or the field is not read): the cheapest
	// step either way.
	lo, hi, byStep float64
	// use, when set: the one action that can serve the part advances it
	// and uses up a field of its own precondition (see consumption).
	use *consumption
	// supply, when set: actions serving the part use up fields that cost
	// something to give back (see supplies).
	supply *supplies
	// exact: the part holds exactly when its field's value, as
	// Domain.Number gives it, is in [lo, hi] (see exactRange).
	exact bool
	// rlo and rhi are the field's Range (±Inf without one); inRange is
	// the least bound from a value within it. A value outside, which
	// only the live state has, lands in the range at the field's first
	// write whichever way that moves it (0 - 2 in 1..3 is 1), so its
	// bound is at most inRange.
	rlo, rhi, inRange float64
}

// consumption is what bounds a part that one action alone serves, by
// steps that each use up another field of its precondition (Forage, Food
// += 10, needs Tired < 50 and does Tired += 20): when the steps the part
// needs are more than the field allows from here, some action that makes
// that conjunct hold again (Sleep) must run too.
type consumption struct {
	field FieldID // the field the precondition's conjunct compares
	// The conjunct (Lt, Le, Gt or Ge): below for Lt and Le, strict for
	// Lt and Gt.
	below, strict bool
	num           float64
	per           float64 // what each step takes from it (positive)
	// restore is the cost of the cheapest action that can make the
	// conjunct hold again; +Inf when none can: then the steps the field
	// allows are all there will be.
	restore float64
	// refill is the most steps in a row the conjunct allows after such
	// an action: the steps from the end of the field's Range it can
	// write (+Inf for a field without one). Each run of steps after the
	// first then needs an action of its own that makes the conjunct hold
	// again (Sleep, Tired = 0..100, lets Forage run three times at most).
	refill float64
}

// consumed is the consumption of conjunct p (Lt, Le, Gt or Ge) of a
// precondition whose action's steps each take per from its field, with
// restore left to the caller.
func consumed(p *Part, per float64) consumption {
	return consumption{field: p.Field, below: p.Cmp == CmpLt || p.Cmp == CmpLe, strict: p.Cmp == CmpLt || p.Cmp == CmpGt,
		num: p.Num, per: per, restore: math.Inf(1), refill: math.Inf(1)}
}

// restores is how many actions that make the conjunct hold again must run
// for more steps (at least one) than the field allows from here: one when
// nothing bounds the steps after each, +Inf when none allows a step.
func (u *consumption) restores(more float64) float64 {
	if u.refill > math.MaxFloat64 {
		return 1
	}
	return math.Ceil(more / u.refill)
}

// runs is how many steps in a row the conjunct allows from value y.
func (u *consumption) runs(y float64) float64 {
	room := y - u.num // what is left above the bound (Gt, Ge)
	if u.below {
		room = -room // or below it (Lt, Le)
	}
	var r float64
	if u.strict {
		r = math.Ceil(room / u.per)
	} else {
		r = math.Floor(room/u.per) + 1
	}
	if r < 0 { // max(r, 0), without the cost of its NaN and zero cases
		r = 0
	}
	return r
}

// newPartBound derives the bound of part i of condition c.
func (d *Domain[S]) newPartBound(c *condition[S], i int) partBound {
	inf := math.Inf(1)
	b := partBound{reset: inf, stepUp: inf, stepDown: inf, perUp: inf, perDown: inf}
	p := &c.parts[i]
	cmp, num := p.Cmp, p.Num
	switch {
	case p.Cmp != CmpNone:
		k := d.Fields[p.Field].Kind
		b.integer = k == KindInt || k == KindUint
	case p.Sum != nil:
		cmp, num = p.Sum.Cmp, p.Sum.Num
		b.integer = d.integerSum(p.Sum)
		for _, t := range p.Sum.Terms {
			rg := &d.Fields[t.Field].Range
			b.terms = append(b.terms, sumTerm{field: t.Field, coef: t.Coef, rlo: rg.Lo(), rhi: rg.Hi()})
		}
	}
	n := len(c.parts)
	for a := range d.Actions {
		if r := c.rels[a*n+i]; r.serves() {
			cost := d.Actions[a].Cost
			step := c.steps[a*n+i]
			if p.Sum != nil && r == RelAdvances {
				step, _, _ = p.Sum.step(d.Actions[a].Writes, d.Actions[a].Changes)
			}
			switch {
			case step > 0:
				b.stepUp = min(b.stepUp, cost)
				b.perUp = min(b.perUp, cost/step)
				b.maxUp = max(b.maxUp, step)
			case step < 0:
				b.stepDown = min(b.stepDown, cost)
				b.perDown = min(b.perDown, cost/-step)
				b.maxDown = max(b.maxDown, -step)
			case p.Cmp == CmpNone || !sets(d.Actions[a].Changes, p.Field):
				// It writes the field some way the forms do not tell (or
				// the part has no form), or fixes it by a step of any
				// size (Stance != Prone): it may fix it in one step.
				// (Setters are counted below.)
				b.reset = min(b.reset, cost)
			}
		}
	}
	b.byStep = min(b.stepUp, b.stepDown)
	b.lo, b.hi = math.Inf(-1), math.Inf(1)
	unit := 0.0
	if b.integer {
		unit = 1
	}
	switch cmp {
	case CmpGt:
		b.lo = num + unit
	case CmpGe:
		b.lo = num
	case CmpLt:
		b.hi = num - unit
	case CmpLe:
		b.hi = num
	case CmpEq:
		b.lo, b.hi = num, num
	}
	b.rlo, b.rhi = math.Inf(-1), math.Inf(1)
	if p.Cmp == CmpNone {
		return b
	}
	rg := d.Fields[p.Field].Range
	if rg.HasMin || rg.HasMax {
		b.rlo, b.rhi = rg.Lo(), rg.Hi()
		switch {
		case b.rhi < b.lo:
			b.inRange = b.stepsIn(b.rhi)
		case b.rlo > b.hi:
			b.inRange = b.stepsIn(b.rlo)
		}
	}
	b.exact = exactField(&d.Fields[p.Field]) && exactRange(p, &b)
	// Every action that sets the field to a constant, serving the part or
	// not, may be the last to set it before the steps.
	isStr := d.Fields[p.Field].Kind == KindString
	for a := range d.Actions {
		for _, ch := range d.Actions[a].Changes {
			if ch.Field != p.Field || ch.Op != ChangeSet {
				continue
			}
			rest, num := 0.0, d.Fields[p.Field].Range.clamp(ch.Num)
			if !p.holdsFor(num, ch.Str, isStr) {
				if isStr {
					continue
				}
				rest = b.steps(num)
			}
			b.reset = min(b.reset, d.Actions[a].Cost+rest)
		}
	}
	return b
}

// integerSum reports whether sum sm takes integer values only: integer
// coefficients of integer fields. A strict comparison of one then holds
// from the next integer on.
func (d *Domain[S]) integerSum(sm *Sum) bool {
	for _, t := range sm.Terms {
		if k := d.Fields[t.Field].Kind; k != KindInt && k != KindUint || t.Coef != math.Trunc(t.Coef) {
			return false
		}
	}
	return true
}

// exactField reports whether Domain.Number gives field f's value as the
// conditions compare it: an integer or a bool (0 or 1), or a float64. Not
// a float32 (a condition compares it with its constant rounded to
// float32, so F <= 0.1 holds at float32(0.1), above the float64 0.1),
// nor a named float type, which may be either; nor a string.
func exactField(f *Field) bool {
	switch f.Kind {
	case KindInt, KindUint, KindBool:
		return true
	case KindFloat:
		return f.Type == "float64"
	}
	return false
}

// exactRange reports whether part p of a numeric or bool field, with
// bound b, holds exactly when its field's value, as Domain.Number gives
// it, is in [b.lo, b.hi]: a comparison with a constant of an integer
// field, whose bounds b moves by one for a strict comparison (x > 80
// holds from 81), or a comparison that is not strict. An integer's value
// converts to float64 in an order that keeps it on the same side of a
// bound of at most 2^53.
func exactRange(p *Part, b *partBound) bool {
	switch p.Cmp {
	case CmpLt, CmpGt:
		if !b.integer {
			return false
		}
	case CmpLe, CmpGe, CmpEq:
	default:
		return false
	}
	const exact = 1 << 53
	for _, v := range [2]float64{b.lo, b.hi} {
		if !math.IsInf(v, 0) && (v > exact || v < -exact || v != math.Trunc(v) && b.integer) {
			return false
		}
	}
	return true
}

// steps is what moving a numeric field from x until the part holds costs
// at least, with the actions that add constants to it: +Inf when none
// moves it the right way.
//
// Moving it d takes at least ⌈d / the furthest step⌉ steps, each costing
// at least the cheapest: with steps of one size that is exact; and the
// cost per unit bounds a mix of sizes.
func (b *partBound) steps(x float64) float64 { return b.outside(b.stepsIn(x), x) }

// ranged reports whether the part's field has a Range.
func (b *partBound) ranged() bool { return b.rlo > math.Inf(-1) || b.rhi < math.Inf(1) }

// outside is bound h of the part at value x of its field, lowered to
// inRange when x is outside the field's range. (Apart from stepsIn, so
// that a hot loop can inline both.)
func (b *partBound) outside(h, x float64) float64 {
	if x < b.rlo || x > b.rhi {
		return min(h, b.inRange)
	}
	return h
}

// stepsIn is steps without a range.
func (b *partBound) stepsIn(x float64) float64 {
	if up := b.lo - x; up > 0 {
		return max(math.Ceil(up/b.maxUp)*b.stepUp, up*b.perUp)
	}
	if down := x - b.hi; down > 0 {
		return max(math.Ceil(down/b.maxDown)*b.stepDown, down*b.perDown)
	}
	return b.byStep
}

// stepped reports whether some action moves the part's field by steps:
// only then does the bound depend on the field's value.
func (b *partBound) stepped() bool { return b.byStep < math.Inf(1) }

// bound is a lower bound on the cost of making c hold from *s, reading its
// fields with number (Domain.Number, or nil): 0 when c holds, +Inf when
// some failing part cannot be served at all.
func (c *condition[S]) bound(s *S, number func(*S, FieldID) float64) float64 {
	failing := c.failing(*s)
	if failing == 0 {
		return 0
	}
	return c.boundOf(s, failing, number)
}

// boundOf is bound, given the parts that fail in *s (not none).
func (c *condition[S]) boundOf(s *S, failing uint64, number func(*S, FieldID) float64) float64 {
	return c.boundWith(s, failing, number, true, nil)
}

// boundWith is boundOf, with the flow's bound only when flow is set (see
// AStar.gateFlow), and what memo (or nil) remembers of the flow.
func (c *condition[S]) boundWith(s *S, failing uint64, number func(*S, FieldID) float64, flow bool, memo *flowMemo[S]) float64 {
	h := c.partsBound(s, failing, number, memo)
	if flow && c.flow != nil && number != nil && h < math.Inf(1) {
		h = flowBound(c.flow, s, number, h, memo)
	}
	return h
}

// flowWorthRatio is how much more than its parts' the flow's bound of a
// search's root must be for the search to count it (AStar.gateFlow). Its
// bound costs several times theirs an estimate (a linear program's
// vertices, the places its runs need), and a search whose root it does
// not raise much seldom expands fewer states for it; either way the
// search's estimate is admissible and consistent, being one or the other
// throughout. At 1.5 a brewer's search for two brews, whose flow raises
// its root from 7 to 10.2 (a beer sold to buy the yeast), went without
// it: A* expanded 1,592 states for the cheapest plan, 759 with it, and
// the chainer's improvement, in its 1,280, found none (BENCHMARKS.md,
// "A brewer among the written roles").
const flowWorthRatio = 1.25

// partsBound is boundOf by the bounds of the failing parts.
func (c *condition[S]) partsBound(s *S, failing uint64, number func(*S, FieldID) float64, memo *flowMemo[S]) float64 {
	if c.flat > 0 {
		if c.disjoint {
			return c.flat * float64(bits.OnesCount64(failing))
		}
		return c.flat
	}
	// Parts no action touches together need actions of their own: their
	// bounds add up; within a group of parts some action touches
	// together, the largest counts.
	if c.disjoint {
		h := 0.0
		if c.joint != nil && number != nil {
			h = c.joint.tour(s, failing)
		}
		for failing != 0 {
			i := bits.TrailingZeros64(failing)
			failing &= failing - 1
			h += c.partCost(i, s, number, memo)
		}
		return h
	}
	var group [64]float64
	h := 0.0
	for failing != 0 {
		i := bits.TrailingZeros64(failing)
		failing &= failing - 1
		b := c.partCost(i, s, number, memo)
		if k := c.group[i]; b > group[k] {
			h += b - group[k]
			group[k] = b
		}
	}
	return h
}

// partCost is the bound of parts[i], which fails in *s.
func (c *condition[S]) partCost(i int, s *S, number func(*S, FieldID) float64, memo *flowMemo[S]) float64 {
	if c.placed&(1<<i) != 0 && number != nil {
		return c.placeFor(i).bound(c, s, number(s, c.parts[i].Field), number)
	}
	return c.partSteps(i, s, number, memo)
}

// partSteps is partCost without the place.
func (c *condition[S]) partSteps(i int, s *S, number func(*S, FieldID) float64, memo *flowMemo[S]) float64 {
	pb := &c.bounds[i]
	if pb.terms != nil && number != nil && pb.stepped() {
		return sumSteps(pb, s, number)
	}
	if number == nil || c.parts[i].Cmp == CmpNone {
		if c.anyOf != nil && c.anyOf[i] != nil && number != nil {
			return max(min(pb.reset, pb.byStep), c.anyBound(i, s, number, memo))
		}
		return min(pb.reset, pb.byStep)
	}
	if !pb.stepped() {
		if pb.ranged() {
			return pb.outside(min(pb.reset, pb.byStep), number(s, c.parts[i].Field))
		}
		return min(pb.reset, pb.byStep)
	}
	return stepsAt(pb, s, number(s, c.parts[i].Field), number)
}

// sumTerm is a field of a sum, with its coefficient and its Range.
type sumTerm struct {
	field    FieldID
	coef     float64
	rlo, rhi float64
}

// sumSteps is the bound pb of a stepped part whose form is a Sum: by
// the steps that move the sum, as for a part of one field. Where a field
// of the sum is outside its range (only the live state has one there),
// its first write may move the sum anywhere, and the bound is that of
// any write.
func sumSteps[S any](pb *partBound, s *S, number func(*S, FieldID) float64) float64 {
	v, in := termsValue(pb.terms, s, number)
	if !in {
		return min(pb.reset, pb.byStep)
	}
	return min(pb.reset, pb.stepsIn(v))
}

// termsValue is Σ coef × field of terms in *s, and whether every field
// is within its range there.
func termsValue[S any](terms []sumTerm, s *S, number func(*S, FieldID) float64) (float64, bool) {
	v := 0.0
	for i := range terms {
		t := &terms[i]
		x := number(s, t.field)
		if x < t.rlo || x > t.rhi {
			return 0, false
		}
		v += t.coef * x
	}
	return v, true
}

// stepsAt is the bound pb of a stepped part whose field has value x in *s.
func stepsAt[S any](pb *partBound, s *S, x float64, number func(*S, FieldID) float64) float64 {
	h := stepsOnly(pb, s, x, number)
	if pb.supply != nil {
		if d := pb.supplied(x); d > 0 {
			h = max(h, suppliesCost(pb.supply, d, s, number))
		}
	}
	return h
}

// stepsOnly is stepsAt without the supplies: the steps, or the one
// action's consumption.
func stepsOnly[S any](pb *partBound, s *S, x float64, number func(*S, FieldID) float64) float64 {
	if pb.use == nil {
		return min(pb.reset, pb.steps(x))
	}
	return pb.stepsUsing(x, number(s, pb.use.field))
}

// supplied is how far the part's field is from holding at x, for the
// supplies to fill: 0 when it holds, or when x is outside the field's
// range (see partBound.inRange).
func (pb *partBound) supplied(x float64) float64 {
	if x < pb.rlo || x > pb.rhi {
		return 0
	}
	if d := pb.lo - x; d > 0 {
		return d
	}
	return max(x-pb.hi, 0)
}

// stepsUsing is the bound of a part that one action serves using up
// another field (pb.use), at value x of the part's field and y of that
// one: k steps of its cost (and reset is +Inf), and one action more to
// restore its precondition when the field allows fewer.
func (pb *partBound) stepsUsing(x, y float64) float64 {
	if x < pb.rlo || x > pb.rhi {
		return pb.steps(x) // outside its range: see partBound.inRange
	}
	var k, b float64
	if up := pb.lo - x; up > 0 {
		k = math.Ceil(up / pb.maxUp)
		b = k * pb.stepUp
	} else if down := x - pb.hi; down > 0 {
		k = math.Ceil(down / pb.maxDown)
		b = k * pb.stepDown
	} else {
		return pb.byStep
	}
	if r := pb.use.runs(y); k > r {
		b += pb.use.restore * pb.use.restores(k-r)
	}
	return b
}

// boundConsumption sets bounds[i].use of the goal condition c where the
// part qualifies (see consumption): one action serves it, advancing it
// by steps, and nothing sets it; a conjunct of that action's precondition
// on another field is one the action's own steps use up; and none of the
// actions that can make that conjunct hold serves a part of c (else their
// cost could be counted twice, where parts' bounds add up).
func (d *Domain[S]) boundConsumption(c *condition[S]) {
	n := len(c.parts)
	for i := range c.parts {
		pb := &c.bounds[i]
		if d.Number == nil || c.parts[i].Cmp < CmpLt || !pb.stepped() || !math.IsInf(pb.reset, 1) {
			continue
		}
		a := ActionID(-1)
		for ai := range d.Actions {
			if c.rels[ai*n+i].serves() {
				if a >= 0 {
					a = -2
					break
				}
				a = ActionID(ai)
			}
		}
		if a >= 0 {
			pb.use = d.consumptionOf(c, i, a)
		}
	}
	// Where parts' bounds add up, two consumptions of one field, or of
	// two fields one action gives back, would count a run of that action
	// twice: the later part keeps its steps alone.
	for i := range c.bounds {
		u := c.bounds[i].use
		if u == nil {
			continue
		}
		for j := range i {
			if v := c.bounds[j].use; v != nil && (u.field == v.field || d.givesBackBoth(u, v)) {
				c.bounds[i].use = nil
				break
			}
		}
	}
}

// givesBackBothWhole reports whether an action gives back the fields of
// both u and v (two supplies' shares of condition c) in a way the split
// of its cost does not cover (see splitGivers): in a form its effect does
// not tell, or while it writes a field of c's parts, a loss each supply
// would count whole.
func (d *Domain[S]) givesBackBothWhole(c *condition[S], u, v *consumption) bool {
	return d.giverOfBoth(u, v, func(o ActionID, known bool) bool {
		return !known || slices.ContainsFunc(d.Actions[o].Changes, func(ch Change) bool {
			return slices.ContainsFunc(c.parts, func(p Part) bool { return p.Field == ch.Field })
		})
	})
}

// givesBackBoth reports whether an action gives back the fields of both
// consumptions, or one and in a way the form of its effect does not tell.
func (d *Domain[S]) givesBackBoth(u, v *consumption) bool {
	return d.giverOfBoth(u, v, func(ActionID, bool) bool { return true })
}

// giverOfBoth reports whether some action o gives back the fields of
// both u and v (or one of them in a way its form does not tell: known
// false) for which which(o, known) holds.
func (d *Domain[S]) giverOfBoth(u, v *consumption, which func(o ActionID, known bool) bool) bool {
	for o := range d.Actions {
		gu, ku := d.givenBack(u, ActionID(o))
		gv, kv := d.givenBack(v, ActionID(o))
		if (gu > 0 || !ku) && (gv > 0 || !kv) && which(ActionID(o), ku && kv) {
			return true
		}
	}
	return false
}

// consumptionOf returns the consumption of part i of goal condition c,
// which action a alone serves, or nil.
func (d *Domain[S]) consumptionOf(c *condition[S], i int, a ActionID) *consumption {
	n := len(c.parts)
	pre := &d.pres[a]
	for j := range pre.parts {
		if pre.consumed&(1<<j) == 0 || pre.parts[j].Field == c.parts[i].Field {
			continue
		}
		u := new(consumed(&pre.parts[j], pre.use[j])) // Lt, Le, Gt or Ge: see Domain.consumes
		if rg := d.Fields[u.field].Range; u.below {
			u.refill = u.runs(rg.Lo())
		} else {
			u.refill = u.runs(rg.Hi())
		}
		shared := false
		for _, o := range pre.opts {
			if o.helps&(1<<j) == 0 {
				continue
			}
			u.restore = min(u.restore, d.Actions[o.act].Cost)
			for k := range c.parts {
				shared = shared || c.rels[int(o.act)*n+k].serves()
			}
		}
		if !(u.refill > 0) {
			// Not one step from anywhere in the range (V1 < 0, V1 from
			// 0): a restore lets no run, as if none could (the steps
			// the field allows now are all there will be). Left so, a
			// restore's share, 1 ÷ -0, made the estimate -Inf.
			u.restore, u.refill = math.Inf(1), math.Inf(1)
		}
		if !shared {
			return u
		}
	}
	return nil
}

// sets reports whether changes set field f to a constant.
func sets(changes []Change, f FieldID) bool {
	for _, ch := range changes {
		if ch.Field == f && ch.Op == ChangeSet {
			return true
		}
	}
	return false
}

// boundGoal derives the bounds of goal condition c past its steps': its
// parts' consumption, supplies and places (the preconditions' givers and
// c's nets known).
func (d *Domain[S]) boundGoal(c *condition[S]) {
	d.boundConsumption(c)
	d.boundSupplies(c)
	d.boundPlace(c)
	d.dropDominated(c)
	if c.flow = d.flowOf(c); c.flow != nil {
		c.flow.flat, c.flat = c.flat, -1 // the flow's bound depends on the state
		d.flows = true
	}
}

// boundAny derives c.anyOf, for goal condition c: for each part that is
// a disjunction of comparisons (Part.Any) on numeric or bool fields,
// the condition of each comparison, bounded as a goal's condition of that
// one part is (its supplies and places too). A plan that makes the part
// hold makes one of them hold, so the least of their bounds is a bound
// of the part's; each is consistent, and so is the least of them.
func (d *Domain[S]) boundAny(c *condition[S]) {
	if d.Number == nil {
		return
	}
	for i := range c.parts {
		p := &c.parts[i]
		if p.Any == nil || slices.ContainsFunc(p.Any, func(q Part) bool { return d.Fields[q.Field].Kind == KindString }) {
			continue
		}
		alts := make([]condition[S], len(p.Any))
		for j := range p.Any {
			q := &p.Any[j]
			holds := func(s S) bool { return q.holdsFor(d.Number(&s, q.Field), "", false) }
			alts[j] = d.newCondition(holds, nil, []Part{*q}, q.Reads, NoGoal)
			d.nets(&alts[j])
			d.boundGoal(&alts[j])
		}
		if c.anyOf == nil {
			c.anyOf = make([][]condition[S], len(c.parts))
			c.flat = -1 // the part's bound depends on the state now
		}
		c.anyOf[i] = alts
	}
}

// anyBound is the least bound of the comparisons of part i of c, a
// disjunction (see boundAny) that fails in *s, so that none of them
// holds there.
func (c *condition[S]) anyBound(i int, s *S, number func(*S, FieldID) float64, memo *flowMemo[S]) float64 {
	h := math.Inf(1)
	for j := range c.anyOf[i] {
		h = min(h, c.anyOf[i][j].boundWith(s, 1, number, true, memo))
	}
	return h
}
