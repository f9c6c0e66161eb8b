package runtime

import (
	"context"
	"errors"
	"math/bits"
	"slices"
)

// What an agent does once it has looked (agent_look.go): plan if it needs
// to and may, then call the current step's method.

// act plans when the agent needs to and may (grant planner calls, or
// any number when grant < 0; none once the tick's planning time is
// spent: sc.late), then calls the current step's method.
func (a *Agent[S]) act(sc *agentScratch[S], grant int) {
	if a.need == ReplanNone && a.goal == NoGoal {
		a.countIdle(&sc.counts)
		return
	}
	a.planAndPerform(sc, grant)
}

// countIdle counts a tick of an agent without a plan.
func (a *Agent[S]) countIdle(c *agentCounts) {
	if a.idle {
		c.idle++
	} else {
		c.waiting++
	}
}

// planAndPerform is act for an agent that has a plan or needs one.
func (a *Agent[S]) planAndPerform(sc *agentScratch[S], grant int) {
	c := &sc.counts
	sc.held = false
	if a.need != ReplanNone && grant != 0 {
		a.replan(sc, grant)
	}
	if a.goal != NoGoal {
		c.acting++
		a.perform(sc)
	} else {
		a.countIdle(c)
	}
	if a.unsettled {
		a.settle(sc)
	}
}

// replan tries the goals the reason concerns, highest priority first,
// until one is planned or the grant is spent.
//
// A goal proven out of reach from the live state fails without a planner
// call: by Domain.blocked (quick) before any call, and, for a goal that
// failed before, by the relaxed reachability of the annotations (which
// costs about what a planner call that succeeds does).
func (a *Agent[S]) replan(sc *agentScratch[S], grant int) {
	c, buf, ctx, p := &sc.counts, &sc.plan, sc.ctx, sc.planner
	// A look around cut short asks for its calls once (see takeAnother);
	// whatever this tick's planning does, the next asks for one again.
	lookedAround := a.lookAround
	a.lookAround = false
	goals := a.t.order
	if a.goal != NoGoal && (a.need == ReplanInterrupted || a.need == ReplanRetry || a.need == ReplanWoken) {
		goals = a.t.higher[a.goal]
	}
	// A broken plan waits for the call that replaces it; one that finds
	// nothing drops it.
	broken := a.goal != NoGoal && a.need == ReplanBroken
	calls := 0
	for _, g := range goals {
		if a.goal != NoGoal && g == a.goal && a.need != ReplanInterval && !broken {
			break
		}
		if has(a.holding(sc), g) || !a.eligible(g) {
			continue
		}
		if a.d.blocked(a.t, g, &a.state) {
			// Proven out of reach: no planner call.
			c.proven++
			a.failed(g, a.t.unreachable[g], c)
			continue
		}
		if a.backoff[g].failures > 0 {
			if sc.late() {
				return // the proof costs about a call: it waits, as the call would
			}
			if a.d.unreachable(g, &a.state, &sc.reach) {
				c.proven++
				a.failed(g, relaxedError(a.t.relaxed, g, &sc.reach), c)
				continue
			}
		}
		if grant >= 0 && calls >= grant || sc.late() {
			return // the rest waits for the next tick
		}
		calls++
		sc.beginCall()
		err := p.PlanGoalInto(ctx, a.state, g, buf)
		if err != nil && sc.cutShort(err) {
			c.cut++
			return // the frame's planning time ran out: the rest waits for the next tick
		}
		if err == nil && len(buf.Steps) > 0 {
			h, step := a.undoes(sc, g, buf.Steps)
			if h == NoGoal {
				a.adopt(ctx, g, buf, c)
				a.need = ReplanNone
				return
			}
			// A plan that would undo a goal of higher priority on its way
			// would be interrupted by its own step: refused, unless a
			// planner that can keep goals finds a way around (see
			// takeAnother).
			refusal := sc.undoError(a.d, g, buf.Steps[step], h)
			sc.refused = append(sc.refused[:0], buf.Steps...)
			if sc.keeper != nil {
				adopted, cut := a.takeAnother(sc, g, h, step, grant, &calls)
				if adopted {
					a.need = ReplanNone
					return
				}
				if cut && !lookedAround {
					// The grant or the deadline ran out on the way round:
					// the goal waits for the next tick, with the calls
					// it takes, instead of backing off (once).
					a.lookAround = true
					return
				}
			}
			if ctx.Err() != nil {
				return
			}
			c.failures++
			a.failed(g, refusal, c)
			b := &a.backoff[g]
			b.undone, b.refused = int32(h)+1, append(b.refused[:0], sc.refused...)
			continue
		}
		if ctx.Err() != nil {
			return
		}
		if err == nil {
			err = errNoSteps
		}
		c.failures++
		a.failed(g, err, c)
	}
	if broken {
		a.drop(ctx, ReplanBroken, c)
	}
	a.need = ReplanNone
}

