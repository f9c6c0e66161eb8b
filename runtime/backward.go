package runtime

import (
	"context"
	"errors"
	"math"
	"slices"
	"strconv"
	"time"
)

// Defaults and limits of the backward chainer (see also DefaultMaxSteps
// and DefaultSearchBudget, which A* shares).
const (
	// DefaultMaxDepth is how many actions may wait at once for their
	// preconditions (WithMaxDepth).
	DefaultMaxDepth = 10
	// MaxMaxDepth is the largest depth WithMaxDepth accepts.
	MaxMaxDepth = 256
	// DefaultImprovement is how many expansions the chainer's leads, and
	// its other searches for a plan cheaper than its first, may spend
	// each (WithImprovement).
	DefaultImprovement = 256
)

// BackwardChainer plans by goal regression (the package doc, "The
// backward chainer", defines its terms). It keeps scratch space between
// calls, so a chainer reused for many plans does not allocate; for the
// same reason one chainer must not be used by two goroutines at once (give
// each worker its own: they are cheap). A goal it cannot plan does not
// allocate either, once it has failed the same way before: the
// *PlanningError is the one an earlier call returned for the same
// failure (errors are values to read, not to modify).
type BackwardChainer[S comparable] struct {
	d      *Domain[S]
	cfg    backwardConfig
	call   chainCall[S]
	greedy greedy[S]
	reach  reach      // scratch of the relaxed reachability
	best   []ActionID // scratch: the cheapest plan so far while the improvement looks for a cheaper one
	kept   []ActionID // scratch of drop and merge
	// proven: the improvement found the goal's plan no dearer than its
	// lower bound, a cheapest plan (merge then does not look).
	proven bool
	// cand, moved and segs: scratch of merge.
	cand, moved []ActionID
	segs        []stay
	leadList    []lead // scratch of leads
	// leadFrom and leadTo: scratch of leads, the state before and after a
	// lead (on the heap, for Domain.Key takes pointers).
	leadFrom, leadTo S
	// fwd is the rescue's forward search, made at the first rescue;
	// fplan and fgoals its scratch.
	fwd     *AStar[S]
	fplan   Plan
	fgoals  []GoalID
	taken   []uint8    // scratch of drop: how often the plan takes each action, up to 2
	started time.Time  // when the call began, with stats
	end     S          // scratch of the plan's verification
	errs    keptErrors // the goals' errors earlier calls returned (error)
	// frame is the deadline a crowd bounds its calls by (setFrame; 0:
	// none).
	frame time.Duration
}

// setFrame bounds the chainer's calls, from the next, by the deadline dl
// (on clock; 0: none) as well as by their own time budget: a crowd's
// frame (WithPlanTimeBudget). Past it, a call returns the cheapest plan
// it has, as past its time budget.
func (b *BackwardChainer[S]) setFrame(dl time.Duration) { b.frame = dl }

type backwardConfig struct {
	chaining    bool
	maxDepth    int
	maxSteps    int
	budget      int
	timeBudget  time.Duration
	improvement int
	trace       *Trace
	stats       *Stats
}

// WithoutChaining makes the chainer use only candidates whose precondition
// already holds: no helpers are chained, and the plan is the greedy
// pass's (the improvement and the rescue, which chain, do not run).
func WithoutChaining() BackwardOption {
	return backwardFunc(func(c *backwardConfig) { c.chaining = false })
}

// WithMaxDepth sets how deep helpers may be chained (default 10, clamped
// to 1..256): how many actions may wait at once for their preconditions.
// The rescue's forward search (see the package doc), which chains
// nothing, is bounded by WithMaxSteps alone.
func WithMaxDepth(n int) BackwardOption {
	return backwardFunc(func(c *backwardConfig) { c.maxDepth = min(max(n, 1), MaxMaxDepth) })
}

// WithImprovement sets how many expansions, out of its budget, the
// chainer may spend looking for a plan cheaper than the first its greedy
// pass found, twice over (default DefaultImprovement; 0 returns the
// first plan): n for leads (the greedy pass after a step taken first, up
// to three times), and n for the greedy pass again with the goal's later
// first choices; then the forward search looks for a plan cheaper than
// the cheapest so far, opening only the states its estimate says one may
// go through: A* for n states, then weighted A* (the estimate
// counted twice) for 2n more, then four times for 2n more, stopped as
// soon as it proves none is cheaper. Where the greedy pass found nothing
// and a lead found a plan (the rescue), the forward search looks for a
// cheaper one the same way.
//
// n is taken as at most math.MaxInt32, so that a budget meant as
// unbounded (math.MaxInt) is one: added to the expansions a call has
// made, it would wrap around and leave the improvement nothing.
func WithImprovement(n int) BackwardOption {
	return backwardFunc(func(c *backwardConfig) { c.improvement = min(max(n, 0), math.MaxInt32) })
}

// NewBackwardChainer returns a backward chainer over d.
func NewBackwardChainer[S comparable](d *Domain[S], opts ...BackwardOption) *BackwardChainer[S] {
	b := &BackwardChainer[S]{d: d, cfg: backwardConfig{
		chaining: true, maxDepth: DefaultMaxDepth, maxSteps: DefaultMaxSteps, budget: DefaultSearchBudget,
		improvement: DefaultImprovement,
	}}
	for _, o := range opts {
		o.applyBackward(&b.cfg)
	}
	b.call = chainCall[S]{d: d, cfg: &b.cfg, trace: b.cfg.trace}
	b.call.presize()
	b.reach = newReach(d)
	b.errs = newKeptErrors()
	b.greedy = newGreedy(&b.call)
	b.greedy.reach = &b.reach
	b.kept = make([]ActionID, 0, cap(b.call.steps))
	b.cand = make([]ActionID, 0, cap(b.call.steps))
	b.moved = make([]ActionID, 0, cap(b.call.steps))
	b.segs = make([]stay, 0, cap(b.call.steps)+1)
	b.taken = make([]uint8, len(d.Actions))
	b.leadList = make([]lead, 0, leadRuns*len(d.Actions))
	return b
}

