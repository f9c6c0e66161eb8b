package runtime

import (
	"context"
	"errors"
	"slices"
	"strconv"
)

// Defaults and limits of the backward chainer.
const (
	DefaultMaxDepth     = 10
	MaxMaxDepth         = 256
	DefaultSearchBudget = 10_000
)

// BackwardChainer plans by goal regression. It keeps scratch space between
// calls, so a chainer reused for many plans does not allocate; for the same
// reason one chainer must not be used by two goroutines at once (give each
// worker its own: they are cheap).
type BackwardChainer[S comparable] struct {
	d        *Domain[S]
	chaining bool
	maxDepth int
	budget   int

	ctx        context.Context
	steps      []ActionID // the plan being built
	visited    []S        // states reached in the current goal's segment
	stack      []ActionID // actions whose preconditions are being established
	protected  []GoalID   // goals the current segment must not break
	expansions int
	maxSeen    int
	ctxErr     error
	trace      *Trace
}

// BackwardOption configures a BackwardChainer.
type BackwardOption func(*backwardConfig)

type backwardConfig struct {
	chaining bool
	maxDepth int
	budget   int
	trace    *Trace
}

// WithTrace records in t, at each call, why the chainer chose its plan:
// the candidates and helpers it tried, skipped and rejected.
func WithTrace(t *Trace) BackwardOption { return func(c *backwardConfig) { c.trace = t } }

// WithoutChaining makes the chainer use only candidates whose precondition
// already holds: no helpers are chained.
func WithoutChaining() BackwardOption { return func(c *backwardConfig) { c.chaining = false } }

// WithMaxDepth sets how deep helpers may be chained (default 10, clamped
// to 1..256).
func WithMaxDepth(n int) BackwardOption {
	return func(c *backwardConfig) { c.maxDepth = min(max(n, 1), MaxMaxDepth) }
}

// WithSearchBudget sets how many actions one call may consider (default
// 10,000).
func WithSearchBudget(n int) BackwardOption {
	return func(c *backwardConfig) { c.budget = max(n, 1) }
}

// NewBackwardChainer returns a backward chainer over d.
func NewBackwardChainer[S comparable](d *Domain[S], opts ...BackwardOption) *BackwardChainer[S] {
	cfg := backwardConfig{chaining: true, maxDepth: DefaultMaxDepth, budget: DefaultSearchBudget}
	for _, o := range opts {
		o(&cfg)
	}
	return &BackwardChainer[S]{d: d, chaining: cfg.chaining, maxDepth: cfg.maxDepth, budget: cfg.budget, trace: cfg.trace}
}

// Domain returns the chainer's domain.
func (b *BackwardChainer[S]) Domain() *Domain[S] { return b.d }

