package runtime

import (
	"math"
	"slices"
)

// A*'s estimates: the user's heuristic or one of the built-in ones
// (derived from the annotations by default, blind, unsatisfied goals,
// uniform cost), the options that choose one, and the proofs the
// derived estimate gives at the start of a search.

// estimateKind is the built-in estimate an AStar uses when it has no
// heuristic of the user's.
type estimateKind uint8

const (
	estimateDerived     estimateKind = iota // Domain.LowerBound over the goals
	estimateUniform                         // 0: uniform-cost search
	estimateBlind                           // 0 in a goal state, the cheapest action's cost elsewhere
	estimateUnsatisfied                     // WithUnsatisfiedGoalsHeuristic
)

// WithHeuristic sets the estimate h(s, goals) of the cost still needed to
// make all of goals hold from s. Plans are cheapest when h is admissible
// (never more than the true cost); an inadmissible h gives plans faster but
// not always cheapest ones. Negative and NaN estimates count as 0; +Inf
// declares s a dead end, which the search does not enter. A* searches
// keys (Domain.Key): s has its inert fields, which no goal, precondition
// or cost reads, set to zero. goals is the
// planner's own slice: read it, do not keep or change it. S must be the
// state type of the planner's domain (NewAStar panics otherwise). The last
// heuristic option given wins.
func WithHeuristic[S any](h func(s S, goals []GoalID) float64) AStarOption {
	return astarFunc(func(c *astarConfig) { c.heuristic = h })
}

// WithWeight makes A* weighted: it orders states by g + w × h, w >= 1 (1
// is plain A*). With an admissible estimate, a plan then costs at most w
// times the cheapest, and the search usually expands far fewer states: a
// trade of cost for time that a frame loop may want.
func WithWeight(w float64) AStarOption {
	return astarFunc(func(c *astarConfig) { c.weight = max(w, 1) })
}

// WithUniformCost makes the estimate 0 everywhere: uniform-cost search
// (Dijkstra's algorithm), which expands every state cheaper than the plan.
// For measuring, mostly; the default estimate is never worse.
func WithUniformCost() AStarOption {
	return astarFunc(func(c *astarConfig) { c.heuristic, c.estimate = nil, estimateUniform })
}

// WithBlindHeuristic makes the estimate 0 in a state where the goals hold
// and the cost of the cheapest action elsewhere (Fast Downward's blind
// heuristic): admissible and consistent, it costs nothing to compute and
// takes a goal state before the other states of equal cost.
func WithBlindHeuristic() AStarOption {
	return astarFunc(func(c *astarConfig) { c.heuristic, c.estimate = nil, estimateBlind })
}

// WithUnsatisfiedGoalsHeuristic uses a built-in admissible and consistent
// heuristic:
//
//	h(s) = ⌈u / m⌉ × c
//
// where u is the number of the search's goals unsatisfied in s, c the cost
// of the cheapest action of the domain, and m the largest number of those
// goals one action may change (by the actions' write sets and fulfills,
// against the goals' read sets; an action without a write set, or a goal
// without a read set, is assumed to change or be changed by anything).
//
// Why it is admissible: a plan from s changes u goals from false to true,
// and each of its actions changes at most m of them, so it has at least
// ⌈u/m⌉ actions, each costing at least c. (The simpler u × c, which
// assumes each goal needs an action of its own, overestimates when one
// action fulfills several goals at once.) It is also consistent: one
// action lowers u by at most m, hence ⌈u/m⌉ by at most 1 and h by at most
// c, which is no more than the action's cost. For a single goal it is c
// while the goal is unsatisfied, and 0 once it holds.
func WithUnsatisfiedGoalsHeuristic() AStarOption {
	return astarFunc(func(c *astarConfig) { c.heuristic, c.estimate = nil, estimateUnsatisfied })
}

// goalChanges returns, at a*len(d.Goals)+g, whether action a may change
// whether goal g holds.
func goalChanges[S comparable](d *Domain[S]) []bool {
	changes := make([]bool, len(d.Actions)*len(d.Goals))
	for ai := range d.Actions {
		act := &d.Actions[ai]
		for gi := range d.Goals {
			changes[ai*len(d.Goals)+gi] = mayChange(act, &d.Goals[gi], GoalID(gi))
		}
	}
	return changes
}

// mayChange reports whether act may change whether goal g holds, by the
// read and write sets; missing sets count as "anything".
func mayChange[S any](act *Action[S], goal *Goal[S], g GoalID) bool {
	if act.Effect == nil {
		return false // the state does not change
	}
	if len(act.Writes) == 0 || len(goal.Reads) == 0 || slices.Contains(act.Fulfills, g) {
		return true
	}
	for _, w := range act.Writes {
		if slices.Contains(goal.Reads, w) {
			return true
		}
	}
	return false
}

