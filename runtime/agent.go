package runtime

import (
	"context"
	"errors"
	"slices"
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
// WithMaxBackoff), or at once when a condition its planning depends on
// changes (a conjunct of the goal, or of the precondition of an action
// that can serve it, directly or through other actions, that held and
// fails now or the other way round), and the agent serves the next goal
// meanwhile. A goal proven out of reach costs no planner call: when each
// action that could serve it waits for a conjunct no action can make
// hold, or, for a goal that failed before, by the relaxed reachability of
// the annotations.
//
// A running step whose action is uninterruptible finishes before the
// agent checks or replans anything; another is abandoned when the agent
// takes a new plan that does not begin with it, and its method is called
// one last time with Step.Interrupted set.
//
// An Agent is not safe for concurrent use; a Crowd ticks many at once.
// Steady ticks allocate nothing.
type Agent[S comparable] struct {
	// The fields an idle agent's tick reads come first, on as few cache
	// lines as can be: a crowd ticks thousands a frame.
	role Actor[S]
	d    *Domain[S]
	t    *agentTables
	// changed are the fields that changed since the tick before, folded
	// (fieldSet.fold); watch those the plan's checks read.
	changed, watch uint64
	tick           uint64
	goal           GoalID // the plan's, NoGoal without a plan
	failing        int32  // goals in backoff (failures > 0)
	// need is why the agent wants to plan this tick (ReplanNone: it
	// does not).
	need    Replan
	seen    bool // a tick read the live state
	idle    bool // every goal held at the last look
	waiting bool // at the last look: no plan, the goals that fail back off
	running bool // the current step has begun
	recheck bool // check the plan whatever changed: a step just ended
	partial bool // the plan does not promise its goal (a utility decision)
	// state is the live state read this tick (the tick before's, until
	// sense reads it).
	state S

	// The plan: steps for goal, the current step and how long it ran.
	steps   []ActionID
	step    int
	ticks   int
	status  Status
	reason  Replan // why the plan was made, or, without one, dropped
	ended   Replan // without a plan, the reason to make one: why the last ended
	planned uint64 // the tick the plan was made
	since   uint64 // the tick the agent began to need a plan
	grant   int    // the planner calls a crowd gives it this tick (-1: any)

	err     error // the last step's or planning's error
	backoff []goalBackoff
	cfg     *agentConfig
	planner GoalPlanner[S]   // a lone agent's; a crowd's agents use its workers'
	own     *agentScratch[S] // a lone agent's scratch and counts
	id      int
	inCrowd bool
}

// agentScratch is what an agent's tick writes besides the agent: a lone
// agent has its own, a crowd's workers one each.
type agentScratch[S comparable] struct {
	// What the tick is: its context, number, the planner to use and when
	// planning stops (zero: never).
	ctx      context.Context
	tick     uint64
	planner  GoalPlanner[S]
	deadline time.Time

	state  S // the live state being read
	plan   Plan
	reach  reach
	counts agentCounts // flushed to the stats, if any, after each tick
}

// goalBackoff is how a goal that could not be planned waits.
type goalBackoff struct {
	failures uint32
	// dirty: a condition the goal's planning depends on says something
	// else than when it failed (sig, Domain.conditions).
	dirty   bool
	retryAt uint64
	sig     uint64
}

// NewAgent returns an agent running role with planner p (which it alone
// must use: planners are not safe for concurrent use).
func NewAgent[S comparable](p GoalPlanner[S], role Actor[S], opts ...AgentOption) *Agent[S] {
	cfg := defaultAgentConfig()
	for _, o := range opts {
		o.applyAgent(&cfg)
	}
	a := newAgent(p.Domain(), role, &cfg, cfg.id)
	a.planner, a.own = p, &agentScratch[S]{planner: p}
	return a
}

// agentPlanRoom is the room an agent makes for its plan's steps at
// first.
const agentPlanRoom = 16

func newAgent[S comparable](d *Domain[S], role Actor[S], cfg *agentConfig, id int) *Agent[S] {
	a := new(Agent[S])
	a.init(d, role, cfg, id)
	return a
}

// init makes a, in place, an agent running role.
func (a *Agent[S]) init(d *Domain[S], role Actor[S], cfg *agentConfig, id int) {
	*a = Agent[S]{
		role: role, d: d, t: d.agentTables(), cfg: cfg, id: id,
		goal:  NoGoal,
		ended: ReplanNoPlan,
		// Room for the plans of a game's roles, so that a longer plan than
		// the agent had yet does not allocate mid-game.
		steps:   make([]ActionID, 0, agentPlanRoom),
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
	a.own.ctx, a.own.tick = ctx, a.tick+1
	a.sense(a.own)
	a.act(a.own, -1)
	a.own.ctx = nil
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
func (a *Agent[S]) sense(sc *agentScratch[S]) {
	c, tick := &sc.counts, sc.tick
	a.tick = tick
	c.ticks++
	cur := &sc.state
	*cur = a.role.PlanState()
	if changed := a.d.Changed; changed != nil && a.seen {
		a.changed = changed(cur, &a.state)
	} else {
		a.diff(cur)
	}
	a.state = *cur
	if a.failing > 0 {
		for g := range a.backoff {
			b := &a.backoff[g]
			if b.failures > 0 && !b.dirty && a.changed&a.t.depends[g] != 0 &&
				a.d.conditions(a.t, GoalID(g), *a.live()) != b.sig {
				b.dirty = true
			}
		}
	}
	need := a.decide(sc.ctx, c)
	if need != ReplanNone && a.need == ReplanNone {
		a.since = tick
	}
	a.need = need
}

// live returns the live state read this tick.
func (a *Agent[S]) live() *S { return &a.state }

// diff sets a.changed to the fields in which the live state cur differs
// from the state of the tick before (all of them on the first tick).
func (a *Agent[S]) diff(cur *S) {
	last := &a.state
	switch {
	case !a.seen:
		a.changed = ^uint64(0)
		a.seen = true
	case a.d.Changed != nil:
		a.changed = a.d.Changed(cur, last)
	case *cur == *last:
		a.changed = 0
	default:
		a.changed = ^uint64(0)
	}
}

// decide returns why the agent should plan now, or ReplanNone.
func (a *Agent[S]) decide(ctx context.Context, c *agentCounts) Replan {
	if a.goal != NoGoal {
		if a.running && a.d.Actions[a.steps[a.step]].Uninterruptible {
			return ReplanNone
		}
		if a.recheck || a.changed&a.watch != 0 {
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
			if b := &a.backoff[h]; b.failures > 0 && a.eligible(h) && !a.d.Goals[h].Cond(*a.live()) {
				return ReplanRetry
			}
		}
		if a.cfg.interval > 0 && a.tick-a.planned >= a.cfg.interval {
			return ReplanInterval
		}
		return ReplanNone
	}
	switch {
	case a.idle && a.stillIdle():
		return ReplanNone
	case a.waiting && a.need == ReplanNone && a.changed&a.t.anyGoal == 0 && !a.due():
		// Waiting for goals that back off, and nothing they read
		// changed: they are still not due.
		return ReplanNone
	}
	a.idle, a.waiting = true, false
	for _, g := range a.t.order {
		if a.d.Goals[g].Cond(*a.live()) {
			a.clearBackoff(g)
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
	} else {
		a.waiting = true
	}
	return ReplanNone
}

// stillIdle reports whether every goal still holds for an agent whose
// goals all held at the tick before: only those that read a field that
// changed need a look.
func (a *Agent[S]) stillIdle() bool {
	changed := a.changed
	if changed&a.t.anyGoal == 0 {
		return true
	}
	goals, s := a.d.Goals, &a.state
	for _, w := range a.t.watched {
		if changed&w.reads != 0 && !goals[w.goal].Cond(*s) {
			return false
		}
	}
	return true
}

// clearBackoff ends goal g's backoff: it holds, or was planned.
func (a *Agent[S]) clearBackoff(g GoalID) {
	b := &a.backoff[g]
	if b.failures > 0 {
		a.failing--
	}
	*b = goalBackoff{}
}

// interrupting reports whether a goal of higher priority than the plan's
// does not hold and may be planned.
func (a *Agent[S]) interrupting() bool {
	for _, h := range a.t.higher[a.goal] {
		if !a.d.Goals[h].Cond(*a.live()) && a.eligible(h) {
			return true
		}
	}
	return false
}

// due reports whether a goal that could not be planned is due again.
func (a *Agent[S]) due() bool {
	if a.failing == 0 {
		return false
	}
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
	d, live := a.d, *a.live()
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
	if !a.partial && !d.Goals[a.goal].Cond(s) {
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
	a.idle, a.waiting = false, false
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
// any number when grant < 0; none after sc.deadline, when set), then
// calls the current step's method.
func (a *Agent[S]) act(sc *agentScratch[S], grant int) {
	c, ctx := &sc.counts, sc.ctx
	if a.need != ReplanNone && grant != 0 {
		a.replan(sc, grant)
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
// A goal proven out of reach from the live state fails without a planner
// call: by Domain.blocked (quick) before any call, and, for a goal that
// failed before, by the relaxed reachability of the annotations (which
// costs about what a planner call that succeeds does).
func (a *Agent[S]) replan(sc *agentScratch[S], grant int) {
	c, buf, ctx, p, deadline := &sc.counts, &sc.plan, sc.ctx, sc.planner, sc.deadline
	goals := a.t.order
	if a.goal != NoGoal && (a.need == ReplanInterrupted || a.need == ReplanRetry) {
		goals = a.t.higher[a.goal]
	}
	calls := 0
	for _, g := range goals {
		if a.goal != NoGoal && g == a.goal && a.need != ReplanInterval {
			break
		}
		if a.d.Goals[g].Cond(*a.live()) || !a.eligible(g) {
			continue
		}
		if a.d.blocked(a.t, g, a.live()) ||
			a.backoff[g].failures > 0 && a.d.unreachable(g, a.live(), &sc.reach) {
			// Proven out of reach: no planner call.
			c.proven++
			a.failed(g, a.t.unreachable[g], c)
			continue
		}
		if grant >= 0 && calls >= grant || !deadline.IsZero() && !time.Now().Before(deadline) {
			return // the rest waits for the next tick
		}
		calls++
		c.calls++
		err := p.PlanGoalInto(ctx, *a.live(), g, buf)
		if err == nil && len(buf.Steps) > 0 {
			a.adopt(ctx, g, buf, c)
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
	if b.failures == 0 {
		a.failing++
	}
	wait := a.cfg.maxBackoff
	if b.failures < 63 && uint64(1)<<b.failures < wait {
		wait = 1 << b.failures
	}
	b.failures++
	b.dirty = false
	b.retryAt = a.tick + wait
	b.sig = a.d.conditions(a.t, g, *a.live())
	a.err = err
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
	a.idle, a.waiting = false, false
	a.rewatch()
	c.plans[a.reason]++
	a.observe(EventPlanned)
}

// rewatch sets the fields the plan's checks read: those of its goal and
// the goals of higher priority, and those of its remaining steps; while a
// step runs, the rest is replayed from its post, so the fields it sets
// to constants do not count but the fields its effect reads do.
func (a *Agent[S]) rewatch() {
	t := a.t
	w := t.goalReads[a.goal] | t.higherReads[a.goal]
	rest := a.steps[a.step:]
	if !a.running {
		for _, act := range rest {
			w |= t.actionReads[act]
		}
		a.watch = w
		return
	}
	cur := rest[0]
	w |= t.effectReads[cur]
	for _, act := range rest[1:] {
		w |= t.actionReads[act] &^ t.setFields[cur]
	}
	a.watch = w
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
