package runtime

import (
	"context"
	"errors"
	"time"
)

// Actor is what an Agent needs of a role: the methods rolegen generates.
// PerformStep runs one tick of an action: an action that takes ticks
// (its method takes a Step and returns a Status) once, any other action
// whole.
type Actor[S comparable] interface {
	PlanState() S
	PerformStep(ctx context.Context, a ActionID, t Step) (Status, error)
}

// GoalPlanner is what an Agent needs of a planner: a plan for one goal,
// written into a Plan whose storage it reuses. NewBackwardChainer,
// NewAStar and NewUtilityPlanner return one.
type GoalPlanner[S comparable] interface {
	Domain() *Domain[S]
	PlanGoalInto(ctx context.Context, s S, g GoalID, p *Plan) error
}

// Agent runs a role in a game loop, one Tick a frame: it keeps a plan
// across ticks (the goal it serves, the current step and its status),
// calls the current step's method once a tick, and plans only for a
// reason (Replan), which it reports: it has no plan, the plan is done or
// a step failed, the next step's precondition does not hold, the rest of
// the plan no longer reaches its goal, a goal of higher priority stopped
// holding, a goal that could not be planned is due again, or the plan is
// older than WithReplanInterval.
//
// Its checks are cheap: it reads the live state every tick, and checks
// its plan only when a field that the remaining steps, the plan's goal or
// a goal of higher priority read has changed since the last tick; an idle
// agent looks at its goals only when a field they read changed.
//
// It plans one goal at a time, highest priority first among those that do
// not hold, with the planner's PlanGoalInto. A goal that cannot be planned
// backs off: it is planned again after 1, 2, 4, … ticks (up to
// WithMaxBackoff), or at once when a field its planning depends on
// changes, and the agent serves the next goal meanwhile.
//
// A running step whose action is uninterruptible finishes before the
// agent checks or replans anything; another is abandoned when the agent
// takes a new plan that does not begin with it, and its method is called
// one last time with Step.Interrupted set.
//
// An Agent is not safe for concurrent use; a Crowd ticks many at once.
// Steady ticks allocate nothing.
type Agent[S comparable] struct {
	role    Actor[S]
	d       *Domain[S]
	t       *agentTables
	cfg     *agentConfig
	planner GoalPlanner[S] // a lone agent's; a crowd's agents use its workers'
	id      int
	inCrowd bool

	tick    uint64
	cur     S        // the live state read this tick
	last    S        // the live state of the tick before, then this tick's
	seen    bool     // last holds a state
	changed fieldSet // the fields that changed since the tick before

	// The plan: steps for goal (NoGoal: none), the current step and
	// whether it has begun.
	steps   []ActionID
	goal    GoalID
	step    int
	running bool
	ticks   int
	status  Status
	planned uint64   // the tick the plan was made
	watch   fieldSet // the fields the plan's checks read
	recheck bool     // check the plan whatever changed: a step just ended
	reason  Replan   // why the plan was made, or, without one, dropped
	ended   Replan   // without a plan, the reason to make one: why the last ended
	err     error    // the last step's or planning's error

	// need is why the agent wants to plan this tick (ReplanNone: it
	// does not); since is the tick it began to want to.
	need  Replan
	since uint64
	grant int  // the planner calls a crowd gives it this tick (-1: any)
	idle  bool // every goal held at the last look

	backoff []goalBackoff
	own     *agentScratch // a lone agent's scratch and counts
}

// agentScratch is what an agent's tick writes besides the agent: a lone
// agent has its own, a crowd's workers one each.
type agentScratch struct {
	plan   Plan
	reach  reach
	counts agentCounts // flushed to the stats, if any, after each tick
}

// goalBackoff is how a goal that could not be planned waits.
type goalBackoff struct {
	failures uint32
	// dirty: a field the goal's planning depends on changed since it
	// failed.
	dirty   bool
	retryAt uint64
}

