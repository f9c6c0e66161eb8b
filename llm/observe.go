package llm

import (
	"context"
	"time"
)

// An Observer watches the runs of a planner (WithObserver): each run's
// start and end, the plans asked of the model with their model calls,
// validations and verifications, the approval gate's decisions, every
// step, and the replans. Package otelrolegen turns the events into
// OpenTelemetry traces and metrics; a log or a test can watch them too.
//
// The events of a run come from its driver, in the order they happen: the
// in-process runner (Run, Propose, Execute, Resume) and the Temporal
// adapter report the same events for the same run. The events of a plan
// (EventPlanStart to EventPlanEnd, with the model calls, validations and
// verifications between) come from Planner.MakePlan, in the run's process
// or, on Temporal, in the plan activity on a worker. Observe is never
// called concurrently for one run; it is for different runs of a shared
// planner, and for the steps of a DAG (whose EventStepStart and
// EventStepEnd come from the run's goroutine, one at a time, while steps
// run concurrently).
//
// Observe returns the context of the work an event opens
// (EventRunStart: the run; EventPlanStart: a plan; EventModelCallStart: a
// model call; EventStepStart: a step): the driver passes it to that work
// (the model, the approver, the step's action method) and to the event
// that closes it, so that a span started for the run is the parent of
// everything the run does. For the other events the result is ignored:
// return ctx.
//
// An event is passed by value; the pointers it holds (Plan, Record,
// Replanning) are the run's own: read them during the call, do not keep
// or change them.
type Observer interface {
	Observe(ctx context.Context, ev Event) context.Context
}

// ObserverFunc adapts a function to Observer.
type ObserverFunc func(ctx context.Context, ev Event) context.Context

// Observe calls f.
func (f ObserverFunc) Observe(ctx context.Context, ev Event) context.Context { return f(ctx, ev) }

// ContextCarrier is implemented by an Observer that keeps something of a
// run's context with the run's checkpoints (a trace context): Carry
// returns it for the context Observe returned for EventRunStart, or nil.
// The Checkpoint keeps it as Trace, and the EventRunStart of a run
// resumed from that checkpoint (Resume, or Execute of a run that awaited
// approval) carries it as Event.Resumes, so that the new runner can link
// to the old one.
type ContextCarrier interface {
	Carry(ctx context.Context) map[string]string
}

// EventKind says what an Event reports.
type EventKind uint8

// The kinds of events, in the order a run meets them.
const (
	// EventRunStart: a runner starts a run (Run, Propose, Execute,
	// Resume; the Temporal workflow). Resumed is set when it goes on from
	// a checkpoint, and Resumes holds what the observer kept then.
	EventRunStart EventKind = iota + 1
	// EventPlanStart: the model is asked for a plan (Revision 0) or a
	// revision (Revision n for the nth replan). Opens a plan.
	EventPlanStart
	// EventModelCallStart: a model call starts (Call: purpose, model,
	// request). Opens a model call.
	EventModelCallStart
	// EventModelCallEnd: the model call ended (Call.Response, Usage, Err;
	// Started is when it began).
	EventModelCallEnd
	// EventValidation: a plan from the model was validated (Err: the
	// *ValidationError, or nil).
	EventValidation
	// EventVerification: a plan was simulated (Err: the
	// *VerificationError, the critique, or nil). Plan.Verified and
	// Plan.Critique say the same.
	EventVerification
	// EventPlanEnd: the plan asked for is made (Plan, Usage of the calls
	// made for it) or the asking failed (Err).
	EventPlanEnd
	// EventApproval: the approval gate decided about Plan (Asked: an
	// approver or a person was asked, Decision its answer; Status
	// StatusRunning when the plan runs, else the status that ends the
	// run: rejected, failed, cancelled, awaiting approval). Started is when
	// the gate began to wait.
	EventApproval
	// EventStepStart: a step starts (Record, RecordIndex, Attempt). Opens
	// a step.
	EventStepStart
	// EventStepEnd: the step ended (Record: its status, output or error,
	// Started and Finished).
	EventStepEnd
	// EventReplan: the run asks the model for a revision of Plan
	// (Replanning: why; Replans: the replans so far, this one included).
	EventReplan
	// EventRunEnd: the run ended (Status, Err, Replans, Usage of all its
	// model calls; Started is when this runner started it).
	EventRunEnd
	// EventRepair: repair tried to make a plan that fails verification
	// verify (see WithRepair), between Started and Time: Repair says what
	// it inserted, or why it found nothing (Err, the *RepairError); Plan
	// is the repaired plan, or the plan as the model wrote it. A
	// verification of the repaired plan follows.
	EventRepair
	// EventCandidateStart: the planner starts checking candidate
	// Candidate.Index of Candidate.Of (WithCandidates with more than 1).
	// Opens a candidate: its validation, verification and repair follow.
	EventCandidateStart
	// EventCandidateEnd: how the candidate fared once all were ranked
	// (Candidate: its plan, cost, whether it was chosen and why it lost;
	// Started and Time bound its checks).
	EventCandidateEnd
)

