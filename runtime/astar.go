package runtime

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"time"
)

// DefaultAStarMaxStates is how many distinct states one A* search may
// hold (WithAStarMaxStates), which bounds its memory.
const DefaultAStarMaxStates = 1_000_000

// AStar plans forward from the current state with A*: it searches the
// states the actions reach, cheapest first by the sum of the actions'
// costs plus an optional heuristic estimate, and returns a cheapest plan
// that makes its goals hold (with the default heuristic, or any admissible
// one).
//
// The search is deterministic. Successors are generated in declaration
// order of the actions. Among open states of equal f = g + h (g the cost so
// far, h the estimate), the one with the larger g (the deeper one, nearer
// to the goal by the estimate) is expanded first, then the one that entered
// the open list first. A state reached again by a cheaper path (or by an
// equally cheap, shorter one) takes that path and is opened again, so
// inconsistent but admissible heuristics still give cheapest plans.
//
// An AStar keeps its search space between calls (state table, node arrays,
// open list), so a planner reused for many plans with the Into methods does
// not allocate in steady state; for the same reason one AStar must not be
// used by two goroutines at once (give each worker its own: they are
// cheap). A goal it cannot plan does not allocate either: the
// *PlanningError is the one an earlier call returned for the same failure
// (errors are values to read, not to modify).
type AStar[S comparable] struct {
	d         *Domain[S]
	budget    int
	maxSteps  int32
	maxStates int
	trace     *Trace
	// timeBudget is a call's time (WithTimeBudget), deadline when the
	// current call's ends, on clock (0: none); poll is one less than how
	// often, in expansions, the search looks at its context and the
	// clock.
	timeBudget time.Duration
	deadline   time.Duration
	poll       int
	// frame is the deadline a crowd bounds its calls by (setFrame; 0:
	// none).
	frame time.Duration
	// ops holds what the inner loop needs of each action, packed: 32
	// bytes an action instead of the whole Action; costs their constant
	// costs alone, for the generated search loop (Search.Add), and
	// costOf whether some action's cost depends on the state.
	ops    []astarOp[S]
	costs  []float64
	costOf bool
	// enabled is the domain's Enabled, bits its scratch.
	enabled func(*S, []uint64)
	// hash and key are the domain's Hash and Key.
	hash func(*S) uint64
	key  func(*S) S
	// x is the search in progress, as the domain's Search and the
	// search loop of this file see it.
	x Search[S]
	// Scratch states whose addresses go to the domain's functions: the
	// root's key, a successor, the state a step from a node may not go
	// back to.
	at, next, back S
	bits           []uint64
	// heuristic is the user's estimate, when one was given.
	heuristic func(S, []GoalID) float64
	reach     reach     // scratch of provedUnreachable
	fields    fields[S] // scratch of stepsBound
	// estimate is the built-in estimate, when heuristic is nil.
	estimate estimateKind
	// weight multiplies the estimate in the open list's order.
	weight float64
	// below: a node whose g + h (unweighed) is not below it is not
	// opened, for no plan through it costs less. +Inf but in the
	// chainer's search for a plan cheaper than one it has (see
	// BackwardChainer.forwardBelow).
	below float64
	// minCost is the cost of the cheapest action.
	minCost float64
	// changes[a*len(Goals)+g] reports whether action a may change whether
	// goal g holds, by the domain's read and write sets.
	changes []bool

	// Scratch reused between calls.
	goals []GoalID       // the goals of the current search
	conds []func(S) bool // their conditions
	// keeps are the conditions of the goals the current search keeps
	// holding in every state it reaches (PlanGoalKeepingInto): a
	// successor where one fails is not added.
	keeps []func(S) bool
	// single is the condition of the search's goal when it is one goal
	// of one part, with the derived estimate: its estimate is that of
	// the part (see derived).
	single *condition[S]
	// singleField is the field its estimate reads (-1: none, the
	// estimate is singleBound wherever the goal fails).
	singleField FieldID
	singleBound float64
	// flow: the search's estimate counts its goals' flows (see
	// gateFlow); memo, made at the first search with the derived
	// estimate of a domain that has flows, remembers what they made of
	// the right-hand sides it met.
	flow bool
	memo *flowMemo[S]
	// limit and depthLimit are what the current search may spend of the
	// call's budget and step limit; hard is the budget's limit, where
	// limit is lower while the search runs in parts (resume).
	limit      int
	hard       int
	depthLimit int32
	callGoals  []GoalID // scratch of Plan: a goal and those it must keep
	// perAction is the largest number of goals of the current search one
	// action may change (at least 1).
	perAction  int
	states     []S         // states[i] is node i's state
	nodes      []astarNode // node i's search data
	table      stateTable  // state → node
	open       openList    // states to expand, best first
	expansions int         // states expanded in this search
	generated  int         // successors generated in this search
	depthCut   bool        // a state was not expanded for the depth limit
	stepBuf    [1]GoalID   // backs goals for single-goal searches

	// fail is the failing search's error, errs the errors earlier calls
	// returned, to return again for the same failure.
	fail PlanningError
	errs keptErrors

	// stats counts the calls (WithStats); last, so that adding it moved
	// no field the search reads.
	stats *Stats
}

