package runtime

import (
	"context"
	"math/bits"
)

// UtilityPlanner makes a utility selector a GoalPlanner, so that an Agent
// can be utility-driven: at each decision point it takes the best action
// for the goal it serves, and decides again once that step is done.
//
// Its plan for goal g is one step: the best-scored action among those
// that serve g by themselves (UtilitySelector.ForGoal); when none does,
// the best-scored applicable action among the helpers of those that do
// (one that can make a failing conjunct of their precondition hold, such
// as buying bread before eating it), and the helpers of those helpers,
// and so on, in the state. A conjunct that must be served after another
// that fails is left for later, as the backward chainer leaves it (see
// the package doc, "The backward chainer": a beekeeper at the hive with
// no honey to sell harvests before walking home to sell, where walking
// home first would only bring it back). When there is neither, g cannot be
// planned in that state (Unreachable), as when the relaxed reachability
// of the annotations (what A* uses) proves that g cannot hold from s: a
// utility agent does not work toward a goal it cannot reach.
//
// Like the selector, it keeps scratch space: give each worker its own.
type UtilityPlanner[S comparable] struct {
	u      *UtilitySelector[S]
	ranked []Scored
	// helpers and seen: scratch of the search for helpers, one bit an
	// action (seen: already visited; helpers: a helper that applies);
	// todo, the actions whose preconditions are still to look at.
	helpers, seen []uint64
	todo          []ActionID
	// unreachable[g] is the error of goal g no step serves, relaxed those
	// of goals the relaxed reachability proves out of reach (the
	// domain's agent tables', Domain.relaxedErrors): immutable, so
	// returned again and again without allocating.
	unreachable []*PlanningError
	relaxed     [][]*PlanningError
	reach       reach
	at          S // the state of the call, for the relaxed reachability
	// keeps are the conditions of the goals the call keeps holding
	// (PlanGoalKeepingInto), and first the scratch of prepare.
	keeps []func(S) bool
	first []Scored
}

// NewUtilityPlanner returns a planner of one step at a time over u.
func NewUtilityPlanner[S comparable](u *UtilitySelector[S]) *UtilityPlanner[S] {
	d := u.Domain()
	words := (len(d.Actions) + 63) / 64
	p := &UtilityPlanner[S]{u: u, helpers: make([]uint64, words), seen: make([]uint64, words),
		todo: make([]ActionID, 0, len(d.Actions))}
	for gi := range d.Goals {
		p.unreachable = append(p.unreachable, d.newError(Unreachable, GoalID(gi), NoAction))
	}
	p.relaxed = d.agents.relaxed
	p.reach = newReach(d)
	return p
}

// findHelpers marks in p.helpers the applicable helpers toward goal g
// in p.at, which no action that applies serves: the options of the
// failing preconditions of g's options, for the conjuncts not to be
// served after another that fails, and so on down, and reports whether
// it found one.
func (p *UtilityPlanner[S]) findHelpers(g GoalID) bool {
	d := p.u.Domain()
	clear(p.helpers)
	clear(p.seen)
	p.todo = p.todo[:0]
	goal := &d.goals[g]
	failing := goal.failing(p.at)
	visit := func(a ActionID) {
		if p.seen[a/64]&(1<<(uint(a)%64)) == 0 {
			p.seen[a/64] |= 1 << (uint(a) % 64)
			p.todo = append(p.todo, a)
		}
	}
	for j := range goal.opts {
		if o := &goal.opts[j]; o.helps&failing != 0 {
			visit(o.act)
		}
	}
	p.visitLanders(goal, failing, visit)
	found := false
	for len(p.todo) > 0 {
		a := p.todo[len(p.todo)-1]
		p.todo = p.todo[:len(p.todo)-1]
		pre := &d.pres[a]
		pf := pre.failing(p.at)
		if pf == 0 {
			continue
		}
		parts := pf
		if pre.after != nil {
			for w := pf; w != 0; w &= w - 1 {
				if k := bits.TrailingZeros64(w); pre.after[k]&pf != 0 {
					parts &^= 1 << k // to serve after a part that fails
				}
			}
			if parts == 0 {
				parts = pf
			}
		}
		mark := len(p.todo)
		for k := range pre.opts {
			if h := &pre.opts[k]; h.act != a && h.helps&parts != 0 {
				visit(h.act)
			}
		}
		p.visitLanders(pre, parts, visit)
		// The helpers just visited that apply are candidates; the others
		// wait on the list for their own helpers.
		for i := mark; i < len(p.todo); i++ {
			if h := p.todo[i]; d.Applicable(h, p.at) {
				p.helpers[h/64] |= 1 << (uint(h) % 64)
				found = true
			}
		}
	}
	return found
}

