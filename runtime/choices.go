package runtime

import (
	"math"
	"math/bits"
	"slices"
)

// The choices of a frame, which both passes of the backward chainer make:
// the options of the frame's conditions that can serve a failing part,
// each with the batch its precondition is established for and the failing
// parts of that precondition; the greedy pass also orders them by what
// they are likely to cost.

// choice is an action a pass may push for a frame: an option of one of
// the frame's conditions, with what orders it.
type choice struct {
	opt *option // in the domain's tables
	// batch: how many times the action must run for the parts it
	// advances, when it consumes fields of its own precondition that it
	// does not advance (then the precondition is established for them
	// all: see Domain.consumes); one run otherwise.
	batch batch
	want  uint64 // the failing parts of the condition it can serve
	cf    uint64 // the failing parts of that condition
	// pre are the failing parts of the action's precondition (for its
	// batch) in the state of the choice: none when it applies.
	pre uint64
}

// rank is what orders a choice in the greedy pass (see order).
type rank struct {
	est  float64 // the guess of its cost
	hard float64 // the cheapest guess among the choices for the hardest part it serves
	// breaks counts the other choices that apply now and would not after
	// this one's step (walking to the market leaves the field where the
	// harvest is).
	breaks int32
	// first: the action declares the goal in fulfills; applies: its
	// precondition holds.
	first, applies bool
	// late: every part it serves is one to serve after another failing
	// part (see Domain.orderParts).
	late bool
	// kept: it applies, and no action undoes what it does for the parts
	// it serves (condition.kept), or none but the frame's own and the
	// frame took its step before (condition.ownKept): taken now, where
	// it applies, it need not be come back for (hoe the beds twice
	// before leaving them for the can; draw water twice at the well for
	// two brews).
	kept bool
	// tour: it serves the part of a goal whose failing parts are served
	// at places of one field (condition.joint) that the cheapest tour of
	// those places visits first (the farm on the way to the mill, though
	// the mill is the harder to reach).
	tour bool
}

// choose returns list (emptied) filled with the choices for the frame of
// act (NoAction: the goal's), established for batch b, in state *s,
// whose condition fails in parts first. An action that must run several
// times has its precondition established for them all (see batchOf).
// depth is the frame's, for the trace.
func (c *chainCall[S]) choose(list []choice, act ActionID, b batch, s *S, failing uint64, depth int) []choice {
	d := c.d
	list = list[:0]
	c.fields.reset(d.Number, s, len(d.Fields))
	if failing == 0 {
		return list
	}
	cond := c.need(act)
	for j := range cond.opts {
		o := &cond.opts[j]
		if o.helps&failing == 0 {
			if c.trace != nil {
				c.event(TraceSkip, NoGoal, o.act, depth, "cannot make a failing part of what it serves hold")
			}
			continue
		}
		pre := &d.pres[o.act]
		pf := pre.failing(*s)
		list = append(list, choice{opt: o, want: o.helps & failing, cf: failing, pre: pf})
		// An action that applies runs with what there is (see
		// batchOf); one that does not may be batched.
		if pf == 0 {
			continue
		}
		ch := &list[len(list)-1]
		switch {
		case pre.consumed != 0 && o.advances&failing != 0:
			ch.batch = c.batchOf(cond, b, o, failing)
		case o.fills&failing != 0:
			ch.batch = c.fillOf(cond, b, o, failing)
		}
		if ch.batch.runs > 1 {
			ch.pre |= c.batchFailing(pre, ch.batch, pf, s)
		}
	}
	if cond.landed&failing != 0 {
		list = c.landing(list, cond, failing, s)
	}
	return list
}

// landable is Domain.landable as c.fields reads the state: the parts of
// cond in failing that some action writes without serving them, whose
// field has a value outside its Range (only the live state has one, and
// any write lands the field in the range, so that such an action may
// serve the part there: option.lands).
func (c *chainCall[S]) landable(cond *condition[S], failing uint64) uint64 {
	var out uint64
	for w := cond.landed & failing; w != 0; w &= w - 1 {
		if i := bits.TrailingZeros64(w); cond.outside(i, &c.fields) {
			out |= 1 << i
		}
	}
	return out
}

