package llm

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"
)

// Status is the state of a run.
type Status string

// Run statuses. A run is running until it ends in one of the others.
const (
	StatusRunning          Status = "running"
	StatusCompleted        Status = "completed"
	StatusFailed           Status = "failed"
	StatusCancelled        Status = "cancelled"
	StatusAwaitingApproval Status = "awaiting_approval"
	StatusRejected         Status = "rejected"
)

// StepStatus is the state of one step record.
type StepStatus string

// Step statuses.
const (
	// StepRunning: started, completion not (yet) recorded.
	StepRunning StepStatus = "running"
	StepDone    StepStatus = "done"
	StepFailed  StepStatus = "failed"
	// StepSkipped: never started (beyond the step budget, or left when the
	// run ended, was cancelled or replanned).
	StepSkipped   StepStatus = "skipped"
	StepCancelled StepStatus = "cancelled"
	// StepInterrupted: found running in a checkpoint by Resume; the process
	// died during the step, which runs again.
	StepInterrupted StepStatus = "interrupted"
)

// StepRecord is what happened to one step of one plan of a run.
type StepRecord struct {
	// Revision is the plan the step belongs to (Plan.Revision).
	Revision int             `json:"revision"`
	Step     Step            `json:"step"`
	Status   StepStatus      `json:"status"`
	Output   json.RawMessage `json:"output,omitempty"`
	// Error is the failure's text; Err the failure itself (not kept by
	// checkpoints).
	Error string `json:"error,omitempty"`
	Err   error  `json:"-"`
	// Note says why a step was skipped or interrupted.
	Note     string    `json:"note,omitempty"`
	Started  time.Time `json:"started,omitzero"`
	Finished time.Time `json:"finished,omitzero"`
}

// Purposes of model calls (Call.Purpose).
const (
	CallPlan    = "plan"
	CallReplan  = "replan"
	CallRetry   = "retry"
	CallReflect = "reflect"
)

// Call is the token usage of one model call.
type Call struct {
	Purpose string `json:"purpose"`
	Usage   Usage  `json:"usage"`
}

// Result is the outcome of a run.
type Result struct {
	RunID  string
	Status Status
	// Plan is the last plan of the run.
	Plan *Plan
	// Steps records every step of every plan of the run, in the order they
	// started (steps never started come last, skipped).
	Steps []StepRecord
	// Replans counts the plans made after the first.
	Replans int
	// Usage sums Calls.
	Usage Usage
	Calls []Call
	// Err is the error the run ended with (also returned).
	Err error
}

// Succeeded reports whether the last plan completed, whatever was
// replanned before.
func (r *Result) Succeeded() bool { return r.Status == StatusCompleted }

// Output returns the output of a completed step of the last plan.
func (r *Result) Output(stepID string) (json.RawMessage, bool) {
	if r.Plan == nil {
		return nil, false
	}
	for _, rec := range slices.Backward(r.Steps) {
		if rec.Revision == r.Plan.Revision && rec.Step.ID == stepID && rec.Status == StepDone {
			return rec.Output, true
		}
	}
	return nil, false
}

// DirectiveKind is what a hook or reflector wants next.
type DirectiveKind uint8

// Directive kinds.
const (
	// Continue the plan.
	DirectiveContinue DirectiveKind = iota
	// Adjust: replace the steps not yet run with Directive.Steps.
	DirectiveAdjust
	// Replan from the current state, with Directive.Reason as critique.
	DirectiveReplan
	// Abort the run (status failed, *AbortError).
	DirectiveAbort
)

func (k DirectiveKind) String() string {
	switch k {
	case DirectiveContinue:
		return "continue"
	case DirectiveAdjust:
		return "adjust"
	case DirectiveReplan:
		return "replan"
	case DirectiveAbort:
		return "abort"
	}
	return fmt.Sprintf("directive(%d)", k)
}

// Directive is the answer of an OnStep hook or a reflector.
type Directive struct {
	Kind DirectiveKind
	// Reason is the feedback of a replan, the reason of an abort.
	Reason string
	// Steps replace the steps not yet run (Adjust).
	Steps []Step
}

// Continue goes on with the plan.
func Continue() Directive { return Directive{} }

