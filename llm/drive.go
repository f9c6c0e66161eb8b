package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Driver is the acting half of a run: what an Engine asks of the world.
// The engine calls it from one goroutine, in an order that depends only on
// the plan and on what the driver returned, so a driver whose methods are
// deterministic (a Temporal workflow's) gives a deterministic run.
type Driver[S comparable] interface {
	// Now is the time of step records and checkpoints.
	Now() time.Time
	// Err reports why the run must stop now (its context is done), or nil.
	Err() error
	// State returns the live state; it is never called while a step runs.
	State() S
	// Plan asks the model for a plan (Planner.MakePlan), returning every
	// call made with the plan or the error.
	Plan(req PlanRequest[S]) (PlanReply, error)
	// HasApprover says whether plans are put to an approver; Approve asks
	// it about a plan.
	HasApprover() bool
	Approve(plan *Plan) (Decision, error)
	// Start begins a step; Wait returns the result of a step started and
	// not yet waited for, blocking until one ends. Start may run the step
	// to its end before it returns.
	Start(t Task)
	Wait() TaskResult
	// OnStep is the hook called after every step that ran (WithOnStep).
	OnStep(rec StepRecord) Directive
	// Reflect asks the reflector (WithReflector) about the run.
	Reflect(req ReflectRequest) (Directive, Usage, error)
	// Save keeps a checkpoint of the run (nil: there is nothing to keep).
	Save(cp *Checkpoint) error
	// Observe reports an event of the run to the planner's Observer,
	// with the context of the work it belongs to (the run's, a step's),
	// and keeps the context Observe returns for the work an event opens:
	// the run's for the model calls, approvals and steps, a step's for the
	// step. The engine calls it only when the planner has an observer.
	Observe(ev Event)
}

// Task is a step to run: its record (the index TaskResult names back),
// its index in the plan, the step, and the outputs it may see (in order
// every earlier output of the plan, in a DAG its dependencies').
type Task struct {
	Record int
	Index  int
	Step   Step
	Inputs map[string]json.RawMessage
}

// TaskResult is how a started step ended: its output, or its failure (a
// *PanicError when it panicked).
type TaskResult struct {
	Record int
	Output json.RawMessage
	Err    error
}

// checkpointless is implemented by a driver that keeps no checkpoints, so
// that none is built.
type checkpointless interface{ checkpointless() bool }

// Run runs a new run to its end: it asks for a plan of the goal from the
// live state, passes it through the gate, and runs it and its revisions
// until the run completes, fails, is cancelled, rejected or awaits
// approval. The error is the run's (nil when it completed or awaits
// approval); the Result is never nil.
func (e *Engine[S]) Run(d Driver[S]) (*Result, error) {
	e.begin(d)
	plan, err := e.generate(d, d.State(), nil)
	if err != nil {
		return e.fail(d, err)
	}
	plan, res, err := e.gate(d, plan, false)
	if plan == nil {
		return res, err
	}
	return e.loop(d, plan)
}

// generate asks the driver for a plan of the run's goal from state and
// accounts the calls made for it.
func (e *Engine[S]) generate(d Driver[S], state S, rev *Revision) (*Plan, error) {
	e.madeFrom(state)
	reply, err := d.Plan(PlanRequest[S]{Goal: e.goal, State: state, Revision: rev, Used: e.usage})
	e.record(reply.Calls...)
	if err != nil {
		return nil, err
	}
	if len(reply.Candidates) == 0 || reply.chosen {
		return reply.Plan, nil
	}
	// A reply from elsewhere (a workflow's activity result): repair and
	// ranking are decided again here, from the model's plans, by the same
	// pure code, inside the workflow.
	if plan := e.p.Choose(state, reply.Candidates); plan != nil {
		if reply.Plan != nil {
			plan.Refused = reply.Plan.Refused
		}
		return plan, nil
	}
	return nil, errors.New("llm: no plan the model proposed is acceptable")
}

// gate passes plan through the approval gate and makes the plan that
// comes out of it the run's plan. It returns the plan to run, or nil and
// the end of the run.
func (e *Engine[S]) gate(d Driver[S], plan *Plan, revised bool) (*Plan, *Result, error) {
	next, st, err := e.approval(d, plan, revised)
	e.setPlan(next)
	if st != StatusRunning {
		res, err := e.finish(d, st, err)
		return nil, res, err
	}
	return next, nil, nil
}

