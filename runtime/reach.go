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
// (grain -1: base alone; grain 0: no lattice); or, for a string field,
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

// onLattice reports whether x might be a value of r by its lattice. The
// common cases (no lattice, every integer) inline.
func (r *fieldRange) onLattice(x float64) bool {
	return r.grain == 0 || r.grain == 1 || r.onGrain(x)
}

func (r *fieldRange) onGrain(x float64) bool {
	if r.grain < 0 {
		return x == r.base
	}
	return math.Mod(math.Abs(x-r.base), r.grain) == 0
}

// joinLattice widens r's lattice to hold x, and reports whether it
// changed. The common cases (no lattice, every integer, the base again)
// inline.
func (r *fieldRange) joinLattice(x float64) bool {
	return r.grain != 0 && r.grain != 1 && x != r.base && r.joinGrain(x)
}

func (r *fieldRange) joinGrain(x float64) bool {
	if x == r.base {
		return false
	}
	g := gcdFloat(max(r.grain, 0), math.Abs(x-r.base)) // base alone: the distance
	if g == r.grain {
		return false
	}
	r.grain = g
	return true
}

// gcdFloat is the greatest common divisor of two whole numbers held in
// float64s (gcd(0, b) = b), or 0 (no lattice) when either is not whole or
// too large to be exact.
func gcdFloat(a, b float64) float64 {
	const exact = 1 << 53
	if a != math.Trunc(a) || b != math.Trunc(b) || a > exact || b > exact {
		return 0
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
	// fires bounds, by action, how many times it fires (see
	// Domain.boundFirings).
	fires []float64
	// noLattice leaves the integers without lattices, and noFirings the
	// actions without bounds on their firings, for the tests to measure
	// what each proves.
	noLattice, noFirings bool
	// part is the index of the goal's part that the last proof found no
	// values for (see unreachable).
	part int
}

// newReach returns the scratch of the relaxed reachability over d, whole,
// so that no proof allocates.
func newReach[S comparable](d *Domain[S]) reach {
	return reach{ranges: make([]fieldRange, len(d.Fields)), widened: make([]bool, len(d.Actions)), fires: make([]float64, len(d.Actions))}
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
		rs[f] = fieldRange{lo: x, hi: x}
	}
	for _, f := range d.ints {
		if x := rs[f].lo; !r.noLattice && x == math.Trunc(x) {
			rs[f].base, rs[f].grain = x, -1
		}
	}
	// What an action adds to the sets does not depend on them (constants,
	// or a direction), so each action widens them once; and they only
	// grow.
	goal := &d.goals[g]
	if cap(r.widened) < len(d.Actions) {
		r.widened = make([]bool, len(d.Actions))
	}
	r.widened = r.widened[:len(d.Actions)]
	clear(r.widened)
	// Where the goal reads a number that the bounds on the actions'
	// firings might keep from what it asks (see boundSums), the sets are
	// made whole: the bounds need every action that might fire. Else, once
	// the goal might hold it might at the end: the proof has failed.
	counts := !r.noFirings && d.countable(goal, nil)
	if !counts && goal.mightHold(rs, d.symbols) {
		return false
	}
	for changed := true; changed; {
		changed = false
		for a := range d.Actions {
			if r.widened[a] || !d.pres[a].mightHold(rs, d.symbols) {
				continue
			}
			r.widened[a] = true
			if d.widen(ActionID(a), rs) {
				if !counts && goal.mightHold(rs, d.symbols) {
					return false
				}
				changed = true
			}
		}
	}
	if i := goal.failsWithin(rs, d.symbols); i >= 0 {
		r.part = i
		return true
	}
	// The goal might hold within the sets; it may still lie beyond what
	// the actions that fire a bounded number of times can add up to.
	if counts && d.countable(goal, rs) && d.boundFirings(s, r) && d.boundSums(s, r) {
		if i := goal.failsWithin(rs, d.symbols); i >= 0 {
			r.part = i
			return true
		}
	}
	return false
}

