package runtime

import (
	"cmp"
	"math"
	"slices"
)

// Scored is an action with its utility score.
type Scored struct {
	Action ActionID
	Score  float64
}

// Consideration is one axis of a utility score: Score rates an action in a
// state, from 0 (worst) to 1 (best; results outside [0,1] are clamped and
// NaN counts as 0), and Weight is its share of the weighted mean. A
// consideration is a plain struct holding a function, so scoring involves
// no interface calls. Build one with GoalUrgency, RelativeCost,
// RelativeValue, PreconditionSatisfied, Cost, Value, Utility, HasTag,
// Curve, Combine or Func, or write the literal. The constructors record
// what their Score reads, so that a selector runs it no more often than
// needed: to change the Score of one, write a Func.
type Consideration[S any] struct {
	// Name says what the consideration rates, for debugging and display.
	Name string
	// Weight is the consideration's weight in the mean (negative weights
	// count as 0).
	Weight float64
	// Score rates action a in state s. It must not change or keep a.
	Score func(s S, a *Action[S]) float64

	// reads tells NewUtility how often Score must run: the zero value,
	// for any function, on every action in every state.
	reads reads
	// bound is what a readsGoals consideration computes with (the
	// *goalUrgency of its domain), or the *Domain of a readsCosts one.
	bound any
}

// reads is what a consideration's score depends on.
type reads uint8

const (
	readsAll          reads = iota // the state and the action
	readsAction                    // the action only: scored once, by NewUtility
	readsState                     // the state only: scored once a call
	readsPrecondition              // whether the precondition holds: 1 for every ranked action
	readsGoals                     // the goals: every action's score computed at once, once a call
	readsCosts                     // the actions' costs in the state: computed once a call
)

// The weights DefaultConsiderations gives GoalUrgency, RelativeCost and
// RelativeValue (PreconditionSatisfied weighs 1).
const (
	DefaultUrgencyWeight = 8.0
	DefaultCostWeight    = 1.0
	DefaultValueWeight   = 1.0
)

// DefaultConsiderations returns what NewUtility uses when given none:
//
//	GoalUrgency(d, 8), RelativeCost(d, 1), RelativeValue(d, 1), PreconditionSatisfied()
//
// Urgency weighs eight times cost or value, so that fully serving a goal
// one priority level higher (0.25 of urgency with the four named
// priorities, 2 of the weighted sum) outweighs any difference of cost and
// value together (at most 0.9 each). Among actions that serve the same
// goals as well, or none, cost and value decide. PreconditionSatisfied
// is 1 for every ranked action: it changes no ranking, and rates an
// action whose precondition fails lower in Score.
func DefaultConsiderations[S comparable](d *Domain[S]) []Consideration[S] {
	return []Consideration[S]{
		GoalUrgency(d, DefaultUrgencyWeight),
		RelativeCost(d, DefaultCostWeight),
		RelativeValue(d, DefaultValueWeight),
		PreconditionSatisfied[S](),
	}
}

// relativeFloor is what RelativeCost gives the dearest action and
// RelativeValue the least valuable: near 0, but not 0, so that a Combine
// does not veto them.
const relativeFloor = 0.1

// RelativeCost rates cheap actions high on the scale of d's own costs: the
// cheapest action of d scores 1, the dearest 0.1, and the others in
// between in proportion to their cost. When every action costs the same,
// every action scores 1. When some costs depend on the state
// (Action.CostOf), the scale is that of the actions' costs in the state
// at hand, and an action whose cost there is not positive scores 0.
func RelativeCost[S comparable](d *Domain[S], weight float64) Consideration[S] {
	if d.stateCosts {
		return Consideration[S]{Name: "RelativeCost", Weight: weight, reads: readsCosts, bound: d, Score: func(s S, a *Action[S]) float64 {
			lo, hi := d.costRange(s, nil)
			return relativeCost(costIn(a, s), lo, hi)
		}}
	}
	lo, hi := actionRange(d, func(a *Action[S]) float64 { return a.Cost })
	return Consideration[S]{Name: "RelativeCost", Weight: weight, reads: readsAction, Score: func(_ S, a *Action[S]) float64 {
		return relativeCost(a.Cost, lo, hi)
	}}
}