// NewAgent returns an agent running role with planner p (which it alone
// must use: planners are not safe for concurrent use).
func NewAgent[S comparable](p GoalPlanner[S], role Actor[S], opts ...AgentOption) *Agent[S] {
	cfg := defaultAgentConfig()
	for _, o := range opts {
		o.applyAgent(&cfg)
	}
	a := newAgent(p.Domain(), role, &cfg, cfg.id)
	a.planner, a.own = p, &agentScratch{}
	return a
}

func newAgent[S comparable](d *Domain[S], role Actor[S], cfg *agentConfig, id int) *Agent[S] {
	t := d.agentTables()
	return &Agent[S]{
		role: role, d: d, t: t, cfg: cfg, id: id,
		goal:    NoGoal,
		ended:   ReplanNoPlan,
		changed: newFieldSet(t.words),
		watch:   newFieldSet(t.words),
		backoff: make([]goalBackoff, len(d.Goals)),
	}
}

// Tick runs the agent for one tick: it reads the live state, checks its
// plan where something it reads changed, plans if it has a reason to,
// and calls the current step's method once. A lone agent only: a
// crowd's agents are ticked by Crowd.Tick.
func (a *Agent[S]) Tick(ctx context.Context) {
	if a.inCrowd {
		panic("runtime: Agent.Tick on an agent of a crowd: call Crowd.Tick")
	}
	a.sense(ctx, a.tick+1, &a.own.counts)
	a.act(ctx, a.planner, a.own, -1, time.Time{})
	if s := a.cfg.stats; s != nil {
		s.addAgents(&a.own.counts)
		a.own.counts = agentCounts{}
	}
}

// Role returns the agent's role.
func (a *Agent[S]) Role() Actor[S] { return a.role }

// View returns what the agent is doing.
func (a *Agent[S]) View() AgentView { return a.view(0) }

func (a *Agent[S]) view(e AgentEvent) AgentView {
	v := AgentView{
		ID: a.id, Tick: a.tick, Event: e,
		Goal: a.goal, Plan: a.steps, Step: a.step, Action: NoAction,
		Status: a.status, Ticks: a.ticks, Reason: a.reason,
	}
	if a.goal != NoGoal && a.step < len(a.steps) {
		v.Action = a.steps[a.step]
	}
	if e == EventStepFailed || e == EventPlanFailed {
		v.Err = a.err
	}
	return v
}

// observe tells the observer, if any, of event e.
func (a *Agent[S]) observe(e AgentEvent) {
	if f := a.cfg.observe; f != nil {
		f(a.view(e))
	}
}

// sense reads the live state at tick and decides whether the agent needs
// a plan (a.need), dropping a plan the live state broke.
func (a *Agent[S]) sense(ctx context.Context, tick uint64, c *agentCounts) {
	a.tick = tick
	c.ticks++
	a.cur = a.role.PlanState()
	a.diff()
	a.last = a.cur
	for g := range a.backoff {
		if b := &a.backoff[g]; b.failures > 0 && !b.dirty && a.changed.meets(a.t.depends[g]) {
			b.dirty = true
		}
	}
	need := a.decide(ctx, c)
	if need != ReplanNone && a.need == ReplanNone {
		a.since = tick
	}
	a.need = need
}

// diff sets a.changed to the fields in which a.cur differs from the
// state of the tick before (all of them on the first tick).
func (a *Agent[S]) diff() {
	switch {
	case !a.seen:
		a.changed.fill()
		a.seen = true
	case a.cur == a.last:
		a.changed.clear()
	case a.d.Changed != nil:
		a.changed.clear()
		a.d.Changed(&a.cur, &a.last, a.changed)
	default:
		a.changed.fill()
	}
}