// astarNode is one state of the search space; its state is in
// AStar.states at the same index.
type astarNode struct {
	g, h   float64 // cost so far, estimate to go (+Inf: dead end)
	parent int32   // the node it was reached from, -1 for the start
	action ActionID
	depth  int32 // steps from the start
	// goal: the search's goals hold in the node's state (known when
	// goalKnown; the derived estimate tells it, as it reads the goals).
	goal, goalKnown bool
	// open: the node waits in the open list, with an entry of its g;
	// entries of other g's, or of a node no longer open, are stale and
	// skipped.
	open bool
}

// astarOp is the part of an action the search loop reads.
type astarOp[S any] struct {
	pre    func(S) bool
	effect func(S) S
	cost   float64
	costOf func(S) float64 // nil for a constant cost
}

type astarConfig struct {
	weight     float64
	budget     int
	timeBudget time.Duration
	maxSteps   int
	maxStates  int
	heuristic  any // func(S, []GoalID) float64 for the planner's S
	estimate   estimateKind
	trace      *Trace
	stats      *Stats
}

// WithAStarMaxStates bounds the distinct states one search may hold
// (default DefaultAStarMaxStates, at least 1): a search that generates
// more fails with MaxStatesExceeded instead of growing without bound.
// Memory is about (size of the state + 48 bytes) a state. It does not
// raise the search budget (WithSearchBudget, 10,000 expansions by
// default), which bounds the call's time and usually ends a search
// first: a search meant to hold many states needs both.
func WithAStarMaxStates(n int) AStarOption {
	return astarFunc(func(c *astarConfig) { c.maxStates = min(max(n, 1), math.MaxInt32-1) })
}

// NewAStar returns an A* planner over d. Without a heuristic option the
// estimate is the one derived from the annotations (Domain.LowerBound, the
// largest over the search's goals): admissible and consistent, so plans
// are cheapest; it is never below the blind heuristic, and it declares dead
// ends the states from which some goal cannot hold.
func NewAStar[S comparable](d *Domain[S], opts ...AStarOption) *AStar[S] {
	cfg := astarConfig{weight: 1, budget: DefaultSearchBudget, maxSteps: DefaultMaxSteps, maxStates: DefaultAStarMaxStates}
	for _, o := range opts {
		o.applyAStar(&cfg)
	}
	a := &AStar[S]{
		d:          d,
		budget:     cfg.budget,
		maxSteps:   int32(cfg.maxSteps),
		maxStates:  cfg.maxStates,
		timeBudget: cfg.timeBudget,
		poll:       pollEvery,
		estimate:   cfg.estimate,
		weight:     cfg.weight,
		below:      math.Inf(1),
		trace:      cfg.trace,
		stats:      cfg.stats,
	}
	if a.timeBudget > 0 {
		a.poll = pollTimed
	}
	if cfg.heuristic != nil {
		h, ok := cfg.heuristic.(func(S, []GoalID) float64)
		if !ok {
			panic(fmt.Sprintf("runtime.NewAStar: WithHeuristic: %T is not a func(%T, []GoalID) float64", cfg.heuristic, *new(S)))
		}
		a.heuristic = h
	}
	a.hash, a.key = d.Hash, d.Key
	a.x.a = a
	a.reach = newReach(d)
	a.errs = newKeptErrors()
	if d.Enabled != nil {
		a.enabled = d.Enabled
		a.bits = make([]uint64, (len(d.Actions)+63)/64)
	}
	a.minCost = math.Inf(1)
	a.ops = make([]astarOp[S], len(d.Actions))
	a.costs = make([]float64, len(d.Actions))
	for i := range d.Actions {
		act := &d.Actions[i]
		a.ops[i] = astarOp[S]{pre: act.Pre, effect: act.Effect, cost: act.Cost, costOf: act.CostOf}
		a.costs[i] = act.Cost
		a.costOf = a.costOf || act.CostOf != nil
		a.minCost = min(a.minCost, act.Cost)
	}
	if len(d.Actions) == 0 {
		a.minCost = 0
	}
	if a.estimate == estimateUnsatisfied {
		a.changes = goalChanges(d)
	}
	return a
}