// relativeCost places cost c on the scale [lo, hi]: 1 at lo, 0.1 at hi;
// 1 when the scale is empty, 0 when c is NaN (no cost).
func relativeCost(c, lo, hi float64) float64 {
	switch {
	case c != c:
		return 0
	case !(hi > lo):
		return 1
	}
	return 1 - (1-relativeFloor)*clamp01((c-lo)/(hi-lo))
}

// costIn is the cost of a in s, or NaN when a cost that depends on the
// state is not positive there.
func costIn[S any](a *Action[S], s S) float64 {
	if a.CostOf == nil {
		return a.Cost
	}
	if c := a.CostOf(s); c > 0 && !math.IsInf(c, 1) {
		return c
	}
	return math.NaN()
}

// costRange returns the least and the greatest cost of d's actions in s
// (of those with a cost there), and writes each action's cost (costIn)
// into costs unless it is nil.
func (d *Domain[S]) costRange(s S, costs []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for i := range d.Actions {
		c := costIn(&d.Actions[i], s)
		if costs != nil {
			costs[i] = c
		}
		if c == c {
			lo, hi = min(lo, c), max(hi, c)
		}
	}
	return lo, hi
}

// RelativeValue rates valuable actions high on the scale of d's own
// values: the most valuable action of d scores 1, the least 0.1, and the
// others in between in proportion to their value. When every action has
// the same value, every action scores 1.
func RelativeValue[S comparable](d *Domain[S], weight float64) Consideration[S] {
	lo, hi := actionRange(d, func(a *Action[S]) float64 { return a.Value })
	return Consideration[S]{Name: "RelativeValue", Weight: weight, reads: readsAction, Score: func(_ S, a *Action[S]) float64 {
		if !(hi > lo) {
			return 1
		}
		return relativeFloor + (1-relativeFloor)*clamp01((a.Value-lo)/(hi-lo))
	}}
}

