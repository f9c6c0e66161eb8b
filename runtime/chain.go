package runtime

import (
	"context"
	"math/bits"
	"time"
)

// What the backward chainer's two passes share while it plans one goal
// (the terms are defined in the package doc, "The backward chainer"): the
// work of the call, the plan so far, the goal and the goals it protects,
// and the conditions a frame serves.

// work counts the expansions of a call against its budget and polls its
// context and, with a time budget, the clock: the one place where a pass
// learns that it must stop.
type work struct {
	ctx        context.Context
	err        error // the context's error, once seen
	expansions int
	generated  int
	budget     int
	// deadline is when the call's time budget ends, on clock (0: it has
	// none); late, that it has ended: every expansion after is refused.
	// poll is one less than how often, in expansions, check runs (0 once
	// late).
	deadline time.Duration
	late     bool
	poll     int
}

func (w *work) reset(ctx context.Context, budget int) {
	*w = work{ctx: ctx, budget: budget, poll: workPoll}
}

// startClock gives the call a time budget of d from now.
func (w *work) startClock(d time.Duration) {
	w.deadline, w.poll = deadlineIn(d), pollTimed
}

// workPoll is one less than how often a call without a time budget
// looks at its context, in expansions.
const workPoll = 63

// expand counts an expansion and reports whether the call may make it:
// false when the budget or the time is spent or the context is done
// (then w.err is set).
func (w *work) expand() bool {
	w.expansions++
	if w.expansions > w.budget || w.expansions&w.poll == 0 {
		return w.check()
	}
	return true
}

// check is expand's test of the budget, the context and the clock, out
// of line.
func (w *work) check() bool {
	if w.expansions > w.budget || w.late {
		return false
	}
	if err := w.ctx.Err(); err != nil {
		w.err = err
		return false
	}
	if overdue(w.deadline) {
		w.spent()
		return false
	}
	return true
}

// spent records that the call's time budget has ended.
func (w *work) spent() { w.late, w.poll = true, 0 }

// stop is the result of a pass that expand told to stop.
func (w *work) stop() result {
	switch {
	case w.err != nil:
		return result{kind: stopped, action: NoAction, undoes: NoGoal}
	case w.late:
		return result{kind: stopped, reason: TimeBudgetExceeded, action: NoAction, undoes: NoGoal}
	}
	return result{kind: stopped, reason: SearchBudgetExceeded, action: NoAction, undoes: NoGoal}
}

// result is how a pass, or a search below a frame, ended: found (a plan
// for the goal), stopped (budget, context or an invalid cost), gave up (the
// greedy pass's share of the budget), or failed, with why.
type result struct {
	kind resultKind
	// cut: a branch below was cut for the step limit, so a larger one
	// might succeed.
	cut bool
	// frame is the frame that failed: the greedy pass goes back to the
	// choice that pushed it.
	frame  int16
	depth  int16
	reason Reason
	// relaxed: for Unreachable, the relaxed reachability proved it (see
	// reach.go).
	relaxed bool
	action  ActionID
	undoes  GoalID // for Unreachable: the goal of higher priority the action would undo
}

type resultKind uint8

const (
	failed resultKind = iota
	found
	stopped
	gaveUp
)

func (r result) is(k resultKind) bool { return r.kind == k }

// fail is the failure of frame f.
func fail(f int, reason Reason, a ActionID, depth int) result {
	return result{kind: failed, frame: int16(f), reason: reason, action: a, depth: int16(depth), undoes: NoGoal}
}

// chainCall is the state of one call of the chainer that both passes
// read and write.
type chainCall[S comparable] struct {
	d     *Domain[S]
	cfg   *backwardConfig
	work  work
	trace *Trace
	// steps is the plan of the call so far; a pass appends the goal's
	// steps, and end is the state they reach.
	steps []ActionID
	end   S
	goal  GoalID
	// protected are the goals of higher priority that held when the
	// goal's steps started: they must hold after them.
	protected []GoalID
	costErr   *PlanningError // an invalid cost met by the forward search
	fields    fields[S]      // reads the fields of a state, for estimates and batches
	ranks     []rank         // scratch of chainCall.order
	sets      []*Change      // scratch of chainCall.detour
	probe     S              // scratch: a state whose address goes to the domain
}

// presizedDepth is the depth of chaining whose scratch a chainer
// allocates when it is made; deeper frames allocate theirs when first
// reached.
const presizedDepth = 16

// listRoom is the room a choice list is made with: one choice per action,
// and as many batched, up to 64.
func (c *chainCall[S]) listRoom() int { return min(2*len(c.d.Actions), 64) }

// presize makes the call's scratch as large as most plans need: its
// steps, the ranks of a choice list and the changes a detour looks at.
func (c *chainCall[S]) presize() {
	c.steps = make([]ActionID, 0, min(c.cfg.maxSteps, 64))
	c.ranks = make([]rank, 0, c.listRoom())
	c.sets = make([]*Change, 0, 16)
}

// need returns the condition of the frame of action a: its
// precondition, or, for the goal's frame (a is NoAction), the goal.
func (c *chainCall[S]) need(a ActionID) *condition[S] {
	if a != NoAction {
		return &c.d.pres[a]
	}
	return &c.d.goals[c.goal]
}

// goalBound is the goal's lower bound from st (Domain.LowerBound), raised
// by what rounding may add to a plan's cost: a plan that costs no more is
// a cheapest plan, and no search finds a cheaper one.
func (c *chainCall[S]) goalBound(st S) float64 {
	c.probe = st // a field: the address of st would make every call allocate it
	return c.d.goals[c.goal].bound(&c.probe, c.d.Number) * (1 + 1e-9)
}