// visitLanders visits the actions that land a field of a part of c in
// parts that p.at has outside its range (Domain.landable): options that
// write it without serving it, and landers.
func (p *UtilityPlanner[S]) visitLanders(c *condition[S], parts uint64, visit func(ActionID)) {
	if c.landed&parts == 0 {
		return
	}
	lands := p.u.Domain().landable(c, parts, &p.at)
	if lands == 0 {
		return
	}
	for j := range c.opts {
		if o := &c.opts[j]; o.lands&lands != 0 {
			visit(o.act)
		}
	}
	for j := range c.landers {
		if o := &c.landers[j]; o.lands&lands != 0 {
			visit(o.act)
		}
	}
}

// Domain returns the selector's domain.
func (p *UtilityPlanner[S]) Domain() *Domain[S] { return p.u.Domain() }

// PlanGoalInto writes into plan the next step toward goal g from s: none
// when g holds, else the best action as UtilityPlanner says (with g in
// plan.Goals only when that step makes g hold: a plan of one step that
// goes part of the way promises nothing), or a
// *PlanningError with reason Unreachable (the same value for every call:
// do not change it).
func (p *UtilityPlanner[S]) PlanGoalInto(ctx context.Context, s S, g GoalID, plan *Plan) error {
	p.keeps = p.keeps[:0]
	return p.planGoalInto(ctx, s, g, plan)
}

// PlanGoalKeepingInto is PlanGoalInto among the steps after which the
// goals of keep that hold in s still hold: the best of those; where
// there is none, the best step that keeps them and after which there is
// one (charge at the dock before leaving it); else a *PlanningError with
// reason Unreachable (two steps are looked at, not the steps after
// them).
func (p *UtilityPlanner[S]) PlanGoalKeepingInto(ctx context.Context, s S, g GoalID, keep []GoalID, plan *Plan) error {
	p.keeps = p.u.Domain().heldConds(p.keeps, s, keep)
	err := p.planGoalInto(ctx, s, g, plan)
	p.keeps = p.keeps[:0]
	return err
}

func (p *UtilityPlanner[S]) planGoalInto(ctx context.Context, s S, g GoalID, plan *Plan) error {
	plan.Reset()
	if err := ctx.Err(); err != nil {
		return err
	}
	d := p.u.Domain()
	if d.Goals[g].Cond(s) {
		return nil
	}
	p.at = s // a field: the address of s would make every call allocate it
	if d.unreachable(g, &p.at, &p.reach) {
		return relaxedError(p.relaxed, g, &p.reach)
	}
	best := p.bestStep(g, s)
	if best == NoAction && len(p.keeps) > 0 {
		best = p.prepare(g, s)
	}
	if best == NoAction {
		return p.unreachable[g]
	}
	cost, err := d.StepCost(best, s)
	if err != nil {
		return err
	}
	plan.Steps = append(plan.Steps, best)
	if d.Goals[g].Cond(d.Apply(best, s)) {
		plan.Goals = append(plan.Goals, g) // the step alone reaches g
	}
	plan.Cost = cost
	plan.Expansions = len(p.ranked)
	return nil
}

// bestStep returns the best action toward goal g in s, which p.at holds,
// after which the goals the call keeps hold: the best-scored of those
// that serve g by themselves, else of the applicable helpers; NoAction
// when there is none.
func (p *UtilityPlanner[S]) bestStep(g GoalID, s S) ActionID {
	p.ranked = p.u.ForGoalInto(g, s, p.ranked)
	for _, r := range p.ranked {
		if p.keeping(r.Action, s) {
			return r.Action
		}
	}
	if !p.findHelpers(g) {
		return NoAction
	}
	p.ranked = p.u.RankedInto(s, p.ranked)
	for _, r := range p.ranked {
		if p.helpers[r.Action/64]&(1<<(uint(r.Action)%64)) != 0 && p.keeping(r.Action, s) {
			return r.Action
		}
	}
	return NoAction
}

// prepare returns, where every step toward goal g from s would let a goal
// the call keeps stop holding, the best-scored applicable action that
// writes nothing g reads, keeps them, and after which a step toward g
// keeps them too: charge the
// battery at the dock before leaving it, where leaving would let it run
// below what the goal above needs. NoAction when there is none.
func (p *UtilityPlanner[S]) prepare(g GoalID, s S) ActionID {
	d := p.u.Domain()
	t := d.agentTables()
	p.first = p.u.RankedInto(s, p.first)
	best := NoAction
	for _, r := range p.first {
		// A preparation leaves what g reads alone: one that moves it is a
		// step toward g (bestStep found none) or away from it.
		if t.writes[r.Action]&t.goalReads[g] != 0 || !p.keeping(r.Action, s) {
			continue
		}
		p.at = d.Apply(r.Action, s)
		if !d.Goals[g].Cond(p.at) && p.at != s && p.bestStep(g, p.at) != NoAction {
			best = r.Action
			break
		}
	}
	p.at = s
	return best
}

// keeping reports whether the goals the call keeps (p.keeps) hold after
// action a in s.
func (p *UtilityPlanner[S]) keeping(a ActionID, s S) bool {
	if len(p.keeps) == 0 {
		return true
	}
	next := p.u.Domain().Apply(a, s)
	for _, c := range p.keeps {
		if !c(next) {
			return false
		}
	}
	return true
}