// Domain returns the planner's domain.
func (a *AStar[S]) Domain() *Domain[S] { return a.d }

// Plan plans every goal unsatisfied in s, highest priority first (ties in
// declaration order), each from the state the previous goal's steps
// leave, as the backward chainer's Plan does: for each goal, a cheapest
// plan that makes it hold and leaves holding the goals of higher priority
// that held when its steps start. When some goal cannot be planned, Plan
// returns the plan for the others with the *PlanningError of the first
// goal that failed (or, when the search budget ran out, of that: the
// budget and the step limit are the call's, shared by its goals). When
// every goal holds the plan is empty. Plan.Expansions and Plan.Generated
// count all the searches made.
//
// Each goal's plan is the cheapest for that goal from where the previous
// one ends; the whole plan is not always the cheapest for all the goals
// together (PlanGoals is).
func (a *AStar[S]) Plan(ctx context.Context, s S) (Plan, error) {
	var p Plan
	err := a.PlanInto(ctx, s, &p)
	return p, err
}

// PlanInto is Plan writing into p, whose storage is reused: in a loop that
// passes the same Plan back, planning does not allocate.
func (a *AStar[S]) PlanInto(ctx context.Context, s S, p *Plan) error {
	if a.stats != nil {
		start := time.Now()
		err := a.planInto(ctx, s, p)
		a.stats.recordPlan(PlannerAStar, NoGoal, start, p, err)
		return err
	}
	return a.planInto(ctx, s, p)
}

func (a *AStar[S]) planInto(ctx context.Context, s S, p *Plan) error {
	p.Reset()
	a.resetTrace()
	a.startClock()
	d := a.d
	var first error
	st := s
	for _, g := range d.goalOrder {
		if d.Goals[g].Cond(st) {
			continue
		}
		// The goal, and the goals of higher priority that hold: its
		// steps must leave them holding.
		a.callGoals = append(a.callGoals[:0], g)
		for _, h := range d.goalOrder {
			if h == g {
				break
			}
			if d.Goals[h].Cond(st) {
				a.callGoals = append(a.callGoals, h)
			}
		}
		mark := len(p.Steps)
		err := a.run(ctx, st, a.callGoals, p)
		if err == nil {
			st, _ = d.Simulate(st, p.Steps[mark:]) // verified by run
			continue
		}
		perr, planning := err.(*PlanningError)
		if !planning {
			p.Steps, p.Goals, p.Cost = p.Steps[:0], p.Goals[:0], 0
			return err // the context is done
		}
		spent := perr.Reason == SearchBudgetExceeded || perr.Reason == TimeBudgetExceeded
		if first == nil || spent {
			first = err
		}
		if spent {
			break // the call's budget is spent
		}
	}
	return first
}

// PlanGoal returns a cheapest plan that makes goal g hold, starting from
// s. When g already holds the plan is empty.
func (a *AStar[S]) PlanGoal(ctx context.Context, s S, g GoalID) (Plan, error) {
	var p Plan
	err := a.PlanGoalInto(ctx, s, g, &p)
	return p, err
}

// PlanGoalInto is PlanGoal writing into p, whose storage is reused.
func (a *AStar[S]) PlanGoalInto(ctx context.Context, s S, g GoalID, p *Plan) error {
	if a.stats != nil {
		start := time.Now()
		err := a.planGoalInto(ctx, s, g, p)
		a.stats.recordPlan(PlannerAStar, g, start, p, err)
		return err
	}
	return a.planGoalInto(ctx, s, g, p)
}

func (a *AStar[S]) planGoalInto(ctx context.Context, s S, g GoalID, p *Plan) error {
	p.Reset()
	a.resetTrace()
	a.startClock()
	a.stepBuf[0] = g
	return a.run(ctx, s, a.stepBuf[:], p)
}