// landing adds to the choices of the frame's condition (cond, failing
// in failing in *s) the parts outside their range that an action
// writes without serving them (see landable): to the wants of the
// choices of that action, or as choices of their own, for an action with
// none.
func (c *chainCall[S]) landing(list []choice, cond *condition[S], failing uint64, s *S) []choice {
	out := c.landable(cond, failing)
	if out == 0 {
		return list
	}
	add := func(o *option) {
		want := o.lands & out
		if want == 0 {
			return
		}
		found := false
		for i := range list {
			if list[i].opt.act == o.act {
				found = true
				list[i].want |= want
			}
		}
		if !found {
			list = append(list, choice{opt: o, want: want, cf: failing, pre: c.d.pres[o.act].failing(*s)})
		}
	}
	for j := range cond.opts {
		add(&cond.opts[j])
	}
	for j := range cond.landers {
		add(&cond.landers[j])
	}
	return list
}

// atHand is how many runs of the action of precondition pre the fields
// c.fields reads allow for the parts of batch b (0 when one fails), at
// most b.runs - 1.
func (c *chainCall[S]) atHand(pre *condition[S], b batch) int32 {
	runs := b.runs - 1
	for w := b.parts; w != 0; w &= w - 1 {
		i := bits.TrailingZeros64(w)
		x, ok := c.fields.get(pre.parts[i].Field)
		if !ok || !(pre.use[i] > 0) {
			return 0
		}
		u := consumed(&pre.parts[i], pre.use[i])    // the batch's parts are consumed ones: see Domain.consumes
		runs = int32(min(float64(runs), u.runs(x))) // in float64 first: a far field allows more runs than an int32 holds
	}
	return runs
}

// batchOf returns the batch of option o for the failing parts of cond
// (itself established for batch b): the runs o needs for the parts it
// advances, and the parts of its precondition it consumes on other fields
// than theirs (an action that moves a field toward a goal and away from
// its own precondition, step after step, cannot be run for several steps
// at once), cut to the runs its fields' ranges hold (Domain.batchRoom).
// The caller batches only an action that does not apply: one
// that applies runs with what there is, one run at a time (at the market
// with three sacks, sell them; the rest may come from another action).
// c.fields reads the state.
func (c *chainCall[S]) batchOf(cond *condition[S], b batch, o *option, failing uint64) batch {
	pre := &c.d.pres[o.act]
	parts := pre.consumed
	for w := o.advances & failing; w != 0; w &= w - 1 {
		f := cond.parts[bits.TrailingZeros64(w)].Field
		for u := parts; u != 0; u &= u - 1 {
			if j := bits.TrailingZeros64(u); pre.parts[j].Field == f {
				parts &^= 1 << j
			}
		}
	}
	if parts == 0 {
		return batch{}
	}
	runs := cond.repeats(o.act, o.advances&failing, b, &c.fields)
	if w := o.advances & failing; cond.lost != nil && w&(w-1) == 0 {
		runs = c.netRuns(cond, b, o.act, bits.TrailingZeros64(w), pre, parts, runs)
	} else if runs <= 1 {
		return batch{runs: 1, parts: parts} // the room is at least one run
	}
	runs = min(runs, c.d.batchRoom(pre, parts))
	return batch{runs: int32(min(runs, MaxMaxDepth)), parts: parts}
}