// decide returns why the agent should plan now, or ReplanNone.
func (a *Agent[S]) decide(ctx context.Context, c *agentCounts) Replan {
	if a.goal != NoGoal {
		if a.running && a.d.Actions[a.steps[a.step]].Uninterruptible {
			return ReplanNone
		}
		if a.recheck || a.changed.meets(a.watch) {
			a.recheck = false
			c.checks++
			switch r := a.validate(); r {
			case ReplanInterrupted:
				return r
			case ReplanNone:
			default:
				a.drop(ctx, r, c)
			}
		}
	}
	if a.goal != NoGoal {
		if a.need == ReplanInterrupted && a.interrupting() {
			return ReplanInterrupted // still waiting for a planner call
		}
		for _, h := range a.t.higher[a.goal] {
			if b := &a.backoff[h]; b.failures > 0 && a.eligible(h) && !a.d.Goals[h].Cond(a.last) {
				return ReplanRetry
			}
		}
		if a.cfg.interval > 0 && a.tick-a.planned >= a.cfg.interval {
			return ReplanInterval
		}
		return ReplanNone
	}
	if a.idle && !a.changed.meets(a.t.anyGoal) && !a.due() {
		return ReplanNone
	}
	a.idle = true
	for _, g := range a.t.order {
		if a.d.Goals[g].Cond(a.last) {
			a.backoff[g] = goalBackoff{}
			continue
		}
		a.idle = false
		if a.eligible(g) {
			if a.backoff[g].failures > 0 {
				return ReplanRetry
			}
			return a.ended
		}
	}
	if a.idle {
		a.ended = ReplanNoPlan // the next goal to stop holding
	}
	return ReplanNone
}

// interrupting reports whether a goal of higher priority than the plan's
// does not hold and may be planned.
func (a *Agent[S]) interrupting() bool {
	for _, h := range a.t.higher[a.goal] {
		if !a.d.Goals[h].Cond(a.last) && a.eligible(h) {
			return true
		}
	}
	return false
}

// due reports whether a goal that could not be planned is due again.
func (a *Agent[S]) due() bool {
	for g := range a.backoff {
		if b := &a.backoff[g]; b.failures > 0 && (b.dirty || a.tick >= b.retryAt) {
			return true
		}
	}
	return false
}

// eligible reports whether goal g, which does not hold, may be planned
// now: it has not failed, or its backoff is over, or a field its
// planning depends on changed since it failed.
func (a *Agent[S]) eligible(g GoalID) bool {
	b := &a.backoff[g]
	return b.failures == 0 || b.dirty || a.tick >= b.retryAt
}

// validate checks the plan against the live state: ReplanDone when its
// goal holds already, ReplanStale when the next step (not begun) cannot
// begin, ReplanBroken when the rest of the plan, replayed from the live
// state (from the running step's post, for a running step), does not
// reach the goal, ReplanInterrupted when a goal of higher priority that
// may be planned does not hold; ReplanNone when the plan stands.
func (a *Agent[S]) validate() Replan {
	d, live := a.d, a.last
	if d.Goals[a.goal].Cond(live) {
		return ReplanDone
	}
	s, i := live, a.step
	if a.running {
		s, i = d.Apply(a.steps[i], s), i+1
	}
	for ; i < len(a.steps); i++ {
		act := a.steps[i]
		if !d.Applicable(act, s) {
			if i == a.step {
				return ReplanStale
			}
			return ReplanBroken
		}
		s = d.Apply(act, s)
	}
	if !d.Goals[a.goal].Cond(s) {
		return ReplanBroken
	}
	if a.interrupting() {
		return ReplanInterrupted
	}
	return ReplanNone
}