// takeAnother looks, with a planner that can keep goals (sc.keeper), for
// a way to goal g where the planner's plan (sc.refused) would undo goal
// h of higher priority at its step step, before it moves anything g
// reads. It adopts, and reports true:
//
//   - a plan on whose way the goals above g that hold keep holding (fill
//     the tank before the deliveries, where the cheapest plan drives off
//     with too little fuel);
//   - else the refused plan itself, when the interruption it leads to
//     gets somewhere: from where it undoes h, h can be planned again, and
//     from there g can be planned keeping the goals above it (on the last
//     of the fuel, drive off, fill up at the station, deliver). Where h
//     holds again only as it held before (back to the depot, out of the
//     storm), g has no such plan there either, and the plan stays
//     refused.
//
// Each call counts against the tick's grant and planning time; cut
// reports that one of them ran out first, or that the time cut a call
// short (it takes lookAroundCalls - 1 calls at most, after the call that
// made the refused plan).
func (a *Agent[S]) takeAnother(sc *agentScratch[S], g, h GoalID, step, grant int, calls *int) (adopted, cut bool) {
	ctx, c, buf, kp := sc.ctx, &sc.counts, &sc.plan, sc.keeper
	call := func() bool {
		if grant >= 0 && *calls >= grant || sc.late() {
			cut = true
			return false
		}
		*calls++
		sc.beginCall()
		return true
	}
	if !call() {
		return false, cut
	}
	// failed reports whether a call that returned err found no plan, and
	// sets cut when the frame's deadline cut it short.
	failed := func(err error) bool {
		if err != nil && sc.cutShort(err) {
			c.cut++
			cut = true
		}
		return err != nil
	}
	if !failed(kp.PlanGoalKeepingInto(ctx, a.state, g, a.holdingAbove(sc, g, &a.state), buf)) && len(buf.Steps) > 0 {
		a.adopt(ctx, g, buf, c)
		return true, false
	}
	if cut {
		return false, cut
	}
	at := &sc.walk
	*at = a.state
	if a.d.replay(at, sc.refused[:step+1]) != step+1 || !call() ||
		failed(kp.PlanGoalInto(ctx, *at, h, buf)) || a.d.replay(at, buf.Steps) != len(buf.Steps) || !call() ||
		failed(kp.PlanGoalKeepingInto(ctx, *at, g, a.holdingAbove(sc, g, at), buf)) {
		return false, cut
	}
	buf.Reset()
	buf.Steps = append(buf.Steps, sc.refused...)
	buf.Goals = append(buf.Goals, g)
	a.adopt(ctx, g, buf, c)
	return true, false
}

// lookAroundCalls is what an agent that looks for a way around a refused
// plan may call its planner for in a tick: the plan, then the plan that
// keeps the goals above, the plan that restores the undone goal, and the
// plan that keeps them from there.
const lookAroundCalls = 4

// wants is how many planner calls the agent asks its crowd for.
func (a *Agent[S]) wants() int {
	if a.lookAround {
		return lookAroundCalls
	}
	return 1
}

