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
	ranges []fieldRange
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
	for changed := true; changed; {
		changed = false
		for a := range d.Actions {
			if !d.pres[a].mightHold(rs) {
				continue
			}
			if d.widen(ActionID(a), rs) {
				changed = true
			}
		}
	}
	return !d.goals[g].mightHold(rs)
}

// widen adds to rs what action a might make of the fields it writes, and
// reports whether anything changed.
func (d *Domain[S]) widen(a ActionID, rs []fieldRange) bool {
	act := &d.Actions[a]
	changed := false
	if act.Effect != nil && len(act.Writes) == 0 {
		// The domain does not say what it writes: anything.
		for f := range rs {
			if rs[f].lo > math.Inf(-1) || rs[f].hi < math.Inf(1) {
				rs[f].lo, rs[f].hi, changed = math.Inf(-1), math.Inf(1), true
			}
		}
		return changed
	}
	open := func(f FieldID, lo, hi float64) {
		r := &rs[f]
		if lo < r.lo {
			r.lo, changed = lo, true
		}
		if hi > r.hi {
			r.hi, changed = hi, true
		}
	}
	inf := math.Inf(1)
	for _, f := range act.Writes {
		r := &rs[f]
		var ch *Change
		for i := range act.Changes {
			if act.Changes[i].Field == f {
				ch = &act.Changes[i]
			}
		}
		if d.Fields[f].Kind == KindString {
			continue // strings start as any: see unreachable
		}
		switch {
		case ch == nil || ch.Op == ChangeOther:
			if d.Fields[f].Kind == KindBool {
				open(f, 0, 1)
			} else {
				open(f, -inf, inf)
			}
		case ch.Op == ChangeSet:
			open(f, ch.Num, ch.Num)
		case ch.Num > 0:
			open(f, r.lo, inf)
		case ch.Num < 0:
			open(f, -inf, r.hi)
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
