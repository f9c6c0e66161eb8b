package runtime

import "strings"

// drop takes out of the goal's steps (the call's steps from mark, run
// from st, reaching c.end) the steps the plan does without: greedy
// action elimination. For each step in turn it runs the steps after it
// from the state before it, leaving out that step and every later step
// that no longer applies there (a walk back to a place the plan need not
// have left goes with the walk away); when the goal and the protected
// goals still hold at the end, and the steps cost less, they replace the
// plan, and the same place is tried again. The greedy pass chains what
// each part of the goal needs in turn, and a step it chained for one part
// is often one a later part's steps made unneeded: sitting down twice
// where the sleep chained later gives the energy anyway.
//
// It tries only the steps whose action the plan takes again, and those
// that set a field to a constant another step sets (walks): a step of a
// chain of different actions, each making what the next needs, is
// needed, and trying it would cost a run of the rest of the plan. Nor
// does it try a step that repeats the step before it when that one could
// not be dropped: the plan without either is the same.
func (b *BackwardChainer[S]) drop(st S, mark int) (dropped bool) {
	c, d := &b.call, b.d
	steps := c.steps[mark:]
	if len(steps) < 2 {
		return false // the goal does not hold without its one step
	}
	walks, tries := b.count(steps)
	if !tries {
		b.uncount(steps)
		return false
	}
	var cost float64
	if d.stateCosts {
		var err error
		if cost, err = d.PathCost(st, steps); err != nil {
			b.uncount(steps)
			return false // finish reports the invalid cost
		}
	}
	kept := b.kept[:0]
	before, at := st, 0 // the state before step at
	kept1 := false      // the step before i was tried and kept
	for i := 0; i < len(steps); i++ {
		a := steps[i]
		if b.taken[a] < 2 && d.sets[a]&walks == 0 || kept1 && steps[i-1] == a {
			continue
		}
		for ; at < i; at++ {
			before = d.Apply(steps[at], before)
		}
		var s S
		var rest float64
		var ok bool
		kept, s, rest, ok = b.runApplying(before, steps[i+1:], kept[:0])
		kept1 = !ok || !d.Goals[c.goal].Cond(s) || c.undone(s) != NoGoal || !b.cheaper(st, steps[:i], rest, &cost)
		if kept1 {
			continue
		}
		if c.trace != nil {
			c.event(TraceDrop, c.goal, a, 0, b.dropped(steps[i+1:], kept))
		}
		b.uncount(steps)
		steps = steps[:i+copy(steps[i:], kept)]
		walks, _ = b.count(steps)
		c.end = s
		dropped = true
		i-- // try the step now at i
	}
	b.uncount(steps)
	c.steps = c.steps[:mark+len(steps)]
	b.kept = kept[:0]
	return dropped
}

// count counts in b.taken how often steps take each action (up to 2),
// and returns the fields that more than one step sets to a constant (bit
// f%64 for field f), and whether some step takes an action another takes
// or sets such a field.
func (b *BackwardChainer[S]) count(steps []ActionID) (walks uint64, tries bool) {
	var once uint64
	for _, a := range steps {
		if b.taken[a] < 2 {
			b.taken[a]++
		}
		m := b.d.sets[a]
		walks |= once & m
		once |= m
		tries = tries || b.taken[a] == 2
	}
	return walks, tries || walks != 0
}

// uncount clears b.taken for the actions of steps.
func (b *BackwardChainer[S]) uncount(steps []ActionID) {
	for _, a := range steps {
		b.taken[a] = 0
	}
}

// cheaper reports whether prefix, run from st, followed by steps that
// cost rest, costs less than *cost, and sets *cost to its cost when it
// does. Without costs that depend on the state, fewer steps cost less:
// every step's cost is positive.
func (b *BackwardChainer[S]) cheaper(st S, prefix []ActionID, rest float64, cost *float64) bool {
	d := b.d
	if !d.stateCosts {
		return true
	}
	head, err := d.PathCost(st, prefix)
	if err != nil || head+rest >= *cost {
		return false
	}
	*cost = head + rest
	return true
}

// runApplying runs steps from st, leaving out each step whose
// precondition does not hold where it comes, and appends the steps it
// takes to out: it returns them, the state they reach and their cost;
// false when a cost is not positive.
func (b *BackwardChainer[S]) runApplying(st S, steps, out []ActionID) ([]ActionID, S, float64, bool) {
	d := b.d
	cost := 0.0
	for _, a := range steps {
		act := &d.Actions[a]
		if act.Pre != nil && !act.Pre(st) {
			continue
		}
		if d.stateCosts {
			sc, err := d.StepCost(a, st)
			if err != nil {
				return out, st, 0, false
			}
			cost += sc
		} else {
			cost += act.Cost
		}
		if act.Effect != nil {
			st = act.Effect(st)
		}
		out = append(out, a)
	}
	return out, st, cost, true
}

// dropped names, for the trace, the steps of rest that kept leaves out
// besides the one dropped.
func (b *BackwardChainer[S]) dropped(rest, kept []ActionID) string {
	var out []string
	k := 0
	for _, a := range rest {
		if k < len(kept) && kept[k] == a {
			k++
			continue
		}
		out = append(out, b.d.ActionName(a))
	}
	if len(out) == 0 {
		return "the plan reaches the goal without it"
	}
	return "the plan reaches the goal without it and the steps that then no longer apply: " + strings.Join(out, ", ")
}