// fillOf returns the batch of option o for the first failing part of
// cond (itself established for batch b) that o fills (see
// Domain.fillStep): its precondition asks for as many units of the field
// a step multiplies as make the part hold in one step, cut to what the
// field's Range holds, so that one step does the work of the runs (sell
// the pearls once the bag holds what the goal needs, not a pearl a trip;
// with the bag full, sell and come back for the rest). c.fields reads
// the state.
func (c *chainCall[S]) fillOf(cond *condition[S], b batch, o *option, failing uint64) batch {
	d := c.d
	i := bits.TrailingZeros64(o.fills & failing)
	p := &cond.parts[i]
	if b.of(i) {
		q := cond.shifted(i, b)
		p = &q
	}
	x, ok := c.fields.get(p.Field)
	if !ok {
		return batch{}
	}
	pre := &d.pres[o.act]
	for _, ch := range d.Actions[o.act].Changes {
		if ch.Field != p.Field || ch.Op != ChangeAddTimes {
			continue
		}
		for w := pre.fill; w != 0; w &= w - 1 {
			j := bits.TrailingZeros64(w)
			if pre.parts[j].Field != ch.By {
				continue
			}
			u := consumed(&pre.parts[j], 1)
			units := p.steps(x, cond.per[int(o.act)*len(cond.parts)+i])
			runs := min(u.runs(units), d.batchRoom(pre, 1<<j), MaxMaxDepth)
			if !(runs > 1) {
				return batch{}
			}
			return batch{runs: int32(runs), parts: 1 << j}
		}
	}
	return batch{}
}

// batchRoom is how many runs of the action of precondition pre a batch on
// its parts in parts may be established for: the runs its conjuncts allow
// from the end of their fields' Range (consumption.runs), where a shifted
// conjunct (see condition.shifted) would ask for more. Seven smelts need
// fourteen ore where the cart holds twelve: a batch of six, and the
// frame comes back for the rest. +Inf where no field bounds them, and at
// least 1.
func (d *Domain[S]) batchRoom(pre *condition[S], parts uint64) float64 {
	room := math.Inf(1)
	for w := parts; w != 0; w &= w - 1 {
		j := bits.TrailingZeros64(w)
		if !(pre.use[j] > 0) {
			continue
		}
		u := consumed(&pre.parts[j], pre.use[j]) // the batch's parts are consumed ones: see Domain.consumes
		rg := d.Fields[u.field].Range
		end := rg.Hi()
		if u.below {
			end = rg.Lo()
		}
		if !math.IsInf(end, 0) {
			room = min(room, max(u.runs(end), 1))
		}
	}
	return room
}

// netRuns is the runs of action a that part i of cond (established for
// batch b) needs, runs by its steps alone, where giving back what a
// uses up of its precondition (the parts of pre in parts) moves the
// part's field away (condition.lost): the runs the fields at hand allow
// bring a whole step each, and each run after them only the step less
// that loss (a bolt of cloth bought for 5 and sold for 9 brings 4: ten
// more gold is three bolts, not two).
func (c *chainCall[S]) netRuns(cond *condition[S], b batch, a ActionID, i int, pre *condition[S], parts uint64, runs float64) float64 {
	n := len(cond.parts)
	lost, step := cond.lost[int(a)*n+i], cond.steps[int(a)*n+i]
	net := math.Abs(step) - lost
	if !(lost > 0) || !(net > 0) || cond.ranged&(1<<i) != 0 {
		return runs
	}
	p := &cond.parts[i]
	if b.of(i) {
		q := cond.shifted(i, b)
		p = &q
	}
	x, ok := c.fields.get(p.Field)
	if !ok {
		return runs
	}
	hand := runs
	for w := parts; w != 0; w &= w - 1 {
		j := bits.TrailingZeros64(w)
		y, ok := c.fields.get(pre.parts[j].Field)
		if !ok {
			return runs
		}
		u := consumed(&pre.parts[j], pre.use[j])
		hand = min(hand, u.runs(y))
	}
	if hand >= runs {
		return runs
	}
	return hand + p.steps(x+hand*step, math.Copysign(net, step))
}

