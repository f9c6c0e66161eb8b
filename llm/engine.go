package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"
)

// Engine is the deciding half of a run. Given the plan, the records so far
// and the outcomes just in, it says which steps start now and whether the
// run goes on, is done, failed or replans; a Driver does the acting (model
// calls, the approval gate, steps, checkpoints, the clock). The decisions
// do no I/O, start no goroutine and read no clock, so one Engine drives
// both the in-process runner (Planner.Run, Execute and Resume, with their
// file checkpoints) and a durable workflow (the Temporal adapter, whose
// workflow code must be deterministic): the same plan and the same step
// outcomes give the same records.
//
// An Engine serves one run; it is not safe for concurrent use. Get one
// with Planner.NewEngine and run it with Run.
type Engine[S comparable] struct {
	p    *Planner[S]
	id   string
	goal string

	status  Status
	err     error
	plan    *Plan
	replans int
	records []StepRecord
	// meter sums the usage of the run's model calls against the budget.
	meter

	// completed counts the steps done in the run; reflected is its value at
	// the last reflection.
	completed, reflected int
	// approvedOnce: a plan of the run was approved (by a gate or by hand);
	// handApproved: by hand, through Planner.Approve and Execute.
	approvedOnce, handApproved bool
	// replanning is set while the model is asked for a revision, so that a
	// checkpoint saved then makes Resume ask again instead of running the
	// plan that failed.
	replanning *Replanning
	// planState is the state the current plan was made from, as JSON;
	// decided the last decision recorded by Planner.Decide.
	planState json.RawMessage
	decided   *DecisionRecord

	// The execution state of the current plan: steps done and their
	// outputs, and steps started (or failed) since it began.
	done      map[string]bool
	outputs   map[string]json.RawMessage
	attempted map[string]bool

	// pass is the schedule of the current execution of the plan.
	pass pass

	// started is when this runner started the run; restored says that it
	// goes on from a checkpoint, whose observer context was trace.
	started  time.Time
	restored bool
	trace    map[string]string
}

// pass is the schedule of one execution of a plan: which of its steps
// started, how many run, and the first reason to stop.
type pass struct {
	// order is the in-order schedule (order(plan)); next indexes it.
	order []int
	next  int
	// one holds the wave of a step in order.
	one [1]int
	// started is indexed like the plan's steps.
	started        []bool
	inflight       int
	stop           *outcome
	reflectPending bool
}

// NewEngine returns the engine of a new run of goal under runID (which the
// caller chose: the in-process runner's random id, a workflow's id).
func (p *Planner[S]) NewEngine(runID, goal string) *Engine[S] {
	e := &Engine[S]{p: p, id: runID, goal: goal, status: StatusRunning, meter: meter{budget: p.cfg.tokenBudget}}
	e.resetPlanState()
	return e
}

// RunID returns the id of the engine's run.
func (e *Engine[S]) RunID() string { return e.id }

// Result returns the run as it stands: its status, last plan, every step
// record, replans and model usage.
func (e *Engine[S]) Result() *Result {
	return &Result{
		RunID:   e.id,
		Status:  e.status,
		Plan:    e.plan,
		Steps:   slices.Clone(e.records),
		Replans: e.replans,
		Usage:   e.usage,
		Calls:   slices.Clone(e.calls),
		Err:     e.err,
	}
}

// setPlan makes plan the run's current plan: the one place it changes.
func (e *Engine[S]) setPlan(plan *Plan) { e.plan = plan }

// madeFrom records the state the next plan is made or checked from.
func (e *Engine[S]) madeFrom(state S) {
	b, err := json.Marshal(state)
	if err != nil {
		b = nil
	}
	e.planState = b
}

func (e *Engine[S]) resetPlanState() {
	e.done = map[string]bool{}
	e.outputs = map[string]json.RawMessage{}
	e.attempted = map[string]bool{}
}

// restore loads a run's history from a checkpoint.
func (e *Engine[S]) restore(cp *Checkpoint) {
	e.id, e.goal = cp.RunID, cp.Goal
	e.status = cp.Status
	if cp.Error != "" {
		e.err = errors.New(cp.Error)
	}
	e.setPlan(cp.Plan.Clone())
	e.replans = cp.Replans
	e.records = slices.Clone(cp.Steps)
	e.usage = cp.Usage
	e.calls = slices.Clone(cp.Calls)
	e.approvedOnce, e.handApproved = cp.ApprovedOnce, cp.HandApproved
	e.replanning = cp.Replanning
	e.planState, e.decided = cp.State, cp.Decided
	e.restored, e.trace = true, cp.Trace
	e.resetPlanState()
	e.completed = 0
	for _, rec := range e.records {
		if rec.Status == StepDone {
			e.completed++
		}
	}
	e.reflected = e.completed
}