// Domain returns the chainer's domain.
func (b *BackwardChainer[S]) Domain() *Domain[S] { return b.d }

// Plan plans every goal unsatisfied in s, highest priority first (ties in
// declaration order), each from the state the previous goal's steps leave.
//
// For a goal, the candidates are the actions that declare it in fulfills
// and those that can make a failing conjunct of its condition hold: they
// write a field the conjunct reads, and not only the wrong way (an action
// that lowers Bread is no candidate for Bread >= 2). They are tried
// cheapest first, by the estimate of their cost and of what their
// precondition needs; a candidate whose precondition fails gets helpers
// chained backwards, those that can make a failing conjunct of the
// precondition hold. A step counts only when it brings what it serves
// closer to holding: a failing conjunct now holds, or its field moved
// toward what it needs. A goal's steps may not undo a goal of higher
// priority that holds when they start.
//
// That first, greedy pass takes the first way that works. When it finds
// a plan, the improvement looks for a cheaper one (other first choices,
// leads, then a forward search bounded by the plan's cost) within a small
// budget (WithImprovement), unless the greedy pass had no choice to make or its
// plan costs no more than the goal's lower bound (Domain.LowerBound). When
// the greedy pass finds none, the rescue tries leads (a step taken first,
// then the greedy pass), then searches forward over states (A*, its
// estimate weighed past 512 states): within the step and budget limits,
// the chainer does not give up while a plan exists, even one goal
// regression cannot build, but for a greedy pass that failed at the
// depth limit alone (MaxDepthExceeded, which it reports). The budget
// bounds the work of a call.
//
// When some goal cannot be planned, Plan returns the plan for the others
// with the *PlanningError of the first goal that failed (or, when the
// search budget ran out, of that).
func (b *BackwardChainer[S]) Plan(ctx context.Context, s S) (Plan, error) {
	var p Plan
	err := b.PlanInto(ctx, s, &p)
	return p, err
}

// PlanInto is Plan writing into p, whose storage is reused: in a loop that
// passes the same Plan back, planning does not allocate.
func (b *BackwardChainer[S]) PlanInto(ctx context.Context, s S, p *Plan) error {
	if b.cfg.stats != nil {
		b.started = time.Now()
	}
	b.begin(ctx)
	p.Reset()
	d, c := b.d, &b.call
	var first error
	st := s
	for _, g := range d.goalOrder {
		if d.Goals[g].Cond(st) {
			continue
		}
		c.protected = c.protected[:0]
		for _, h := range d.goalOrder {
			if h == g {
				break
			}
			if d.Goals[h].Cond(st) {
				c.protected = append(c.protected, h)
			}
		}
		next, err := b.achieve(g, st)
		if err != nil {
			if errors.Is(err, ErrSearchBudgetExceeded) || c.work.late || c.work.err != nil {
				// The search stopped short: that is the error to report.
				first = err
				break
			}
			if first == nil {
				first = err
			}
			continue
		}
		st = next
		p.Goals = append(p.Goals, g)
	}
	err := b.finish(s, p, first)
	if b.cfg.stats != nil {
		b.cfg.stats.recordPlan(PlannerBackward, NoGoal, b.started, p, err)
	}
	return err
}

// PlanGoal plans goal g alone from s, as a chain of steps.
func (b *BackwardChainer[S]) PlanGoal(ctx context.Context, s S, g GoalID) (Plan, error) {
	var p Plan
	err := b.PlanGoalInto(ctx, s, g, &p)
	return p, err
}

// PlanGoalInto is PlanGoal writing into p, whose storage is reused.
func (b *BackwardChainer[S]) PlanGoalInto(ctx context.Context, s S, g GoalID, p *Plan) error {
	return b.planGoal(ctx, s, g, nil, p)
}

// PlanGoalKeepingInto is PlanGoalInto along a way on which the goals of
// keep that hold in s hold after every step: a cheapest plan for g among
// those that never let one of them stop holding, or Unreachable when
// there is none. Goal regression does not see the states between its
// steps, so the chainer plans it with its forward search (A* with the
// derived estimate) on its own budget and step limit; with no goal of
// keep holding in s, it is PlanGoalInto. (An Agent asks for one when the plan
// PlanGoalInto gave would undo a goal of higher priority on its way: see
// KeepingPlanner.)
func (b *BackwardChainer[S]) PlanGoalKeepingInto(ctx context.Context, s S, g GoalID, keep []GoalID, p *Plan) error {
	return b.planGoal(ctx, s, g, keep, p)
}

// planGoal plans goal g alone from s into p, keeping the goals of keep
// holding on the way when there are any.
func (b *BackwardChainer[S]) planGoal(ctx context.Context, s S, g GoalID, keep []GoalID, p *Plan) error {
	if b.cfg.stats != nil {
		b.started = time.Now()
	}
	b.begin(ctx)
	p.Reset()
	b.call.protected = b.call.protected[:0]
	var first error
	if !b.d.Goals[g].Cond(s) {
		var err error
		if len(keep) > 0 && b.keep(s, keep) {
			_, err = b.achieveKeeping(g, s)
		} else {
			_, err = b.achieve(g, s)
		}
		if err != nil {
			first = err
		} else {
			p.Goals = append(p.Goals, g)
		}
	}
	err := b.finish(s, p, first)
	if b.cfg.stats != nil {
		b.cfg.stats.recordPlan(PlannerBackward, g, b.started, p, err)
	}
	return err
}