// approval is the gate's decision on plan: the plan to run and
// StatusRunning, or the status that ends the run.
func (e *Engine[S]) approval(d Driver[S], plan *Plan, revised bool) (*Plan, Status, error) {
	switch e.gateFor(plan, revised, d.HasApprover()) {
	case gatePass:
		return plan, StatusRunning, nil
	case gateAwait:
		if e.observing() {
			e.emit(d, Event{Kind: EventApproval, Plan: plan, Status: StatusAwaitingApproval})
		}
		return plan, StatusAwaitingApproval, nil
	}
	var asked time.Time
	if e.observing() {
		asked = d.Now()
	}
	dec, err := d.Approve(plan)
	next, st, err := e.decision(d, plan, dec, err)
	if e.observing() {
		e.emit(d, Event{Kind: EventApproval, Started: asked, Plan: next, Asked: true, Decision: dec, Status: st, Err: err})
	}
	return next, st, err
}

// decision applies the approver's answer (dec, or its failure err) to
// plan.
func (e *Engine[S]) decision(d Driver[S], plan *Plan, dec Decision, err error) (*Plan, Status, error) {
	if err != nil {
		if cerr := d.Err(); cerr != nil {
			return plan, StatusCancelled, cerr
		}
		return plan, StatusFailed, fmt.Errorf("llm: approver: %w", err)
	}
	var state S
	if dec.changes() {
		state = d.State()
	}
	return e.decide(plan, dec, state)
}

// loop runs plan and its revisions until the run ends.
func (e *Engine[S]) loop(d Driver[S], plan *Plan) (*Result, error) {
	for {
		e.setPlan(plan)
		if err := e.guarded(plan); err != nil {
			e.skipRest(plan, "not run: the plan holds a guarded action and was not approved")
			return e.finish(d, StatusFailed, err)
		}
		if err := e.save(d); err != nil {
			return e.finish(d, StatusFailed, err)
		}
		o := e.execute(d)
		var goals error
		if o.kind == outCompleted && len(e.p.cfg.goals) > 0 {
			goals = e.checkGoals(d.State())
		}
		v := e.settle(o, goals, d.State)
		var res *Result
		var err error
		switch v.kind {
		case verdictEnd:
			return e.finish(d, v.status, v.err)
		case verdictAdjust:
			plan, res, err = e.gate(d, v.plan, true)
		case verdictReplan:
			plan, res, err = e.replan(d, plan, v.replanning)
		}
		if plan == nil {
			return res, err
		}
	}
}

// replan asks the model for a revision of previous and passes it through
// the gate. Before the model is called the checkpoint records that the run
// is replanning, so that Resume after a crash asks again rather than run
// the plan that failed. It returns the plan to run, or nil and the end of
// the run.
func (e *Engine[S]) replan(d Driver[S], previous *Plan, pending *Replanning) (*Plan, *Result, error) {
	e.replanning = pending
	if e.observing() {
		e.emit(d, Event{Kind: EventReplan, Plan: previous, Replanning: pending, Replans: e.replans, Revision: e.replans})
	}
	if err := e.save(d); err != nil {
		e.replanning = nil
		res, err := e.finish(d, StatusFailed, err)
		return nil, res, err
	}
	rev := &Revision{Number: e.replans, Done: e.doneRecords(), Previous: previous,
		Failure: pending.Failure, Critique: pending.Critique}
	next, err := e.generate(d, d.State(), rev)
	if err != nil {
		// Still replanning: a cancelled run resumes by asking again.
		res, err := e.fail(d, err)
		return nil, res, err
	}
	e.replanning = nil
	e.resetPlanState()
	return e.gate(d, next, true)
}

// execute runs the current plan's pending steps as the engine schedules
// them and returns how the pass ended. It returns only once every step it
// started has ended.
func (e *Engine[S]) execute(d Driver[S]) outcome {
	e.beginPass()
	dag := e.p.cfg.dag
	for {
		// A DAG notices cancellation between any two events; in order,
		// before each step starts.
		if dag && !e.stopped() {
			if err := d.Err(); err != nil {
				e.halt(outcome{kind: outCancelled, err: err})
			}
		}
		if e.reflectNow() {
			e.reflect(d)
		}
		wave, live := e.next()
		if !dag && len(wave) > 0 {
			if err := d.Err(); err != nil {
				e.halt(outcome{kind: outCancelled, err: err})
				wave = nil
			}
		}
		// A wave checked in the live state: the first step whose
		// precondition fails is recorded failed, and none of the wave
		// starts.
		stale, staleAt := error(nil), -1
		if live && len(wave) > 0 {
			state := d.State()
			for _, i := range wave {
				if err := e.stale(i, state); err != nil {
					stale, staleAt = err, i
					break
				}
			}
		}
		for _, i := range wave {
			if staleAt >= 0 && i != staleAt {
				continue
			}
			idx := e.start(i, d.Now())
			if e.observing() {
				rec := &e.records[idx]
				e.emit(d, Event{Kind: EventStepStart, Time: rec.Started, Record: rec, RecordIndex: idx, Attempt: e.attempt(rec.Step.ID)})
			}
			if err := e.save(d); err != nil {
				e.unstarted(idx, err)
				if e.observing() {
					rec := &e.records[idx]
					e.emit(d, Event{Kind: EventStepEnd, Time: rec.Finished, Started: rec.Started, Record: rec, RecordIndex: idx, Attempt: e.attempt(rec.Step.ID)})
				}
				break
			}
			if i == staleAt {
				e.afterStep(d, idx, nil, stale)
				break
			}
			e.launched()
			d.Start(Task{Record: idx, Index: i, Step: e.plan.Steps[i], Inputs: e.inputs(i)})
		}
		if e.pass.inflight == 0 {
			return e.passOutcome()
		}
		res := d.Wait()
		e.returned()
		e.afterStep(d, res.Record, res.Output, res.Err)
	}
}