// Abort stops the run.
func Abort(reason string) Directive { return Directive{Kind: DirectiveAbort, Reason: reason} }

// Replan asks the model for a new plan from the current state, with
// feedback as critique. It counts against WithMaxReplans.
func Replan(feedback string) Directive { return Directive{Kind: DirectiveReplan, Reason: feedback} }

// Adjust replaces the steps not yet run with steps (which may depend on
// the steps done). The adjusted plan is validated, verified and passes the
// gate like a replan; if it is invalid the run replans instead.
func Adjust(reason string, steps ...Step) Directive {
	return Directive{Kind: DirectiveAdjust, Reason: reason, Steps: steps}
}

// StepHook is called after every step that ran, with its record.
type StepHook func(ctx context.Context, rec StepRecord) Directive

// RunOption configures one run.
type RunOption func(*runConfig)

type runConfig struct{ id string }

// WithRunID names a run; with a Store its checkpoint is saved under the id
// (default: a random id, see Result.RunID). Ids are letters, digits, '.',
// '_' and '-', starting with a letter or digit. A new run under the id of a
// run awaiting approval goes on with its history; under the id of any other
// run it replaces its checkpoint, unless another runner owns that run (see
// RunLocker): then it fails with ErrRunInProgress.
func WithRunID(id string) RunOption { return func(c *runConfig) { c.id = id } }

// run is the state of one run.
type run[S comparable] struct {
	p    *Planner[S]
	t    Target[S]
	id   string
	goal string

	status  Status
	err     error
	plan    *Plan
	replans int
	records []StepRecord
	usage   Usage
	calls   []Call

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

	// release ends the run's ownership (see RunLocker); the entry point
	// that made the run calls it when it returns.
	release func()

	// The execution state of the current plan: steps done and their
	// outputs, and steps started (or failed) since it began.
	done      map[string]bool
	outputs   map[string]json.RawMessage
	attempted map[string]bool
}

func (p *Planner[S]) newRun(ctx context.Context, goal string, t Target[S], opts []RunOption) (*run[S], error) {
	var rc runConfig
	for _, o := range opts {
		o(&rc)
	}
	r := &run[S]{p: p, t: t, id: rc.id, goal: goal, status: StatusRunning}
	r.resetPlanState()
	if r.id == "" {
		r.id = newRunID()
	} else if err := checkRunID(r.id); err != nil {
		return nil, err
	}
	release, err := p.ownRun(ctx, r.id)
	if err != nil {
		return nil, err
	}
	r.release = release
	// A run that was awaiting approval goes on with its history when the
	// approved plan is executed under its id.
	if p.cfg.store != nil && rc.id != "" {
		cp, err := p.cfg.store.Load(ctx, r.id)
		if err == nil && cp.Status == StatusAwaitingApproval && cp.Domain == p.d.Name {
			r.restore(cp)
			r.goal, r.status, r.err = goal, StatusRunning, nil
		}
	}
	return r, nil
}

func newRunID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return time.Now().UTC().Format("20060102T150405") + "-" + hex.EncodeToString(b[:])
}

func (r *run[S]) resetPlanState() {
	r.done = map[string]bool{}
	r.outputs = map[string]json.RawMessage{}
	r.attempted = map[string]bool{}
}

// Run plans goal from the target's state, passes the plan through the
// gate, and runs it, replanning on failure within the limits. The error is
// nil when the run completed or awaits approval of a revised plan (see
// WithRevisionApproval); the Result is never nil.
func (p *Planner[S]) Run(ctx context.Context, goal string, t Target[S], opts ...RunOption) (*Result, error) {
	r, err := p.newRun(ctx, goal, t, opts)
	if err != nil {
		return &Result{Status: StatusFailed, Err: err}, err
	}
	defer r.release()
	plan, err := r.generate(ctx, goal, t.PlanState(), nil)
	if err != nil {
		return r.fail(ctx, err)
	}
	r.plan = plan
	plan, st, err := r.gate(ctx, plan, false)
	r.plan = plan
	if st != StatusRunning {
		return r.finish(ctx, st, err)
	}
	return r.loop(ctx, plan)
}