// interrupted marks the records of steps found running in a checkpoint:
// their process died during the step, which runs again.
func (e *Engine[S]) interrupted() {
	for i := range e.records {
		if e.records[i].Status == StepRunning {
			e.records[i].Status = StepInterrupted
			e.records[i].Note = "no completion recorded before the process stopped; the step runs again"
		}
	}
}

// restoreDone marks done the steps of plan that the run's records show
// done in the plan's revision, with their outputs.
func (e *Engine[S]) restoreDone(plan *Plan) {
	e.resetPlanState()
	for _, rec := range e.records {
		if rec.Revision == plan.Revision && rec.Status == StepDone {
			if _, ok := plan.Step(rec.Step.ID); !ok {
				continue
			}
			e.done[rec.Step.ID] = true
			if len(rec.Output) > 0 {
				e.outputs[rec.Step.ID] = rec.Output
			}
		}
	}
}

// checkpoint is the run as a Store keeps it, saved at now.
func (e *Engine[S]) checkpoint(now time.Time) *Checkpoint {
	cp := &Checkpoint{
		Version:      CheckpointVersion,
		RunID:        e.id,
		Domain:       e.p.d.Name,
		Goal:         e.goal,
		Status:       e.status,
		Error:        errorText(e.err),
		Plan:         e.plan,
		Replans:      e.replans,
		Steps:        e.records,
		Usage:        e.usage,
		Calls:        e.calls,
		ApprovedOnce: e.approvedOnce,
		HandApproved: e.handApproved,
		Replanning:   e.replanning,
		State:        e.planState,
		Decided:      e.decided,
		Trace:        e.trace,
		Saved:        now,
	}
	if cp.Steps == nil {
		cp.Steps = []StepRecord{}
	}
	if cp.Calls == nil {
		cp.Calls = []Call{}
	}
	return cp
}

// The approval gate.

// gateKind is what the gate does with a plan.
type gateKind uint8

const (
	gatePass  gateKind = iota // the plan runs as it is
	gateAsk                   // the approver decides
	gateAwait                 // the run ends awaiting approval by hand
)

// gateFor decides how a plan (a revision when revised) passes the gate,
// with or without an approver to ask.
func (e *Engine[S]) gateFor(plan *Plan, revised, approver bool) gateKind {
	switch {
	case plan.Approved:
		e.approvedOnce = true
		return gatePass
	case revised && !e.p.cfg.reapprove && e.approvedOnce:
		plan.Approved = true
		return gatePass
	case !approver:
		if revised && e.handApproved {
			return gateAwait
		}
		return gatePass
	}
	return gateAsk
}

// decide applies an approver's decision to plan; a decision that changes
// the plan has it verified again from state. It returns the plan to run
// and StatusRunning, or the status and error that end the run.
func (e *Engine[S]) decide(plan *Plan, dec Decision, state S) (*Plan, Status, error) {
	out, err := e.p.checkDecision(plan, dec, state, e.done)
	switch {
	case errors.Is(err, ErrRejected):
		return plan, StatusRejected, err
	case err != nil && out == nil:
		return plan, StatusFailed, err
	case err != nil:
		return out, StatusFailed, err
	}
	e.approvedOnce = true
	return out, StatusRunning, nil
}

// verifyPlan simulates plan from state (its steps done skipped) and
// records the outcome on it; it returns the failure only when verified
// plans are required. An empty plan is verified like any other: the goals
// of WithGoals must hold.
func (e *Engine[S]) verifyPlan(plan *Plan, state S) error {
	verr := e.p.verify(plan, state, e.done)
	plan.Verified, plan.Critique = verr == nil, errorText(verr)
	if e.p.cfg.requireVerified {
		return verr
	}
	return nil
}