// afterStep records the end of a step, checkpoints it and asks the hook
// what next.
func (e *Engine[S]) afterStep(d Driver[S], idx int, out json.RawMessage, err error) {
	cerr := d.Err()
	rec := e.ended(idx, out, err, cerr != nil, d.Now())
	if e.observing() {
		e.emit(d, Event{Kind: EventStepEnd, Time: rec.Finished, Started: rec.Started, Record: rec, RecordIndex: idx, Attempt: e.attempt(rec.Step.ID)})
	}
	if serr := e.save(d); serr != nil {
		e.halt(outcome{kind: outFatal, err: serr})
		return
	}
	if rec.Status == StepCancelled {
		e.halt(outcome{kind: outCancelled, err: cerr})
		return
	}
	e.directed(idx, d.OnStep(*rec))
}

// reflect asks the reflector what next.
func (e *Engine[S]) reflect(d Driver[S]) {
	cfg := &e.p.cfg
	req := ReflectRequest{
		Domain:       e.p.d.Name,
		Goal:         e.goal,
		State:        json.RawMessage(stateJSON(d.State())),
		Plan:         e.plan.Clone(),
		Records:      e.Result().Steps,
		Capabilities: e.p.capabilities(),
		StepsSchema:  e.p.stepsSchema,
		Temperature:  cfg.temperature,
		MaxTokens:    cfg.maxTokens,
	}
	if cfg.omitState {
		req.State = nil
	}
	var dir Directive
	callErr, budgetErr := e.metered(CallReflect, func() (Usage, error) {
		var usage Usage
		var err error
		dir, usage, err = d.Reflect(req)
		return usage, err
	})
	switch {
	case budgetErr != nil:
		e.halt(outcome{kind: outFatal, err: budgetErr})
	case callErr != nil && d.Err() != nil:
		e.halt(outcome{kind: outCancelled, err: d.Err()})
	case callErr != nil:
		e.halt(outcome{kind: outFatal, err: fmt.Errorf("llm: reflector: %w", callErr)})
	default:
		if o, stop := directive(dir, "", nil); stop {
			e.halt(o)
		}
	}
}

// save checkpoints the run through the driver.
func (e *Engine[S]) save(d Driver[S]) error {
	if c, ok := d.(checkpointless); ok && c.checkpointless() {
		return nil
	}
	if err := d.Save(e.checkpoint(d.Now().UTC())); err != nil {
		return fmt.Errorf("llm: checkpoint: %w", err)
	}
	return nil
}

// fail ends the run with err, as cancelled when the run's context is done
// and err is its error, as rejected for a rejection, else as failed.
func (e *Engine[S]) fail(d Driver[S], err error) (*Result, error) {
	switch {
	case d.Err() != nil && errors.Is(err, d.Err()):
		return e.finish(d, StatusCancelled, err)
	case errors.Is(err, ErrRejected):
		return e.finish(d, StatusRejected, err)
	}
	return e.finish(d, StatusFailed, err)
}

// finish ends the run with a status, saves the last checkpoint and returns
// the result.
func (e *Engine[S]) finish(d Driver[S], st Status, err error) (*Result, error) {
	e.status, e.err = st, err
	if serr := e.save(d); serr != nil {
		err = errors.Join(err, serr)
		e.err = err
	}
	if e.observing() {
		e.emit(d, Event{Kind: EventRunEnd, Started: e.started, Plan: e.plan, Status: st, Err: err, Replans: e.replans, Usage: e.usage})
	}
	return e.Result(), err
}