var eventKindNames = [...]string{
	EventRunStart:       "run start",
	EventPlanStart:      "plan start",
	EventModelCallStart: "model call start",
	EventModelCallEnd:   "model call end",
	EventValidation:     "validation",
	EventVerification:   "verification",
	EventPlanEnd:        "plan end",
	EventApproval:       "approval",
	EventStepStart:      "step start",
	EventStepEnd:        "step end",
	EventReplan:         "replan",
	EventRunEnd:         "run end",
	EventRepair:         "repair",
	EventCandidateStart: "candidate start",
	EventCandidateEnd:   "candidate end",
}

// String names the kind ("run start", "step end", …).
func (k EventKind) String() string {
	if int(k) < len(eventKindNames) && eventKindNames[k] != "" {
		return eventKindNames[k]
	}
	return "event"
}

// Event is something that happened in a run; Kind says which fields are
// set.
type Event struct {
	Kind EventKind
	// Time is when it happened, by the driver's clock (a workflow's time
	// on Temporal, for the events of the run). Started is when the work
	// an end event closes began (EventRunEnd, EventModelCallEnd,
	// EventPlanEnd; EventApproval, EventValidation and EventVerification
	// report work that ended at Time; a step's start is Record.Started).
	Time, Started time.Time

	// RunID, Domain and Goal name the run (RunID is empty in the events
	// of a plan made by MakePlan, which a context carries instead).
	RunID, Domain, Goal string

	// Resumed: the run goes on from a checkpoint (EventRunStart), with
	// what the observer kept of its last runner (see ContextCarrier).
	Resumed bool
	Resumes map[string]string

	// Revision is the replan a plan answers (0: the first plan).
	Revision int
	Plan     *Plan

	// Record is a step's record, RecordIndex its index in the run's
	// records (Task.Record names the same), Attempt how many times the
	// step (by its id) has started in the run, this time included: more
	// than 1 after a replan that kept its id or a resume that runs an
	// interrupted step again.
	Record      *StepRecord
	RecordIndex int
	Attempt     int

	// Call is a model call.
	Call ModelCall

	// Asked and Decision: the approval gate's question and answer.
	Asked    bool
	Decision Decision

	Status     Status
	Replanning *Replanning
	Replans    int
	// Usage: of a model call, of a plan's calls, of the whole run.
	Usage Usage
	Err   error

	// Repair is what repair did (EventRepair).
	Repair *Repair
	// Candidate is one of the plans asked at once (EventCandidateStart,
	// EventCandidateEnd).
	Candidate *CandidateOutcome
}

// ModelCall is one call of the planner's model.
type ModelCall struct {
	// Purpose is CallPlan, CallReplan, CallRetry or CallReflect.
	Purpose string
	// Provider and Model name the model when it says (a Model with
	// methods Provider() string and Name() string, as llm/openai's).
	Provider, Model string
	Request         Request
	// Response is the reply (EventModelCallEnd), its Usage normalized.
	Response Response
}

// WithObserver makes o watch every run of the planner (see Observer).
// Without one, runs report nothing and pay nothing for it.
func WithObserver(o Observer) Option { return func(c *config) { c.observer = o } }

// Observer returns the planner's observer (WithObserver), or nil.
func (p *Planner[S]) Observer() Observer { return p.cfg.observer }

// observing reports whether the run has an observer.
func (e *Engine[S]) observing() bool { return e.p.cfg.observer != nil }

// emit completes ev with the run's identity and time and hands it to the
// driver, which reports it to the observer. Call it only when observing.
func (e *Engine[S]) emit(d Driver[S], ev Event) {
	ev.RunID, ev.Domain, ev.Goal = e.id, e.p.d.Name, e.goal
	if ev.Time.IsZero() {
		ev.Time = d.Now()
	}
	d.Observe(ev)
}

// begin reports the start of the run by this runner.
func (e *Engine[S]) begin(d Driver[S]) {
	e.started = d.Now()
	if e.observing() {
		e.emit(d, Event{Kind: EventRunStart, Time: e.started, Resumed: e.restored, Resumes: e.trace})
	}
}

// attempt counts the records of step id in the run.
func (e *Engine[S]) attempt(id string) int {
	n := 0
	for i := range e.records {
		if e.records[i].Step.ID == id && e.records[i].Status != StepSkipped {
			n++
		}
	}
	return n
}

// observedModel reports each call of a model to the planner's observer.
type observedModel struct {
	m              Model
	o              Observer
	provider, name string
}

// observe wraps m so that its calls reach o, with the model's provider
// and name when it tells them.
func observe(m Model, o Observer) Model {
	om := &observedModel{m: m, o: o}
	if n, ok := m.(interface{ Name() string }); ok {
		om.name = n.Name()
	}
	if p, ok := m.(interface{ Provider() string }); ok {
		om.provider = p.Provider()
	}
	return om
}

func (m *observedModel) Complete(ctx context.Context, req Request) (Response, error) {
	call := ModelCall{Purpose: req.purpose, Provider: m.provider, Model: m.name, Request: req}
	start := time.Now()
	cctx := m.o.Observe(ctx, Event{Kind: EventModelCallStart, Time: start, Call: call})
	resp, err := m.m.Complete(cctx, req)
	resp.Usage = resp.Usage.normalized()
	call.Response = resp
	m.o.Observe(cctx, Event{Kind: EventModelCallEnd, Time: time.Now(), Started: start, Call: call, Usage: resp.Usage, Err: err})
	return resp, err
}