// holdingAbove returns the goals of higher priority than g that hold in
// *s, in sc's storage.
func (a *Agent[S]) holdingAbove(sc *agentScratch[S], g GoalID, s *S) []GoalID {
	sc.keep = sc.keep[:0]
	for _, h := range a.t.higher[g] {
		if a.d.Goals[h].Cond(*s) {
			sc.keep = append(sc.keep, h)
		}
	}
	return sc.keep
}

// undoes returns the first goal of higher priority than g that holds in
// the live state and stops holding on the way of steps, and the index of
// the step after which it does; NoGoal when none does.
func (a *Agent[S]) undoes(sc *agentScratch[S], g GoalID, steps []ActionID) (GoalID, int) {
	holds, d, t := a.holding(sc), a.d, a.t
	var writes uint64
	for _, act := range steps {
		writes |= t.writes[act]
	}
	if writes&t.higherReads[g] == 0 {
		return NoGoal, 0 // no step writes what they read
	}
	var room [8]GoalID
	held := room[:0]
	for _, h := range t.higher[g] {
		if has(holds, h) && writes&t.goalReads[h] != 0 {
			held = append(held, h)
		}
	}
	if len(held) == 0 {
		return NoGoal, 0
	}
	return undoneBy(sc, d, t, g, a.state, steps, held)
}

// undoneBy returns the first goal of held that stops holding on the way
// of steps from s before they get anywhere (before a step changes a field
// that goal g reads), and the index of the step after which it does;
// NoGoal when none does, or a step's precondition fails first. A plan
// that undoes such a goal only after it has moved toward g is let be: the
// agent is interrupted then, restores that goal, and comes back to g
// with what the plan did (work earns gold, then hunger calls); one that
// undoes it first would be interrupted for nothing, again and again.
func undoneBy[S comparable](sc *agentScratch[S], d *Domain[S], t *agentTables, g GoalID, from S, steps []ActionID, held []GoalID) (GoalID, int) {
	s, before := &sc.walk, &sc.before // not locals: Changed would make every call allocate them
	*s = from
	for i, id := range steps {
		act := &d.Actions[id]
		if act.Pre != nil && !act.Pre(*s) {
			return NoGoal, 0
		}
		*before = *s
		if act.Effect != nil {
			*s = act.Effect(*s)
		}
		for _, h := range held {
			if !d.Goals[h].Cond(*s) {
				if moved(d, before, s, t.goalReads[g]) {
					return NoGoal, 0
				}
				return h, i
			}
		}
		if moved(d, before, s, t.goalReads[g]) {
			return NoGoal, 0
		}
	}
	return NoGoal, 0
}

// moved reports whether a field of reads differs between *a and *b (any
// field, for a domain without Changed).
func moved[S comparable](d *Domain[S], a, b *S, reads uint64) bool {
	if d.Changed == nil {
		return *a != *b
	}
	return d.Changed(a, b)&reads != 0
}

// undoError returns the error of a plan for goal g whose step act would
// undo goal h of higher priority: one returned before, when it is the same.
func (sc *agentScratch[S]) undoError(d *Domain[S], g GoalID, act ActionID, h GoalID) *PlanningError {
	name := d.GoalName(h)
	for _, e := range sc.undoErrs {
		if e.Goal == g && e.Action == act && e.Undoes == name {
			return e
		}
	}
	e := d.newError(Unreachable, g, act)
	e.Undoes = name
	sc.undoErrs = append(sc.undoErrs, e)
	return e
}

// errNoSteps is a planner's empty plan for a goal that does not hold.
var errNoSteps = errors.New("the planner returned no step for a goal that does not hold")