// guarded is the error of an unapproved plan that holds a guarded action
// not done yet, or nil.
func (e *Engine[S]) guarded(plan *Plan) error {
	if plan.Approved {
		return nil
	}
	for i := range plan.Steps {
		st := &plan.Steps[i]
		if !st.Skipped && !e.done[st.ID] && e.p.d.Actions[st.Action].Guarded {
			return &GuardedError{StepID: st.ID, Capability: st.Capability}
		}
	}
	return nil
}

// The schedule of a plan's steps.

// outcomeKind is how the execution of a plan ended.
type outcomeKind uint8

const (
	outCompleted outcomeKind = iota
	outFailed                // a step failed: replan if allowed
	outReplan                // a hook or reflector asked for a replan
	outAdjust                // a hook or reflector replaced the pending steps
	outAbort                 // a hook or reflector aborted
	outCancelled             // the context is done
	outFatal                 // the run cannot go on (checkpoint, budget, reflector)
)

type outcome struct {
	kind      outcomeKind
	err       error
	directive Directive
}

// beginPass starts an execution of the current plan.
func (e *Engine[S]) beginPass() {
	e.pass = pass{started: make([]bool, len(e.plan.Steps))}
	if !e.p.cfg.dag {
		e.pass.order = order(e.plan)
	}
}

// halt records a reason to stop the pass. The first reason wins, unless a
// later one is fatal (a panic, a failed checkpoint): that one must not be
// replanned away.
func (e *Engine[S]) halt(o outcome) {
	if s := e.pass.stop; s == nil || o.kind == outFatal && s.kind != outFatal {
		e.pass.stop = &o
	}
}

// stopped reports whether the pass starts no more steps.
func (e *Engine[S]) stopped() bool { return e.pass.stop != nil }

// next returns the steps to start now, in plan order: in order, the next
// pending step once none runs; in a DAG, the steps whose dependencies are
// done, up to the concurrency limit. live says whether their
// preconditions are checked in the live state first: always in order, in
// a DAG when no step runs (reading the state while a step runs would race
// with it). Nothing starts after a reason to stop, nor while a reflection
// waits for the steps in flight.
func (e *Engine[S]) next() (wave []int, live bool) {
	ps := &e.pass
	if ps.stop != nil || ps.reflectPending {
		return nil, false
	}
	live = e.p.cfg.livePre && ps.inflight == 0
	if !e.p.cfg.dag {
		if ps.inflight > 0 {
			return nil, false
		}
		for ; ps.next < len(ps.order); ps.next++ {
			i := ps.order[ps.next]
			if !e.done[e.plan.Steps[i].ID] && !ps.started[i] {
				ps.one[0] = i
				return ps.one[:], live
			}
		}
		return nil, false
	}
	limit := e.p.cfg.concurrency
	for i := 0; i < len(e.plan.Steps) && ps.inflight+len(wave) < limit; i++ {
		st := &e.plan.Steps[i]
		if !ps.started[i] && !st.Skipped && !e.done[st.ID] && e.depsDone(st) {
			wave = append(wave, i)
		}
	}
	return wave, live
}

func (e *Engine[S]) depsDone(st *Step) bool {
	for _, dep := range st.DependsOn {
		if !e.done[dep] {
			return false
		}
	}
	return true
}

// stale checks the precondition of step i of the plan in state.
func (e *Engine[S]) stale(i int, state S) error {
	d := e.p.d
	a := e.plan.Steps[i].Action
	if d.Applicable(a, state) {
		return nil
	}
	return d.StaleError(a, i)
}

// inputs returns the outputs step i may see: in order every output of the
// plan so far, in a DAG its dependencies' only.
func (e *Engine[S]) inputs(i int) map[string]json.RawMessage {
	if !e.p.cfg.dag {
		return maps.Clone(e.outputs)
	}
	st := &e.plan.Steps[i]
	in := make(map[string]json.RawMessage, len(st.DependsOn))
	for _, dep := range st.DependsOn {
		if out, ok := e.outputs[dep]; ok {
			in[dep] = out
		}
	}
	return in
}

// start records step i of the plan as running at now and returns its
// record's index.
func (e *Engine[S]) start(i int, now time.Time) int {
	st := &e.plan.Steps[i]
	e.pass.started[i] = true
	e.attempted[st.ID] = true
	e.records = append(e.records, StepRecord{
		Revision: e.plan.Revision,
		Step:     st.clone(),
		Status:   StepRunning,
		Started:  now,
	})
	return len(e.records) - 1
}