// PlanGoalKeepingInto is PlanGoalInto along a way on which the goals of
// keep that hold in s hold after every step: a cheapest plan for g among
// those that never let one of them stop holding, or Unreachable when
// there is none. (An Agent asks for one when the plan PlanGoalInto gave
// would undo a goal of higher priority on its way: see KeepingPlanner.)
func (a *AStar[S]) PlanGoalKeepingInto(ctx context.Context, s S, g GoalID, keep []GoalID, p *Plan) error {
	if a.stats != nil {
		start := time.Now()
		err := a.planGoalKeepingInto(ctx, s, g, keep, p)
		a.stats.recordPlan(PlannerAStar, g, start, p, err)
		return err
	}
	return a.planGoalKeepingInto(ctx, s, g, keep, p)
}

func (a *AStar[S]) planGoalKeepingInto(ctx context.Context, s S, g GoalID, keep []GoalID, p *Plan) error {
	a.keepHolding(s, keep)
	err := a.planGoalInto(ctx, s, g, p)
	a.keeps = a.keeps[:0]
	return err
}

// keepHolding makes the next search keep the goals of keep that hold in s.
func (a *AStar[S]) keepHolding(s S, keep []GoalID) { a.keeps = a.d.heldConds(a.keeps, s, keep) }

// heldConds returns dst (emptied) filled with the conditions of the goals
// of keep that hold in s: what a planner keeps holding
// (KeepingPlanner).
func (d *Domain[S]) heldConds(dst []func(S) bool, s S, keep []GoalID) []func(S) bool {
	dst = dst[:0]
	for _, h := range keep {
		if c := d.Goals[h].Cond; c(s) {
			dst = append(dst, c)
		}
	}
	return dst
}

// breaks reports whether a kept goal fails in key *k. Out of line: most
// searches keep none, and test only len(a.keeps).
//
//go:noinline
func (a *AStar[S]) breaks(k *S) bool {
	for _, c := range a.keeps {
		if !c(*k) {
			return true
		}
	}
	return false
}

// PlanGoals returns a cheapest plan that makes all of goals hold at once,
// starting from s. Plan.Goals lists those of goals that do not hold in s;
// the others hold at the end of the plan too. When all hold the plan is
// empty. On failure the error's Goal is the first of goals that does not
// hold in s.
func (a *AStar[S]) PlanGoals(ctx context.Context, s S, goals ...GoalID) (Plan, error) {
	var p Plan
	err := a.PlanGoalsInto(ctx, s, goals, &p)
	return p, err
}

// PlanGoalsInto is PlanGoals writing into p, whose storage is reused.
func (a *AStar[S]) PlanGoalsInto(ctx context.Context, s S, goals []GoalID, p *Plan) error {
	if a.stats != nil {
		start := time.Now()
		err := a.planGoalsInto(ctx, s, goals, p)
		a.stats.recordPlan(PlannerAStar, firstOf(goals), start, p, err)
		return err
	}
	return a.planGoalsInto(ctx, s, goals, p)
}

func (a *AStar[S]) planGoalsInto(ctx context.Context, s S, goals []GoalID, p *Plan) error {
	p.Reset()
	a.resetTrace()
	a.startClock()
	return a.run(ctx, s, goals, p)
}

// startClock starts a call's time budget, when it has one, and bounds
// the call by the frame's deadline, when a crowd set one (setFrame).
func (a *AStar[S]) startClock() {
	if a.timeBudget|a.frame|a.deadline != 0 {
		a.setClock()
	}
}

// setClock is startClock's work, out of line.
func (a *AStar[S]) setClock() {
	var dl time.Duration
	if a.timeBudget > 0 {
		dl = deadlineIn(a.timeBudget)
	}
	a.setDeadline(earlier(dl, a.frame))
}

// setFrame bounds the planner's calls, from the next, by the deadline
// dl (on clock; 0: none) as well as by their own time budget: a crowd's
// frame (WithPlanTimeBudget).
func (a *AStar[S]) setFrame(dl time.Duration) { a.frame = dl }

// earlier is the earlier of deadlines x and y (on clock; 0: none).
func earlier(x, y time.Duration) time.Duration {
	if x == 0 || y != 0 && y < x {
		return y
	}
	return x
}

// How often a search looks at its context, and at the clock when the
// call has a time budget: every pollEvery+1 expansions, pollTimed+1 with
// a budget (a time budget of a millisecond on a search whose expansions
// take a few microseconds is overrun by tens of microseconds at most).
const (
	pollEvery = 255
	pollTimed = 15
)

// clockStart is the origin of clock.
var clockStart = time.Now()

