package runtime

import (
	"math/bits"
	"slices"
	"sync"
)

// helperShare is the part of a goal's urgency that an action earns by
// meeting the precondition of an action that serves the goal, rather than
// serving it itself.
const helperShare = 0.5

// GoalUrgency rates an action by the unsatisfied goals of d it serves in
// the state: the highest, over those goals, of the goal's level times how
// far the step goes.
//
// A goal's level is its priority placed in the domain's range of
// priorities: (p − lowest + 1) / (highest − lowest + 1), so that the
// highest-priority goal is 1 and the lowest still above 0 (with low,
// normal, high and critical goals: 0.25, 0.5, 0.75, 1).
//
// How far the step goes is 1 when the action declares the goal in
// fulfills or its effects make the goal hold; ½ + ½ × m when they only
// move failing conjuncts of the goal closer to holding, where m is the
// mean, over the conjuncts that fail before or after the step, of the
// share of its distance the step covers (the distance of a conjunct is
// how far its field is from a value that satisfies it; the share is 1
// for a conjunct the step makes hold, 0 for one it does not move, breaks,
// or whose distance the domain cannot measure); 0 when the step moves
// none closer. Which conjuncts an action can move, and which way, is
// read from the domain (see Relation); a step that writes a field in a
// way the domain does not describe is run (its Effect) and judged by the
// state it leaves.
//
// An action that serves no unsatisfied goal scores 0, unless its step
// makes the failing precondition of an action that does hold: then it
// earns half of that action's score (one step of look-ahead: a hungry
// villager at the market buys bread, which it can then eat).
//
// NewUtility computes the urgency of every action once a call; used
// elsewhere (in Combine, say), Score works it out for the one action it
// is given, finding it in d by name (0 for an action d does not have).
func GoalUrgency[S comparable](d *Domain[S], weight float64) Consideration[S] {
	g := newGoalUrgency(d)
	return Consideration[S]{Name: "GoalUrgency", Weight: weight, reads: readsGoals, bound: g, Score: g.score}
}

// goalUrgency computes GoalUrgency for every action of a domain at once.
type goalUrgency[S comparable] struct {
	d     *Domain[S]
	level []float64 // per goal
	// goalSteps[g][j] is what option j of goal g's condition does to its
	// parts, preSteps[a][k] what option k of action a's precondition
	// does to the precondition's.
	goalSteps, preSteps [][]stepModel
	// scratch holds *callScratch[S], so that a call neither allocates
	// nor keeps state in the selector.
	scratch sync.Pool
}

// callScratch is the memory of one call of a selector: the urgency of
// every action, which preconditions hold, the actions' costs, and the
// states the steps are judged on. They live here rather than on the caller's stack because
// the domain's functions (Number, Enabled) take pointers to them.
type callScratch[S comparable] struct {
	out      []float64
	enabled  []uint64  // bit a set when action a's precondition holds; nil without Domain.Enabled
	costs    []float64 // the actions' costs in s, when they depend on the state
	s, after S
}

// applicable reports whether the precondition of action a holds in sc.s.
func (sc *callScratch[S]) applicable(d *Domain[S], a ActionID) bool {
	if sc.enabled != nil {
		return sc.enabled[a>>6]&(1<<(a&63)) != 0
	}
	pre := d.Actions[a].Pre
	return pre == nil || pre(sc.s)
}

func newGoalUrgency[S comparable](d *Domain[S]) *goalUrgency[S] {
	g := &goalUrgency[S]{d: d, level: make([]float64, len(d.Goals))}
	if len(d.Goals) > 0 {
		lo, hi := d.Goals[0].Priority, d.Goals[0].Priority
		for _, goal := range d.Goals {
			lo, hi = min(lo, goal.Priority), max(hi, goal.Priority)
		}
		span := float64(hi) - float64(lo) + 1
		for i, goal := range d.Goals {
			g.level[i] = (float64(goal.Priority) - float64(lo) + 1) / span
		}
	}
	g.goalSteps = make([][]stepModel, len(d.Goals))
	for gi := range d.Goals {
		g.goalSteps[gi] = d.stepModels(&d.goals[gi])
	}
	g.preSteps = make([][]stepModel, len(d.Actions))
	for a := range d.Actions {
		g.preSteps[a] = d.stepModels(&d.pres[a])
	}
	n := len(d.Actions)
	g.scratch.New = func() any {
		sc := &callScratch[S]{out: make([]float64, n)}
		if d.Enabled != nil && n > 0 {
			sc.enabled = make([]uint64, (n+63)/64)
		}
		if d.stateCosts {
			sc.costs = make([]float64, n)
		}
		return sc
	}
	return g
}

