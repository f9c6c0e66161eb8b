package runtime

import (
	"math"
	"math/bits"
	"slices"
)

// A quick proof that a goal cannot hold, before any search: the relaxed
// reachability of the annotations. Every field gets the set of values it
// might take: a number an interval, a string a set of the constants the
// role names for it (and any other string), a bool either value; an
// integer also the lattice its values lie on (the state's value plus
// multiples of the grain, the greatest common divisor of the steps the
// actions take it by and of the distances to the constants they set it
// to: a fire of 1 that sprays put out 3 at a time is never 0). From the
// state's own values, every action whose precondition might hold widens
// them by its effects (a constant set adds the constant; a constant added
// again and again opens the interval that way; any other effect opens it
// both ways), until nothing changes. The sets only grow, so what no relaxed step reaches,
// no plan reaches: a goal with a conjunct that cannot hold within them is
// unreachable. Effects are never undone in the relaxation, so the converse
// does not hold (the relaxation says nothing of a goal it finds
// reachable).

// fieldRange is what a field might be: a number (bools as 0 and 1)
// within [lo, hi], and for an integer on the lattice base + k*grain
// (grain 0: base alone; grain < 0: no lattice); or, for a string field,
// one of the constants whose bits strs has (bit i: Domain.symbols[f][i];
// otherStr: a string the role names nowhere), or any string when anyStr
// is set (the domain has no Text, or an effect writes the field in a way
// the forms do not tell). Integers are taken not to wrap, as the
// intervals take them.
type fieldRange struct {
	lo, hi      float64
	base, grain float64
	strs        uint64
	anyStr      bool
}

// onLattice reports whether x might be a value of r by its lattice.
func (r *fieldRange) onLattice(x float64) bool {
	switch {
	case r.grain < 0:
		return true
	case r.grain == 0:
		return x == r.base
	}
	return math.Mod(math.Abs(x-r.base), r.grain) == 0
}

// joinLattice widens r's lattice to hold x, and reports whether it
// changed.
func (r *fieldRange) joinLattice(x float64) bool {
	if r.grain < 0 {
		return false
	}
	g := gcdFloat(r.grain, math.Abs(x-r.base))
	if g == r.grain {
		return false
	}
	r.grain = g
	return true
}

// gcdFloat is the greatest common divisor of two whole numbers held in
// float64s (gcd(0, b) = b), or -1 (no lattice) when either is not whole
// or too large to be exact.
func gcdFloat(a, b float64) float64 {
	const exact = 1 << 53
	if a != math.Trunc(a) || b != math.Trunc(b) || a > exact || b > exact {
		return -1
	}
	x, y := uint64(a), uint64(b)
	for y != 0 {
		x, y = y, x%y
	}
	return float64(x)
}

// otherStr is the bit of a string field's set for a value that is none of
// the role's constants for that field.
const otherStr = 1 << 63

// maxSymbols is how many constants of one string field the relaxation
// tells apart; a field the role compares or sets with more is any string.
const maxSymbols = 63

// reach is the scratch of the relaxed reachability analysis, kept by a
// planner.
type reach struct {
	ranges  []fieldRange
	widened []bool // by action: its effects are in ranges
	// noLattice leaves the integers without lattices, for the tests to
	// measure what the lattices prove.
	noLattice bool
}

// newReach returns the scratch of the relaxed reachability over d, whole,
// so that no proof allocates.
func newReach[S comparable](d *Domain[S]) reach {
	return reach{ranges: make([]fieldRange, len(d.Fields)), widened: make([]bool, len(d.Actions))}
}