// failed backs goal g off after a failed planner call.
func (a *Agent[S]) failed(g GoalID, err error, c *agentCounts) {
	b := &a.backoff[g]
	if b.failures == 0 {
		a.failing++
	}
	wait := a.backoffWait(b.failures)
	b.failures++
	b.dirty, b.undone, b.refused = false, 0, b.refused[:0]
	b.retryAt = a.tick + wait
	a.err, b.err = err, err
	a.unsettled = true
	if f := a.cfg.observe; f != nil {
		v := a.view(EventPlanFailed)
		v.Goal, v.RetryAt = g, b.retryAt
		f(v)
	}
}

// adopt makes p, a plan for goal g, the agent's plan. A running step the
// plan begins with goes on; another is interrupted. A plan that does not
// promise g (a step toward it) is not expected to reach it.
func (a *Agent[S]) adopt(ctx context.Context, g GoalID, p *Plan, c *agentCounts) {
	steps := p.Steps
	keep := a.running && a.steps[a.step] == steps[0]
	if a.running && !keep {
		a.interrupt(ctx, c)
	}
	a.steps = append(a.steps[:0], steps...)
	a.goal, a.step, a.planned, a.reason = g, 0, a.tick, a.need
	a.partial = !slices.Contains(p.Goals, g)
	a.clearBackoff(g)
	a.idle, a.waiting, a.replayed, a.unsettled = false, false, false, true
	a.rewatch()
	c.plans[a.reason]++
	a.observe(EventPlanned)
}

// rewatch sets the fields the plan's checks read: those of its goal and
// its remaining steps (planWatch), and of the goals of higher priority;
// while a step runs, the rest is replayed from its post, so the fields it
// sets to constants do not count but the fields its effect reads do.
func (a *Agent[S]) rewatch() {
	t := a.t
	w := t.goalReads[a.goal]
	rest := a.steps[a.step:]
	if !a.running {
		for _, act := range rest {
			w |= t.actionReads[act]
		}
	} else {
		cur := rest[0]
		w |= t.effectReads[cur]
		for _, act := range rest[1:] {
			w |= t.actionReads[act] &^ t.setFields[cur]
		}
	}
	a.planWatch, a.watch = w, w|t.higherReads[a.goal]
}

// perform calls the current step's method once. A step that says it is
// done while the live state does not show its post failed
// (PostMissedError).
func (a *Agent[S]) perform(sc *agentScratch[S]) {
	ctx, c, act := sc.ctx, &sc.counts, a.steps[a.step]
	if !a.running {
		a.running, a.ticks, a.replayed, a.unsettled = true, 0, false, true
		a.rewatch()
	}
	st, err := a.role.PerformStep(ctx, act, Step{Ticks: a.ticks, Tick: a.tick})
	a.ticks++
	if err != nil {
		st = Failed
	}
	if st == Done && a.postMissed(sc, act) {
		st, err = Failed, a.t.postErrs[act]
	}
	a.status = st
	switch st {
	case Running:
		c.running++
		return
	case Done:
		c.done++
		a.running, a.unsettled = false, true
		a.observe(EventStepDone)
		a.step++
		a.recheck = true
		if a.step == len(a.steps) {
			a.drop(ctx, ReplanDone, c)
			return
		}
		a.rewatch()
	default:
		c.failed++
		a.err = err
		a.running, a.unsettled = false, true
		g := a.goal
		retryAt := a.stepFailed(g)
		if f := a.cfg.observe; f != nil {
			v := a.view(EventStepFailed)
			v.RetryAt = retryAt
			f(v)
		}
		a.drop(ctx, ReplanStepFailed, c)
	}
}