// get returns scratch memory holding s and which preconditions hold in
// it; put gives it back.
func (g *goalUrgency[S]) get(s S) *callScratch[S] {
	sc := g.scratch.Get().(*callScratch[S])
	sc.s = s
	if sc.enabled != nil {
		g.d.Enabled(&sc.s, sc.enabled)
	}
	return sc
}

func (g *goalUrgency[S]) put(sc *callScratch[S]) { g.scratch.Put(sc) }

// score is GoalUrgency's Score: the urgency of one action.
func (g *goalUrgency[S]) score(s S, a *Action[S]) float64 {
	id, ok := g.d.Action(a.Name)
	if !ok {
		return 0
	}
	sc := g.get(s)
	g.fill(sc)
	v := sc.out[id]
	g.put(sc)
	return v
}

// fill writes the urgency of every action in sc.s into sc.out. It visits
// each unsatisfied goal once, and of each only the actions that can serve
// it, and the helpers of those whose precondition fails.
func (g *goalUrgency[S]) fill(sc *callScratch[S]) {
	out, s, after := sc.out, &sc.s, &sc.after
	clear(out)
	d := g.d
	for _, gi := range d.goalOrder {
		c := &d.goals[gi]
		failing := c.failing(*s)
		if failing == 0 {
			continue
		}
		level, steps := g.level[gi], g.goalSteps[gi]
		// With a saturating field outside its range, any write lands it
		// in the range: the options that write it without serving it,
		// and the landers, are judged by the state they leave.
		var lands uint64
		n := len(c.opts)
		if c.landed&failing != 0 {
			if lands = d.landable(c, failing, s); lands != 0 {
				n += len(c.landers)
			}
		}
		for j := range n {
			var o *option
			var far float64
			if j < len(c.opts) {
				o = &c.opts[j]
				far = d.step(c, o, &steps[j], s, after, failing)
				if o.lands&lands != 0 {
					far = max(far, d.advanceFor(c, o.act, (o.helps|o.lands&lands)&failing, s, after, failing))
				}
			} else if o = &c.landers[j-len(c.opts)]; o.lands&lands != 0 {
				far = d.advanceFor(c, o.act, o.lands&lands, s, after, failing)
			}
			if far == 0 {
				continue
			}
			out[o.act] = max(out[o.act], level*far)
			if sc.applicable(d, o.act) {
				continue
			}
			pre := &d.pres[o.act]
			pf := pre.failing(*s)
			share, helps := helperShare*level*far, g.preSteps[o.act]
			for k := range pre.opts {
				h := &pre.opts[k]
				if h.act == o.act || h.helps&pf == 0 || out[h.act] >= share {
					continue
				}
				if d.step(pre, h, &helps[k], s, after, pf) == 1 {
					out[h.act] = share
				}
			}
		}
	}
}

// advance is how far one step of option o goes toward making condition c
// hold from s, where failing marks the parts of c that fail in s (not 0):
// 1 when o fulfills the goal or c holds after the step; ½ + ½ × the mean,
// over the parts that fail before or after the step, of the share of its
// distance the step covers, when the step moves a failing part closer; 0
// otherwise. See GoalUrgency. It leaves the state after the step in
// *after.
func (d *Domain[S]) advance(c *condition[S], o *option, s, after *S, failing uint64) float64 {
	if o.fulfills {
		return 1
	}
	return d.advanceFor(c, o.act, o.helps&failing, s, after, failing)
}

// advanceFor is advance for action a serving the parts of c that want
// marks (failing in s).
func (d *Domain[S]) advanceFor(c *condition[S], a ActionID, want uint64, s, after *S, failing uint64) float64 {
	if want == 0 {
		return 0
	}
	*after = *s
	if eff := d.Actions[a].Effect; eff != nil {
		*after = eff(*s)
	}
	still := c.failing(*after)
	if still == 0 {
		return 1
	}
	moved, covered := false, 0.0
	for ; want != 0; want &= want - 1 {
		i := bits.TrailingZeros64(want)
		if still&(1<<i) == 0 {
			moved, covered = true, covered+1
			continue
		}
		p := &c.parts[i]
		switch {
		case p.Cmp == CmpNone || d.Number == nil:
			// The domain cannot tell which way the step moved the part:
			// any change counts, by an unknown share.
			if *after != *s {
				moved = true
			}
		case d.Fields[p.Field].Kind == KindString:
			// Holds or not: no nearer.
		default:
			before, now := p.gap(d.Number(s, p.Field)), p.gap(d.Number(after, p.Field))
			if now < before {
				moved, covered = true, covered+(before-now)/before
			}
		}
	}
	if !moved {
		return 0
	}
	// A part the step breaks counts too, so that only a step after which
	// c holds goes all the way.
	return 0.5 + 0.5*covered/float64(bits.OnesCount64(failing|still))
}