// drop abandons the plan for reason r, telling a running step.
func (a *Agent[S]) drop(ctx context.Context, r Replan, c *agentCounts) {
	if a.running {
		a.interrupt(ctx, c)
	}
	a.reason, a.ended = r, r
	a.observe(EventDropped)
	c.dropped[r]++
	a.goal, a.steps, a.step = NoGoal, a.steps[:0], 0
	a.idle = false
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

// act plans when the agent needs to and may (grant planner calls, or
// any number when grant < 0; none after deadline, when set), then calls
// the current step's method.
func (a *Agent[S]) act(ctx context.Context, p GoalPlanner[S], sc *agentScratch, grant int, deadline time.Time) {
	c := &sc.counts
	if a.need != ReplanNone && grant != 0 {
		a.replan(ctx, p, sc, grant, deadline)
	}
	switch {
	case a.goal != NoGoal:
		c.acting++
		a.perform(ctx, c)
	case a.idle:
		c.idle++
	default:
		c.waiting++
	}
}

// replan tries the goals the reason concerns, highest priority first,
// until one is planned or the grant is spent.
//
// A goal that the relaxed reachability of the annotations proves out of
// reach from the live state fails without a planner call.
func (a *Agent[S]) replan(ctx context.Context, p GoalPlanner[S], sc *agentScratch, grant int, deadline time.Time) {
	c, buf := &sc.counts, &sc.plan
	goals := a.t.order
	if a.goal != NoGoal && (a.need == ReplanInterrupted || a.need == ReplanRetry) {
		goals = a.t.higher[a.goal]
	}
	calls := 0
	for _, g := range goals {
		if a.goal != NoGoal && g == a.goal && a.need != ReplanInterval {
			break
		}
		if a.d.Goals[g].Cond(a.last) || !a.eligible(g) {
			continue
		}
		if a.d.unreachable(g, &a.last, &sc.reach) {
			c.proven++
			a.failed(g, a.t.unreachable[g], c)
			continue
		}
		if grant >= 0 && calls >= grant || !deadline.IsZero() && !time.Now().Before(deadline) {
			return // the rest waits for the next tick
		}
		calls++
		c.calls++
		err := p.PlanGoalInto(ctx, a.last, g, buf)
		if err == nil && len(buf.Steps) > 0 {
			a.adopt(ctx, g, buf.Steps, c)
			a.need = ReplanNone
			return
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
	a.need = ReplanNone
}

// errNoSteps is a planner's empty plan for a goal that does not hold.
var errNoSteps = errors.New("the planner returned no step for a goal that does not hold")

// failed backs goal g off after a failed planner call.
func (a *Agent[S]) failed(g GoalID, err error, c *agentCounts) {
	b := &a.backoff[g]
	wait := a.cfg.maxBackoff
	if b.failures < 63 && uint64(1)<<b.failures < wait {
		wait = 1 << b.failures
	}
	b.failures++
	b.dirty = false
	b.retryAt = a.tick + wait
	a.err = err
	if f := a.cfg.observe; f != nil {
		v := a.view(EventPlanFailed)
		v.Goal, v.RetryAt = g, b.retryAt
		f(v)
	}
}

// adopt makes steps, a plan for goal g, the agent's plan. A running step
// the plan begins with goes on; another is interrupted.
func (a *Agent[S]) adopt(ctx context.Context, g GoalID, steps []ActionID, c *agentCounts) {
	keep := a.running && a.steps[a.step] == steps[0]
	if a.running && !keep {
		a.interrupt(ctx, c)
	}
	a.steps = append(a.steps[:0], steps...)
	a.goal, a.step, a.planned, a.reason = g, 0, a.tick, a.need
	a.backoff[g] = goalBackoff{}
	a.idle = false
	a.rewatch()
	c.plans[a.reason]++
	a.observe(EventPlanned)
}

// rewatch sets the fields the plan's checks read: those of its goal and
// the goals of higher priority, and those of its remaining steps; while a
// step runs, the rest is replayed from its post, so the fields it sets
// to constants do not count but the fields its effect reads do.
func (a *Agent[S]) rewatch() {
	w, t := a.watch, a.t
	w.clear()
	w.union(t.goalReads[a.goal])
	w.union(t.higherReads[a.goal])
	rest := a.steps[a.step:]
	if !a.running {
		for _, act := range rest {
			w.union(t.actionReads[act])
		}
		return
	}
	cur := rest[0]
	w.union(t.effectReads[cur])
	for _, act := range rest[1:] {
		w.unionExcept(t.actionReads[act], t.setFields[cur])
	}
}

// perform calls the current step's method once.
func (a *Agent[S]) perform(ctx context.Context, c *agentCounts) {
	act := a.steps[a.step]
	if !a.running {
		a.running, a.ticks = true, 0
		a.rewatch()
	}
	st, err := a.role.PerformStep(ctx, act, Step{Ticks: a.ticks, Tick: a.tick})
	a.ticks++
	if err != nil {
		st = Failed
	}
	a.status = st
	switch st {
	case Running:
		c.running++
		return
	case Done:
		c.done++
		a.running = false
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
		a.running = false
		a.observe(EventStepFailed)
		a.drop(ctx, ReplanStepFailed, c)
	}
}