// Propose is plan-only mode: it plans goal from state (validated and
// verified) and returns it awaiting approval, without the gate and without
// running a step. Approve it with Planner.Approve and run it with Execute;
// with a Store and WithRunID, Execute under the same id goes on with the
// run's history.
func (p *Planner[S]) Propose(ctx context.Context, goal string, state S, opts ...RunOption) (*Result, error) {
	r, err := p.newRun(ctx, goal, nil, opts)
	if err != nil {
		return &Result{Status: StatusFailed, Err: err}, err
	}
	defer r.release()
	plan, err := r.generate(ctx, goal, state, nil)
	if err != nil {
		return r.fail(ctx, err)
	}
	r.plan = plan
	return r.finish(ctx, StatusAwaitingApproval, nil)
}

// Execute runs a plan made earlier (by Propose, perhaps approved with
// Planner.Approve): it validates it again against the live domain,
// verifies it from the target's state when WithRequireVerified, passes it
// through the gate unless it is approved already, and runs it like Run.
// Revisions of a plan approved by hand, with no gate configured, end the
// run awaiting approval (unless WithRevisionApproval(false)).
func (p *Planner[S]) Execute(ctx context.Context, plan *Plan, t Target[S], opts ...RunOption) (*Result, error) {
	r, err := p.newRun(ctx, plan.Goal, t, opts)
	if err != nil {
		return &Result{Status: StatusFailed, Err: err}, err
	}
	defer r.release()
	plan = plan.Clone()
	r.plan = plan
	if err := p.Validate(plan); err != nil {
		return r.fail(ctx, err)
	}
	// A plan adjusted in a run awaiting approval keeps the steps it did.
	r.restoreDone(plan)
	if err := r.verifyPlan(plan); err != nil {
		return r.fail(ctx, err)
	}
	r.handApproved = r.handApproved || plan.Approved
	plan, st, err := r.gate(ctx, plan, false)
	r.plan = plan
	if st != StatusRunning {
		return r.finish(ctx, st, err)
	}
	return r.loop(ctx, plan)
}

// Resume continues a checkpointed run: steps recorded done are not run
// again (their outputs are restored), a step recorded running (the process
// died during it) runs again, a run that stopped while asking the model
// for a revision asks again (the plan that failed is not resumed), and the
// run goes on as Run would, replans included. A run that already ended
// returns its result (with an error wrapping ErrRunFinished when it failed
// or was rejected). With a Store that is a RunLocker, Resume of a run
// that another runner owns fails at once with a *RunInProgressError
// (errors.Is ErrRunInProgress) and does nothing; a run whose runner died
// is free again (at once with a FileStore), and Resume takes it over.
func (p *Planner[S]) Resume(ctx context.Context, runID string, t Target[S]) (*Result, error) {
	if p.cfg.store == nil {
		return &Result{RunID: runID, Status: StatusFailed, Err: ErrNoStore}, ErrNoStore
	}
	if err := checkRunID(runID); err != nil {
		return &Result{RunID: runID, Status: StatusFailed, Err: err}, err
	}
	release, err := p.ownRun(ctx, runID)
	if err != nil {
		return &Result{RunID: runID, Status: StatusFailed, Err: err}, err
	}
	defer release()
	cp, err := p.cfg.store.Load(ctx, runID)
	if err != nil {
		return &Result{RunID: runID, Status: StatusFailed, Err: err}, err
	}
	if cp.Domain != p.d.Name {
		err := fmt.Errorf("llm: run %s belongs to domain %s, not %s", runID, cp.Domain, p.d.Name)
		return &Result{RunID: runID, Status: StatusFailed, Err: err}, err
	}
	r := &run[S]{p: p, t: t}
	r.restore(cp)
	switch cp.Status {
	case StatusCompleted, StatusAwaitingApproval:
		return r.result(), nil
	case StatusFailed, StatusRejected:
		r.err = fmt.Errorf("llm: run %s: %w: %s", runID, ErrRunFinished, cp.Error)
		return r.result(), r.err
	}
	if cp.Plan == nil {
		return r.fail(ctx, fmt.Errorf("llm: run %s: checkpoint has no plan", runID))
	}
	plan := cp.Plan.Clone()
	r.plan = plan
	if err := p.Validate(plan); err != nil {
		return r.fail(ctx, err)
	}
	for i := range r.records {
		if r.records[i].Status == StepRunning {
			r.records[i].Status = StepInterrupted
			r.records[i].Note = "no completion recorded before the process stopped; the step runs again"
		}
	}
	r.restoreDone(plan)
	r.status, r.err = StatusRunning, nil
	switch {
	case cp.Replanning != nil:
		// The process stopped while the model was asked for a revision:
		// ask again (the replan was counted when it began).
		next, res, err := r.replan(ctx, plan, cp.Replanning)
		if next == nil {
			return res, err
		}
		plan = next
	case !plan.Approved:
		// The run stopped before the gate decided (an approver that saw
		// the context cancelled): the plan passes the gate now.
		next, st, err := r.gate(ctx, plan, plan.Revision > 0)
		r.plan = next
		if st != StatusRunning {
			return r.finish(ctx, st, err)
		}
		plan = next
	}
	return r.loop(ctx, plan)
}