// countable reports whether condition c reads a number that boundSums
// narrows (no bool, no string, no range), in a part of a known form: with
// rs, one whose interval is open at an end.
func (d *Domain[S]) countable(c *condition[S], rs []fieldRange) bool {
	num := func(f FieldID) bool {
		return d.freeNumber(f) && (rs == nil || math.IsInf(rs[f].lo, -1) || math.IsInf(rs[f].hi, 1))
	}
	for i := range c.parts {
		p := &c.parts[i]
		switch {
		case p.Cmp != CmpNone:
			if num(p.Field) {
				return true
			}
		case p.Sum != nil:
			for _, t := range p.Sum.Terms {
				if num(t.Field) {
					return true
				}
			}
		default:
			for j := range p.Any {
				if p.Any[j].Cmp != CmpNone && num(p.Any[j].Field) {
					return true
				}
			}
		}
	}
	return false
}

// A firingRule bounds how many times an action fires by a conjunct of
// its precondition, part:
//
//   - the action turns it off (off: Sweep, pre !Clean, post Clean =
//     true): it fires again only after one of the actions by has fired,
//     which might turn it on again: at most once for the conjunct holding
//     at the start, and once for each of their firings;
//   - it asks a number to be at least a constant and takes it down by
//     step (Brew: pre Grain >= 3, post Grain -= 3): before its n-th
//     firing the field holds at least the constant, and at most its value
//     at the start plus what the actions by add to it (ups, by firing),
//     less the action's n-1 steps down before. An action in by with an
//     up of +Inf sets the field or moves it in a way the forms do not
//     tell: when it fires, the rule bounds nothing.
//
// Where every action the rule names fires a bounded number of times, so
// does the action (it sings only when grumpy, is made grumpy only by a
// sweep that needs the floor dirty, which only serving guests makes: with
// no guests to serve, it sings once, or twice).
type firingRule struct {
	part int
	off  bool
	step float64
	by   []ActionID
	ups  []float64
}

// firingRules returns the rules that bound action a's firings (see
// firingRule), from its precondition's parts of a known form.
func (d *Domain[S]) firingRules(a ActionID) []firingRule {
	act := &d.Actions[a]
	var out []firingRule
	for i := range act.PreParts {
		p := &act.PreParts[i]
		if p.Cmp == CmpNone {
			continue
		}
		if d.turnsOff(a, p) {
			r := firingRule{part: i, off: true}
			for b := range d.Actions {
				if ActionID(b) != a && d.mightTurnOn(ActionID(b), p) {
					r.by = append(r.by, ActionID(b))
				}
			}
			out = append(out, r)
			continue
		}
		if p.Cmp != CmpGe && p.Cmp != CmpGt || !d.freeNumber(p.Field) {
			continue // a range's ends move values back
		}
		r := firingRule{part: i}
		for _, ch := range act.Changes {
			if ch.Field == p.Field && ch.Op == ChangeAdd {
				r.step = -ch.Num
			}
		}
		if r.step <= 0 {
			continue
		}
		for b := range d.Actions {
			other := &d.Actions[b]
			if ActionID(b) == a || !d.writesAnything(ActionID(b)) && !slices.Contains(other.Writes, p.Field) {
				continue
			}
			up := math.Inf(1)
			for _, ch := range other.Changes {
				if ch.Field == p.Field && ch.Op == ChangeAdd {
					up = max(ch.Num, 0)
				}
			}
			r.by, r.ups = append(r.by, ActionID(b)), append(r.ups, up)
		}
		out = append(out, r)
	}
	return out
}

// boundFirings bounds how many times each action fires (r.fires), with
// the actions that might fire in the relaxation (r.widened) and the
// rules of Domain.firings, from *s; it reports whether it bounded any
// action that might fire.
func (d *Domain[S]) boundFirings(s *S, r *reach) bool {
	if cap(r.fires) < len(d.Actions) {
		r.fires = make([]float64, len(d.Actions))
	}
	fires := r.fires[:len(d.Actions)]
	inf := math.Inf(1)
	for a := range fires {
		fires[a] = 0
		if r.widened[a] {
			fires[a] = inf
		}
	}
	bounded := false
	for changed := true; changed; {
		changed = false
		for a, rules := range d.firings {
			if fires[a] <= math.MaxFloat64 {
				continue // bounded, or never fires
			}
			for i := range rules {
				if n := d.firingBound(ActionID(a), &rules[i], s, fires); n < fires[a] {
					fires[a], changed, bounded = n, true, true
				}
			}
		}
	}
	return bounded
}