// keep makes the forward search keep the goals of keep that hold in s,
// and reports whether one does.
func (b *BackwardChainer[S]) keep(s S, keep []GoalID) bool {
	if b.fwd == nil {
		b.fwd = NewAStar(b.d)
	}
	b.fwd.keepHolding(s, keep)
	return len(b.fwd.keeps) > 0
}

// achieveKeeping plans goal g from st with the forward search, keeping
// the goals keep chose holding after every step.
func (b *BackwardChainer[S]) achieveKeeping(g GoalID, st S) (S, error) {
	c := &b.call
	c.goal = g
	c.event(TraceGoal, g, NoAction, 0, b.d.Goals[g].CondText)
	r := b.forward(st, b.cfg.maxSteps)
	b.fwd.keeps = b.fwd.keeps[:0]
	return b.conclude(g, st, 0, r)
}

// Candidates lists the actions that can serve goal g in s, in the order of
// the goal's options, among those whose precondition holds in s: the
// actions that fulfill g, then those that can make a conjunct of its
// condition that fails in s hold (any conjunct when g holds), then those
// that write the field of such a conjunct whose value in s is outside
// the field's range (a write lands it in the range).
func (b *BackwardChainer[S]) Candidates(g GoalID, s S) []ActionID {
	c := &b.d.goals[g]
	failing := c.failing(s)
	if failing == 0 {
		failing = ^uint64(0)
	}
	var lands uint64
	if c.landed&failing != 0 {
		b.call.probe = s
		lands = b.d.landable(c, failing, &b.call.probe)
	}
	var out []ActionID
	for _, o := range c.opts {
		if (o.helps&failing != 0 || o.lands&lands != 0) && b.d.Applicable(o.act, s) {
			out = append(out, o.act)
		}
	}
	for _, o := range c.landers {
		if o.lands&lands != 0 && b.d.Applicable(o.act, s) {
			out = append(out, o.act)
		}
	}
	return out
}

func (b *BackwardChainer[S]) begin(ctx context.Context) {
	w := &b.call.work
	w.reset(ctx, b.cfg.budget)
	if b.cfg.timeBudget > 0 {
		w.startClock(b.cfg.timeBudget)
	}
	if b.frame != 0 {
		w.deadline, w.poll = earlier(w.deadline, b.frame), pollTimed
	}
	b.call.steps = b.call.steps[:0]
	if b.cfg.trace != nil {
		b.cfg.trace.reset()
	}
}

// finish writes the call's plan into p, priced and verified, and returns
// the call's error.
func (b *BackwardChainer[S]) finish(s S, p *Plan, first error) error {
	c := &b.call
	p.Steps = append(p.Steps, c.steps...)
	p.Expansions, p.Generated = c.work.expansions, c.work.generated
	cost, err := b.d.planCost(s, p.Steps)
	if err != nil {
		p.Steps, p.Goals = p.Steps[:0], p.Goals[:0]
		return err
	}
	p.Cost = cost
	if c.work.err != nil {
		err := c.work.err
		c.work.ctx = nil
		return err
	}
	c.work.ctx = nil
	if err := b.d.verifyAt(s, p, &b.end); err != nil {
		// Unreachable by construction; never return an unverified plan.
		p.Steps, p.Goals, p.Cost = p.Steps[:0], p.Goals[:0], 0
		return err
	}
	return first
}

// achieve plans goal g from st: the greedy pass, then either the
// improvement, for a cheaper plan, or the rescue, for one the greedy pass
// did not find
// (rescue: when it failed, for its failure proves nothing, a plan may
// need what goal regression never chooses; but for a failure at the depth
// limit with nothing left untried). It appends the steps and returns the
// state they reach.
func (b *BackwardChainer[S]) achieve(g GoalID, st S) (S, error) {
	c := &b.call
	c.goal = g
	c.event(TraceGoal, g, NoAction, 0, b.d.Goals[g].CondText)
	rem := b.cfg.maxSteps - len(c.steps)
	mark := len(c.steps)
	b.proven = false
	r := b.greedy.run(st, rem)
	switch {
	case !b.cfg.chaining:
		// The improvement and the rescue chain: the greedy pass's plan,
		// or its failure, is the chainer's.
		if r.is(gaveUp) {
			r = result{kind: failed, reason: Unreachable, action: NoAction, undoes: NoGoal}
		}
	case r.is(found):
		r = b.improve(st, rem, mark)
	case r.is(gaveUp):
		b.greedy.partial = true
		r = b.rescue(st, rem, result{kind: failed, reason: Unreachable, action: NoAction, undoes: NoGoal})
	case r.is(failed) && (b.greedy.partial || r.reason != MaxDepthExceeded):
		// A failure the depth limit alone caused is the limit's (the
		// forward search would not keep to it).
		r = b.rescue(st, rem, r)
	}
	if r.is(found) && len(c.steps)-mark >= mergeLeast && !b.proven && b.cfg.chaining && b.cfg.improvement != 0 {
		b.merge(st, mark)
	}
	return b.conclude(g, st, mark, r)
}

