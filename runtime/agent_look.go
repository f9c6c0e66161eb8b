package runtime

import "math"

// How an agent looks at the live state each tick (sense) and decides
// whether it needs a plan. Most ticks change nothing the decision
// depends on: settle says what would (look, wake), and a tick that
// touches none of it ends after reading the state. Of the others, most
// look again at what they looked at the tick before and find the same
// (quiet); only the rest run decide.

// sense reads the live state at tick and decides whether the agent needs
// a plan (a.need), dropping a plan the live state broke. When nothing the
// agent's checks read changed and nothing is due, there is nothing to
// decide: the decision of the tick before stands, and that is most ticks.
func (a *Agent[S]) sense(sc *agentScratch[S]) {
	a.tick = sc.tick
	sc.counts.ticks++
	sc.held = false
	if a.failing > 0 {
		sc.prev = a.state // for markFlipped
	}
	if r := a.reader; r != nil && a.seen {
		a.changed = r.UpdatePlanState(&a.state)
	} else {
		a.read(sc)
	}
	if a.changed&a.look == 0 && a.tick < a.wake {
		return
	}
	if a.idle && a.holding(sc)[0] == a.looked && len(sc.holds) == 1 {
		return // quiet (the commonest look): still idle
	}
	a.reconsider(sc)
}

// read reads the live state into a.state and sets a.changed to the
// fields in which it differs from the state of the tick before (all of
// them on the first tick), for a role without UpdatePlanState.
func (a *Agent[S]) read(sc *agentScratch[S]) {
	cur := &sc.state // not on the stack: Changed would make it escape
	*cur = a.role.PlanState()
	switch {
	case !a.seen:
		a.changed, a.seen = ^uint64(0), true
	case a.d.Changed != nil:
		a.changed = a.d.Changed(cur, &a.state)
	case *cur == a.state:
		a.changed = 0
	default:
		a.changed = ^uint64(0)
	}
	a.state = *cur
}

// reconsider is sense once something the agent's decision depends on
// changed, or is due.
func (a *Agent[S]) reconsider(sc *agentScratch[S]) {
	holds := a.holding(sc)
	if a.failing > 0 {
		a.markFlipped(sc)
	}
	if a.quiet(holds) {
		return
	}
	need := a.decide(sc)
	if need != a.need {
		if a.need == ReplanNone {
			a.since = a.tick
		}
		a.need, a.unsettled = need, true
	}
	if a.unsettled {
		a.settle(sc)
	}
}

// holding returns the goals that hold in the live state (Domain.Satisfied),
// computed at most once a tick.
func (a *Agent[S]) holding(sc *agentScratch[S]) []uint64 {
	if !sc.held {
		if f := a.d.Satisfied; f != nil {
			f(&a.state, sc.holds)
		} else {
			a.d.satisfied(&a.state, sc.holds)
		}
		sc.held = true
	}
	return sc.holds
}

// quiet reports whether decide would find what it found the last time,
// without running it: the agent idle or waiting, and its goals holding
// or not as they did (nothing made a goal that backs off due); or the
// agent with a plan, and nothing changed that the plan's checks read
// (only what the planning of a goal that backs off depends on). It tells
// only for a domain of at most 64 goals.
func (a *Agent[S]) quiet(holds []uint64) bool {
	if a.unsettled || a.need != ReplanNone || a.tick >= a.wake || len(holds) > 1 {
		return false
	}
	switch {
	case a.goal != NoGoal:
		return a.changed&a.watch == 0 && !a.recheck
	case a.idle || a.waiting:
		return holds[0] == a.looked
	}
	return false
}

// markFlipped marks dirty each goal backing off one of whose conditions
// (Domain.flipped) says something else in the live state than in
// sc.prev, the state of the tick before: since it failed, the first tick
// one does.
func (a *Agent[S]) markFlipped(sc *agentScratch[S]) {
	prev := &sc.prev
	for g := range a.backoff {
		b := &a.backoff[g]
		if b.failures > 0 && !b.dirty && (a.changed&a.t.depends[g] != 0 &&
			a.d.flipped(a.t, GoalID(g), prev, &a.state, a.changed) || b.undone > 0 &&
			a.changed&a.t.goalReads[b.undone-1] != 0 && !a.stillUndoes(sc, GoalID(g), b)) {
			b.dirty, a.unsettled = true, true
		}
	}
}