// postMissed reports whether the live state, read as act's step says it
// is done, differs from act's post applied to the state read at the
// start of the tick, on the fields t.post[act] (for a role without
// UpdatePlanState and Domain.Changed, it cannot tell, and reports false).
// A saturating field matches when its live value, clamped into its
// range, is the post's: the post clamps what the method need not (it
// added 5 to an energy of 8 with a maximum of 10).
func (a *Agent[S]) postMissed(sc *agentScratch[S], act ActionID) bool {
	m, eff := a.t.post[act], a.d.Actions[act].Effect
	if m == 0 || eff == nil {
		return false
	}
	live := &sc.walk // not on the stack: the reader would make it escape
	*live = eff(a.state)
	var missed uint64
	if r := a.reader; r != nil {
		missed = r.UpdatePlanState(live) & m // the live state over the post's: where it differs
	} else if a.d.Changed != nil {
		want := &sc.before
		*want = *live
		*live = a.role.PlanState()
		missed = a.d.Changed(want, live) & m
	}
	if missed&a.t.saturating != 0 {
		missed = a.clampedMatch(sc, eff, live, missed)
	}
	return missed != 0
}

// clampedMatch returns the fields of missed, in which the live state
// differs from what the post eff makes of a.state, less the saturating
// ones whose live value, clamped into the field's range, is the post's
// (all of them, without Domain.Number to read them).
func (a *Agent[S]) clampedMatch(sc *agentScratch[S], eff func(S) S, live *S, missed uint64) uint64 {
	num := a.d.Number
	if num == nil {
		return missed &^ a.t.saturating
	}
	want := &sc.before
	*want = eff(a.state)
	for w := missed & a.t.saturating; w != 0; w &= w - 1 {
		f := FieldID(bits.TrailingZeros64(w))
		if a.d.Fields[f].Range.clamp(num(live, f)) == num(want, f) {
			missed &^= 1 << f
		}
	}
	return missed
}

// stepFailed counts a failed step of a plan for goal g and returns the
// tick from which g may be planned again (0: at once). The first since g
// last held or a plan for it ran to its end is planned again at once
// (another way may go round what failed); from the second on, g backs
// off as a goal that could not be planned does, for 1, 2, 4, … ticks, or
// until a condition its planning depends on changes: a step that always
// fails, or a method that never does what its post says, is not tried
// every tick, and the agent serves its other goals meanwhile.
func (a *Agent[S]) stepFailed(g GoalID) uint64 {
	b := &a.backoff[g]
	if b.futile == 0 {
		a.futiles++
	}
	b.futile++
	if b.futile < 2 {
		return 0
	}
	if b.failures == 0 {
		a.failing++
		b.failures = 1
	}
	b.dirty, b.undone, b.refused = false, 0, b.refused[:0]
	b.retryAt = a.tick + a.backoffWait(b.futile-2)
	b.err = a.err
	return b.retryAt
}

// backoffWait is how long a goal waits after n failures before this one:
// 2^n ticks, at most WithMaxBackoff.
func (a *Agent[S]) backoffWait(n uint32) uint64 {
	if n < 63 && uint64(1)<<n < a.cfg.maxBackoff {
		return 1 << n
	}
	return a.cfg.maxBackoff
}

// clearFutile forgets goal g's failed steps: it held, or a plan for it
// ran to its end.
func (a *Agent[S]) clearFutile(g GoalID) {
	if b := &a.backoff[g]; b.futile > 0 {
		b.futile = 0
		a.futiles--
	}
}

// drop abandons the plan for reason r, telling a running step.
func (a *Agent[S]) drop(ctx context.Context, r Replan, c *agentCounts) {
	if a.running {
		a.interrupt(ctx, c)
	}
	if r == ReplanDone && a.goal != NoGoal {
		a.clearFutile(a.goal) // the plan ran to its end, or its goal holds
	}
	a.reason, a.ended = r, r
	a.observe(EventDropped)
	c.dropped[r]++
	a.goal, a.steps, a.step = NoGoal, a.steps[:0], 0
	a.idle, a.waiting, a.unsettled = false, false, true
}

// interrupt calls the running step's method a last time, with
// Step.Interrupted.
func (a *Agent[S]) interrupt(ctx context.Context, c *agentCounts) {
	act := a.steps[a.step]
	_, _ = a.role.PerformStep(ctx, act, Step{Ticks: a.ticks, Tick: a.tick, Interrupted: true})
	a.running = false
	c.interrupted++
	a.observe(EventInterrupted)
}
