package runtime

import (
	"cmp"
	"math"
	"slices"
	"strconv"
)

// lead is a step the chainer may take first, before the greedy pass
// plans the goal from where it leads (see leads): its action taken runs
// times, and the guess of what a plan that begins with them costs.
type lead struct {
	act   ActionID
	runs  int
	guess float64
	// cut: its greedy pass ran out of expansions, not of choices.
	cut bool
}

const (
	// leadRuns is how many times a lead may take its action (resting
	// twice before rowing out).
	leadRuns = 3
	// leadPass is how many expansions the greedy pass after a lead may
	// take: after the right lead, it mostly finds its plan in a few,
	// and a wrong lead should cost little.
	leadPass = 16
	// longLeadPass is how many expansions the rescue gives, in a second
	// round, to a lead whose pass ran out of them in the first: where
	// no plan is known yet, the plan a lead makes possible may be long
	// (a ranger in town with nothing to sell walks to the forest first,
	// then hunts, chops, fletches and sleeps before he sells: 21 steps),
	// while the leads whose pass failed of itself are not run again.
	longLeadPass = 64
	// longLeads is how many leads the second round runs at most, in the
	// order of their guesses.
	longLeads = 2
	// rescueLeads is how many expansions the rescue's leads may take in
	// all (see rescue).
	rescueLeads = 256
)

// leads looks for a plan cheaper than best (the call's plan so far,
// b.best, reaching end; +Inf and none in the rescue) that begins with a
// lead: an action that applies where the goal's steps begin, taken up to
// leadRuns times, and then the greedy pass from the state it leads to.
// Goal regression chains a step where the part it serves fails, never
// earlier for what a later step will need: a fisher on the shore with 8
// vigor rows out, casts, and cannot row back (3), where resting first
// would have done: resting, the greedy pass's plan costs 11 where the
// one without a lead bought a pie for 23. Leads are tried cheapest guess
// first (their cost and the goal's lower bound after them); one that
// cannot beat the best plan, or that undoes a protected goal, is not.
// Each pass may take leadPass expansions; in the rescue (long), when
// none found a plan, a second round gives longLeadPass to the first
// longLeads leads whose pass ran out of them. All of them are what is
// left of the call's budget. It keeps the cheapest plan in b.best and
// returns its cost and end state.
func (b *BackwardChainer[S]) leads(st S, rem, mark int, best float64, end S, long bool) (float64, S) {
	c, d := &b.call, b.d
	if rem < 2 {
		return best, end
	}
	goal := &d.goals[c.goal]
	tries, share := b.leadList[:0], c.work.budget
	for i := range d.Actions {
		a, act := ActionID(i), &d.Actions[i]
		if act.Effect == nil {
			continue
		}
		at, cost := st, 0.0
		for runs := 1; runs <= leadRuns && runs < rem; runs++ {
			if act.Pre != nil && !act.Pre(at) {
				break
			}
			step, err := d.StepCost(a, at)
			if err != nil {
				break
			}
			after := act.Effect(at)
			// The situations, as the chainer's searches see them: a step
			// that changes only what Domain.Key leaves out changes nothing.
			b.leadFrom, b.leadTo = at, after
			if d.key(&b.leadFrom) == d.key(&b.leadTo) || c.undone(after) != NoGoal {
				break
			}
			at, cost = after, cost+step
			c.probe = at
			if guess := cost + goal.bound(&c.probe, d.Number); guess < best*(1-1e-9) {
				tries = append(tries, lead{act: a, runs: runs, guess: guess})
			}
		}
	}
	slices.SortStableFunc(tries, func(x, y lead) int { return cmp.Compare(x.guess, y.guess) })
	best, end = b.tryLeads(st, rem, mark, best, end, tries, false, share)
	if long && math.IsInf(best, 1) && c.work.err == nil && !c.work.late {
		best, end = b.tryLeads(st, rem, mark, best, end, tries, true, share)
	}
	c.work.budget = share
	b.leadList = tries[:0]
	c.steps = c.steps[:mark]
	return best, end
}

// tryLeads runs the greedy pass after leads of tries in turn until share
// is spent, and keeps the cheapest plan (see leads). The first round
// runs every lead, leadPass expansions at most each, and marks those
// whose pass ran out of expansions; the second round (second) runs the
// first longLeads of those, longLeadPass expansions at most each.
func (b *BackwardChainer[S]) tryLeads(st S, rem, mark int, best float64, end S, tries []lead, second bool, share int) (float64, S) {
	c, d, g := &b.call, b.d, &b.greedy
	pass, longs := leadPass, 0
	if second {
		pass = longLeadPass
	}
	for i := range tries {
		t := &tries[i]
		if t.guess >= best*(1-1e-9) || c.work.expansions >= share {
			break
		}
		if second {
			if !t.cut {
				continue
			}
			if longs++; longs > longLeads {
				break
			}
		}
		c.steps = c.steps[:mark]
		at := st
		for range t.runs {
			c.steps = append(c.steps, t.act)
			at = d.Actions[t.act].Effect(at)
		}
		c.work.budget = min(share, c.work.expansions+pass)
		r := g.run(at, rem-t.runs)
		t.cut = !r.is(found) && c.work.expansions >= c.work.budget && c.work.budget < share
		c.work.expansions = min(c.work.expansions, c.work.budget)
		if c.work.err != nil || c.work.late {
			break // the context is done, or the call's time
		}
		if !r.is(found) {
			continue
		}
		b.drop(st, mark)
		if cost, err := d.planCost(st, c.steps[mark:]); err == nil && cost < best*(1-1e-9) {
			best, end = cost, c.end
			b.best = append(b.best[:0], c.steps[mark:]...)
			if c.trace != nil {
				c.event(TraceLead, c.goal, t.act, 0, b.ledTo(t.runs, len(b.best), cost, second))
			}
		}
	}
	return best, end
}

// ledTo says, for the trace, what a lead found (in the second round, a
// longer pass).
func (b *BackwardChainer[S]) ledTo(runs, steps int, cost float64, second bool) string {
	times := "once"
	if runs > 1 {
		times = strconv.Itoa(runs) + " times"
	}
	pass := ", then the greedy pass: "
	if second {
		pass = ", then a longer greedy pass: "
	}
	return times + pass + "a plan of " + counted(steps, "step") + " costing " + strconv.FormatFloat(cost, 'g', -1, 64)
}