// stillUndoes reports whether the plan b refused would still undo the goal
// of higher priority it would have undone, from the live state (and only
// while that goal holds: once it does not, its own plan comes first).
func (a *Agent[S]) stillUndoes(sc *agentScratch[S], g GoalID, b *goalBackoff) bool {
	h := GoalID(b.undone - 1)
	if !a.d.Goals[h].Cond(a.state) {
		return true
	}
	undone, _ := undoneBy(sc, a.d, a.t, g, a.state, b.refused, []GoalID{h})
	return undone == h
}

// settle sets what makes the agent look again (look and wake): a field
// its checks read changing, a goal backing off that becomes due, a plan
// older than the interval. Without any, the decision stands, and a tick
// only reads the live state and calls the step's method.
func (a *Agent[S]) settle(sc *agentScratch[S]) {
	a.unsettled = false
	t := a.t
	var look uint64
	wake := uint64(math.MaxUint64)
	switch {
	case a.need != ReplanNone:
		wake = 0
	case a.goal != NoGoal:
		if a.running && a.d.Actions[a.steps[a.step]].Uninterruptible {
			break // nothing is checked before the step ends
		}
		look = a.watch
		if a.recheck {
			wake = 0
		}
		if a.failing > 0 {
			holds := a.holding(sc)
			for _, h := range t.higher[a.goal] {
				// A goal of higher priority that backs off and fails takes
				// over when it is due (ReplanRetry, ReplanWoken); one that
				// holds would have to stop holding first, which look sees.
				if b := &a.backoff[h]; b.failures > 0 && !has(holds, h) {
					wake = min(wake, b.due())
				}
			}
		}
		if a.cfg.interval > 0 {
			wake = min(wake, a.planned+a.cfg.interval)
		}
	case a.idle || a.waiting:
		look = t.anyGoal
		for g := range a.backoff {
			if b := &a.backoff[g]; b.failures > 0 {
				wake = min(wake, b.due())
			}
		}
	default:
		wake = 0 // a plan just ended: the goals need a look
	}
	if a.failing > 0 {
		for g := range a.backoff {
			if b := &a.backoff[g]; b.failures > 0 {
				look |= t.depends[g] // markFlipped needs a look
				if b.undone > 0 {
					look |= t.goalReads[b.undone-1]
				}
			}
		}
	}
	a.look, a.wake = look, wake
}

// decide returns why the agent should plan now, or ReplanNone.
func (a *Agent[S]) decide(sc *agentScratch[S]) Replan {
	if a.goal == NoGoal {
		return a.decideGoal(sc)
	}
	if a.running && a.d.Actions[a.steps[a.step]].Uninterruptible {
		return ReplanNone
	}
	if a.failing > 0 && a.changed&a.t.higherReads[a.goal] != 0 {
		a.unsettled = true // a goal of higher priority that backs off may hold now, or not (settle)
	}
	if a.recheck || a.changed&a.watch != 0 || a.need == ReplanBroken {
		sc.counts.checks++
		switch r := a.validate(sc); r {
		case ReplanInterrupted, ReplanBroken:
			// The plan is kept until a planner call replaces it: its
			// steps still begin where they are taken, and an agent of a
			// crowd whose budget makes it wait goes on with them.
			return r
		case ReplanNone:
		default:
			a.drop(sc.ctx, r, &sc.counts)
			return a.decideGoal(sc)
		}
	}
	if a.need == ReplanInterrupted && a.interrupting(sc) {
		return ReplanInterrupted // still waiting for a planner call
	}
	if a.failing > 0 {
		holds := a.holding(sc)
		for _, h := range a.t.higher[a.goal] {
			if b := &a.backoff[h]; b.failures > 0 && a.eligible(h) && !has(holds, h) {
				return a.retry(h)
			}
		}
	}
	if a.cfg.interval > 0 && a.tick-a.planned >= a.cfg.interval {
		return ReplanInterval
	}
	return ReplanNone
}