// clock is the time since the package was initialized, on the monotonic
// clock: a deadline on it is a number, which a planner's per-call state
// holds without a pointer (time.Time has one).
func clock() time.Duration { return time.Since(clockStart) }

// deadlineIn is the deadline d from now, on clock (never 0, which means
// none).
func deadlineIn(d time.Duration) time.Duration { return max(clock()+d, 1) }

// setDeadline makes dl (on clock; 0: none) the current search's
// deadline, and polls the clock often enough for it: the chainer's
// forward search gets the chainer's call's.
func (a *AStar[S]) setDeadline(dl time.Duration) {
	a.deadline, a.poll = dl, pollEvery
	if dl != 0 {
		a.poll = pollTimed
	}
}

// overdue reports whether deadline dl (on clock; 0: none) has passed.
func overdue(dl time.Duration) bool { return dl != 0 && clock() >= dl }

func (a *AStar[S]) resetTrace() {
	if a.trace != nil {
		a.trace.reset()
	}
}

// traceGoals records the start of a search for goals, or its end.
func (a *AStar[S]) traceGoals(kind TraceKind, s S, detail string) {
	for _, g := range a.goals {
		if kind != TraceGoal || !a.d.Goals[g].Cond(s) {
			d := detail
			if kind == TraceGoal {
				d = a.d.Goals[g].CondText
			}
			a.trace.add(TraceEvent{Kind: kind, Goal: a.d.Goals[g].Name, Detail: d})
		}
	}
}

// run searches for the conjunction of goals from s and, on success,
// appends the plan to p (empty or the plan of earlier goals of the same
// call, whose last step leads to s) and verifies it; the statistics are
// added to p's either way. The search may spend what the call has left of
// its budget and step limit.
func (a *AStar[S]) run(ctx context.Context, s S, goals []GoalID, p *Plan) error {
	goal, err := int32(-1), a.begin(ctx, s, goals, p)
	if err == nil {
		goal, err = a.resume(ctx, -1)
	}
	return a.conclude(s, goal, err, p)
}

// begin starts a search for the conjunction of goals from s, after the
// steps and expansions of p: the root on the open list, nothing expanded
// yet. It returns the error that ends the search at its root.
func (a *AStar[S]) begin(ctx context.Context, s S, goals []GoalID, p *Plan) error {
	a.prepare(goals)
	a.limit = a.budget - p.Expansions
	a.hard = a.limit
	a.depthLimit = a.maxSteps - int32(len(p.Steps))
	if a.trace != nil {
		a.traceGoals(TraceGoal, s, "")
	}
	return a.root(ctx, s)
}

// resume runs the search begun with begin until it ends, or until it has
// expanded n more states when n >= 0: then it returns errPaused, and the
// search goes on where it stopped at the next call. It returns the node
// where the goals hold, or the error that ended the search.
func (a *AStar[S]) resume(ctx context.Context, n int) (int32, error) {
	a.limit = a.hard
	if n >= 0 {
		a.limit = min(a.hard, a.expansions+n)
	}
	return a.loop(ctx)
}

// conclude ends the search begun on s with begin, which ended at goal or
// with err: on success it appends the plan to p and verifies it; the
// statistics are added to p's either way.
func (a *AStar[S]) conclude(s S, goal int32, err error, p *Plan) error {
	d := a.d
	p.Expansions += a.expansions
	p.Generated += a.generated
	if err != nil && a.trace != nil {
		a.traceGoals(TraceGoalFailed, s, err.Error())
	}
	if err != nil {
		if perr, ok := err.(*PlanningError); ok {
			if !perr.Relaxed { // a proof's goal is the one it proved out of reach
				perr.Goal = d.FirstUnsatisfied(a.goals, s)
			}
			if perr.Goal != NoGoal {
				perr.GoalName = d.Goals[perr.Goal].Name
			}
			return a.errs.keep(perr)
		}
		return err
	}
	mark, goalMark, cost := len(p.Steps), len(p.Goals), p.Cost
	a.extract(goal, p)
	for _, g := range a.goals {
		if !d.Goals[g].Cond(s) {
			p.Goals = append(p.Goals, g)
		}
	}
	seg := Plan{Steps: p.Steps[mark:], Goals: p.Goals[goalMark:]}
	if err := d.verifyAt(s, &seg, &a.next); err != nil {
		// Only effects or conditions that are not pure functions of the
		// state get here; never return a plan that does not verify.
		p.Steps, p.Goals, p.Cost = p.Steps[:mark], p.Goals[:goalMark], cost
		return err
	}
	if a.trace != nil {
		for i, st := range p.Steps[mark:] {
			a.trace.add(TraceEvent{Kind: TraceStep, Action: d.Actions[st].Name, Step: mark + i + 1, Depth: 1})
		}
		a.traceGoals(TraceGoalDone, s, "")
	}
	return nil
}