// improve looks, after the greedy pass found a plan (the call's steps
// from mark), for a cheaper one: the greedy pass with the goal's later
// first choices (alternatives), then, when the plan costs more than the
// guess of a later first choice, after leads (leads, with a share of the
// improvement budget of their own), then the forward search bounded by
// the cheapest plan's cost (forwardImprove); it keeps the cheapest plan.
// It searches only when the greedy pass had a choice to make (else no
// other plan is as near at hand), the plan has a detour
// (see detour) or costs more than the guess of a plan that begins with a
// later first choice, or with a first choice run only as often as the
// state allows (greedy.rootLater, rootHand: the first choice may have
// been dear where its estimate was not), or began with a later first
// choice because the earlier ones failed (greedy.rootTaken: the greedy
// pass judges each step on its own, and may fail a choice that a plan
// goes through: the first delivery after buying fuel for the drive
// leaves the courier poorer than she set out, the fourth richer), or
// costs more than farAbove times the goal's lower bound and no more than
// farBeyond times (the alchemist's one brew, whose helpers walked to the
// market for tea and for herbs she juggled for: 16, where the bound is
// 5.7 and the cheapest plan 9), and the plan costs more than the goal's
// lower bound. It first drops the
// steps the plan does without (drop), and each plan it finds is dropped
// the same way.
//
// Goal regression's complete pass bounded by the plan's cost, which ran
// between the leads and the forward search until 2026-12-06, is gone: on every
// written role in bench the forward search alone finds plans as cheap
// or cheaper (the courier's and the homestead villager's dearest, 1.36
// and 1.38 times the cheapest with it, the cheapest without), in 10 to
// 50 % less time a call (BENCHMARKS.md, "The improvement without its
// complete pass").
func (b *BackwardChainer[S]) improve(st S, rem, mark int) result {
	c := &b.call
	if b.cfg.improvement == 0 || !b.greedy.branched {
		return result{kind: found}
	}
	later := min(b.greedy.rootLater, b.greedy.rootHand)
	c.probe = st // a field: the address of st would make every call allocate it
	detour := c.detour(&c.probe, c.steps[mark:])
	earlier := b.greedy.rootTaken > 0
	cost, err := b.d.planCost(st, c.steps[mark:])
	if err != nil {
		return result{kind: found} // finish reports the invalid cost
	}
	bound := c.goalBound(st)
	if cost <= bound {
		b.proven = true // nothing for merge to look for either
		return result{kind: found}
	}
	if !detour && !earlier && cost <= later*(1+1e-9) && (cost <= farAbove*bound || cost > farBeyond*bound) {
		return result{kind: found} // nothing to look for
	}
	if b.drop(st, mark) {
		if cost, err = b.d.planCost(st, c.steps[mark:]); err != nil || cost <= bound {
			return result{kind: found}
		}
	}
	b.best = append(b.best[:0], c.steps[mark:]...)
	end := c.end
	c.steps = c.steps[:mark]
	budget := c.work.budget
	c.work.budget = min(budget, c.work.expansions+b.cfg.improvement)
	before, first := c.work.expansions, cost
	cost, end = b.alternatives(st, rem, mark, cost, end)
	c.work.budget = min(budget, c.work.expansions+b.cfg.improvement)
	if first > later*(1+1e-9) {
		// A plan dearer than the guess of another first choice; leads
		// do not mend a detour (drop does).
		cost, end = b.leads(st, rem, mark, cost, end, false)
	}
	c.work.budget = budget
	c.work.expansions = min(c.work.expansions, budget)
	c.steps = c.steps[:mark]
	if c.trace != nil && cost < first {
		c.event(TraceImprove, c.goal, NoAction, 0, "a cheaper plan with another first choice or after a lead, of "+strconv.Itoa(len(b.best))+" steps, after "+counted(c.work.expansions-before, "expansion"))
	}
	r := result{kind: failed, reason: Unreachable, action: NoAction, undoes: NoGoal}
	if c.work.err == nil {
		r = b.forwardImprove(st, rem, mark, cost)
	}
	return b.cheaperOrBest(st, mark, r, end)
}

// forwardImprove looks for a plan cheaper than cost (the call's steps
// from mark, which it removes) with the forward search from st (see
// forwardBelow: A*, then weighted A*, until it proves none is cheaper):
// the improvement's last search, and the rescue's after a lead's plan
// (see improveLed).
// A plan that is cheap for the order of its trips (the alchemist's herbs
// and water in one trip to the garden) lies past many orders of the
// goal's parts for goal regression, where A* over states reaches it in
// few; and a plan far above the bound may have batched its runs badly (a
// settler who chopped and sold five loads of wood where three and the
// fish she carried do: 31, where A* finds 17 in 21 states). It returns
// the plan it found, else a failure (the context's or a cost's error,
// when one stopped it).
func (b *BackwardChainer[S]) forwardImprove(st S, rem, mark int, cost float64) result {
	c := &b.call
	c.steps = c.steps[:mark]
	r, ended := b.forwardBegin(st, rem, cost*(1+1e-9))
	if !ended {
		var cheaper bool
		if r, cheaper = b.forwardBelow(st, mark, cost); cheaper {
			return r
		}
	}
	if c.work.err != nil {
		return r // the context's
	}
	return result{kind: failed, reason: Unreachable, action: NoAction, undoes: NoGoal}
}