// firingBound is how many times action a fires by rule ru, with the
// others' bounds fires, from *s.
func (d *Domain[S]) firingBound(a ActionID, ru *firingRule, s *S, fires []float64) float64 {
	p := &d.Actions[a].PreParts[ru.part]
	if ru.off {
		n := 0.0
		for _, b := range ru.by {
			if n += fires[b]; n > math.MaxFloat64 {
				return n // unbounded: the rest cannot change it
			}
		}
		if d.partHolds(p, s) {
			n++
		}
		return n
	}
	top := d.Number(s, p.Field)
	for k, b := range ru.by {
		switch up := ru.ups[k]; {
		case fires[b] == 0 || up == 0:
		case math.IsInf(up, 1) || math.IsInf(fires[b], 1):
			return math.Inf(1)
		default:
			top += fires[b] * up
		}
	}
	if p.Cmp == CmpGt { // top - (n-1)*step > p.Num
		return max(math.Ceil((top-p.Num)/ru.step), 0)
	}
	if top < p.Num {
		return 0
	}
	return math.Floor((top-p.Num)/ru.step) + 1
}

// turnsOff reports whether action a's effect always makes part p (a
// conjunct of its precondition) fail: it sets p's field to a constant
// for which p fails.
func (d *Domain[S]) turnsOff(a ActionID, p *Part) bool {
	for _, ch := range d.Actions[a].Changes {
		if ch.Field != p.Field {
			continue
		}
		if ch.Op != ChangeSet {
			return false
		}
		f := &d.Fields[ch.Field]
		return !p.holdsFor(f.Range.clamp(ch.Num), ch.Str, f.Kind == KindString)
	}
	return false
}

// mightTurnOn reports whether action b's effect might make part p hold:
// it writes p's field, other than with a constant for which p fails.
func (d *Domain[S]) mightTurnOn(b ActionID, p *Part) bool {
	if d.writesAnything(b) {
		return true
	}
	act := &d.Actions[b]
	if !slices.Contains(act.Writes, p.Field) {
		return false
	}
	for _, ch := range act.Changes {
		if ch.Field == p.Field && ch.Op == ChangeSet {
			f := &d.Fields[ch.Field]
			return p.holdsFor(f.Range.clamp(ch.Num), ch.Str, f.Kind == KindString)
		}
	}
	return true
}

// freeNumber reports whether field f is a number without a range, which
// the bounds on the actions' firings narrow (a range's ends move values
// back, so steps do not add up there).
func (d *Domain[S]) freeNumber(f FieldID) bool {
	fd := &d.Fields[f]
	return fd.Kind != KindBool && fd.Kind != KindString && !fd.Range.HasMin && !fd.Range.HasMax
}

// writesAnything reports whether action a has effects whose writes the
// domain does not say: for the relaxation, they may change anything.
func (d *Domain[S]) writesAnything(a ActionID) bool {
	return d.Actions[a].Effect != nil && len(d.Actions[a].Writes) == 0
}

// partHolds reports whether part p holds in *s (true when the domain
// cannot read its field).
func (d *Domain[S]) partHolds(p *Part, s *S) bool {
	if d.Fields[p.Field].Kind == KindString {
		if d.Text == nil {
			return true
		}
		return p.holdsFor(0, d.Text(s, p.Field), true)
	}
	return p.holdsFor(d.Number(s, p.Field), "", false)
}