// decideGoal is decide without a plan: the first goal by priority that
// does not hold and may be planned says why the agent should plan. It
// marks the agent idle when every goal holds, and waiting when those
// that do not back off.
func (a *Agent[S]) decideGoal(sc *agentScratch[S]) Replan {
	holds := a.holding(sc)
	wasIdle, wasWaiting := a.idle, a.waiting
	a.idle, a.waiting = true, false
	if a.failing > 0 || a.futiles > 0 || !allOf(holds, a.t.allGoals) {
		for _, g := range a.t.order {
			if has(holds, g) {
				if b := &a.backoff[g]; b.failures > 0 || b.futile > 0 {
					if b.failures > 0 {
						a.clearBackoff(g)
					}
					a.clearFutile(g)
				}
				continue
			}
			a.idle = false
			if a.eligible(g) {
				a.unsettled = true
				if a.backoff[g].failures > 0 {
					return a.retry(g)
				}
				return a.ended
			}
		}
	}
	if a.idle {
		a.ended = ReplanNoPlan // the next goal to stop holding
	} else {
		a.waiting = true
	}
	a.looked = holds[0]
	a.unsettled = a.unsettled || a.idle != wasIdle || a.waiting != wasWaiting
	return ReplanNone
}

// clearBackoff ends goal g's backoff: it holds, or was planned (its
// count of failed steps stays: see stepFailed).
func (a *Agent[S]) clearBackoff(g GoalID) {
	b := &a.backoff[g]
	if b.failures > 0 {
		a.failing--
		a.unsettled = true
	}
	*b = goalBackoff{refused: b.refused[:0], futile: b.futile}
}

// retry is why goal g, which backs off and may be planned, is planned
// again: ReplanWoken before its backoff ends, else ReplanRetry.
func (a *Agent[S]) retry(g GoalID) Replan {
	if b := &a.backoff[g]; b.dirty && a.tick < b.retryAt {
		return ReplanWoken
	}
	return ReplanRetry
}

// eligible reports whether goal g, which does not hold, may be planned
// now: it has not failed, or its backoff is over, or a field its
// planning depends on changed since it failed.
func (a *Agent[S]) eligible(g GoalID) bool {
	b := &a.backoff[g]
	return b.failures == 0 || b.dirty || a.tick >= b.retryAt
}

// interrupting reports whether a goal of higher priority than the plan's
// does not hold and may be planned.
func (a *Agent[S]) interrupting(sc *agentScratch[S]) bool {
	holds := a.holding(sc)
	if len(holds) == 1 && a.t.higherGoals[a.goal]&^holds[0] == 0 {
		return false // every one holds
	}
	for _, h := range a.t.higher[a.goal] {
		if !has(holds, h) && a.eligible(h) {
			return true
		}
	}
	return false
}

// validate checks the plan against the live state: ReplanDone when its
// goal holds already, ReplanStale when the next step (not begun) cannot
// begin, ReplanBroken when the rest of the plan, replayed from the live
// state (from the running step's post, for a running step), does not
// reach the goal, ReplanInterrupted when a goal of higher priority that
// may be planned does not hold; ReplanNone when the plan stands.
//
// A plan found standing stands while nothing its goal and remaining
// steps read (planWatch) changes: then only the goals of higher priority
// need a look.
func (a *Agent[S]) validate(sc *agentScratch[S]) Replan {
	if a.recheck || !a.replayed || a.changed&a.planWatch != 0 {
		a.recheck, a.unsettled = false, a.unsettled || a.recheck
		if r := a.replay(sc); r != ReplanNone {
			return r
		}
		a.replayed = true
	}
	if a.interrupting(sc) {
		return ReplanInterrupted
	}
	return ReplanNone
}

// replay is validate's check of the plan itself: its goal, and its
// remaining steps replayed from the live state.
func (a *Agent[S]) replay(sc *agentScratch[S]) Replan {
	if has(a.holding(sc), a.goal) {
		return ReplanDone
	}
	d, s := a.d, &sc.state // not on the stack: Replay would make it escape
	*s = a.state
	rest := a.steps[a.step:]
	if a.running {
		if eff := d.Actions[rest[0]].Effect; eff != nil {
			*s = eff(*s)
		}
		rest = rest[1:]
	}
	if n := d.replay(s, rest); n < len(rest) {
		if n == 0 && !a.running {
			return ReplanStale
		}
		return ReplanBroken
	}
	if !a.partial && !d.Goals[a.goal].Cond(*s) {
		return ReplanBroken
	}
	return ReplanNone
}