// forwardBelow resumes the forward search from st until it finds a plan
// cheaper than cost or proves there is none, for the improvement budget
// as A* (until the least f on its open list reaches cost), then for
// forwardMore times it weighed twice (until the least f reaches twice
// cost: g + 2h >= 2 cost makes g + h >= cost), then as long again
// weighed four times, and traces what it found. The estimate is often
// far below what plans cost (the farmhand's coins, 20 where the cheapest
// plan costs 32): A* alone proves little in its budget, and weighed it
// reaches plans below cost sooner (the innkeeper's 30 where the greedy
// pass's plan costs 56: none in 768 states weighed at most twice, 20
// more weighed four times; A* alone needs 1,864 for the cheapest, 23).
// It opens no state whose cost so far and estimate come to more than cost
// (branch and bound: no plan through it costs less), so that weighed it
// reaches only plans that cost no more; one that costs as much ends it.
// When it ended at the first plan it reached, however dear, the tailor's
// 24 stood where the cheapest costs 21, and 76 plans of the glassblower,
// the tailor and the prospector cost more than they now do (BENCHMARKS.md,
// "The improvement opens only cheaper states"). It
// reports whether it found a plan cheaper than cost (the call's steps
// from mark); else those steps are gone, a cost's error is forgotten,
// and r is the context's error when that stopped it.
func (b *BackwardChainer[S]) forwardBelow(st S, mark int, cost float64) (r result, cheaper bool) {
	c := &b.call
	n := b.cfg.improvement
	before := c.work.expansions
	r, ended := b.forwardUntil(st, n, cost*(1-1e-9))
	if !ended && !b.proved(cost) && c.work.err == nil {
		if n <= math.MaxInt/forwardMore {
			n *= forwardMore
		}
		b.fwd.reweigh(improveWeight)
		r, ended = b.forwardUntil(st, n, improveWeight*cost*(1-1e-9))
		if !ended && !b.proved(improveWeight*cost) && c.work.err == nil {
			b.fwd.reweigh(2 * improveWeight)
			r, ended = b.forwardUntil(st, n, 2*improveWeight*cost*(1-1e-9))
		}
	}
	if cheaper = ended && r.is(found); cheaper {
		fc, err := b.d.planCost(st, c.steps[mark:])
		cheaper = err == nil && fc < cost
	}
	if c.trace != nil {
		detail := "no cheaper plan searching forward"
		if cheaper {
			detail = "searching forward, a plan of " + counted(len(c.steps)-mark, "step")
		}
		c.event(TraceImprove, c.goal, NoAction, 0, detail+", after "+counted(c.work.expansions-before, "state"))
	}
	if !cheaper {
		c.steps = c.steps[:mark]
		c.costErr = nil
	}
	return r, cheaper
}

// proved reports whether the forward search, paused by forwardUntil
// with bound w*cost at its weight w, paused because the least f on its
// open list reached the bound (a proof that no plan costs less than
// cost: see forwardUntil), not because its expansions ran out. A search
// weighed more after a proof would only spend them.
func (b *BackwardChainer[S]) proved(bound float64) bool {
	return b.fwd.open.minF() >= bound*(1-1e-9)
}

// cheaperOrBest ends a search for a plan cheaper than b.best (which
// reaches end): the search's plan when r found one (the steps it does
// without dropped), r when the pass stopped on the context or an
// invalid cost, else b.best.
func (b *BackwardChainer[S]) cheaperOrBest(st S, mark int, r result, end S) result {
	c := &b.call
	switch {
	case r.is(found):
		b.drop(st, mark)
		return r
	case c.work.err != nil || r.reason == InvalidCost:
		return r
	}
	return b.keepBest(mark, end)
}

// keepBest makes b.best, which reaches end, the goal's steps.
func (b *BackwardChainer[S]) keepBest(mark int, end S) result {
	c := &b.call
	c.steps = append(c.steps[:mark], b.best...)
	c.end = end
	return result{kind: found}
}

// alternatives runs the greedy pass again, within the improvement
// budget, with each of the goal frame's first choices after the one its
// plan (b.best, of cost best, reaching end) began with taken first: a
// plan whose first choice was an action that fulfills the goal behind a
// long chain, where a cheap action that moves the goal's field would do
// (panning the river, not digging and selling ore), is a few greedy
// passes from the cheaper one, where a search might need hundreds of
// expansions. Then, where the cheapest plan takes helpers
// three times or more that another action outsteps (see repeated), it
// runs the greedy pass once more without each of them, the two taken
// most often: each time the pass needed a little energy it napped,
// where a rest at home gives four times as much for the steps after
// (the beekeeper's 56 → 49, where the cheapest costs 41). A plan that
// sells honey seven times and naps six (the beekeeper at the market
// with energy 2) goes without the sales first, and without the naps
// then. It keeps the cheapest plan in b.best and returns its cost and
// end state.
func (b *BackwardChainer[S]) alternatives(st S, rem, mark int, best float64, end S) (float64, S) {
	c, g := &b.call, &b.greedy
	for k := g.rootTaken + 1; k > 0 && k < g.rootLen; k = g.rootTaken + 1 {
		c.steps = c.steps[:mark]
		g.rootFrom = k
		r := g.run(st, rem)
		g.rootFrom = 0
		if !r.is(found) {
			break // no later choice works, or the budget is spent
		}
		best, end = b.keepCheaper(st, mark, best, end)
	}
	// The helpers are chosen before the passes, which change b.best.
	var helpers [maxWithout]ActionID
	for _, h := range b.repeated(&helpers) {
		c.steps = c.steps[:mark]
		g.without = h
		r := g.run(st, rem)
		g.without = NoAction
		if r.is(found) {
			best, end = b.keepCheaper(st, mark, best, end)
		}
	}
	return best, end
}

// maxWithout is how many of the plan's repeated helpers the improvement
// goes without, one pass each (see repeated).
const maxWithout = 2