// unreachable reports whether the relaxation proves that goal g cannot
// hold from *s. It needs the domain's Number (without it, it proves
// nothing).
func (d *Domain[S]) unreachable(g GoalID, s *S, r *reach) bool {
	if d.Number == nil {
		return false
	}
	if len(r.ranges) < len(d.Fields) {
		r.ranges = make([]fieldRange, len(d.Fields))
	}
	rs := r.ranges[:len(d.Fields)]
	for f := range d.Fields {
		if d.Fields[f].Kind == KindString {
			rs[f] = d.strRange(s, FieldID(f))
			continue
		}
		x := d.Number(s, FieldID(f))
		rs[f] = fieldRange{lo: x, hi: x, base: x, grain: -1}
		if k := d.Fields[f].Kind; (k == KindInt || k == KindUint) && x == math.Trunc(x) && !r.noLattice {
			rs[f].grain = 0
		}
	}
	// What an action adds to the sets does not depend on them (constants,
	// or a direction), so each action widens them once; and they only
	// grow, so once the goal might hold it might at the end: the proof has
	// failed.
	goal := &d.goals[g]
	if goal.mightHold(rs, d.symbols) {
		return false
	}
	if cap(r.widened) < len(d.Actions) {
		r.widened = make([]bool, len(d.Actions))
	}
	r.widened = r.widened[:len(d.Actions)]
	clear(r.widened)
	for changed := true; changed; {
		changed = false
		for a := range d.Actions {
			if r.widened[a] || !d.pres[a].mightHold(rs, d.symbols) {
				continue
			}
			r.widened[a] = true
			if d.widen(ActionID(a), rs) {
				if goal.mightHold(rs, d.symbols) {
					return false
				}
				changed = true
			}
		}
	}
	return true
}

// strRange is the set of string field f in *s: its value's bit, or any
// string when the domain cannot read it or names too many constants.
func (d *Domain[S]) strRange(s *S, f FieldID) fieldRange {
	syms := d.symbols[f]
	if d.Text == nil || syms == nil {
		return fieldRange{anyStr: true}
	}
	return fieldRange{strs: symbolBit(syms, d.Text(s, f))}
}

// symbolBit is the bit of value v among a string field's constants syms:
// its index's, or otherStr.
func symbolBit(syms []string, v string) uint64 {
	for i, c := range syms {
		if c == v {
			return 1 << uint(i)
		}
	}
	return otherStr
}

// stringSymbols returns, for each string field, the constants the role
// compares it with or sets it to, in the order met (nil for other fields,
// and for a string field with more than maxSymbols of them).
func (d *Domain[S]) stringSymbols() [][]string {
	out := make([][]string, len(d.Fields))
	add := func(f FieldID, str string) {
		if d.Fields[f].Kind != KindString || len(out[f]) > maxSymbols || slices.Contains(out[f], str) {
			return
		}
		out[f] = append(out[f], str)
	}
	parts := func(ps []Part) {
		for i := range ps {
			if ps[i].Cmp != CmpNone {
				add(ps[i].Field, ps[i].Str)
			}
		}
	}
	for i := range d.Goals {
		parts(d.Goals[i].Parts)
	}
	for i := range d.Actions {
		parts(d.Actions[i].PreParts)
		for _, ch := range d.Actions[i].Changes {
			if ch.Op == ChangeSet {
				add(ch.Field, ch.Str)
			}
		}
	}
	for f := range out {
		if len(out[f]) > maxSymbols {
			out[f] = nil
		} else if out[f] == nil && d.Fields[f].Kind == KindString {
			out[f] = []string{} // every value is another string
		}
	}
	return out
}

// widening is what an action's effect might do to one field it writes,
// for the relaxation: set it to num (a string field: add the constant's
// bit, strs), move it up or down by steps of num, make it any value of
// its kind (a bool: 0 or 1; a number or a string: anything).
type widening struct {
	field FieldID
	op    widenOp
	num   float64
	strs  uint64
}

type widenOp uint8

const (
	widenSet widenOp = iota
	widenUp
	widenDown
	widenBool
	widenAny
)

// widenings lists what action a might do to each field it writes; nil
// for an action whose writes the domain does not say, which may change
// anything. It needs d.symbols.
func (d *Domain[S]) widenings(a ActionID) []widening {
	act := &d.Actions[a]
	var out []widening
	for _, f := range act.Writes {
		var ch *Change
		for i := range act.Changes {
			if act.Changes[i].Field == f {
				ch = &act.Changes[i]
			}
		}
		w := widening{field: f, op: widenAny}
		switch {
		case d.Fields[f].Kind == KindString:
			if ch != nil && ch.Op == ChangeSet && d.symbols[f] != nil {
				w.op, w.strs = widenSet, symbolBit(d.symbols[f], ch.Str)
			}
		case ch == nil || ch.Op == ChangeOther:
			if d.Fields[f].Kind == KindBool {
				w.op = widenBool
			}
		case ch.Op == ChangeSet:
			w.op, w.num = widenSet, d.Fields[f].Range.clamp(ch.Num)
		case ch.Num > 0:
			w.op, w.num = widenUp, ch.Num
		case ch.Num < 0:
			w.op, w.num = widenDown, -ch.Num
		default:
			continue // adds nothing
		}
		out = append(out, w)
	}
	return out
}