// restoreDone marks done the steps of plan that the run's records show
// done in the plan's revision, with their outputs.
func (r *run[S]) restoreDone(plan *Plan) {
	r.resetPlanState()
	for _, rec := range r.records {
		if rec.Revision == plan.Revision && rec.Status == StepDone {
			if _, ok := plan.Step(rec.Step.ID); !ok {
				continue
			}
			r.done[rec.Step.ID] = true
			if len(rec.Output) > 0 {
				r.outputs[rec.Step.ID] = rec.Output
			}
		}
	}
}

// restore loads a run's history from a checkpoint.
func (r *run[S]) restore(cp *Checkpoint) {
	r.id, r.goal = cp.RunID, cp.Goal
	r.status = cp.Status
	if cp.Error != "" {
		r.err = errors.New(cp.Error)
	}
	r.plan = cp.Plan.Clone()
	r.replans = cp.Replans
	r.records = slices.Clone(cp.Steps)
	r.usage = cp.Usage
	r.calls = slices.Clone(cp.Calls)
	r.approvedOnce, r.handApproved = cp.ApprovedOnce, cp.HandApproved
	r.replanning = cp.Replanning
	r.resetPlanState()
	r.completed = 0
	for _, rec := range r.records {
		if rec.Status == StepDone {
			r.completed++
		}
	}
	r.reflected = r.completed
}

// gate passes a plan through the approval gate. It returns the plan to run
// (perhaps modified) and StatusRunning, or the status that ends the run.
func (r *run[S]) gate(ctx context.Context, plan *Plan, revised bool) (*Plan, Status, error) {
	cfg := &r.p.cfg
	switch {
	case plan.Approved:
		r.approvedOnce = true
		return plan, StatusRunning, nil
	case revised && !cfg.reapprove && r.approvedOnce:
		plan.Approved = true
		return plan, StatusRunning, nil
	case cfg.approver == nil:
		if revised && r.handApproved {
			return plan, StatusAwaitingApproval, nil
		}
		return plan, StatusRunning, nil
	}
	dec, err := cfg.approver.Approve(ctx, plan.Clone())
	if err != nil {
		if ctx.Err() != nil {
			return plan, StatusCancelled, ctx.Err()
		}
		return plan, StatusFailed, fmt.Errorf("llm: approver: %w", err)
	}
	out, err := r.p.Approve(plan, dec)
	if err != nil {
		if errors.Is(err, ErrRejected) {
			return plan, StatusRejected, err
		}
		return plan, StatusFailed, err
	}
	if dec.changes() {
		if err := r.verifyPlan(out); err != nil {
			return out, StatusFailed, err
		}
	}
	r.approvedOnce = true
	return out, StatusRunning, nil
}

func errorText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

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