// keepCheaper drops the steps the call's plan from mark (a plan from st)
// does without, and keeps it in b.best when it costs less than best, the
// cost of b.best, which reaches end. It returns the cost of b.best and
// its end.
func (b *BackwardChainer[S]) keepCheaper(st S, mark int, best float64, end S) (float64, S) {
	c := &b.call
	b.drop(st, mark)
	if cost, err := b.d.planCost(st, c.steps[mark:]); err == nil && cost < best {
		best, end = cost, c.end
		b.best = append(b.best[:0], c.steps[mark:]...)
	}
	return best, end
}

// repeated fills out with the actions the plan b.best takes three
// times or more, where another action moves a field they raise further
// in one step (napping for one energy where a rest gives four), the
// most often taken first (then the first taken), len(out) at most, and
// returns them.
func (b *BackwardChainer[S]) repeated(out *[maxWithout]ActionID) []ActionID {
	var times [maxWithout]int
	n := 0
	for i, h := range b.best {
		if !b.d.outstepped[h] || slices.Index(b.best, h) != i {
			continue // counted at its first
		}
		k := 0
		for _, x := range b.best {
			if x == h {
				k++
			}
		}
		if k < 3 {
			continue
		}
		// Insert by times taken, after those taken as often.
		j := min(n, maxWithout-1)
		if n == maxWithout && k <= times[j] {
			continue
		}
		for j > 0 && times[j-1] < k {
			out[j], times[j] = out[j-1], times[j-1]
			j--
		}
		out[j], times[j] = h, k
		n = min(n+1, maxWithout)
	}
	return out[:n]
}

// rescue searches for a plan the greedy pass, which failed with greedy,
// did not find, unless the goal is proved out of reach first (see
// reach.go), or some part of it needs more steps than the limit leaves,
// whatever the plan. It tries leads first (see leads; rescueLeads
// expansions in all), and when one finds a plan looks for a cheaper one
// (improveLed). Else the forward search (see forward) plans the goal on
// what is left of the budget: it finds the plans goal regression does
// not build (some begin with a step that undoes the goal's field to make
// another possible, meditating for mana lets the charge go; some need a
// step that serves nothing, setting a field to 0 to count up to 1 from
// it), and its plans are the cheapest, or past forwardExact states at
// most so many times the cheapest (forwardWeights).
//
// Until 2026-12-06 goal regression's complete pass (the greedy pass's
// choices searched best first, every situation that failed remembered)
// ran beside it, 400 expansions at most, 32 at a time in turn, and a
// plan it found first was looked at again forward for a cheaper one. On
// every written role in bench the forward search alone plans the same
// pairs, as cheaply or more so, with fewer expansions; the random roles'
// figures are the same (BENCHMARKS.md, "The rescue without its complete
// pass").
func (b *BackwardChainer[S]) rescue(st S, rem int, greedy result) result {
	c := &b.call
	c.probe = st
	// The greedy pass may have proved it already (greedyProveAfter).
	steps, relaxed := math.Inf(1), b.greedy.proved || b.d.unreachable(c.goal, &c.probe, &b.reach)
	if !relaxed {
		steps = c.stepsBound(st)
	}
	switch {
	case math.IsInf(steps, 1): // proved out of reach
		greedy.cut = false
		// The greedy pass's own reason, when it has one, says more.
		greedy.relaxed = relaxed && greedy.reason == Unreachable && greedy.action == NoAction && greedy.undoes == NoGoal
		return greedy
	case steps > float64(rem):
		return result{kind: failed, cut: true, reason: MaxStepsExceeded, action: NoAction, undoes: NoGoal}
	}
	mark := len(c.steps)
	budget := c.work.budget
	// Leads first: where the greedy pass failed for what its steps spent
	// (the vigor to row back), a plan that begins by resting is a few
	// greedy passes away, where a search over states may need thousands
	// of expansions.
	b.best = b.best[:0]
	c.work.budget = min(budget, c.work.expansions+rescueLeads)
	cost, end := b.leads(st, rem, mark, math.Inf(1), st, true)
	c.work.budget = budget
	switch {
	case c.work.err != nil:
		return c.work.stop()
	case !math.IsInf(cost, 1):
		return b.improveLed(st, rem, mark, cost, end)
	case c.work.late:
		return c.work.stop()
	}
	r := b.forward(st, rem)
	if c.trace != nil {
		detail := "no plan"
		switch {
		case r.is(found) && b.fwd.weight != 1:
			detail = "a plan at most " + timesWord(b.fwd.weight) + " the cheapest, of " + counted(len(c.steps)-mark, "step")
		case r.is(found):
			detail = "the cheapest plan, of " + counted(len(c.steps)-mark, "step")
		}
		c.event(TraceSearch, c.goal, NoAction, 0, detail+", after "+counted(b.fwd.expansions, "state"))
	}
	if r.is(failed) {
		if r.cut {
			// Every plan found is longer than the step limit.
			return result{kind: failed, reason: MaxStepsExceeded, action: NoAction, undoes: NoGoal}
		}
		return greedy
	}
	if r.is(found) {
		b.drop(st, mark)
	}
	return r
}

// forwardTurn is how many expansions the forward search runs between
// its looks at the least f on its open list (see forwardUntil).
const forwardTurn = 32

// improveWeight is the weight of the estimate in forwardBelow's search
// past the improvement budget.
const improveWeight = 2

// farAbove is how many times the goal's lower bound a plan must cost for
// the improvement to run where nothing else calls for it (see improve).
const farAbove = 1.5