// stepsBound is a lower bound on the steps the goal needs from s (see
// condition.stepsBound).
func (c *chainCall[S]) stepsBound(s S) float64 {
	goal := &c.d.goals[c.goal]
	failing := goal.failing(s)
	if failing == 0 {
		return 0
	}
	c.probe = s
	c.fields.reset(c.d.Number, &c.probe, len(c.d.Fields))
	return goal.stepsBound(failing, &c.fields)
}

// undone returns the first protected goal that does not hold in s, or
// NoGoal.
func (c *chainCall[S]) undone(s S) GoalID { return c.d.FirstUnsatisfied(c.protected, s) }

// failing returns the parts of cond that fail in *s for batch b of the
// action whose precondition it is: a consumed part must leave enough for
// the batch's runs (Wheat >= 1 for three sales of a sack is Wheat >= 3).
func (c *chainCall[S]) failing(cond *condition[S], b batch, s *S) uint64 {
	f := cond.failing(*s)
	if b.runs <= 1 {
		return f
	}
	return f | c.batchFailing(cond, b, f, s)
}

// batchFailing returns the consumed parts of cond that hold in *s (they
// are not in f) but not for the runs of batch b.
func (c *chainCall[S]) batchFailing(cond *condition[S], b batch, f uint64, s *S) uint64 {
	var more uint64
	for w := b.parts &^ f; w != 0; w &= w - 1 {
		i := bits.TrailingZeros64(w)
		p := &cond.parts[i]
		if !compare(p.Cmp, c.d.Number(s, p.Field), cond.shiftedNum(i, b)) {
			more |= 1 << i
		}
	}
	return more
}

// progress reports whether the steps from state from to state after
// brought the parts of cond that want marks closer to holding, for batch
// b (see failing): one holds now, or its field (or its Sum) moved
// closer to what the part needs (by Domain.Number); for a part of no
// known form, or without Number, any change of situation counts (a
// change of inert fields alone does not: see Domain.Key).
//
// It also returns the parts of cond that fail in *after.
func (c *chainCall[S]) progress(cond *condition[S], b batch, want uint64, from, after *S) (bool, uint64) {
	d := c.d
	failing := c.failing(cond, b, after)
	if want&^failing != 0 {
		return true, failing
	}
	// The parts of want failed in *from and still fail.
	for want != 0 {
		i := bits.TrailingZeros64(want)
		want &= want - 1
		p := &cond.parts[i]
		switch {
		case p.Sum != nil && d.Number != nil:
			sm := p.Sum
			if nearer(sm.Cmp, sm.Num, sumValue(sm, from, d.Number), sumValue(sm, after, d.Number)) {
				return true, failing
			}
		case p.Cmp == CmpNone || d.Number == nil:
			if d.key(from) != d.key(after) {
				return true, failing
			}
		case d.Fields[p.Field].Kind == KindString:
			// Holds or not: no nearer.
		case nearer(p.Cmp, p.Num, d.Number(from, p.Field), d.Number(after, p.Field)):
			return true, failing
		}
	}
	return false, failing
}

// detour reports whether steps, from state start, set a field to a
// constant that an earlier step set it to, or back to its value in start
// after an earlier step set it (a walk back to a place the plan left): a
// sign that the greedy pass's order of choices went back and forth, and
// that another order may be cheaper. A plan without one (a chain of
// crafts, each making what the next needs) is taken as it is.
func (c *chainCall[S]) detour(start *S, steps []ActionID) bool {
	d := c.d
	if !d.setsConstants {
		return false
	}
	seen := c.sets[:0]
	defer func() { c.sets = seen[:0] }()
	for _, a := range steps {
		for i := range d.Actions[a].Changes {
			ch := &d.Actions[a].Changes[i]
			if ch.Op != ChangeSet {
				continue
			}
			for _, o := range seen {
				if o.Field == ch.Field && (o.Num == ch.Num && o.Str == ch.Str || c.isStart(start, ch)) {
					return true
				}
			}
			seen = append(seen, ch)
		}
	}
	return false
}

// isStart reports whether change ch sets its field to the field's value
// in *start.
func (c *chainCall[S]) isStart(start *S, ch *Change) bool {
	d := c.d
	if d.Fields[ch.Field].Kind == KindString {
		return d.Text != nil && d.Text(start, ch.Field) == ch.Str
	}
	return d.Number != nil && d.Number(start, ch.Field) == ch.Num
}

// event records a trace event when tracing (small enough to inline, so
// that an untraced chainer pays a test an event).
func (c *chainCall[S]) event(kind TraceKind, g GoalID, a ActionID, depth int, detail string) {
	if c.trace != nil {
		c.record(kind, g, a, depth, detail)
	}
}

// record adds a trace event. It is kept out of line: inlined at every
// event, the growth of the trace's slice would make the passes' stack
// frames several times larger.
//
//go:noinline
func (c *chainCall[S]) record(kind TraceKind, g GoalID, a ActionID, depth int, detail string) {
	e := TraceEvent{Kind: kind, Depth: depth, Step: len(c.steps), Detail: detail}
	if g != NoGoal {
		e.Goal = c.d.Goals[g].Name
	}
	if a != NoAction {
		e.Action = c.d.Actions[a].Name
	}
	c.trace.add(e)
}