// prepare resets the search space for a search for goals.
func (a *AStar[S]) prepare(goals []GoalID) {
	d := a.d
	a.goals = a.goals[:0]
	a.conds = a.conds[:0]
	for _, g := range goals {
		if !slices.Contains(a.goals, g) {
			a.goals = append(a.goals, g)
			a.conds = append(a.conds, d.Goals[g].Cond)
		}
	}
	a.states = a.states[:0]
	a.nodes = a.nodes[:0]
	a.open.reset()
	a.table.reset()
	a.expansions, a.generated = 0, 0
	a.depthCut = false
	if a.estimate == estimateUnsatisfied {
		a.perAction = a.mostChangedByOne()
	}
	a.single, a.flow = nil, false // root may count the flows (gateFlow)
	if a.memo == nil && d.flows && a.heuristic == nil && a.estimate == estimateDerived {
		a.memo = new(flowMemo[S])
	}
	if len(a.goals) == 1 && a.heuristic == nil && a.estimate == estimateDerived {
		if c := &d.goals[a.goals[0]]; len(c.parts) == 1 && c.anyOf == nil {
			// The estimate of the one part (condition.partCost): read
			// from its field, or the same in every state.
			a.single, a.singleField = c, c.parts[0].Field
			if pb := &c.bounds[0]; d.Number == nil || !pb.stepped() || c.parts[0].Cmp == CmpNone {
				a.singleField, a.singleBound = -1, min(pb.reset, pb.byStep)
				if d.Number != nil && c.parts[0].Cmp != CmpNone && pb.ranged() {
					a.single = nil // the bound depends on whether the field is in its range (condition.partCost)
				}
			}
		}
	}
}

// addNode records a new state (a key), which belongs in the given slot
// of the state table, with its estimate, puts it on the open list unless
// the estimate marks it a dead end or g + h is not below a.below, and
// returns its node.
func (a *AStar[S]) addNode(s *S, slot, hash uint32, g float64, parent int32, act ActionID, depth int32) int32 {
	n := int32(len(a.nodes))
	a.states = append(a.states, *s)
	nd := astarNode{g: g, parent: parent, action: act, depth: depth}
	a.estimateNode(&nd, &a.states[n])
	a.place(n, &nd, slot, hash)
	return n
}

// estimateNode sets the estimate of node nd, of state *s (in a.states),
// and, with the derived estimate, whether the search's goals hold there.
func (a *AStar[S]) estimateNode(nd *astarNode, s *S) {
	if a.heuristic == nil && a.estimate == estimateDerived {
		nd.h, nd.goal = a.derived(s)
		nd.goalKnown = true
		return
	}
	nd.h = a.estimateOf(s)
}

// place records node n, whose state is in a.states and whose estimate
// is in nd, in the node array and the state table, and puts it on the
// open list unless the estimate marks it a dead end or g + h is not below
// a.below.
func (a *AStar[S]) place(n int32, nd *astarNode, slot, hash uint32) {
	if nd.open = nd.g+nd.h < a.below; nd.open { // false for +Inf h too
		a.open.push(entry(nd.g+a.weight*nd.h, nd.g, n))
	}
	a.nodes = append(a.nodes, *nd)
	a.table.insert(slot, hash, n)
}

// root puts the key of s on the open list, the root of a search: the
// error is the context's, or that of a root the estimate marks a dead
// end. The search searches keys (Domain.Key): states without their inert
// fields, which no goal, precondition or cost reads.
func (a *AStar[S]) root(ctx context.Context, s S) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	d := a.d
	a.at = s // a field: the address of s would make every call allocate it
	a.at = d.key(&a.at)
	hash := fold(a.hashOf(&a.at))
	a.table.reserve()
	_, slot := a.find(&a.at, hash)
	if root := a.addNode(&a.at, slot, hash, 0, -1, NoAction, 0); !a.nodes[root].open || !a.gateFlow(root) {
		return a.failure(Unreachable) // a dead end
	}
	return nil
}

