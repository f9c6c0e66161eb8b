package runtime

import "context"

// UtilityPlanner makes a utility selector a GoalPlanner, so that an Agent
// can be utility-driven: at each decision point it takes the best action
// for the goal it serves, and decides again once that step is done.
//
// Its plan for goal g is one step: the best-scored action among those
// that serve g by themselves (UtilitySelector.ForGoal); when none does,
// the best-scored applicable action among the helpers of those that do
// (Domain.Helpers: one that can make a failing conjunct of their
// precondition hold, such as buying bread before eating it), and the
// helpers of those helpers, and so on. When there is neither, g cannot be
// planned in that state (Unreachable), as when the relaxed reachability
// of the annotations (what A* uses) proves that g cannot hold from s: a
// utility agent does not work toward a goal it cannot reach.
//
// Like the selector, it keeps scratch space: give each worker its own.
type UtilityPlanner[S comparable] struct {
	u      *UtilitySelector[S]
	ranked []Scored
	// helps[g] has bit a set when action a is a helper of an action
	// that serves goal g, or of such a helper, and so on.
	helps [][]uint64
	// unreachable[g] is the error of goal g: immutable, so returned
	// again and again without allocating.
	unreachable []*PlanningError
	reach       reach
	at          S // the state of the call, for the relaxed reachability
}

// NewUtilityPlanner returns a planner of one step at a time over u.
func NewUtilityPlanner[S comparable](u *UtilitySelector[S]) *UtilityPlanner[S] {
	d := u.Domain()
	p := &UtilityPlanner[S]{u: u}
	words := (len(d.Actions) + 63) / 64
	for gi := range d.Goals {
		g := GoalID(gi)
		bits := make([]uint64, words)
		todo := d.Serves(g)
		for len(todo) > 0 {
			a := todo[len(todo)-1]
			todo = todo[:len(todo)-1]
			for _, h := range d.Helpers(a) {
				if bits[h/64]&(1<<(uint(h)%64)) == 0 {
					bits[h/64] |= 1 << (uint(h) % 64)
					todo = append(todo, h)
				}
			}
		}
		p.helps = append(p.helps, bits)
		p.unreachable = append(p.unreachable, d.newError(Unreachable, g, NoAction))
	}
	p.reach = newReach(d)
	return p
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
		return p.unreachable[g]
	}
	best := NoAction
	if p.ranked = p.u.ForGoalInto(g, s, p.ranked); len(p.ranked) > 0 {
		best = p.ranked[0].Action
	} else {
		p.ranked = p.u.RankedInto(s, p.ranked)
		for _, r := range p.ranked {
			if p.helps[g][r.Action/64]&(1<<(uint(r.Action)%64)) != 0 {
				best = r.Action
				break
			}
		}
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