// order sorts list, the choices of the frame of act (established for
// batch b) in the state c.fields reads, in the order the greedy pass
// tries them: those that apply and serve only parts no action undoes
// first (what they do here stays done: hoe twice at the beds before
// leaving for the can), or none but act where the frame took their step
// before (frame; draw twice at the well for two brews), then the hardest
// part first (a part whose
// cheapest choice costs most is served before easier ones, which its
// steps might otherwise undo: walking to town for an axe leaves the
// forest), then by the
// estimate of what the choice costs (Domain.estimate), then those whose
// step leaves the others that apply applicable, then those that declare
// the goal in fulfills, then those that apply, then in declaration order.
// c.fields reads the state (choose set it); frame holds the frame's steps
// so far.
func (c *chainCall[S]) order(list []choice, act ActionID, b batch, frame []ActionID) {
	d := c.d
	ranks := c.ranks[:0]
	var parts uint64 // the parts some choice serves
	cond := c.need(act)
	for i := range list {
		ch := &list[i]
		ranks = append(ranks, rank{est: d.estimate(cond, b, ch, &c.fields),
			first: ch.opt.fulfills, applies: ch.pre == 0, kept: ch.pre == 0 && ch.want != 0 && kept(cond, ch, frame)})
		parts |= ch.want
	}
	for w := parts; w != 0; w &= w - 1 {
		k := bits.TrailingZeros64(w)
		cheapest := math.Inf(1)
		for i := range list {
			if list[i].want&(1<<k) != 0 {
				cheapest = min(cheapest, ranks[i].est)
			}
		}
		for i := range list {
			if list[i].want&(1<<k) != 0 {
				ranks[i].hard = max(ranks[i].hard, cheapest)
			}
		}
	}
	c.lateParts(list, ranks, act)
	if act == NoAction && cond.joint != nil && len(list) > 1 {
		if k := cond.joint.first(c.fields.s, list[0].cf); k >= 0 {
			for i := range list {
				ranks[i].tour = list[i].want&(1<<k) != 0
			}
		}
	}
	c.countBreaks(list, ranks)
	// Insertion sort: the lists are short, and it keeps equals in
	// declaration order. Each choice that moves is lifted out once, the
	// ones it goes before shifted up behind it.
	for i := 1; i < len(list); i++ {
		if !ranks[i].before(&ranks[i-1]) {
			continue
		}
		ch, r := list[i], ranks[i]
		j := i
		for ; j > 0 && r.before(&ranks[j-1]); j-- {
			list[j], ranks[j] = list[j-1], ranks[j-1]
		}
		list[j], ranks[j] = ch, r
	}
	c.ranks = ranks
}

// lateParts marks late the choices of list for the condition of the
// frame of act that serve only parts to serve after another part
// that fails (see Domain.orderParts).
func (c *chainCall[S]) lateParts(list []choice, ranks []rank, act ActionID) {
	cond := c.need(act)
	if cond.after == nil || len(list) < 2 {
		return
	}
	var late uint64
	for i := range list {
		ch := &list[i]
		if late == 0 {
			for w := ch.cf; w != 0; w &= w - 1 {
				if k := bits.TrailingZeros64(w); cond.after[k]&ch.cf != 0 {
					late |= 1 << k
				}
			}
			if late == 0 {
				return
			}
		}
		ranks[i].late = ch.want&^late == 0
	}
}

// countBreaks sets the breaks of the choices of list that apply, when two
// or more do, in the state c.fields reads.
func (c *chainCall[S]) countBreaks(list []choice, ranks []rank) {
	d := c.d
	// Only among the choices that apply and come first by hardness and
	// estimate does it decide anything.
	best, tied := -1, 0
	for i := range list {
		switch {
		case list[i].pre != 0:
		case best < 0 || ranks[i].hard > ranks[best].hard || ranks[i].hard == ranks[best].hard && ranks[i].est < ranks[best].est:
			best, tied = i, 1
		case ranks[i].hard == ranks[best].hard && ranks[i].est == ranks[best].est:
			tied++
		}
	}
	if tied < 2 {
		return
	}
	for i := range list {
		if list[i].pre != 0 || ranks[i].hard != ranks[best].hard || ranks[i].est != ranks[best].est {
			continue
		}
		after := d.Apply(list[i].opt.act, *c.fields.s)
		for j := range list {
			if j != i && list[j].pre == 0 && !d.Applicable(list[j].opt.act, after) {
				ranks[i].breaks++
			}
		}
	}
}