// loop runs plan and its revisions until the run ends.
func (r *run[S]) loop(ctx context.Context, plan *Plan) (*Result, error) {
	cfg := &r.p.cfg
	for {
		r.plan = plan
		if !plan.Approved {
			if st := r.firstGuarded(plan); st != nil {
				r.skipRest(plan, "not run: the plan holds a guarded action and was not approved")
				return r.finish(ctx, StatusFailed, &GuardedError{StepID: st.ID, Capability: st.Capability})
			}
		}
		if err := r.save(ctx); err != nil {
			return r.finish(ctx, StatusFailed, err)
		}
		var o outcome
		if cfg.dag {
			o = r.runDAG(ctx, plan)
		} else {
			o = r.runInOrder(ctx, plan)
		}
		if o.kind == outCompleted {
			if err := r.checkGoals(); err != nil {
				o = outcome{kind: outFailed, err: err}
			} else {
				r.skipRest(plan, fmt.Sprintf("beyond the step budget of %d", cfg.maxSteps))
				return r.finish(ctx, StatusCompleted, nil)
			}
		}
		switch o.kind {
		case outCancelled:
			r.skipRest(plan, "not run: cancelled")
			return r.finish(ctx, StatusCancelled, o.err)
		case outAbort, outFatal:
			r.skipRest(plan, "not run: the run stopped")
			return r.finish(ctx, StatusFailed, o.err)
		case outAdjust:
			next, err := r.adjust(plan, o.directive)
			if err == nil {
				r.skipDropped(plan, next)
				next, st, gerr := r.gate(ctx, next, true)
				if st != StatusRunning {
					r.plan = next
					return r.finish(ctx, st, gerr)
				}
				plan = next
				continue
			}
			o = outcome{kind: outReplan, directive: Replan("the adjusted steps are not acceptable: " + err.Error())}
		}

		// A failure or a request to replan.
		r.skipRest(plan, "not run: replanned")
		if r.replans >= cfg.maxReplans {
			return r.finish(ctx, StatusFailed, r.exhausted(o))
		}
		r.replans++
		pending := &Replanning{Critique: o.directive.Reason}
		if o.err != nil {
			pending.Failure = o.err.Error()
		}
		next, res, err := r.replan(ctx, plan, pending)
		if next == nil {
			return res, err
		}
		plan = next
	}
}

// replan asks the model for a revision of previous and passes it through
// the gate. Before the model is called the checkpoint records that the run
// is replanning, so that Resume after a crash asks again rather than run
// the plan that failed. It returns the plan to run, or nil and the end of
// the run.
func (r *run[S]) replan(ctx context.Context, previous *Plan, pending *Replanning) (*Plan, *Result, error) {
	r.replanning = pending
	if err := r.save(ctx); err != nil {
		r.replanning = nil
		res, err := r.finish(ctx, StatusFailed, err)
		return nil, res, err
	}
	rev := &revision{number: r.replans, done: r.doneRecords(), previous: previous,
		failure: pending.Failure, critique: pending.Critique}
	next, err := r.generate(ctx, r.goal, r.t.PlanState(), rev)
	if err != nil {
		// Still replanning: a cancelled run resumes by asking again.
		res, err := r.fail(ctx, err)
		return nil, res, err
	}
	r.replanning = nil
	r.resetPlanState()
	r.plan = next
	next, st, err := r.gate(ctx, next, true)
	r.plan = next
	if st != StatusRunning {
		res, err := r.finish(ctx, st, err)
		return nil, res, err
	}
	return next, nil, nil
}

// exhausted is the error of a run that may not replan any more.
func (r *run[S]) exhausted(o outcome) error {
	last := o.err
	if last == nil {
		last = fmt.Errorf("replan requested: %s", o.directive.Reason)
	}
	if r.p.cfg.maxReplans == 0 {
		return last
	}
	return fmt.Errorf("llm: %w after %d replans: %w", ErrReplansExhausted, r.replans, last)
}

// adjust builds the plan of an Adjust directive: the steps done, then the
// directive's steps.
func (r *run[S]) adjust(plan *Plan, dir Directive) (*Plan, error) {
	next := plan.Clone()
	next.Steps = slices.DeleteFunc(next.Steps, func(s Step) bool { return !r.done[s.ID] })
	for _, s := range dir.Steps {
		s = s.clone()
		if s.DependsOn == nil {
			s.DependsOn = []string{}
		}
		next.Steps = append(next.Steps, s)
	}
	next.Approved, next.Verified, next.Critique, next.Raw = false, false, "", ""
	if err := r.p.Validate(next); err != nil {
		return nil, err
	}
	if err := r.verifyPlan(next); err != nil {
		return nil, err
	}
	return next, nil
}