// unstarted records that a started step did not run: its start could not
// be checkpointed. The pass stops, fatally.
func (e *Engine[S]) unstarted(idx int, err error) {
	rec := &e.records[idx]
	rec.Status, rec.Err, rec.Error, rec.Finished = StepFailed, err, err.Error(), rec.Started
	e.halt(outcome{kind: outFatal, err: err})
}

// launched counts a step in flight; returned counts it back.
func (e *Engine[S]) launched() { e.pass.inflight++ }
func (e *Engine[S]) returned() { e.pass.inflight-- }

// ended records the end of the step of record idx at now: its output, or
// its failure (cancelled when the run's context is done and the step did
// not panic). It returns the record.
func (e *Engine[S]) ended(idx int, out json.RawMessage, err error, ctxDone bool, now time.Time) *StepRecord {
	rec := &e.records[idx]
	rec.Finished = now
	id := rec.Step.ID
	_, panicked := errors.AsType[*PanicError](err)
	switch {
	case err == nil:
		rec.Status = StepDone
		rec.Output = normalizeOutput(out)
		e.done[id] = true
		if rec.Output != nil {
			e.outputs[id] = rec.Output
		}
		e.completed++
	case ctxDone && !panicked:
		rec.Status, rec.Err, rec.Error = StepCancelled, err, err.Error()
	default:
		rec.Status = StepFailed
		rec.Err = &StepError{StepID: id, Capability: rec.Step.Capability, Err: err}
		rec.Error = err.Error()
	}
	return rec
}

// directed folds what the hook said after the step of record idx into the
// pass: a panic stops it fatally (a bug is not replanned), a failure the
// hook let continue stops it for a replan, and a directive other than
// Continue stops it as it says. When the pass goes on, the reflector may be
// due.
func (e *Engine[S]) directed(idx int, dir Directive) {
	rec := &e.records[idx]
	if _, panicked := errors.AsType[*PanicError](rec.Err); panicked {
		e.halt(outcome{kind: outFatal, err: rec.Err})
		return
	}
	if rec.Status == StepFailed && dir.Kind == DirectiveContinue {
		e.halt(outcome{kind: outFailed, err: rec.Err})
		return
	}
	if o, stop := directive(dir, rec.Step.ID, rec.Err); stop {
		e.halt(o)
		return
	}
	if e.pass.stop == nil && e.reflectDue() {
		e.pass.reflectPending = true
	}
}

// directive turns a directive into an outcome; failure is the step failure
// that came with it, if any.
func directive(dir Directive, stepID string, failure error) (outcome, bool) {
	switch dir.Kind {
	case DirectiveAbort:
		return outcome{kind: outAbort, err: &AbortError{StepID: stepID, Reason: dir.Reason}}, true
	case DirectiveReplan:
		return outcome{kind: outReplan, err: failure, directive: dir}, true
	case DirectiveAdjust:
		return outcome{kind: outAdjust, err: failure, directive: dir}, true
	}
	return outcome{}, false
}

// reflectNow reports whether the reflector is to be asked now: it was due
// and no step runs. The reflection counts from here.
func (e *Engine[S]) reflectNow() bool {
	if !e.pass.reflectPending || e.pass.inflight > 0 || e.pass.stop != nil {
		return false
	}
	e.pass.reflectPending = false
	e.reflected = e.completed
	return true
}

// reflectDue reports whether the reflector is due: every WithReflector
// steps done.
func (e *Engine[S]) reflectDue() bool {
	every := e.p.cfg.reflectEvery
	return every > 0 && e.p.cfg.reflector != nil && e.completed > e.reflected && e.completed/every > e.reflected/every
}

// passOutcome is how the pass ended, once no step runs and none starts.
func (e *Engine[S]) passOutcome() outcome {
	if e.pass.stop != nil {
		return *e.pass.stop
	}
	for _, st := range e.plan.Steps {
		if !st.Skipped && !e.done[st.ID] {
			return outcome{kind: outFailed, err: fmt.Errorf("llm: step %q could not be scheduled", st.ID)}
		}
	}
	return outcome{kind: outCompleted}
}

// The end of a pass.

// verdictKind is what the run does after a pass.
type verdictKind uint8

const (
	verdictEnd    verdictKind = iota // the run ends with verdict.status
	verdictAdjust                    // run verdict.plan, an adjustment, after the gate
	verdictReplan                    // ask the model for a revision (verdict.replanning)
)