// kept reports whether choice ch, which applies, serves only parts of
// cond that stay done once it serves them (see rank.kept), where frame
// holds the frame's steps so far.
func kept[S comparable](cond *condition[S], ch *choice, frame []ActionID) bool {
	if ch.want&^cond.kept == 0 {
		return true
	}
	return ch.want&^cond.ownKept == 0 && slices.Contains(frame, ch.opt.act)
}

// before is the greedy pass's order of choices (see order).
func (r *rank) before(o *rank) bool {
	switch {
	case r.late != o.late:
		return o.late
	case r.kept != o.kept:
		return r.kept
	case r.tour != o.tour:
		return r.tour
	case r.hard != o.hard:
		return r.hard > o.hard
	case r.est != o.est:
		return r.est < o.est
	case r.breaks != o.breaks:
		return r.breaks < o.breaks
	case r.first != o.first:
		return r.first
	}
	return r.applies && !o.applies
}

// estimate is what choice ch for condition cond (established for batch
// b) costs, as the chainer guesses it to order its choices: the action's
// cost times the steps its advanced parts need, plus, for each failing
// part of its precondition (for its own batch), the cheapest guess among
// the actions that can serve that part: its cost times the steps it
// needs, plus the cost of the cheapest action that can serve each failing
// part of its own precondition, without looking further down. r reads the
// state's fields.
func (d *Domain[S]) estimate(cond *condition[S], b batch, ch *choice, r *fields[S]) float64 {
	o := ch.opt
	est := d.Actions[o.act].Cost * cond.repeats(o.act, o.advances&ch.cf, b, r)
	pre := &d.pres[o.act]
	for pf := ch.pre; pf != 0; pf &= pf - 1 {
		i := bits.TrailingZeros64(pf)
		best := math.Inf(1)
		for j := range pre.opts {
			h := &pre.opts[j]
			if h.helps&(1<<i) == 0 {
				continue
			}
			guess := d.Actions[h.act].Cost * pre.repeats(h.act, h.advances&(1<<i), ch.batch, r)
			hp := &d.pres[h.act]
			for w := hp.failing(*r.s); w != 0 && guess < best; w &= w - 1 {
				guess += hp.cheapest[bits.TrailingZeros64(w)]
			}
			best = min(best, guess)
		}
		est += best
	}
	return est
}

// repeats is how many steps of action a the parts of c that advances marks
// need at least, for batch b of the action c is the precondition of (see
// condition.shifted), by how far each part's field is from what it needs:
// 1 when the fields cannot be read; +Inf when a step moves an equality's
// field away from its constant.
func (c *condition[S]) repeats(a ActionID, advances uint64, b batch, r *fields[S]) float64 {
	reps := 1.0
	n := len(c.parts)
	for advances != 0 {
		i := bits.TrailingZeros64(advances)
		advances &= advances - 1
		p := &c.parts[i]
		if b.of(i) {
			q := c.shifted(i, b)
			p = &q
		}
		x, ok := r.get(p.Field)
		if !ok {
			return 1
		}
		step := c.steps[int(a)*n+i]
		if c.ranged&(1<<i) != 0 && c.outsideAt(i, x) {
			// Outside its range, the first step lands the field in it.
			if x = min(max(x+step, c.bounds[i].rlo), c.bounds[i].rhi); p.holdsFor(x, "", false) {
				continue
			}
			reps = max(reps, 1+p.steps(x, step))
			continue
		}
		reps = max(reps, p.steps(x, step))
	}
	return reps
}