// widen adds to rs what action a might make of the fields it writes, and
// reports whether anything changed.
func (d *Domain[S]) widen(a ActionID, rs []fieldRange) bool {
	changed := false
	if d.Actions[a].Effect != nil && len(d.Actions[a].Writes) == 0 {
		// The domain does not say what it writes: anything.
		for f := range rs {
			if rs[f].lo > math.Inf(-1) || rs[f].hi < math.Inf(1) || !rs[f].anyStr && d.Fields[f].Kind == KindString {
				rs[f].lo, rs[f].hi, changed = math.Inf(-1), math.Inf(1), true
				rs[f].anyStr = d.Fields[f].Kind == KindString
			}
		}
		return changed
	}
	inf := math.Inf(1)
	for _, w := range d.widens[a] {
		r := &rs[w.field]
		if d.Fields[w.field].Kind == KindString {
			switch {
			case r.anyStr:
			case w.op == widenSet:
				if r.strs&w.strs == 0 {
					r.strs |= w.strs
					changed = true
				}
			default:
				r.anyStr, changed = true, true
			}
			continue
		}
		lo, hi := r.lo, r.hi
		switch w.op {
		case widenSet:
			lo, hi = min(lo, w.num), max(hi, w.num)
			changed = r.joinLattice(w.num) || changed
		case widenUp:
			hi = inf
			changed = r.joinLattice(r.base+w.num) || changed
		case widenDown:
			lo = -inf
			changed = r.joinLattice(r.base-w.num) || changed
		case widenBool:
			lo, hi = min(lo, 0), max(hi, 1)
		default:
			lo, hi = -inf, inf
			if r.grain >= 0 {
				r.grain, changed = -1, true
			}
		}
		if rg := d.Fields[w.field].Range; rg.HasMin || rg.HasMax {
			// A saturating field written lands in its range, whatever
			// side of it the value was on (0 - 2 in 1..3 is 1), and
			// may stop at either end, off its steps' lattice.
			lo, hi = min(r.lo, rg.clamp(lo)), max(r.hi, rg.clamp(hi))
			if rg.HasMin {
				changed = r.joinLattice(rg.Min) || changed
			}
			if rg.HasMax {
				changed = r.joinLattice(rg.Max) || changed
			}
		}
		if lo != r.lo || hi != r.hi {
			r.lo, r.hi, changed = lo, hi, true
		}
	}
	return changed
}

// mightHold reports whether c might hold with its fields within rs (syms:
// the string fields' constants, Domain.symbols).
func (c *condition[S]) mightHold(rs []fieldRange, syms [][]string) bool {
	if c.holds == nil {
		return true
	}
	for i := range c.parts {
		if !c.parts[i].mightHold(rs, syms) {
			return false
		}
	}
	return true
}

// mightHold reports whether p might hold with its field within rs (a part
// of no form might).
func (p *Part) mightHold(rs []fieldRange, syms [][]string) bool {
	if p.Cmp == CmpNone {
		return true
	}
	r := &rs[p.Field]
	if r.anyStr {
		return true
	}
	if r.strs != 0 { // a string field (its value always has a bit)
		return p.mightHoldStr(r.strs, syms[p.Field])
	}
	switch p.Cmp {
	case CmpEq:
		return r.lo <= p.Num && p.Num <= r.hi && r.onLattice(p.Num)
	case CmpNe:
		return r.lo != p.Num || r.hi != p.Num
	case CmpLt:
		return r.lo < p.Num
	case CmpLe:
		return r.lo <= p.Num
	case CmpGt:
		return r.hi > p.Num
	case CmpGe:
		return r.hi >= p.Num
	}
	return true
}

// mightHoldStr reports whether p might hold with its string field one of
// the values whose bits strs has, of the field's constants syms (a string
// the role does not name: any but p's constant).
func (p *Part) mightHoldStr(strs uint64, syms []string) bool {
	if strs&otherStr != 0 && p.Cmp != CmpEq {
		return true
	}
	for m := strs &^ otherStr; m != 0; m &= m - 1 {
		if p.holdsFor(0, syms[bits.TrailingZeros64(m)], true) {
			return true
		}
	}
	return false
}