// gateFlow decides, from the root's estimate without the goals' flows,
// whether the search counts them: where one raises it by a quarter or more
// (see flowWorthRatio). Then it estimates the root again, and
// reports false if the flow proves it a dead end.
func (a *AStar[S]) gateFlow(root int32) bool {
	if a.heuristic != nil || a.estimate != estimateDerived {
		return true
	}
	nd := &a.nodes[root]
	above := flowWorthRatio * nd.h
	worth := false
	for _, g := range a.goals {
		c := &a.d.goals[g]
		worth = worth || c.flow != nil && flowBound(c.flow, &a.states[root], a.d.Number, above, a.memo) > above
	}
	if !worth {
		return true
	}
	a.flow, a.single = true, nil
	a.estimateNode(nd, &a.states[root])
	a.open.reset()
	if nd.open = nd.h < a.below; nd.open {
		a.open.push(entry(nd.g+a.weight*nd.h, nd.g, root))
	}
	return nd.open
}

// loop expands states until the goals hold in the next one (its node is
// returned), the open list runs out, or the limit or the context ends
// the search (the error).
func (a *AStar[S]) loop(ctx context.Context) (int32, error) {
	x := &a.x
	x.start(ctx)
	if a.d.Search != nil {
		a.d.Search(x)
	} else {
		for x.next() {
			if err := a.expandNode(x.node, x.g, x.depth); err != nil {
				x.err = err
				break
			}
		}
	}
	return x.end()
}

// reweigh makes w the weight of the estimate in the open list's order
// for the rest of the search, the entries waiting on it ordered again.
func (a *AStar[S]) reweigh(w float64) {
	a.weight = w
	a.open.reorder(func(e *openEntry) bool {
		nd := &a.nodes[e.node]
		if !nd.open || !e.hasG(nd.g) {
			return false // stale
		}
		e.f = math.Float64bits(nd.g + w*nd.h)
		return true
	})
}

// errPaused ends a part of a search run in parts (resume): not an
// error any planner returns.
var errPaused = errors.New("runtime: search paused")

// count counts the expansion of node n against the budget, and makes the
// checks that come with expansions: the proof that the search is
// hopeless after proveAfter of them, the context and the clock every
// poll+1.
func (a *AStar[S]) count(ctx context.Context, n int32) error {
	if a.expansions >= a.limit {
		if a.limit < a.hard {
			a.enqueue(n) // where the search resumes (resume)
			return errPaused
		}
		err := a.failure(SearchBudgetExceeded)
		err.Limit, err.Depth = a.budget, int(a.nodes[n].depth)
		return err
	}
	a.expansions++
	if a.expansions == proveAfter {
		if err := a.provedHopeless(0); err != nil {
			return err
		}
	}
	if a.trace != nil {
		a.traceExpand(n)
	}
	if a.expansions&a.poll == 0 {
		return a.checkIn(ctx)
	}
	return nil
}

// checkIn returns the context's error, or the time budget's once the
// call's deadline has passed.
func (a *AStar[S]) checkIn(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if overdue(a.deadline) {
		err := a.failure(TimeBudgetExceeded)
		err.TimeBudget = a.timeBudget
		return err
	}
	return nil
}

// exhausted is the error of a search whose open list ran out.
func (a *AStar[S]) exhausted() error {
	if a.depthCut {
		err := a.failure(MaxStepsExceeded)
		err.Limit, err.Depth, err.States = int(a.maxSteps), int(a.depthLimit), len(a.nodes)
		return err
	}
	err := a.failure(Unreachable)
	err.Depth, err.States = a.deepest(), len(a.nodes)
	return err
}