// Plan plans every goal unsatisfied in s, highest priority first (ties in
// declaration order), each from the state the previous goal's steps leave.
//
// For a goal, the candidates are the actions that declare it in fulfills,
// then those that write a field its condition reads. The first candidate
// whose precondition holds is used; when none holds, the candidates are
// tried in turn, chaining backwards the helpers that write what the
// failing parts of the precondition read (again those that apply first).
// Candidates and helpers that write no field of a failing part of the
// condition cannot make it hold and are passed over. A step that returns
// to a state already reached is refused, and a goal's steps may not undo a
// goal of higher priority that holds when they start.
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
	b.begin(ctx)
	p.Reset()
	d := b.d
	var first error
	st := s
	for _, g := range d.goalOrder {
		if d.Goals[g].Cond(st) {
			continue
		}
		b.protected = b.protected[:0]
		for _, h := range d.goalOrder {
			if h == g {
				break
			}
			if d.Goals[h].Cond(st) {
				b.protected = append(b.protected, h)
			}
		}
		mark := len(b.steps)
		next, err := b.achieve(g, st)
		if err != nil {
			b.steps = b.steps[:mark]
			if errors.Is(err, ErrSearchBudgetExceeded) || b.ctxErr != nil {
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
	return b.finish(s, p, first)
}

// PlanGoal plans goal g alone from s, as a chain of steps.
func (b *BackwardChainer[S]) PlanGoal(ctx context.Context, s S, g GoalID) (Plan, error) {
	var p Plan
	err := b.PlanGoalInto(ctx, s, g, &p)
	return p, err
}

// PlanGoalInto is PlanGoal writing into p, whose storage is reused.
func (b *BackwardChainer[S]) PlanGoalInto(ctx context.Context, s S, g GoalID, p *Plan) error {
	b.begin(ctx)
	p.Reset()
	b.protected = b.protected[:0]
	var first error
	if !b.d.Goals[g].Cond(s) {
		if _, err := b.achieve(g, s); err != nil {
			b.steps = b.steps[:0]
			first = err
		} else {
			p.Goals = append(p.Goals, g)
		}
	}
	return b.finish(s, p, first)
}

// Candidates lists the actions that can serve goal g in s, in the order
// the chainer tries them: those whose precondition holds in s, among the
// actions that fulfill g and then those that write what its condition reads.
func (b *BackwardChainer[S]) Candidates(g GoalID, s S) []ActionID {
	var out []ActionID
	for _, a := range b.d.candidates[g] {
		if b.d.Applicable(a, s) {
			out = append(out, a)
		}
	}
	return out
}

func (b *BackwardChainer[S]) begin(ctx context.Context) {
	b.ctx = ctx
	b.steps = b.steps[:0]
	b.stack = b.stack[:0]
	b.expansions = 0
	b.maxSeen = 0
	b.ctxErr = nil
	if b.trace != nil {
		b.trace.reset()
	}
}

// event records a trace event when tracing.
func (b *BackwardChainer[S]) event(kind TraceKind, g GoalID, a ActionID, depth int, detail string) {
	if b.trace == nil {
		return
	}
	e := TraceEvent{Kind: kind, Depth: depth, Step: len(b.steps), Detail: detail}
	if g != NoGoal {
		e.Goal = b.d.Goals[g].Name
	}
	if a != NoAction {
		e.Action = b.d.Actions[a].Name
	}
	b.trace.add(e)
}

func (b *BackwardChainer[S]) finish(s S, p *Plan, first error) error {
	b.ctx = nil
	p.Steps = append(p.Steps, b.steps...)
	p.Cost = b.d.cost(p.Steps)
	p.Expansions = b.expansions
	if b.ctxErr != nil {
		return b.ctxErr
	}
	if err := b.d.Verify(s, p); err != nil {
		// Unreachable by construction; never return an unverified plan.
		p.Reset()
		return err
	}
	return first
}

// failure is why a branch of the search failed, as a plain value: the
// search rejects branches all the time, and only a goal that fails for
// good becomes a *PlanningError.
type failure struct {
	reason Reason // 0: no failure
	action ActionID
	depth  int
	// limit is the limit exceeded; for Unreachable, 1 + the goal of
	// higher priority that action would undo, or 0. (One field for both
	// keeps failures, copied on every branch of the search, small.)
	limit int
}

func (f failure) failed() bool { return f.reason != 0 }

// error turns f into the PlanningError of goal g.
func (b *BackwardChainer[S]) error(f failure, g GoalID) *PlanningError {
	e := b.d.newError(f.reason, g, f.action)
	e.Depth, e.Limit = f.depth, f.limit
	if f.reason == Unreachable && f.limit > 0 {
		e.Limit, e.Undoes = 0, b.d.GoalName(GoalID(f.limit-1))
	}
	return e
}

// achieve appends steps that make goal g hold, starting from st.
func (b *BackwardChainer[S]) achieve(g GoalID, st S) (S, error) {
	d := b.d
	goal := &d.Goals[g]
	b.visited = append(b.visited[:0], st)
	b.event(TraceGoal, g, NoAction, 0, goal.CondText)
	for !goal.Cond(st) {
		var first failure
		progressed := false
		var unmet uint64
		if goal.Unmet != nil {
			unmet = goal.Unmet(st)
		}
		// First the candidates whose precondition holds, in declaration
		// order; then the others, chaining helpers for their
		// preconditions.
	passes:
		for pass := range 2 {
			for _, a := range d.candidates[g] {
				if d.Applicable(a, st) != (pass == 0) {
					continue
				}
				// An action that writes only fields of conjuncts that
				// already hold cannot make the goal hold; one that
				// declares the goal in fulfills is always tried.
				if !relevant(d.Actions[a].Writes, unmet, goal.Parts) && !slices.Contains(d.Actions[a].Fulfills, g) {
					b.event(TraceSkip, g, a, 1, "writes no field of a failing part of the goal")
					continue
				}
				mark, vmark := len(b.steps), len(b.visited)
				next, f := b.establish(a, st, 0)
				if !f.failed() {
					undone := b.undone(next)
					if undone == NoGoal {
						st, progressed = next, true
						break passes
					}
					f = failure{reason: Unreachable, action: a, limit: int(undone) + 1}
					if b.trace != nil {
						b.event(TraceReject, g, a, 1, "would undo goal "+d.GoalName(undone)+" of higher priority")
					}
				}
				b.steps, b.visited = b.steps[:mark], b.visited[:vmark]
				if b.ctxErr != nil {
					return st, b.ctxErr
				}
				if f.reason == SearchBudgetExceeded {
					return st, b.error(f, g)
				}
				if !first.failed() {
					first = f
				}
			}
		}
		if !progressed {
			if !first.failed() {
				first = failure{reason: Unreachable, action: NoAction}
			}
			err := b.error(first, g)
			if b.trace != nil {
				b.event(TraceGoalFailed, g, NoAction, 0, err.Error())
			}
			return st, err
		}
	}
	b.event(TraceGoalDone, g, NoAction, 0, "")
	return st, nil
}

// undone returns the first goal of higher priority, already achieved, that
// does not hold in s, or NoGoal.
func (b *BackwardChainer[S]) undone(s S) GoalID {
	for _, g := range b.protected {
		if !b.d.Goals[g].Cond(s) {
			return g
		}
	}
	return NoGoal
}

// stopped reports whether the search must end: budget spent or context
// done.
func (b *BackwardChainer[S]) stopped(f failure) bool {
	return f.reason == SearchBudgetExceeded || b.ctxErr != nil
}

// establish makes the precondition of a hold (chaining helpers when it
// does not), then applies a. It returns the state after a, or why a cannot
// be reached. depth counts the helper levels above a: 0 for a goal's
// candidate, so helpers reach at most depth maxDepth.
func (b *BackwardChainer[S]) establish(a ActionID, st S, depth int) (S, failure) {
	d := b.d
	b.expansions++
	if b.expansions > b.budget {
		return st, failure{reason: SearchBudgetExceeded, action: NoAction, depth: depth, limit: b.budget}
	}
	if b.expansions&63 == 0 {
		if err := b.ctx.Err(); err != nil {
			b.ctxErr = err
			return st, failure{reason: Unreachable, action: a}
		}
	}
	act := &d.Actions[a]
	b.event(TraceTry, NoGoal, a, depth+1, "")
	if act.Pre != nil && !act.Pre(st) {
		if !b.chaining {
			if b.trace != nil {
				b.event(TraceReject, NoGoal, a, depth+1, "precondition "+strconv.Quote(act.PreText)+" fails and chaining is off")
			}
			return st, failure{reason: Unreachable, action: a, depth: depth}
		}
		b.event(TraceChain, NoGoal, a, depth+1, act.PreText)
		if depth >= b.maxDepth {
			return st, failure{reason: MaxDepthExceeded, action: a, depth: depth, limit: b.maxDepth}
		}
		if slices.Contains(b.stack, a) {
			return st, failure{reason: CyclicPrecondition, action: a, depth: depth}
		}
		b.stack = append(b.stack, a)
		var f failure
		st, f = b.satisfy(a, st, depth)
		b.stack = b.stack[:len(b.stack)-1]
		if f.failed() {
			if b.trace != nil {
				b.event(TraceReject, NoGoal, a, depth+1, f.reason.String())
			}
			return st, f
		}
	}
	next := st
	if act.Effect != nil {
		next = act.Effect(st)
	}
	if slices.Contains(b.visited, next) {
		// The step leads back to a state this goal's steps already
		// reached: it makes no progress.
		b.event(TraceReject, NoGoal, a, depth+1, "leads back to a state already reached")
		return st, failure{reason: Unreachable, action: a, depth: depth}
	}
	b.steps = append(b.steps, a)
	b.visited = append(b.visited, next)
	b.event(TraceStep, NoGoal, a, depth+1, "")
	return next, failure{}
}

// satisfy chains helpers until the precondition of a holds.
func (b *BackwardChainer[S]) satisfy(a ActionID, st S, depth int) (S, failure) {
	d := b.d
	act := &d.Actions[a]
	for !act.Pre(st) {
		var first failure
		cyclic := false
		progressed := false
		var unmet uint64
		if act.PreUnmet != nil {
			unmet = act.PreUnmet(st)
		}
		// Helpers whose precondition holds first, then the others,
		// chained in turn; declaration order within each pass.
	passes:
		for pass := range 2 {
			for _, h := range d.helpers[a] {
				if d.Applicable(h, st) != (pass == 0) {
					continue
				}
				if !relevant(d.Actions[h].Writes, unmet, act.PreParts) {
					// h changes no field of a failing conjunct.
					b.event(TraceSkip, NoGoal, h, depth+2, "writes no field of a failing part of the precondition")
					continue
				}
				if slices.Contains(b.stack, h) {
					cyclic = true
					b.event(TraceSkip, NoGoal, h, depth+2, "already being established (cycle)")
					continue
				}
				mark, vmark := len(b.steps), len(b.visited)
				next, f := b.establish(h, st, depth+1)
				if !f.failed() {
					st, progressed = next, true
					break passes
				}
				b.steps, b.visited = b.steps[:mark], b.visited[:vmark]
				if b.stopped(f) {
					return st, f
				}
				if !first.failed() {
					first = f
				}
			}
		}
		if !progressed {
			switch {
			case first.failed() && first.reason != Unreachable:
				return st, first
			case cyclic && !first.failed():
				return st, failure{reason: CyclicPrecondition, action: a, depth: depth}
			}
			return st, failure{reason: Unreachable, action: a, depth: depth}
		}
	}
	return st, failure{}
}