type verdict struct {
	kind       verdictKind
	status     Status
	err        error
	plan       *Plan
	replanning *Replanning
}

// settle decides what follows a pass that ended with o; goals is the
// check of WithGoals in the live state after a completed pass, and state
// the live state an adjustment is verified from.
func (e *Engine[S]) settle(o outcome, goals error, state func() S) verdict {
	cfg := &e.p.cfg
	plan := e.plan
	if o.kind == outCompleted {
		if goals == nil {
			e.skipRest(plan, fmt.Sprintf("beyond the step budget of %d", cfg.maxSteps))
			return verdict{kind: verdictEnd, status: StatusCompleted}
		}
		o = outcome{kind: outFailed, err: goals}
	}
	switch o.kind {
	case outCancelled:
		e.skipRest(plan, "not run: cancelled")
		return verdict{kind: verdictEnd, status: StatusCancelled, err: o.err}
	case outAbort, outFatal:
		e.skipRest(plan, "not run: the run stopped")
		return verdict{kind: verdictEnd, status: StatusFailed, err: o.err}
	case outAdjust:
		next, err := e.adjust(plan, o.directive, state())
		if err == nil {
			e.skipDropped(plan, next)
			return verdict{kind: verdictAdjust, plan: next}
		}
		o = outcome{kind: outReplan, directive: Replan("the adjusted steps are not acceptable: " + err.Error())}
	}
	// A failure or a request to replan.
	e.skipRest(plan, "not run: replanned")
	if e.replans >= cfg.maxReplans {
		return verdict{kind: verdictEnd, status: StatusFailed, err: e.exhausted(o)}
	}
	e.replans++
	pending := &Replanning{Critique: o.directive.Reason}
	if o.err != nil {
		pending.Failure = o.err.Error()
	}
	return verdict{kind: verdictReplan, replanning: pending}
}

// exhausted is the error of a run that may not replan any more.
func (e *Engine[S]) exhausted(o outcome) error {
	last := o.err
	if last == nil {
		last = fmt.Errorf("replan requested: %s", o.directive.Reason)
	}
	if e.p.cfg.maxReplans == 0 {
		return last
	}
	return fmt.Errorf("llm: %w after %d replans: %w", ErrReplansExhausted, e.replans, last)
}

// adjust builds the plan of an Adjust directive: the steps done, then the
// directive's steps, validated and verified from state.
func (e *Engine[S]) adjust(plan *Plan, dir Directive, state S) (*Plan, error) {
	next := plan.Clone()
	next.Steps = slices.DeleteFunc(next.Steps, func(s Step) bool { return !e.done[s.ID] })
	for _, s := range dir.Steps {
		s = s.clone()
		if s.DependsOn == nil {
			s.DependsOn = []string{}
		}
		next.Steps = append(next.Steps, s)
	}
	next.Approved, next.Verified, next.Critique, next.Raw = false, false, "", ""
	if err := e.p.Validate(next); err != nil {
		return nil, err
	}
	if err := e.verifyPlan(next, state); err != nil {
		return nil, err
	}
	return next, nil
}

// skipDropped records as skipped the steps an adjustment dropped.
func (e *Engine[S]) skipDropped(old, next *Plan) {
	for _, s := range old.Steps {
		if e.done[s.ID] || e.attempted[s.ID] {
			continue
		}
		if _, kept := next.Step(s.ID); !kept {
			e.records = append(e.records, StepRecord{Revision: old.Revision, Step: s.clone(), Status: StepSkipped, Note: "dropped by an adjustment"})
		}
	}
}

// skipRest records as skipped the steps of plan never started.
func (e *Engine[S]) skipRest(plan *Plan, note string) {
	for _, s := range plan.Steps {
		if e.done[s.ID] || e.attempted[s.ID] {
			continue
		}
		e.attempted[s.ID] = true
		n := note
		if s.Skipped {
			n = fmt.Sprintf("beyond the step budget of %d", e.p.cfg.maxSteps)
		}
		e.records = append(e.records, StepRecord{Revision: plan.Revision, Step: s.clone(), Status: StepSkipped, Note: n})
	}
}

// doneRecords returns the records of every step done in the run.
func (e *Engine[S]) doneRecords() []StepRecord {
	var out []StepRecord
	for _, rec := range e.records {
		if rec.Status == StepDone {
			out = append(out, rec)
		}
	}
	return out
}