// stepModel is what one action does to the parts of one condition, when
// the domain describes all of it (generated domains do, but for float and
// unsigned fields): then a step is judged from the values of the fields
// it changes, without running the action's effect.
type stepModel struct {
	exact   bool
	changes []partChange // one for each part the action writes
}

// partChange is what an action does to the field of one part: sets it to
// num (then holds says whether the part holds after), or adds num to it.
type partChange struct {
	part    *Part
	bit     uint64 // the part's bit in its condition
	op      ChangeOp
	num     float64
	holds   bool
	numeric bool // the field is no string: its distance is measured
	// lo and hi are the field's Range (±Inf without one): a sum lands
	// in it, as the generated effect clamps it.
	lo, hi float64
}

// stepModels returns the step model of each option of c.
func (d *Domain[S]) stepModels(c *condition[S]) []stepModel {
	out := make([]stepModel, len(c.opts))
	for j := range c.opts {
		out[j] = d.modelStep(c, c.opts[j].act)
	}
	return out
}

// modelStep describes what action a does to the parts of c, or says it
// cannot (exact false): a part of no known form, a field written in a way
// Changes does not give as a constant set or added, a float or unsigned
// field (whose effect may round or wrap where float64 does not; signed
// integers are taken not to overflow), or no Number.
func (d *Domain[S]) modelStep(c *condition[S], a ActionID) stepModel {
	act := &d.Actions[a]
	if d.Number == nil || act.Changes == nil {
		return stepModel{}
	}
	var m stepModel
	for i := range c.parts {
		p := &c.parts[i]
		if !intersects(act.Writes, p.Reads) {
			continue
		}
		if p.Cmp == CmpNone || len(p.Reads) != 1 {
			return stepModel{}
		}
		kind := d.Fields[p.Field].Kind
		k := slices.IndexFunc(act.Changes, func(ch Change) bool { return ch.Field == p.Field })
		if kind == KindFloat || kind == KindUint || k < 0 {
			return stepModel{}
		}
		rg := d.Fields[p.Field].Range
		pc := partChange{part: p, bit: 1 << i, op: act.Changes[k].Op, num: act.Changes[k].Num, numeric: kind != KindString,
			lo: rg.Lo(), hi: rg.Hi()}
		switch {
		case pc.op == ChangeSet:
			if pc.numeric {
				pc.num = rg.clamp(pc.num)
			}
			pc.holds = p.holdsFor(pc.num, act.Changes[k].Str, kind == KindString)
		case pc.op != ChangeAdd || !pc.numeric:
			return stepModel{}
		}
		m.changes = append(m.changes, pc)
	}
	m.exact = true
	return m
}

// step is advance, judged from m when m is exact: the same figure
// without running the effect (after is then left as it was).
func (d *Domain[S]) step(c *condition[S], o *option, m *stepModel, s, after *S, failing uint64) float64 {
	if !m.exact {
		return d.advance(c, o, s, after, failing)
	}
	if o.fulfills {
		return 1
	}
	want := o.helps & failing
	if want == 0 {
		return 0
	}
	still := failing
	moved, covered := false, 0.0
	for k := range m.changes {
		pc := &m.changes[k]
		p := pc.part
		var x0, x1 float64
		holds := pc.holds
		if pc.numeric {
			x0 = d.Number(s, p.Field)
			if x1 = pc.num; pc.op == ChangeAdd {
				if x1 = x0 + pc.num; x1 < pc.lo { // lands in the range, as the effect clamps
					x1 = pc.lo
				} else if x1 > pc.hi {
					x1 = pc.hi
				}
				holds = p.holdsFor(x1, "", false)
			}
		}
		if holds {
			still &^= pc.bit
		} else {
			still |= pc.bit
		}
		if want&pc.bit == 0 {
			continue
		}
		if holds {
			moved, covered = true, covered+1
			continue
		}
		if pc.numeric {
			if before, now := p.gap(x0), p.gap(x1); now < before {
				moved, covered = true, covered+(before-now)/before
			}
		}
	}
	if still == 0 {
		return 1
	}
	if !moved {
		return 0
	}
	return 0.5 + 0.5*covered/float64(bits.OnesCount64(failing|still))
}
