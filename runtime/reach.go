package runtime

import "math"

// A quick proof that a goal cannot hold, before any search: the relaxed
// reachability of the annotations. Every field gets the set of values it
// might take: a number an interval, a string a set of the constants the
// role names, a bool either value. From the state's own values, every
// action whose precondition might hold widens them by its effects (a
// constant set adds the constant; a constant added again and again opens
// the interval that way; any other effect opens it both ways), until
// nothing changes. The sets only grow, so what no relaxed step reaches,
// no plan reaches: a goal with a conjunct that cannot hold within them is
// unreachable. Effects are never undone in the relaxation, so the converse
// does not hold (the relaxation says nothing of a goal it finds
// reachable).

// fieldRange is what a field might be: a number (bools as 0 and 1)
// within [lo, hi], or, for a string field, any string (the planners read
// no strings by field).
type fieldRange struct {
	lo, hi float64
	anyStr bool
}

// reach is the scratch of the relaxed reachability analysis, kept by a
// planner.
type reach struct {
	ranges  []fieldRange
	widened []bool // by action: its effects are in ranges
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
			// The planners cannot read strings by field: any string.
			rs[f] = fieldRange{anyStr: true}
			continue
		}
		x := d.Number(s, FieldID(f))
		rs[f] = fieldRange{lo: x, hi: x}
	}
	// What an action adds to the sets does not depend on them (constants,
	// or a direction), so each action widens them once; and they only
	// grow, so once the goal might hold it might at the end: the proof has
	// failed.
	goal := &d.goals[g]
	if goal.mightHold(rs) {
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
			if r.widened[a] || !d.pres[a].mightHold(rs) {
				continue
			}
			r.widened[a] = true
			if d.widen(ActionID(a), rs) {
				if goal.mightHold(rs) {
					return false
				}
				changed = true
			}
		}
	}
	return true
}

// widening is what an action's effect might do to one field it writes,
// for the relaxation: set it to num, move it up or down by steps, make it
// any value of its kind (a bool: 0 or 1; a number: anything).
type widening struct {
	field FieldID
	op    widenOp
	num   float64
}

type widenOp uint8

const (
	widenSet widenOp = iota
	widenUp
	widenDown
	widenBool
	widenAny
)

// widenings lists what action a might do to each field it writes that is
// not a string (strings start as any: see unreachable); all nil for an
// action whose writes the domain does not say, which may change anything.
func (d *Domain[S]) widenings(a ActionID) []widening {
	act := &d.Actions[a]
	var out []widening
	for _, f := range act.Writes {
		if d.Fields[f].Kind == KindString {
			continue
		}
		var ch *Change
		for i := range act.Changes {
			if act.Changes[i].Field == f {
				ch = &act.Changes[i]
			}
		}
		w := widening{field: f, op: widenAny}
		switch {
		case ch == nil || ch.Op == ChangeOther:
			if d.Fields[f].Kind == KindBool {
				w.op = widenBool
			}
		case ch.Op == ChangeSet:
			w.op, w.num = widenSet, ch.Num
		case ch.Num > 0:
			w.op = widenUp
		case ch.Num < 0:
			w.op = widenDown
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
			if rs[f].lo > math.Inf(-1) || rs[f].hi < math.Inf(1) {
				rs[f].lo, rs[f].hi, changed = math.Inf(-1), math.Inf(1), true
			}
		}
		return changed
	}
	inf := math.Inf(1)
	for _, w := range d.widens[a] {
		r := &rs[w.field]
		lo, hi := r.lo, r.hi
		switch w.op {
		case widenSet:
			lo, hi = min(lo, w.num), max(hi, w.num)
		case widenUp:
			hi = inf
		case widenDown:
			lo = -inf
		case widenBool:
			lo, hi = min(lo, 0), max(hi, 1)
		default:
			lo, hi = -inf, inf
		}
		if lo != r.lo || hi != r.hi {
			r.lo, r.hi, changed = lo, hi, true
		}
	}
	return changed
}

// mightHold reports whether c might hold with its fields within rs.
func (c *condition[S]) mightHold(rs []fieldRange) bool {
	if c.holds == nil {
		return true
	}
	for i := range c.parts {
		if !c.parts[i].mightHold(rs) {
			return false
		}
	}
	return true
}

// mightHold reports whether p might hold with its field within rs (a part
// of no form might).
func (p *Part) mightHold(rs []fieldRange) bool {
	if p.Cmp == CmpNone {
		return true
	}
	r := &rs[p.Field]
	if r.anyStr {
		return true
	}
	switch p.Cmp {
	case CmpEq:
		return r.lo <= p.Num && p.Num <= r.hi
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