// expandNode records the successors of node n, of cost so far g0, at
// depth steps: with Enabled (every precondition in one call), then the
// enabled actions' effects in declaration order; else one precondition
// call an action.
func (a *AStar[S]) expandNode(n int32, g0 float64, depth int32) error {
	nd := &a.nodes[n]
	// Stepping back to the parent's state, or staying put, never gives a
	// cheaper path (costs are positive): skip the hash and the lookup.
	// (The generated Search does not: the table finds such a state at
	// less than comparing each with both.)
	a.back = a.states[n]
	if nd.parent >= 0 {
		a.back = a.states[nd.parent]
	}
	if a.enabled != nil {
		a.enabled(&a.states[n], a.bits)
		for w, word := range a.bits {
			for word != 0 {
				i := ActionID(w*64 + bits.TrailingZeros64(word))
				word &= word - 1
				if err := a.apply(n, i, g0, depth); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for i := range a.ops {
		if pre := a.ops[i].pre; pre != nil && !pre(a.states[n]) {
			continue
		}
		if err := a.apply(n, ActionID(i), g0, depth); err != nil {
			return err
		}
	}
	return nil
}

// relax gives node j the path through node n and action i, of cost g and
// depth steps, when it is cheaper (or as cheap and shorter) than its own.
func (a *AStar[S]) relax(j, n int32, i ActionID, g float64, depth int32) {
	old := &a.nodes[j]
	if g > old.g || (g == old.g && depth >= old.depth) {
		return
	}
	old.g, old.parent, old.action, old.depth = g, n, i, depth
	a.enqueue(j)
}

// failure returns the search's error of reason r, in the planner's
// scratch until run keeps it (see keptErrors).
func (a *AStar[S]) failure(r Reason) *PlanningError {
	a.fail = a.d.errorValue(r, NoGoal, NoAction)
	return &a.fail
}

// tooMany is the error of a search that would hold more states than its
// bound.
func (a *AStar[S]) tooMany(depth int32) error {
	err := a.failure(MaxStatesExceeded)
	err.Limit, err.Depth, err.States = a.maxStates, int(depth), len(a.nodes)
	return err
}

// apply applies enabled action i to the state of node n and records the
// key it reaches.
func (a *AStar[S]) apply(n int32, i ActionID, g0 float64, depth int32) error {
	op := &a.ops[i]
	if op.effect == nil {
		return nil // no successor: the state does not change
	}
	a.generated++
	a.next = op.effect(a.states[n])
	if a.key != nil {
		a.next = a.key(&a.next)
	}
	if a.next == a.back || a.next == a.states[n] {
		return nil
	}
	return a.successor(n, i, &a.next, fold(a.hashOf(&a.next)), g0, depth)
}

// successor records key next, which action i leads to from the state of
// node n: a new node, or a cheaper path to a known one.
func (a *AStar[S]) successor(n int32, i ActionID, next *S, hash uint32, g0 float64, depth int32) error {
	op := &a.ops[i]
	cost := op.cost
	if op.costOf != nil {
		c, err := a.d.StepCost(i, a.states[n])
		if err != nil {
			return err
		}
		cost = c
	}
	g := g0 + cost
	a.table.reserve()
	j, slot := a.find(next, hash)
	if j >= 0 {
		a.relax(j, n, i, g, depth)
		return nil
	}
	if len(a.keeps) > 0 && a.breaks(next) {
		return nil // a state the search keeps out (the table holds none)
	}
	if len(a.nodes) >= a.maxStates {
		return a.tooMany(depth)
	}
	a.addNode(next, slot, hash, g, n, i, depth)
	return nil
}

// traceExpand records the expansion of node n.
func (a *AStar[S]) traceExpand(n int32) {
	nd := &a.nodes[n]
	e := TraceEvent{Kind: TraceExpand, Step: int(nd.depth), Detail: fmt.Sprintf("g=%g h=%g", nd.g, nd.h)}
	if nd.parent >= 0 {
		e.Action = a.d.Actions[nd.action].Name
		e.Detail += " after " + e.Action
	}
	a.trace.add(e)
}

// deepest returns the length of the longest path the search recorded.
func (a *AStar[S]) deepest() int {
	var m int32
	for i := range a.nodes {
		m = max(m, a.nodes[i].depth)
	}
	return int(m)
}

// extract appends the path to node n to p, and its cost. The path is
// measured by walking it: a node's depth can be stale (longer) when an
// ancestor was reached by a shorter path after the node was generated.
func (a *AStar[S]) extract(n int32, p *Plan) {
	k := 0
	for i := n; i > 0; i = a.nodes[i].parent {
		k++
	}
	mark := len(p.Steps)
	p.Steps = slices.Grow(p.Steps, k)[:mark+k]
	for ; n > 0; n = a.nodes[n].parent {
		k--
		p.Steps[mark+k] = a.nodes[n].action
	}
	cost, _ := a.d.planCost(a.states[0], p.Steps[mark:]) // the costs were valid when searched
	p.Cost += cost
}

// enqueue puts node n on the open list, unless its estimate marks it a
// dead end or g + h is not below a.below.
func (a *AStar[S]) enqueue(n int32) {
	nd := &a.nodes[n]
	if !(nd.g+nd.h < a.below) {
		return
	}
	nd.open = true
	a.open.push(entry(nd.g+a.weight*nd.h, nd.g, n))
}