// actionRange returns the least and the greatest of f over d's actions.
func actionRange[S comparable](d *Domain[S], f func(*Action[S]) float64) (lo, hi float64) {
	for i := range d.Actions {
		v := f(&d.Actions[i])
		if i == 0 {
			lo, hi = v, v
		}
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi
}

// Cost rates cheap actions high on a fixed scale: max(0, 1 − cost/100).
// See RelativeCost for the domain's own scale, the default.
func Cost[S any](weight float64) Consideration[S] {
	return Consideration[S]{Name: "Cost", Weight: weight, reads: readsAction, Score: func(_ S, a *Action[S]) float64 {
		return max(0, 1-a.Cost/100)
	}}
}

// Value rates valuable actions high on a fixed scale: min(1, value/100).
// See RelativeValue for the domain's own scale, the default.
func Value[S any](weight float64) Consideration[S] {
	return Consideration[S]{Name: "Value", Weight: weight, reads: readsAction, Score: func(_ S, a *Action[S]) float64 {
		return min(1, a.Value/100)
	}}
}

// PreconditionSatisfied rates an action 1 when its precondition holds and
// 0 otherwise, with weight 1.
func PreconditionSatisfied[S any]() Consideration[S] {
	return Consideration[S]{Name: "PreconditionSatisfied", Weight: 1, reads: readsPrecondition, Score: func(s S, a *Action[S]) float64 {
		if a.Pre == nil || a.Pre(s) {
			return 1
		}
		return 0
	}}
}

// Utility rates an action by its net value: (value − cost + 100) / 200,
// clamped to [0,1].
func Utility[S any](weight float64) Consideration[S] {
	return Consideration[S]{Name: "Utility", Weight: weight, reads: readsAction, Score: func(_ S, a *Action[S]) float64 {
		return (a.Value - a.Cost + 100) / 200
	}}
}

// HasTag rates an action 1 when it has the tag and 0 otherwise.
func HasTag[S any](tag string, weight float64) Consideration[S] {
	return Consideration[S]{Name: "HasTag(" + tag + ")", Weight: weight, reads: readsAction, Score: func(_ S, a *Action[S]) float64 {
		if slices.Contains(a.Tags, tag) {
			return 1
		}
		return 0
	}}
}

// Func makes any function a consideration.
func Func[S any](weight float64, f func(s S, a *Action[S]) float64) Consideration[S] {
	return Consideration[S]{Name: "Func", Weight: weight, Score: f}
}

// Curve rates every action by a quantity of the state: input(s) is mapped
// from [lo, hi] onto [0,1] (see Normalize) and passed through curve.
func Curve[S any](weight float64, curve ResponseCurve, input func(S) float64, lo, hi float64) Consideration[S] {
	return Consideration[S]{Name: curve.Kind.String(), Weight: weight, reads: readsState, Score: func(s S, _ *Action[S]) float64 {
		return curve.Eval(Normalize(input(s), lo, hi))
	}}
}

// Combine multiplies considerations into one of the given weight, as in an
// infinite-axis utility system: any of them at 0 vetoes the action. The
// weights of cs are ignored. So that many factors do not drag every score
// towards 0, each factor is raised by the compensation factor first (see
// Compensate) with n = len(cs). Combining nothing gives 1.
func Combine[S any](weight float64, cs ...Consideration[S]) Consideration[S] {
	cs = slices.Clone(cs)
	n := len(cs)
	return Consideration[S]{Name: "Combine", Weight: weight, Score: func(s S, a *Action[S]) float64 {
		p := 1.0
		for i := range cs {
			p *= Compensate(clamp01(cs[i].Score(s, a)), n)
			if p == 0 {
				break
			}
		}
		return p
	}}
}

// Compensate is Dave Mark's compensation factor for a product of n
// scores in [0,1]:
//
//	modification = 1 − 1/n
//	makeUp       = (1 − score) × modification
//	result       = score + makeUp × score
//
// It gives back part of what a factor below 1 takes away, more as n grows,
// so products of many considerations stay comparable with products of
// few. 0 and 1 are unchanged, the result stays in [0,1], and for n ≤ 1
// the score is returned as is.
func Compensate(score float64, n int) float64 {
	if n <= 1 {
		return score
	}
	modification := 1 - 1/float64(n)
	makeUp := (1 - score) * modification
	return score + makeUp*score
}

// UtilitySelector picks actions by utility. An action's score in a state
// is the weighted mean of its considerations times the action's weight:
//
//	score = (Σ consideration_i × weight_i) / (Σ weight_i) × Action.Weight
//
// (0 when every weight is 0). Only actions whose precondition holds are
// ranked; equal scores rank in declaration order. A UtilitySelector keeps
// no state between calls: it is safe for concurrent use when its
// considerations are.
//
// Each consideration runs no more often than what it reads requires:
// RelativeCost, RelativeValue, Cost, Value, Utility and HasTag once per
// action when the selector is made, a Curve once per call, GoalUrgency
// once per call for every action at once (it visits each unsatisfied goal
// and the actions that can serve it), PreconditionSatisfied never for a
// ranked action (its precondition holds), Func and Combine on every
// action. The preconditions are read with one call of Domain.Enabled when
// the domain has it (generated domains do).
type UtilitySelector[S comparable] struct {
	d              *Domain[S]
	considerations []Consideration[S]
	totalWeight    float64

	static    []float64 // per action: its weighted readsAction scores
	preWeight float64   // the weight of the readsPrecondition ones
	perState  []int     // indexes of the readsState considerations
	perAction []int     // indexes of the readsAll considerations
	// goals computes the GoalUrgency of every action once a call, for
	// the GoalUrgency considerations of d, whose weights sum to
	// urgencyWeight (0: none), and holds the scratch memory of every
	// call.
	goals         *goalUrgency[S]
	urgencyWeight float64
	// costWeight is the weight of the RelativeCost considerations of d
	// when its costs depend on the state: the costs are then read once a
	// call.
	costWeight float64
}

// NewUtility returns a utility selector over d with the given
// considerations, or DefaultConsiderations(d) when none are given. It
// panics when a consideration has no Score function.
func NewUtility[S comparable](d *Domain[S], considerations ...Consideration[S]) *UtilitySelector[S] {
	if len(considerations) == 0 {
		considerations = DefaultConsiderations(d)
	}
	u := &UtilitySelector[S]{d: d, considerations: slices.Clone(considerations)}
	for i := range u.considerations {
		c := &u.considerations[i]
		if c.Score == nil {
			panic("runtime.NewUtility: consideration " + c.Name + " has no Score function")
		}
		if !(c.Weight > 0) { // negative or NaN
			c.Weight = 0
		}
		u.totalWeight += c.Weight
	}
	u.static = make([]float64, len(d.Actions))
	for i := range u.considerations {
		c := &u.considerations[i]
		if c.Weight == 0 {
			continue
		}
		switch c.reads {
		case readsAction:
			var zero S
			for a := range d.Actions {
				u.static[a] += clamp01(c.Score(zero, &d.Actions[a])) * c.Weight
			}
		case readsPrecondition:
			u.preWeight += c.Weight
		case readsState:
			u.perState = append(u.perState, i)
		case readsGoals:
			// Built for another domain, it scores like a Func.
			if g, ok := c.bound.(*goalUrgency[S]); ok && g.d == d {
				u.goals = g
				u.urgencyWeight += c.Weight
				break
			}
			u.perAction = append(u.perAction, i)
		case readsCosts:
			if dom, ok := c.bound.(*Domain[S]); ok && dom == d {
				u.costWeight += c.Weight
				break
			}
			u.perAction = append(u.perAction, i)
		default:
			u.perAction = append(u.perAction, i)
		}
	}
	if u.goals == nil {
		u.goals = newGoalUrgency(d)
	}
	return u
}

// Domain returns the selector's domain.
func (u *UtilitySelector[S]) Domain() *Domain[S] { return u.d }

// Considerations returns a copy of the selector's considerations.
func (u *UtilitySelector[S]) Considerations() []Consideration[S] {
	return slices.Clone(u.considerations)
}

// utilityCall is what one call of the selector computes once for every
// action: the weighted scores of the considerations that read only the
// state, which preconditions hold, and every action's goal urgency.
type utilityCall[S comparable] struct {
	state   float64
	sc      *callScratch[S]
	urgency bool // sc.out holds the urgencies
	// sc.costs holds the actions' costs in the state, which range from
	// costLo to costHi (when costWeight > 0)
	costLo, costHi float64
}

// begin computes a call's shared scores in s; end must follow.
func (u *UtilitySelector[S]) begin(s S) utilityCall[S] {
	c := utilityCall[S]{state: u.stateScore(s), sc: u.goals.get(s)}
	if u.urgencyWeight > 0 {
		u.goals.fill(c.sc)
		c.urgency = true
	}
	if u.costWeight > 0 {
		c.costLo, c.costHi = u.d.costRange(s, c.sc.costs)
	}
	return c
}

// end releases what begin took.
func (u *UtilitySelector[S]) end(c utilityCall[S]) { u.goals.put(c.sc) }

// Score returns the score of action a in s, whether or not its
// precondition holds.
func (u *UtilitySelector[S]) Score(s S, a ActionID) float64 {
	act := &u.d.Actions[a]
	c := u.begin(s)
	v := u.score(s, a, c, act.Pre == nil || act.Pre(s))
	u.end(c)
	return v
}

// stateScore is the weighted sum of the considerations that read only the
// state, for one call.
func (u *UtilitySelector[S]) stateScore(s S) float64 {
	var sum float64
	for _, i := range u.perState {
		c := &u.considerations[i]
		sum += clamp01(c.Score(s, nil)) * c.Weight
	}
	return sum
}

// score is the score of action id in s, given what the call shares and
// whether its precondition holds.
func (u *UtilitySelector[S]) score(s S, id ActionID, c utilityCall[S], holds bool) float64 {
	if u.totalWeight == 0 {
		return 0
	}
	a := &u.d.Actions[id]
	sum := u.static[id] + c.state
	if holds {
		sum += u.preWeight
	}
	if c.urgency {
		sum += c.sc.out[id] * u.urgencyWeight
	}
	if u.costWeight > 0 {
		sum += relativeCost(c.sc.costs[id], c.costLo, c.costHi) * u.costWeight
	}
	for _, i := range u.perAction {
		c := &u.considerations[i]
		sum += clamp01(c.Score(s, a)) * c.Weight
	}
	v := sum / u.totalWeight * a.Weight
	if v != v { // NaN action weight
		return 0
	}
	return v
}

// Best returns the action with the highest score among those whose
// precondition holds in s (the first declared among equals), and false
// when no precondition holds. It does not allocate.
func (u *UtilitySelector[S]) Best(s S) (ActionID, bool) {
	best, bestScore := NoAction, 0.0
	c := u.begin(s)
	for i := range u.d.Actions {
		if !c.sc.applicable(u.d, ActionID(i)) {
			continue
		}
		if v := u.score(s, ActionID(i), c, true); best == NoAction || v > bestScore {
			best, bestScore = ActionID(i), v
		}
	}
	u.end(c)
	return best, best != NoAction
}

// Ranked returns the actions whose precondition holds in s, highest score
// first, equal scores in declaration order.
func (u *UtilitySelector[S]) Ranked(s S) []Scored {
	return u.RankedInto(s, nil)
}

// RankedInto is Ranked appending to dst[:0]: passing the previous result
// back, ranking does not allocate.
func (u *UtilitySelector[S]) RankedInto(s S, dst []Scored) []Scored {
	dst = dst[:0]
	c := u.begin(s)
	for i := range u.d.Actions {
		if c.sc.applicable(u.d, ActionID(i)) {
			dst = append(dst, Scored{Action: ActionID(i), Score: u.score(s, ActionID(i), c, true)})
		}
	}
	u.end(c)
	sortScored(dst)
	return dst
}

// ForGoal ranks like Ranked, but only the actions that serve goal g in s
// by themselves: those whose precondition holds and that declare g in
// fulfills or move a failing conjunct of g closer to holding (the
// direction read from the domain, as GoalUrgency reads it; an action
// that moves a field away from what g needs is left out, but where s has
// a saturating field outside its range, which a write lands in it). It
// is empty when g holds.
func (u *UtilitySelector[S]) ForGoal(g GoalID, s S) []Scored {
	return u.ForGoalInto(g, s, nil)
}

// ForGoalInto is ForGoal appending to dst[:0], without allocating when dst
// has room.
func (u *UtilitySelector[S]) ForGoalInto(g GoalID, s S, dst []Scored) []Scored {
	dst = dst[:0]
	goal := &u.d.goals[g]
	failing := goal.failing(s)
	if failing == 0 {
		return dst
	}
	c := u.begin(s)
	sc, steps := c.sc, u.goals.goalSteps[g]
	var lands uint64 // failing parts a write lands in their range (see option.lands)
	if goal.landed&failing != 0 {
		lands = u.d.landable(goal, failing, &sc.s)
	}
	for j := range goal.opts {
		o := &goal.opts[j]
		if !sc.applicable(u.d, o.act) {
			continue
		}
		if u.d.step(goal, o, &steps[j], &sc.s, &sc.after, failing) > 0 ||
			o.lands&lands != 0 && u.d.advanceFor(goal, o.act, o.lands&lands, &sc.s, &sc.after, failing) > 0 {
			dst = append(dst, Scored{Action: o.act, Score: u.score(s, o.act, c, true)})
		}
	}
	for j := range goal.landers {
		o := &goal.landers[j]
		if o.lands&lands != 0 && sc.applicable(u.d, o.act) && u.d.advanceFor(goal, o.act, o.lands&lands, &sc.s, &sc.after, failing) > 0 {
			dst = append(dst, Scored{Action: o.act, Score: u.score(s, o.act, c, true)})
		}
	}
	u.end(c)
	sortScored(dst)
	return dst
}

// sortScored orders by score, highest first, then by declaration order.
func sortScored(ss []Scored) {
	slices.SortFunc(ss, func(x, y Scored) int {
		if c := cmp.Compare(y.Score, x.Score); c != 0 {
			return c
		}
		return cmp.Compare(x.Action, y.Action)
	})
}