// verifyPlan simulates plan from the live state (its steps done skipped)
// and records the outcome on it; it returns the failure only when verified
// plans are required. An empty plan is verified like any other: the goals
// of WithGoals must hold.
func (r *run[S]) verifyPlan(plan *Plan) error {
	verr := r.p.verify(plan, r.t.PlanState(), r.done)
	plan.Verified, plan.Critique = verr == nil, errorText(verr)
	if r.p.cfg.requireVerified {
		return verr
	}
	return nil
}

// skipDropped records as skipped the steps an adjustment dropped.
func (r *run[S]) skipDropped(old, next *Plan) {
	for _, s := range old.Steps {
		if r.done[s.ID] || r.attempted[s.ID] {
			continue
		}
		if _, kept := next.Step(s.ID); !kept {
			r.records = append(r.records, StepRecord{Revision: old.Revision, Step: s.clone(), Status: StepSkipped, Note: "dropped by an adjustment"})
		}
	}
}

func (r *run[S]) firstGuarded(plan *Plan) *Step {
	for i := range plan.Steps {
		st := &plan.Steps[i]
		if !st.Skipped && !r.done[st.ID] && r.p.d.Actions[st.Action].Guarded {
			return st
		}
	}
	return nil
}

// checkGoals checks the goals of WithGoals in the live state.
func (r *run[S]) checkGoals() error {
	if len(r.p.cfg.goals) == 0 {
		return nil
	}
	d := r.p.d
	s := r.t.PlanState()
	for _, g := range r.p.cfg.goals {
		if !d.Holds(g, s) {
			return d.UnsatisfiedError(g)
		}
	}
	return nil
}

// skipRest records as skipped the steps of plan never started.
func (r *run[S]) skipRest(plan *Plan, note string) {
	for _, s := range plan.Steps {
		if r.done[s.ID] || r.attempted[s.ID] {
			continue
		}
		r.attempted[s.ID] = true
		n := note
		if s.Skipped {
			n = fmt.Sprintf("beyond the step budget of %d", r.p.cfg.maxSteps)
		}
		r.records = append(r.records, StepRecord{Revision: plan.Revision, Step: s.clone(), Status: StepSkipped, Note: n})
	}
}

// doneRecords returns the records of every step done in the run.
func (r *run[S]) doneRecords() []StepRecord {
	var out []StepRecord
	for _, rec := range r.records {
		if rec.Status == StepDone {
			out = append(out, rec)
		}
	}
	return out
}

// fail ends the run with err, as cancelled when the context is done, as
// rejected for a rejection, else as failed.
func (r *run[S]) fail(ctx context.Context, err error) (*Result, error) {
	switch {
	case ctx.Err() != nil && errors.Is(err, ctx.Err()):
		return r.finish(ctx, StatusCancelled, err)
	case errors.Is(err, ErrRejected):
		return r.finish(ctx, StatusRejected, err)
	}
	return r.finish(ctx, StatusFailed, err)
}

// finish ends the run with a status, saves the last checkpoint and returns
// the result.
func (r *run[S]) finish(ctx context.Context, st Status, err error) (*Result, error) {
	r.status, r.err = st, err
	if serr := r.save(ctx); serr != nil {
		err = errors.Join(err, serr)
		r.err = err
	}
	return r.result(), err
}

func (r *run[S]) result() *Result {
	res := &Result{
		RunID:   r.id,
		Status:  r.status,
		Plan:    r.plan,
		Steps:   slices.Clone(r.records),
		Replans: r.replans,
		Usage:   r.usage,
		Calls:   slices.Clone(r.calls),
		Err:     r.err,
	}
	return res
}

// normalizeOutput drops empty and null outputs.
func normalizeOutput(out json.RawMessage) json.RawMessage {
	t := bytes.TrimSpace(out)
	if len(t) == 0 || string(t) == "null" {
		return nil
	}
	return slices.Clone(t)
}