// farBeyond is how many times the goal's lower bound a plan may cost for
// the improvement to run on that alone (see improve): a bound so far
// below the plan knows too little of the role to guide a search (the
// crafter's iron pick, 25 against a bound of 2: the improvement spent
// 1,561 expansions, 44 times the instructions, on a plan already the
// cheapest).
const farBeyond = 8

// forwardMore is how many times the improvement budget the forward
// search for a cheaper plan (forwardBelow) may go on for weighed, after
// as many as the budget unweighed. The plan it is to beat may cost half
// as much again as the cheapest (the baker's, in bench). When it was chosen
// (before the supplies' estimate netted what a second giver takes from
// the part's field, which made her searches shorter), going on for the
// budget once left 9.5 % of her plans over 1.2 times the cheapest, twice
// 8.1 %, four times 6.0 % but the villager's dearest call then grew
// from 0.60 to 0.78 ms.
const forwardMore = 2

// forwardUntil resumes the forward search from st for n more expansions
// at most, forwardTurn at a time, and pauses as soon as the least f on its
// open list reaches bound: unweighed, f is a lower bound on every plan it
// has yet to find (its estimate being admissible), and no plan it would
// find then costs less; weighed w times, none costs less than bound / w.
// It reports false when it paused.
func (b *BackwardChainer[S]) forwardUntil(st S, n int, bound float64) (result, bool) {
	for n > 0 && b.fwd.open.minF() < bound {
		turn := min(forwardTurn, n)
		n -= turn
		if r, ended := b.forwardRun(st, turn); ended { // A* proper: the bound is a proof
			return r, true
		}
	}
	return result{}, false
}

// improveLed looks for a plan cheaper than the one a lead found in the
// rescue (b.best, of cost best, reaching end) with the forward search
// bounded by its cost (forwardImprove), and keeps the cheaper plan. Goal
// regression's complete pass bounded by that cost used to look first,
// and the forward search only for a plan more than farAbove times the
// goal's lower bound: without it, the baker's, the fisher's and the
// lighthouse keeper's dearest plans on the written roles cost 1.32 →
// 1.13, 1.25 → 1.07 and 1.47 → 1.00 times the cheapest, with fewer
// expansions (BENCHMARKS.md, "The rescue without its complete pass").
func (b *BackwardChainer[S]) improveLed(st S, rem, mark int, best float64, end S) result {
	if b.cfg.improvement == 0 || best <= b.call.goalBound(st) {
		return b.keepBest(mark, end) // not asked to, or nothing is cheaper
	}
	r := b.forwardImprove(st, rem, mark, best)
	return b.cheaperOrBest(st, mark, r, end)
}

// forward plans the call's goal and the goals it protects from st, in rem
// steps at most, with A* (the domain's derived estimate), on what is left
// of the call's budget: a cheapest plan, or past forwardExact states one
// at most so many times the cheapest (forwardWeights). On success it appends the
// steps and sets the call's end state.
func (b *BackwardChainer[S]) forward(st S, rem int) result {
	if r, ended := b.forwardBegin(st, rem, math.Inf(1)); ended {
		return r
	}
	r, _ := b.forwardResume(st, -1)
	return r
}

// forwardBegin begins the forward search (see forward) from st without
// expanding a state, opening no state whose cost so far and estimate
// come to below or more (see AStar.below): true when it ended at its
// root, with r, or when the call's time budget was spent before it
// (then neither it nor forwardRun searches: every forward search of the
// call, the rescue's and the improvement's, begins and resumes through
// them).
func (b *BackwardChainer[S]) forwardBegin(st S, rem int, below float64) (result, bool) {
	c := &b.call
	if c.work.late {
		return c.work.stop(), true // the call's time is spent
	}
	if b.fwd == nil {
		b.fwd = NewAStar(b.d)
	}
	a, p := b.fwd, &b.fplan
	a.budget, a.maxSteps = c.work.budget, int32(min(rem, math.MaxInt32))
	a.setDeadline(c.work.deadline)
	a.weight, a.below = 1, below
	p.Reset()
	p.Expansions = c.work.expansions
	b.fgoals = append(append(b.fgoals[:0], c.goal), c.protected...)
	if err := a.begin(b.ctx(), st, b.fgoals, p); err != nil {
		return b.forwardEnd(st, -1, err), true
	}
	return result{}, false
}

// forwardResume runs the forward search begun from st until it ends, or
// for n more expansions when n >= 0: false when it paused. The call's
// other searches may have spent some of its budget since it began.
// Past each of forwardWeights' counts of expansions, the search weighs
// its estimate more.
func (b *BackwardChainer[S]) forwardResume(st S, n int) (result, bool) {
	a := b.fwd
	for _, w := range forwardWeights {
		if a.weight >= w.weight {
			continue
		}
		if left := w.after - a.expansions; left > 0 {
			if n >= 0 && n <= left {
				return b.forwardRun(st, n)
			}
			if r, ended := b.forwardRun(st, left); ended {
				return r, true
			}
			if n >= 0 {
				n -= left
			}
		}
		a.reweigh(w.weight)
	}
	return b.forwardRun(st, n)
}

