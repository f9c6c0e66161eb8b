package runtime

import (
	"context"
	"errors"
	"math"
	"math/bits"
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
)

// BackwardChainer plans by goal regression. It keeps scratch space between
// calls, so a chainer reused for many plans does not allocate; for the same
// reason one chainer must not be used by two goroutines at once (give each
// worker its own: they are cheap).
type BackwardChainer[S comparable] struct {
	d        *Domain[S]
	chaining bool
	maxDepth int
	maxSteps int
	budget   int
	trace    *Trace
	stats    *Stats

	// Per call.
	ctx        context.Context
	ctxErr     error
	expansions int
	generated  int
	steps      []ActionID // the plan being built

	// Per goal.
	goal      GoalID
	protected []GoalID   // goals of higher priority that hold and must hold after
	full      bool       // the complete pass: backtrack everywhere, remember failures
	frames    []frame[S] // the agenda: the goal, then the actions being established
	onAgenda  []uint64   // one bit per action on the agenda
	end       S          // the state where the goal was reached
	// Scratch states whose addresses go to the domain's functions (a
	// local's address would make every call allocate it).
	probe, after, from S
	costErr            *PlanningError // an invalid cost met by the complete pass
	reach              reach          // scratch of the relaxed reachability
	entry              agendaEntry[S]
	// partial: the greedy pass left choices untried (it went on from a
	// step without going back, or refused a step that undoes a goal the
	// complete pass may restore), so its failure is not final.
	partial   bool
	depthCut  bool          // some pass cut a branch for the depth limit
	reg       regression[S] // the complete pass's search space
	cands     [][]choice    // scratch of choices, by nesting level of search
	fields    fields[S]     // reads the fields of a state, for the estimates
	level     int           // the nesting level of the current choices
	greedyEnd int           // the expansion count at which the greedy pass gives up
	started   time.Time     // when the call began, with stats
}

// frame is an entry of the agenda: the goal (act NoAction) or an action
// whose precondition is being established, chosen by the frame below in
// state from for the failing parts want of its condition cond.
type frame[S comparable] struct {
	act  ActionID
	cond int32
	want uint64
	from S
}

// same reports whether f and g are the same entry of an agenda.
func (f *frame[S]) same(g *frame[S]) bool {
	return f.act == g.act && f.cond == g.cond && f.want == g.want && f.from == g.from
}

type backwardConfig struct {
	chaining bool
	maxDepth int
	maxSteps int
	budget   int
	trace    *Trace
	stats    *Stats
}

// WithoutChaining makes the chainer use only candidates whose precondition
// already holds: no helpers are chained.
func WithoutChaining() BackwardOption {
	return backwardFunc(func(c *backwardConfig) { c.chaining = false })
}

// WithMaxDepth sets how deep helpers may be chained (default 10, clamped
// to 1..256): how many actions may wait at once for their preconditions.
func WithMaxDepth(n int) BackwardOption {
	return backwardFunc(func(c *backwardConfig) { c.maxDepth = min(max(n, 1), MaxMaxDepth) })
}

// NewBackwardChainer returns a backward chainer over d.
func NewBackwardChainer[S comparable](d *Domain[S], opts ...BackwardOption) *BackwardChainer[S] {
	cfg := backwardConfig{chaining: true, maxDepth: DefaultMaxDepth, maxSteps: DefaultMaxSteps, budget: DefaultSearchBudget}
	for _, o := range opts {
		o.applyBackward(&cfg)
	}
	return &BackwardChainer[S]{
		d: d, chaining: cfg.chaining, maxDepth: cfg.maxDepth, maxSteps: cfg.maxSteps, budget: cfg.budget, trace: cfg.trace, stats: cfg.stats,
		onAgenda: make([]uint64, (len(d.Actions)+63)/64),
	}
}

// Domain returns the chainer's domain.
func (b *BackwardChainer[S]) Domain() *Domain[S] { return b.d }