// mostChangedByOne is the largest number of the search's goals one
// action may change, at least 1 (the m of WithUnsatisfiedGoalsHeuristic).
func (a *AStar[S]) mostChangedByOne() int {
	most, ng := 1, len(a.d.Goals)
	for ai := range a.d.Actions {
		n := 0
		for _, g := range a.goals {
			if a.changes[ai*ng+int(g)] {
				n++
			}
		}
		most = max(most, n)
	}
	return most
}

// satisfied reports whether every goal of the search holds in s: the
// search's own form of Domain.FirstUnsatisfied, over the goals'
// conditions gathered in prepare (the search tests states while it
// expands them; reading each condition through the domain's Goals costs
// it 0.8% of the instructions on the crafting benchmark).
func (a *AStar[S]) satisfied(s S) bool {
	for _, c := range a.conds {
		if !c(s) {
			return false
		}
	}
	return true
}

// estimateOf returns h(*s): the user's estimate (negative and NaN mapped
// to 0) or the built-in one. s points into a.states: the address of a
// local would make every call allocate it.
func (a *AStar[S]) estimateOf(s *S) float64 {
	if a.heuristic != nil {
		h := a.heuristic(*s, a.goals)
		if !(h > 0) { // also NaN
			return 0
		}
		return h
	}
	switch a.estimate {
	case estimateDerived:
		h, _ := a.derived(s)
		return h
	case estimateBlind:
		if a.satisfied(*s) {
			return 0
		}
		return a.minCost
	case estimateUnsatisfied:
		u := 0
		for _, c := range a.conds {
			if !c(*s) {
				u++
			}
		}
		return float64((u+a.perAction-1)/a.perAction) * a.minCost
	}
	return 0
}

// proveAfter is how many states A* expands before it tries to prove the
// search hopeless from the annotations (provedHopeless): the proof costs
// about as much as tens of expansions on a role of 200 actions, and most
// searches end sooner.
const proveAfter = 16

// provedHopeless returns the error of a search whose root, node root,
// the annotations prove hopeless: with their estimate, a goal their
// relaxed reachability proves out of reach or that needs more steps than
// the limit whatever the plan. (A dead end, an infinite estimate at the
// root, is told before any search.)
func (a *AStar[S]) provedHopeless(root int32) error {
	if a.heuristic != nil || a.estimate != estimateDerived {
		return nil
	}
	if g, ok := a.provedUnreachable(root); ok {
		err := a.failure(Unreachable)
		err.Relaxed, err.Goal, err.Fields = true, g, a.d.partFields(g, a.reach.part)
		return err
	}
	if steps := a.stepsBound(root); steps > float64(a.depthLimit) && !math.IsInf(steps, 1) {
		err := a.failure(MaxStepsExceeded)
		err.Limit, err.Depth = int(a.maxSteps), 0
		return err
	}
	return nil
}

// provedUnreachable reports whether the relaxed reachability of the
// annotations proves that a goal of the search cannot hold from node n's
// state (see reach.go).
func (a *AStar[S]) provedUnreachable(n int32) (GoalID, bool) {
	for _, g := range a.goals {
		if !a.d.Goals[g].Cond(a.states[n]) && a.d.unreachable(g, &a.states[n], &a.reach) {
			return g, true
		}
	}
	return NoGoal, false
}

// stepsBound is a lower bound on the steps that make the search's goals
// hold from node n's state (the largest over the goals; see
// condition.stepsBound).
func (a *AStar[S]) stepsBound(n int32) float64 {
	a.fields.reset(a.d.Number, &a.states[n], len(a.d.Fields))
	bound := 0.0
	for _, g := range a.goals {
		c := &a.d.goals[g]
		if failing := c.failing(a.states[n]); failing != 0 {
			bound = max(bound, c.stepsBound(failing, &a.fields))
		}
	}
	return bound
}

// derived returns the derived estimate of *s for the search's goals (the
// largest of their Domain.LowerBound), and whether they all hold.
func (a *AStar[S]) derived(s *S) (h float64, goal bool) {
	if a.single != nil {
		if a.conds[0](*s) {
			return 0, true
		}
		if a.singleField < 0 {
			return a.singleBound, false
		}
		x := a.d.Number(s, a.singleField)
		if len(a.single.places) > 0 { // the one part's
			return a.single.places[0].bound(a.single, s, x, a.d.Number), false
		}
		return stepsAt(&a.single.bounds[0], s, x, a.d.Number), false
	}
	goal = true
	for _, g := range a.goals {
		c := &a.d.goals[g]
		if failing := c.failing(*s); failing != 0 {
			goal = false
			h = max(h, c.boundWith(s, failing, a.d.Number, a.flow, a.memo))
		}
	}
	return h, goal
}