// forwardWeights are the weights the chainer's forward search gives its
// estimate past so many expansions: A* proper for forwardExact states,
// then weighted A*, whose plans cost at most weight times the cheapest.
// A* needs thousands of states on the written roles' dearest rescues
// (the baker at home with 3 coins and no energy: 5,134 states, 1.4 ms),
// where the estimate is far below the plans' cost; weighed twice, the
// same rescue ends after 553 (her plan costs 72 where the cheapest costs
// 66). Where the estimate is lower still, twice is not enough: the
// hunter in the forest with nothing is to save 25 coins; her estimate,
// 17, misses the bow, the arrows and most of the walks of a plan that
// costs 52, and weighed twice the search took 4,007 states (2.2 ms)
// for a plan of 58. Weighed four times past 1,024 states, it takes
// 1,064, for the same plan. The armorer's dearest rescues (25 coins from
// none, the cheapest plans 51 to 64) ran out of the budget of 10,000
// weighed four times; weighed eight times past 2,048 states, ten of
// twelve end after 3,500 to 8,700, with plans 1.03 to 1.35 times the
// cheapest.
var forwardWeights = [...]struct {
	after  int
	weight float64
}{{forwardExact, 2}, {forwardLonger, 4}, {forwardLongest, 8}}

// forwardExact is how many states the chainer's forward search expands
// as A* proper, forwardLonger how many before it weighs its estimate
// four times, forwardLongest eight times (see forwardWeights).
const (
	forwardExact   = 512
	forwardLonger  = 1024
	forwardLongest = 2048
)

// The weights rise with the expansions (this fails to compile
// otherwise).
const (
	_ = uint(forwardLonger - forwardExact - 1)
	_ = uint(forwardLongest - forwardLonger - 1)
)

// forwardRun runs the forward search begun from st as forwardResume
// does, at the weight it has.
func (b *BackwardChainer[S]) forwardRun(st S, n int) (result, bool) {
	c, a := &b.call, b.fwd
	if c.work.late {
		return c.work.stop(), true
	}
	before := a.expansions
	a.hard = a.expansions + max(c.work.budget-c.work.expansions, 0)
	goal, err := a.resume(b.ctx(), n)
	c.work.expansions = min(c.work.expansions+a.expansions-before, c.work.budget)
	if err == errPaused {
		return result{}, false
	}
	return b.forwardEnd(st, goal, err), true
}

// forwardEnd ends the forward search from st, which ended at goal or with
// err: on success it appends the steps and sets the call's end state.
func (b *BackwardChainer[S]) forwardEnd(st S, goal int32, err error) result {
	c, p := &b.call, &b.fplan
	err = b.fwd.conclude(st, goal, err, p)
	c.work.generated += p.Generated
	perr, _ := err.(*PlanningError) // A*'s errors are; the context's are not
	switch {
	case err == nil:
		c.steps = append(c.steps, p.Steps...)
		c.end = st
		b.d.replay(&c.end, p.Steps)
		return result{kind: found}
	case perr == nil:
		c.work.err = err // the context's
		return result{kind: stopped, action: NoAction, undoes: NoGoal}
	case perr.Reason == SearchBudgetExceeded:
		return result{kind: stopped, reason: SearchBudgetExceeded, action: NoAction, undoes: NoGoal}
	case perr.Reason == TimeBudgetExceeded:
		c.work.spent()
		return c.work.stop()
	case perr.Reason == InvalidCost:
		e := *perr
		c.costErr = &e
		return result{kind: stopped, reason: InvalidCost, action: e.Action, undoes: NoGoal}
	case perr.Reason == MaxStepsExceeded:
		return result{kind: failed, cut: true, reason: MaxStepsExceeded, action: NoAction, undoes: NoGoal}
	}
	return result{kind: failed, reason: perr.Reason, action: NoAction, undoes: NoGoal}
}

// ctx is the call's context, for the searches that take one.
func (b *BackwardChainer[S]) ctx() context.Context {
	if ctx := b.call.work.ctx; ctx != nil {
		return ctx
	}
	return context.Background()
}

// conclude ends the planning of goal g from st, whose steps start at
// mark, with r: the state the steps reach, or the goal's error.
func (b *BackwardChainer[S]) conclude(g GoalID, st S, mark int, r result) (S, error) {
	c := &b.call
	switch {
	case r.is(found):
		c.event(TraceGoalDone, g, NoAction, 0, "")
		return c.end, nil
	case c.work.err != nil:
		c.steps = c.steps[:mark]
		return st, c.work.err
	case c.costErr != nil:
		c.steps = c.steps[:mark]
		err := c.costErr
		err.Goal, err.GoalName = g, b.d.GoalName(g)
		c.costErr = nil
		return st, err
	}
	c.steps = c.steps[:mark]
	if r.reason == 0 {
		r = fail(0, Unreachable, NoAction, 0)
	}
	err := b.error(r, g)
	if c.trace != nil {
		c.event(TraceGoalFailed, g, NoAction, 0, err.Error())
	}
	return st, err
}

// error turns the failure r into the PlanningError of goal g: one an
// earlier call returned, when it is the same.
func (b *BackwardChainer[S]) error(r result, g GoalID) *PlanningError {
	e := b.d.errorValue(r.reason, g, r.action)
	e.Depth = int(r.depth)
	switch {
	case r.reason == MaxStepsExceeded:
		e.Limit = b.cfg.maxSteps
	case r.reason == MaxDepthExceeded:
		e.Limit = b.cfg.maxDepth
	case r.reason == SearchBudgetExceeded:
		e.Limit = b.cfg.budget
	case r.reason == TimeBudgetExceeded:
		e.TimeBudget = b.cfg.timeBudget
	case r.reason == Unreachable && r.undoes != NoGoal:
		e.Undoes = b.d.GoalName(r.undoes)
	case r.reason == Unreachable && r.relaxed:
		// The proof was the chainer's last (see rescue).
		e.Relaxed, e.Fields = true, b.d.partFields(g, b.reach.part)
	}
	return b.errs.keep(&e)
}