// Plan plans every goal unsatisfied in s, highest priority first (ties in
// declaration order), each from the state the previous goal's steps leave.
//
// For a goal, the candidates are the actions that declare it in fulfills,
// then those that can make a failing conjunct of its condition hold: they
// write a field the conjunct reads, and not only the wrong way (an action
// that lowers Bread is no candidate for Bread >= 2). The first candidate
// whose precondition holds is used; when none holds, the candidates are
// tried in turn, chaining backwards the helpers that can make a failing
// conjunct of the precondition hold (again those that apply first). A step
// counts only when it brings what it serves closer to holding: a failing
// conjunct now holds, or its field moved toward what it needs. A goal's
// steps may not undo a goal of higher priority that holds when they start.
//
// That first, greedy pass takes the first way that works. When it finds
// none, a complete pass searches the same choices for the shortest plan,
// backtracking everywhere and remembering the situations (state and
// actions waiting) that failed, so none is searched twice: within the
// depth, step and budget limits, the chainer does not give up while a plan
// exists that it can build. The budget bounds the work of a call.
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
	if b.stats != nil {
		b.started = time.Now()
	}
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
		next, err := b.achieve(g, st)
		if err != nil {
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
	err := b.finish(s, p, first)
	if b.stats != nil {
		b.stats.recordPlan(PlannerBackward, NoGoal, b.started, p, err)
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
	if b.stats != nil {
		b.started = time.Now()
	}
	b.begin(ctx)
	p.Reset()
	b.protected = b.protected[:0]
	var first error
	if !b.d.Goals[g].Cond(s) {
		if _, err := b.achieve(g, s); err != nil {
			first = err
		} else {
			p.Goals = append(p.Goals, g)
		}
	}
	err := b.finish(s, p, first)
	if b.stats != nil {
		b.stats.recordPlan(PlannerBackward, g, b.started, p, err)
	}
	return err
}

// Candidates lists the actions that can serve goal g in s, in the order
// the chainer tries them, among those whose precondition holds in s: the
// actions that fulfill g, then those that can make a conjunct of its
// condition that fails in s hold (any conjunct when g holds).
func (b *BackwardChainer[S]) Candidates(g GoalID, s S) []ActionID {
	c := &b.d.goals[g]
	failing := c.failing(s)
	if failing == 0 {
		failing = ^uint64(0)
	}
	var out []ActionID
	for _, o := range c.opts {
		if o.helps&failing != 0 && b.d.Applicable(o.act, s) {
			out = append(out, o.act)
		}
	}
	return out
}

func (b *BackwardChainer[S]) begin(ctx context.Context) {
	b.ctx = ctx
	b.steps = b.steps[:0]
	b.expansions, b.generated = 0, 0
	b.ctxErr = nil
	if b.trace != nil {
		b.trace.reset()
	}
}

// event records a trace event when tracing.
func (b *BackwardChainer[S]) event(kind TraceKind, g GoalID, a ActionID, depth int, detail string) {
	if b.trace != nil && !b.full {
		b.record(kind, g, a, depth, detail)
	}
}

// record adds a trace event (event is small enough to inline into the
// search, so that an untraced chainer pays a test for each event). It is
// kept out of line: inlined at every event, the growth of the trace's
// slice would make the search's stack frames several times larger.
//
//go:noinline
func (b *BackwardChainer[S]) record(kind TraceKind, g GoalID, a ActionID, depth int, detail string) {
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
	cost, err := b.d.planCost(s, p.Steps)
	if err != nil {
		p.Reset()
		return err
	}
	p.Cost = cost
	p.Expansions, p.Generated = b.expansions, b.generated
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

// result is how a search below a frame ended: found (a plan for the goal),
// stopped (budget or context), or failed, with why.
type result struct {
	kind resultKind
	// cut: a branch below was cut for the step limit, so a larger one
	// might succeed.
	cut bool
	// frame is the frame that failed: the greedy pass goes back to the
	// choice that pushed it.
	frame  int16
	depth  int16
	reason Reason
	action ActionID
	undoes GoalID // for Unreachable: the goal of higher priority the action would undo
}

type resultKind uint8

const (
	failed resultKind = iota
	found
	stopped // the budget ran out, or the context is done
	gaveUp  // the greedy pass used its share of the budget
)

// greedyBudget is how many expansions the greedy pass may take before the
// complete pass takes over: enough for long plans that need no
// backtracking, and little next to the budget, so that a greedy pass lost
// among wrong choices does not cost more than searching properly.
func greedyBudget(maxSteps int) int { return 64 + 2*maxSteps }

// stepsBound is a lower bound on the steps the goal needs from s (see
// condition.stepsBound).
func (b *BackwardChainer[S]) stepsBound(s S) float64 {
	c := &b.d.goals[b.goal]
	failing := c.failing(s)
	if failing == 0 {
		return 0
	}
	b.probe = s
	b.fields.reset(b.d.Number, &b.probe, len(b.d.Fields))
	return c.stepsBound(failing, &b.fields)
}

func (r result) is(k resultKind) bool { return r.kind == k }

// fail is the failure of frame f.
func fail(f int, reason Reason, a ActionID, depth int) result {
	return result{kind: failed, frame: int16(f), reason: reason, action: a, depth: int16(depth), undoes: NoGoal}
}

// error turns the failure r into the PlanningError of goal g.
func (b *BackwardChainer[S]) error(r result, g GoalID) *PlanningError {
	e := b.d.newError(r.reason, g, r.action)
	e.Depth = int(r.depth)
	switch {
	case r.reason == MaxStepsExceeded:
		e.Limit = b.maxSteps
	case r.reason == MaxDepthExceeded:
		e.Limit = b.maxDepth
	case r.reason == SearchBudgetExceeded:
		e.Limit = b.budget
	case r.reason == Unreachable && r.undoes != NoGoal:
		e.Undoes = b.d.GoalName(r.undoes)
	}
	return e
}

// achieve plans goal g from st: the greedy pass, then, when it fails,
// the complete one. It appends the steps and returns the state they reach.
func (b *BackwardChainer[S]) achieve(g GoalID, st S) (S, error) {
	b.goal = g
	b.event(TraceGoal, g, NoAction, 0, b.d.Goals[g].CondText)
	rem := b.maxSteps - len(b.steps)
	mark := len(b.steps)

	b.full, b.depthCut, b.partial = false, false, false
	b.resetAgenda()
	b.greedyEnd = b.expansions + greedyBudget(b.maxSteps)
	r := b.search(st, rem)
	if r.is(gaveUp) {
		r = result{kind: failed, reason: Unreachable, action: NoAction, undoes: NoGoal}
		b.partial = true
	}
	if r.is(failed) && b.partial {
		// Before searching further: the goal may be proved out of reach
		// (see reach.go), or some part of it may need more steps than the
		// limit leaves, whatever the plan.
		b.probe = st
		switch {
		case b.d.unreachable(g, &b.probe, &b.reach):
			r.cut = false
			b.partial = false
		case b.stepsBound(st) > float64(rem):
			r = result{kind: failed, cut: true, reason: MaxStepsExceeded, action: NoAction, undoes: NoGoal}
			b.partial = false
		}
	}
	if r.is(failed) && b.partial {
		greedy := r
		// The complete pass, its choices told in the trace by one line,
		// not one each.
		b.full = true
		before := b.expansions
		r = b.complete(st, rem)
		b.full = false
		if b.trace != nil {
			detail := "no plan"
			if r.is(found) {
				detail = "the cheapest plan, of " + strconv.Itoa(len(b.steps)-mark) + " steps"
			}
			b.event(TraceSearch, g, NoAction, 0, detail+", after "+strconv.Itoa(b.expansions-before)+" situations")
		}
		if r.is(failed) {
			switch {
			case r.cut:
				// Every plan found is longer than the step limit.
				r = result{kind: failed, reason: MaxStepsExceeded, action: NoAction, undoes: NoGoal}
			default:
				r = greedy
			}
		}
	}
	switch {
	case r.is(found):
		b.event(TraceGoalDone, g, NoAction, 0, "")
		return b.end, nil
	case b.ctxErr != nil:
		b.steps = b.steps[:mark]
		return st, b.ctxErr
	case b.costErr != nil:
		b.steps = b.steps[:mark]
		err := b.costErr
		err.Goal, err.GoalName = g, b.d.GoalName(g)
		b.costErr = nil
		return st, err
	}
	b.steps = b.steps[:mark]
	if r.reason == 0 {
		r = fail(0, Unreachable, NoAction, 0)
	}
	err := b.error(r, g)
	if b.trace != nil {
		b.event(TraceGoalFailed, g, NoAction, 0, err.Error())
	}
	return st, err
}

// resetAgenda leaves the goal alone on the agenda. (A search that finds a
// plan returns at once, leaving its agenda as it was: this resets it.)
func (b *BackwardChainer[S]) resetAgenda() {
	clear(b.onAgenda)
	b.frames = append(b.frames[:0], frame[S]{act: NoAction})
	b.level = 0
}

// push puts choice c, made in state s, on the agenda.
func (b *BackwardChainer[S]) push(c *choice, s S) {
	b.frames = append(b.frames, frame[S]{act: c.opt.act, cond: c.cond, want: c.want, from: s})
	b.mark(c.opt.act)
}

func (b *BackwardChainer[S]) pop() {
	f := &b.frames[len(b.frames)-1]
	b.unmark(f.act)
	b.frames = b.frames[:len(b.frames)-1]
}

// waiting reports whether action a is on the agenda.
func (b *BackwardChainer[S]) waiting(a ActionID) bool {
	return b.onAgenda[uint32(a)/64]&(1<<(uint32(a)%64)) != 0
}

// mark and unmark put action a on the agenda's set and take it off (a is
// an action, never NoAction: the unsigned index is for the compiler).
func (b *BackwardChainer[S]) mark(a ActionID)   { b.onAgenda[uint32(a)/64] |= 1 << (uint32(a) % 64) }
func (b *BackwardChainer[S]) unmark(a ActionID) { b.onAgenda[uint32(a)/64] &^= 1 << (uint32(a) % 64) }

// targets returns the number of conditions the goal frame serves: the
// goal, and in the complete pass the protected goals after it.
func (b *BackwardChainer[S]) targets() int {
	if b.full {
		return 1 + len(b.protected)
	}
	return 1
}

// target returns condition i of frame f (see targetOf).
func (b *BackwardChainer[S]) target(f, i int) *condition[S] { return b.targetOf(b.frames[f].act, i) }

// targetOf returns condition i of the frame of action a: its precondition,
// or, for the goal's frame (a is NoAction), the goal (i = 0) and the
// protected goals.
func (b *BackwardChainer[S]) targetOf(a ActionID, i int) *condition[S] {
	if a != NoAction {
		return &b.d.pres[a]
	}
	if i == 0 {
		return &b.d.goals[b.goal]
	}
	return &b.d.goals[b.protected[i-1]]
}

// search continues the plan from state s with rem steps left, working on
// the top frame of the agenda. In the greedy pass, a frame that took a
// step and then found no way on fails as a whole; in the complete pass
// every choice is backtracked.
func (b *BackwardChainer[S]) search(s S, rem int) result { return b.searchFrom(s, rem, 0, false) }

// searchFrom is search, told the failing parts of the top frame's (first)
// condition in s when known is set (the step that led here computed them).
func (b *BackwardChainer[S]) searchFrom(s S, rem int, failing uint64, known bool) result {
	d := b.d
	top := len(b.frames) - 1
	a := b.frames[top].act
	if a == NoAction {
		if !known {
			failing = d.goals[b.goal].failing(s)
		}
		if failing == 0 && (!b.full || b.undone(s) == NoGoal) {
			b.end = s
			return result{kind: found}
		}
	} else {
		if !known {
			failing = d.pres[a].failing(s)
		}
		if failing == 0 {
			return b.step(s, rem)
		}
	}
	return b.expand(s, rem, failing)
}

// expand works on the top frame, whose condition fails in s (failing
// are its first condition's failing parts): it tries the choices that can
// serve it in turn.
func (b *BackwardChainer[S]) expand(s S, rem int, failing uint64) result {
	d := b.d
	top := len(b.frames) - 1
	a := b.frames[top].act
	depth := top - 1 // helper levels above a goal's candidate
	if a != NoAction {
		if b.trace != nil {
			b.event(TraceChain, NoGoal, a, top, d.Actions[a].PreText)
		}
		if !b.chaining {
			if b.trace != nil {
				b.event(TraceReject, NoGoal, a, top, "precondition "+strconv.Quote(d.Actions[a].PreText)+" fails and chaining is off")
			}
			return fail(top, Unreachable, a, depth)
		}
		if depth >= b.maxDepth {
			b.depthCut = true
			return fail(top, MaxDepthExceeded, a, depth)
		}
	}

	// The frame's condition fails: an expansion, which chooses an action
	// to serve it.
	b.expansions++
	switch {
	case b.expansions > b.budget:
		return result{kind: stopped, reason: SearchBudgetExceeded, action: NoAction, depth: int16(depth + 1), undoes: NoGoal}
	case b.expansions > b.greedyEnd:
		return result{kind: gaveUp}
	case b.expansions&63 == 0:
		if err := b.ctx.Err(); err != nil {
			b.ctxErr = err
			return result{kind: stopped}
		}
	}
	var first result // the first failure below, for the error
	cyclic, cut := false, false
	// The choices are scratch of this call's nesting level: the frame's
	// level is not enough, as the same frame is worked on again, deeper,
	// after each step its choices lead to.
	level := b.level
	b.level++
	var end result
	ended := false
	list := b.choices(level, a, s, failing)
	for i := range list {
		cd := &list[i]
		if b.waiting(cd.opt.act) {
			cyclic = true
			b.event(TraceSkip, NoGoal, cd.opt.act, top+1, "already being established (cycle)")
			continue
		}
		if top+1 > rem {
			// Every action on the agenda needs a step.
			cut = true
			continue
		}
		b.generated++
		b.event(TraceTry, NoGoal, cd.opt.act, top+1, "")
		b.push(cd, s)
		r := b.searchFrom(s, rem, cd.pre, true)
		if r.is(found) {
			return r // the agenda is reset before it is used again
		}
		b.pop()
		if !r.is(failed) || int(r.frame) <= top {
			// Done; or, greedy, this frame took a step and found no
			// way on.
			if r.is(failed) {
				b.partial = true
			}
			end, ended = r, true
			break
		}
		cut = cut || r.cut
		if first.reason == 0 {
			first = r
		}
	}
	b.level--
	if ended {
		return end
	}

	// No choice worked.
	if a == NoAction {
		if first.reason == 0 {
			first = fail(top, Unreachable, NoAction, 0)
		}
		first.frame, first.cut = int16(top), cut
		return first
	}
	r := fail(top, Unreachable, a, depth)
	switch {
	case first.reason != 0 && first.reason != Unreachable:
		r = first
		r.frame = int16(top)
	case cyclic && first.reason == 0:
		r.reason = CyclicPrecondition
	}
	if b.trace != nil {
		b.event(TraceReject, NoGoal, a, top, r.reason.String())
	}
	r.cut = cut
	return r
}

// choice is an action the chainer may push for a frame: an option of one
// of the frame's conditions, with the guess of its cost that orders it.
type choice struct {
	opt  *option // in the domain's tables
	cond int32
	want uint64 // the failing parts of the condition it can serve
	cf   uint64 // the failing parts of that condition
	// pre are the failing parts of the action's precondition in the
	// state of the choice: none when it applies.
	pre        uint64
	applicable bool
	est        float64 // the guess of its cost
	hard       float64 // the cheapest guess among the choices for the hardest part it serves
}

// choices lists the actions that can serve the failing parts of the
// conditions of the frame of act (NoAction: the goal's) in s, in the order to try them: those that declare the goal
// in fulfills first, then by the estimate of what using them costs
// (Domain.estimate), then those whose precondition holds, then in
// declaration order. The list is scratch of the given nesting level.
func (b *BackwardChainer[S]) choices(level int, act ActionID, s S, first uint64) []choice {
	d := b.d
	if level >= len(b.cands) {
		b.cands = append(b.cands, make([][]choice, level+1-len(b.cands))...)
	}
	list := b.cands[level][:0]
	n := 1
	if act == NoAction {
		n = b.targets()
	}
	for ci := range n {
		c := b.targetOf(act, ci)
		failing := first // the first condition's failing parts, known
		if ci > 0 {
			failing = c.failing(s)
		}
		if failing == 0 {
			continue
		}
		for j := range c.opts {
			o := &c.opts[j]
			if o.helps&failing == 0 {
				if b.trace != nil {
					b.event(TraceSkip, NoGoal, o.act, len(b.frames), "cannot make a failing part of what it serves hold")
				}
				continue
			}
			if ci > 0 && slices.ContainsFunc(list, func(c choice) bool { return c.opt.act == o.act }) {
				continue // served an earlier condition too
			}
			list = append(list, choice{opt: o, cond: int32(ci), want: o.helps & failing, cf: failing})
		}
	}
	// The failing parts of each choice's precondition: the order needs
	// them, and so does the search when it takes the choice.
	for i := range list {
		pf := d.pres[list[i].opt.act].failing(s)
		list[i].pre, list[i].applicable = pf, pf == 0
	}
	if len(list) > 1 && !b.full {
		b.probe = s
		b.fields.reset(d.Number, &b.probe, len(d.Fields))
		var parts uint64 // the parts some choice serves
		for i := range list {
			cd := &list[i]
			cd.est = d.estimate(b.targetOf(act, int(cd.cond)), cd.opt, cd.cf, cd.pre, &b.fields)
			parts |= cd.want
		}
		// The hardest part first: a part whose cheapest choice costs
		// most is served before easier ones, which its steps might
		// otherwise undo (walking to town for an axe leaves the forest).
		for w := parts; w != 0; w &= w - 1 {
			k := bits.TrailingZeros64(w)
			cheapest := math.Inf(1)
			for i := range list {
				if list[i].want&(1<<k) != 0 {
					cheapest = min(cheapest, list[i].est)
				}
			}
			for i := range list {
				if list[i].want&(1<<k) != 0 {
					list[i].hard = max(list[i].hard, cheapest)
				}
			}
		}
		// Insertion sort: the lists are short, and it keeps equals in
		// declaration order.
		for i := 1; i < len(list); i++ {
			for j := i; j > 0 && list[j].before(&list[j-1]); j-- {
				list[j], list[j-1] = list[j-1], list[j]
			}
		}
	}
	if cap(list) > cap(b.cands[level]) {
		b.cands[level] = list // grown
	}
	return list
}

// before orders choices: an action that declares the goal in fulfills
// first, then one for a harder part, then the lower estimate, then one that
// applies.
func (c *choice) before(o *choice) bool {
	switch {
	case c.opt.fulfills != o.opt.fulfills:
		return c.opt.fulfills
	case c.hard != o.hard:
		return c.hard > o.hard
	case c.est != o.est:
		return c.est < o.est
	}
	return c.applicable && !o.applicable
}

// goalHolds reports whether the goal holds in s, and in the complete pass
// the protected goals too.
func (b *BackwardChainer[S]) goalHolds(s S) bool {
	if !b.d.Goals[b.goal].Cond(s) {
		return false
	}
	return !b.full || b.undone(s) == NoGoal
}

// step applies the action of the top frame, whose precondition holds in
// s, when that brings what the frame was chosen for closer to holding than
// it was when the frame was chosen (helpers and all), and goes on with the
// frame below.
func (b *BackwardChainer[S]) step(s S, rem int) result {
	d := b.d
	top := len(b.frames) - 1
	f := &b.frames[top]
	a, depth := f.act, top-1
	next := d.Apply(a, s)
	c := b.target(top-1, int(f.cond))
	b.after = next
	// The greedy pass asks for progress since the frame was chosen, so
	// that helpers undoing what the step does cannot walk in circles; the
	// complete pass, bounded by its step limit, also takes progress of the
	// step alone.
	progressed, after := d.progress(c, f.want, &f.from, &b.after)
	if !progressed && b.full {
		b.probe = s
		progressed, _ = d.progress(c, f.want&c.failing(s), &b.probe, &b.after)
	}
	if !progressed {
		if b.trace != nil {
			b.event(TraceReject, NoGoal, a, top, "brings no failing part of what it serves closer to holding")
		}
		return fail(top, Unreachable, a, depth)
	}
	if !b.full && top == 1 {
		if undone := b.undone(next); undone != NoGoal {
			if b.trace != nil {
				b.event(TraceReject, b.goal, a, top, "would undo goal "+d.GoalName(undone)+" of higher priority")
			}
			r := fail(top, Unreachable, a, depth)
			r.undoes = undone
			b.partial = true
			return r
		}
	}
	b.steps = append(b.steps, a)
	b.event(TraceStep, NoGoal, a, top, "")
	fr := *f
	b.pop()
	// The step computed the failing parts of the condition it served: the
	// frame below goes on with them when that is its first condition.
	r := b.searchFrom(next, rem-1, after, fr.cond == 0)
	if r.is(found) {
		return r // the agenda is reset before it is used again
	}
	b.frames = append(b.frames, fr)
	b.mark(a)
	b.steps = b.steps[:len(b.steps)-1]
	return r
}

// undone returns the first goal of higher priority, holding when the goal's
// steps started, that does not hold in s, or NoGoal.
func (b *BackwardChainer[S]) undone(s S) GoalID { return b.d.FirstUnsatisfied(b.protected, s) }
