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

// KeepingPlanner is a GoalPlanner that can also plan a goal along a way
// on which other goals keep holding after every step. An Agent whose
// planner is one asks it for such a plan when the plan PlanGoalInto gave
// would undo a goal of higher priority on its way, before it refuses the
// goal. The backward chainer, A* and the utility planner are
// KeepingPlanners.
type KeepingPlanner[S comparable] interface {
	GoalPlanner[S]
	PlanGoalKeepingInto(ctx context.Context, s S, g GoalID, keep []GoalID, p *Plan) error
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
// agent looks at its goals only when a field they read changed. A tick
// in which nothing the agent's decision depends on changed reads the
// live state and calls the step's method, and that is all.
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
// the annotations (the values each field could come to hold, an
// integer's on the lattice of its steps, and what actions that fire
// only so often add up to).
//
// It does not adopt a plan whose steps would make a goal of higher
// priority that holds stop holding before they change a field its own
// goal reads (it would be interrupted by its own step, for nothing). With
// a planner that is a KeepingPlanner it looks around first: it adopts a
// plan on whose way the goals of higher priority that hold keep holding
// (fill the tank before the deliveries), or else the refused plan, when
// the interruption it leads to gets somewhere (from where it undoes the
// goal above, that goal can be planned again, and from there the agent's
// goal has a plan that keeps the goals above). Without such a planner, or
// when neither holds, the goal fails, naming the step and the goal it
// would undo (PlanningError.Undoes), backs off, and is planned again at
// once when, replayed from the live state, the refused plan would no
// longer undo it.
//
// A step fails when its method returns Failed or an error, or says it is
// done while the live state does not show its post (PostMissedError: on
// every field the post writes for an action that finishes when its
// method returns, on those it sets to constants for one that takes
// ticks). The agent plans again at once; a second failed step for the
// same goal before the goal held or a plan for it ran to its end backs
// the goal off, as above.
//
// A running step whose action is uninterruptible finishes before the
// agent checks or replans anything; another is abandoned when the agent
// takes a new plan that does not begin with it, and its method is called
// one last time with Step.Interrupted set. A plan that is broken (the
// rest of it no longer reaches its goal) or interrupted is kept until the
// planner call that replaces it: a running step the new plan begins with
// goes on, and in a crowd whose budget makes the agent wait for that
// call, it goes on with the plan it has (each step is still checked
// before it begins). A plan whose next step cannot begin is dropped at
// once.
//
// An Agent is not safe for concurrent use; a Crowd ticks many at once.
// Steady ticks allocate nothing.
type Agent[S comparable] struct {
	// What every tick of every agent reads comes first, on as few cache
	// lines as can be: a crowd ticks thousands a frame, and most of its
	// agents' ticks end after reading the live state (sense).
	//
	// reader is the role's UpdatePlanState, when it has one (generated
	// roles do): the live state read and compared in one call.
	reader stateReader[S]
	// changed are the fields that changed since the tick before, folded
	// (fieldSet.fold).
	changed uint64
	// The agent looks at its plan or goals only when a field of look
	// changed, or from tick wake on, whatever changed: settle sets both
	// from what its checks read and when a goal backing off is due.
	look, wake uint64
	tick       uint64
	// need is why the agent wants to plan this tick (ReplanNone: it
	// does not).
	need    Replan
	seen    bool // a tick read the live state
	idle    bool // every goal held at the last look
	waiting bool // at the last look: no plan, the goals that fail back off
	running bool // the current step has begun
	recheck bool // check the plan whatever changed: a step just ended
	// replayed: a full check of the plan found it standing since the plan
	// was made or its step began; until a field of planWatch changes,
	// only the goals of higher priority can break it.
	replayed bool
	partial  bool   // the plan does not promise its goal (a utility decision)
	goal     GoalID // the plan's, NoGoal without a plan
	failing  int32  // goals in backoff (failures > 0)
	futiles  int32  // goals with a failed step since they held (goalBackoff.futile > 0)
	// unsettled: what settle derives look and wake from changed since.
	unsettled bool
	// looked are the goals that held at the last look that found no goal
	// to plan (a.idle or a.waiting), in a domain of at most 64 goals.
	looked uint64
	// state is the live state read this tick (the tick before's, until
	// sense reads it).
	state S
	// watch are the fields the plan's checks read, planWatch those of
	// them that its goal and its remaining steps read.
	watch, planWatch uint64
	role             Actor[S]
	d                *Domain[S]
	t                *agentTables

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
	// lookAround: the grant ran out while the agent looked for a way
	// around a refused plan (Agent.takeAnother); it asks its crowd for
	// the calls that takes (lookAroundCalls) on the next tick.
	lookAround bool

	inCrowd bool
	err     error // the last step's or planning's error
	backoff []goalBackoff
	cfg     *agentConfig
	planner GoalPlanner[S]   // a lone agent's; a crowd's agents use its workers'
	own     *agentScratch[S] // a lone agent's scratch and counts
	id      int
}

// stateReader is what rolegen generates beside Actor's methods for an
// agent to read the live state with: UpdatePlanState writes the role's
// planning state into *s and returns the fields in which it differs from
// what *s held, as Domain.Changed does, in one pass over the fields.
type stateReader[S comparable] interface {
	UpdatePlanState(s *S) uint64
}

// agentScratch is what an agent's tick writes besides the agent: a lone
// agent has its own, a crowd's workers one each.
type agentScratch[S comparable] struct {
	// What the tick is: its context, number, the planner to use and when
	// planning stops (zero: never).
	ctx     context.Context
	tick    uint64
	planner GoalPlanner[S]
	// frame is when the tick's planning ends, on clock (0: never): no
	// call begins after it, and a framedPlanner's calls end at it. The
	// next exempt calls are free of it (the tick's first agent's);
	// framedCall: the last call was bounded by it.
	frame      time.Duration
	exempt     int
	framed     framedPlanner
	framedCall bool
	framedAt   time.Duration // the frame framed was last given

	state S // the live state being read, for a role without UpdatePlanState
	prev  S // the state of the tick before, while goals back off
	// walk and before are the states of a check of a plan's steps
	// (undoneBy).
	walk, before S
	// holds are the goals that hold in the live state of the agent being
	// ticked, once held is set (Agent.holding).
	holds  []uint64
	held   bool
	plan   Plan
	reach  reach
	counts agentCounts // flushed to the stats, if any, after each tick
	// undoErrs are the errors of plans refused because they would undo a
	// goal of higher priority (Agent.undoes), kept to be returned again.
	undoErrs []*PlanningError
	// keeper is the planner as a KeepingPlanner, when it is one; keep
	// and refused are the scratch of a plan it is asked for.
	keeper  KeepingPlanner[S]
	keep    []GoalID
	refused []ActionID
}

func newAgentScratch[S comparable](p GoalPlanner[S]) *agentScratch[S] {
	sc := &agentScratch[S]{planner: p, holds: make([]uint64, goalWords(p.Domain())), reach: newReach(p.Domain()),
		plan: Plan{Steps: make([]ActionID, 0, 64), Goals: make([]GoalID, 0, 1)}}
	sc.keeper, _ = p.(KeepingPlanner[S])
	sc.framed, _ = p.(framedPlanner)
	return sc
}

// framedPlanner is a planner whose calls a crowd can bound by the
// deadline of its frame's planning (WithPlanTimeBudget) as well as by
// their own time budget: the backward chainer and A*. A call past it
// ends as past its time budget.
type framedPlanner interface{ setFrame(dl time.Duration) }

// late reports whether the tick's planning time is spent, so that the
// next planner call may not begin.
func (sc *agentScratch[S]) late() bool {
	return sc.exempt == 0 && overdue(sc.frame)
}

// beginCall counts the planner's next call, and bounds it by the frame
// unless it is exempt.
func (sc *agentScratch[S]) beginCall() {
	sc.counts.calls++
	frame := sc.frame
	if sc.exempt > 0 {
		sc.exempt--
		frame = 0
	}
	if sc.framed != nil && frame != sc.framedAt {
		sc.framed.setFrame(frame)
		sc.framedAt = frame
	}
	sc.framedCall = sc.framed != nil && frame != 0
}

// cutShort reports whether a planner call that returned err was cut
// short by the frame: the agent's goal then waits for the next tick, as
// for a call it could not make, and does not back off.
func (sc *agentScratch[S]) cutShort(err error) bool {
	return sc.framedCall && overdue(sc.frame) && errors.Is(err, ErrTimeBudgetExceeded)
}

// goalBackoff is how a goal that could not be planned waits.
type goalBackoff struct {
	failures uint32
	// dirty: a condition the goal's planning depends on says something
	// else than when it failed (Domain.flipped).
	dirty   bool
	retryAt uint64
	// undone is 1 + the goal of higher priority that the goal's last plan
	// would have undone on its way (0: none), and refused that plan's
	// steps: when a field that goal reads changes, the steps are replayed
	// from the live state, and the goal is planned again at once when
	// they would no longer undo it.
	undone  int32
	refused []ActionID
	// err is why the goal backs off: the planner's error, or the
	// failed step's.
	err error
	// futile counts the plans for the goal that ended in a failed step
	// since the goal last held or a plan for it ran to its end: from the
	// second on, the goal backs off (Agent.stepFailed).
	futile uint32
}

// due is the tick from which the goal may be planned again: at once when
// it is dirty.
func (b *goalBackoff) due() uint64 {
	if b.dirty {
		return 0
	}
	return b.retryAt
}

// NewAgent returns an agent running role with planner p (which it alone
// must use: planners are not safe for concurrent use).
func NewAgent[S comparable](p GoalPlanner[S], role Actor[S], opts ...AgentOption) *Agent[S] {
	cfg := defaultAgentConfig()
	for _, o := range opts {
		o.applyAgent(&cfg)
	}
	a := newAgent(p.Domain(), role, &cfg, cfg.id)
	a.planner, a.own = p, newAgentScratch(p)
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
	reader, _ := role.(stateReader[S])
	*a = Agent[S]{
		role: role, reader: reader, d: d, t: d.agentTables(), cfg: cfg, id: id,
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

// View returns what the agent is doing: without a plan, also what it
// waits for (AgentView.Waiting), which it reads the live state for.
func (a *Agent[S]) View() AgentView {
	v := a.view(0)
	if a.goal == NoGoal {
		v.Waiting = a.waitingGoal()
		if g := v.Waiting; g != NoGoal && a.backoff[g].failures > 0 {
			b := &a.backoff[g]
			v.RetryAt, v.Err = b.due(), b.err
		}
	}
	return v
}

// waitingGoal is the goal of highest priority that does not hold in the
// live state (read now: a step done this tick has changed it since the
// tick's read), NoGoal when every goal holds.
func (a *Agent[S]) waitingGoal() GoalID {
	s := a.role.PlanState()
	for _, g := range a.t.order {
		if !a.d.Holds(g, s) {
			return g
		}
	}
	return NoGoal
}

func (a *Agent[S]) view(e AgentEvent) AgentView {
	v := AgentView{
		ID: a.id, Tick: a.tick, Event: e,
		Goal: a.goal, Plan: a.steps, Step: a.step, Action: NoAction,
		Status: a.status, Ticks: a.ticks, Reason: a.reason, Waiting: NoGoal,
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