// boundSums narrows the intervals of the numbers without a range to what
// the actions that might fire can make of them, with the bounds on their
// firings: at most the largest of the value in *s and the constants set,
// plus every step up times the firings of its action (unbounded when one
// of them is); likewise down. It reports whether it narrowed any.
func (d *Domain[S]) boundSums(s *S, r *reach) bool {
	inf := math.Inf(1)
	narrowed := false
	for f := range d.Fields {
		if !d.freeNumber(FieldID(f)) {
			continue
		}
		rg := &r.ranges[f]
		if rg.lo > -inf && rg.hi < inf {
			continue
		}
		x := d.Number(s, FieldID(f))
		top, bottom, up, down := x, x, 0.0, 0.0
		for a := range d.Actions {
			n := r.fires[a]
			if n == 0 {
				continue
			}
			if d.writesAnything(ActionID(a)) {
				up, down = inf, inf
			}
			for _, w := range d.widens[a] {
				if w.field != FieldID(f) {
					continue
				}
				switch w.op {
				case widenSet:
					top, bottom = max(top, w.num), min(bottom, w.num)
				case widenUp:
					up += n * w.num
				case widenDown:
					down += n * w.num
				default:
					up, down = inf, inf
				}
			}
		}
		if hi := top + up; hi < rg.hi {
			rg.hi, narrowed = hi, true
		}
		if lo := bottom - down; lo > rg.lo {
			rg.lo, narrowed = lo, true
		}
	}
	return narrowed
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
	// str: the field is a string; lattice: an integer (its values may
	// lie on a lattice); ranged: a number with a range.
	str, lattice, ranged bool
	num                  float64
	strs                 uint64
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
		fd := &d.Fields[f]
		w := widening{field: f, op: widenAny, str: fd.Kind == KindString, lattice: fd.Kind == KindInt || fd.Kind == KindUint, ranged: fd.Range.HasMin || fd.Range.HasMax}
		switch {
		case d.Fields[f].Kind == KindString:
			if ch != nil && ch.Op == ChangeSet && d.symbols[f] != nil {
				w.op, w.strs = widenSet, symbolBit(d.symbols[f], ch.Str)
			}
		case ch == nil || ch.Op != ChangeSet && ch.Op != ChangeAdd:
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
	if d.writesAnything(a) {
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
		if w.str {
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
		lat := w.lattice && r.grain != 0 && r.grain != 1 // a lattice that may change
		switch w.op {
		case widenSet:
			lo, hi = min(lo, w.num), max(hi, w.num)
			changed = lat && r.joinGrain(w.num) || changed
		case widenUp:
			hi = inf
			changed = lat && r.joinGrain(r.base+w.num) || changed
		case widenDown:
			lo = -inf
			changed = lat && r.joinGrain(r.base-w.num) || changed
		case widenBool:
			lo, hi = min(lo, 0), max(hi, 1)
		default:
			lo, hi = -inf, inf
			if r.grain != 0 {
				r.grain, changed = 0, true
			}
		}
		if w.ranged {
			rg := d.Fields[w.field].Range
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
	return c.failsWithin(rs, syms) < 0
}

// failsWithin is the index of the first part of c that cannot hold
// within rs, or -1 when every part might (and for a condition of no
// parts, which might always hold).
func (c *condition[S]) failsWithin(rs []fieldRange, syms [][]string) int {
	if c.holds == nil {
		return -1
	}
	for i := range c.parts {
		if !c.parts[i].mightHold(rs, syms) {
			return i
		}
	}
	return -1
}

// mightHold reports whether p might hold with its field within rs (a part
// of no form might; a disjunction of forms when one of them might).
func (p *Part) mightHold(rs []fieldRange, syms [][]string) bool {
	if p.Cmp == CmpNone {
		return p.mightHoldNone(rs, syms)
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

// mightHoldNone is mightHold of a part with Cmp CmpNone: a sum's
// comparison by the interval of the sum, a disjunction of forms when one
// of them might hold, any other might.
func (p *Part) mightHoldNone(rs []fieldRange, syms [][]string) bool {
	switch {
	case p.Sum != nil:
		return p.Sum.mightHold(rs)
	case p.Any != nil:
		for i := range p.Any {
			if p.Any[i].mightHold(rs, syms) {
				return true
			}
		}
		return false
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

// mightHold reports whether the sum's comparison might hold with its
// fields within rs: whether the interval of the sum meets what it asks.
func (sm *Sum) mightHold(rs []fieldRange) bool {
	lo, hi := 0.0, 0.0
	for _, t := range sm.Terms {
		r := &rs[t.Field]
		if r.anyStr || r.strs != 0 {
			return true
		}
		a, b := t.Coef*r.lo, t.Coef*r.hi
		if t.Coef < 0 {
			a, b = b, a
		}
		lo, hi = lo+a, hi+b
	}
	if math.IsNaN(lo) || math.IsNaN(hi) { // -Inf + Inf: either end open
		return true
	}
	switch sm.Cmp {
	case CmpLt:
		return lo < sm.Num
	case CmpLe:
		return lo <= sm.Num
	case CmpGt:
		return hi > sm.Num
	case CmpGe:
		return hi >= sm.Num
	}
	return true
}
