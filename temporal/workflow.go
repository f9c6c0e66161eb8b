package temporal

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/trace"
	sdkotel "go.temporal.io/sdk/contrib/opentelemetry"
	sdktemporal "go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/rolegen/rolegen/llm"
)

// workflow is the run: an llm.Engine driven by a driver whose every act is
// a Temporal command (activities, timers, awaiting an update), so the run
// replays deterministically from its history.
func (p *Plans[S]) workflow(ctx workflow.Context, in Input[S]) (*Output, error) {
	d := &driver[S]{ctx: ctx, p: p, state: in.State, approval: p.approval}
	if in.Approval != nil {
		d.approval = *in.Approval
	}
	d.selector = workflow.NewSelector(ctx)
	e := p.planner.NewEngine(workflow.GetInfo(ctx).WorkflowExecution.ID, in.Goal)

	if err := workflow.SetQueryHandler(ctx, QueryAwaiting, func() (*llm.Plan, error) {
		return d.awaiting, nil
	}); err != nil {
		return nil, err
	}
	if err := workflow.SetQueryHandler(ctx, QueryRun, func() (*Output, error) {
		return outputOf(e.Result()), nil
	}); err != nil {
		return nil, err
	}
	if err := workflow.SetQueryHandler(ctx, QueryReview, func() (*Review, error) {
		return d.review(in.Goal, e.Result()), nil
	}); err != nil {
		return nil, err
	}
	if err := workflow.SetUpdateHandlerWithOptions(ctx, UpdateApprove,
		func(ctx workflow.Context, dec llm.Decision) error {
			d.decide(ctx, dec)
			return nil
		},
		workflow.UpdateHandlerOptions{Validator: func(_ workflow.Context, dec llm.Decision) error {
			return d.validDecision(dec)
		}},
	); err != nil {
		return nil, err
	}
	signals := workflow.GetSignalChannel(ctx, SignalApprove)
	workflow.Go(ctx, func(ctx workflow.Context) {
		for {
			var dec llm.Decision
			signals.Receive(ctx, &dec)
			if d.validDecision(dec) == nil {
				d.decide(ctx, dec)
			}
		}
	})

	res, _ := e.Run(d)
	return outputOf(res), nil
}

// driver acts for the engine inside the workflow.
type driver[S comparable] struct {
	ctx      workflow.Context
	p        *Plans[S]
	state    S
	approval Approval

	// awaiting is the plan awaiting approval, since when; decision the
	// answer; decided the last decision taken, for QueryReview.
	awaiting *llm.Plan
	since    time.Time
	decision *llm.Decision
	decided  *llm.DecisionRecord

	// selector holds the futures of the steps in flight; done receives
	// each as it ends.
	selector workflow.Selector
	done     []llm.TaskResult

	// run is the context the planner's observer returned for the run's
	// start, steps those of the steps in flight (see Observe).
	run   context.Context
	steps map[int]context.Context
}

var _ llm.Driver[int] = (*driver[int])(nil)

func (d *driver[S]) Now() time.Time { return workflow.Now(d.ctx) }
func (d *driver[S]) Err() error     { return d.ctx.Err() }
func (d *driver[S]) State() S       { return d.state }

// Plan asks the model on a worker; the plan that comes back is validated
// again here (which also finds its actions) and verified from the
// workflow's state.
func (d *driver[S]) Plan(req llm.PlanRequest[S]) (llm.PlanReply, error) {
	ctx := workflow.WithActivityOptions(d.ctx, d.p.planOptions)
	var res planResult
	if err := workflow.ExecuteActivity(ctx, d.p.names.plan, req).Get(ctx, &res); err != nil {
		// The model failed on every attempt; the message is MakePlan's.
		return llm.PlanReply{}, stepError(err)
	}
	if res.Failure != nil {
		return res.Reply, res.Failure
	}
	plan := res.Reply.Plan
	if plan == nil {
		return res.Reply, errors.New("temporal: the model activity returned no plan")
	}
	planner := d.p.planner
	if err := planner.Validate(plan); err != nil {
		return res.Reply, err
	}
	if err := planner.Verify(plan, req.State); err != nil {
		plan.Verified, plan.Critique = false, err.Error()
	} else {
		plan.Verified, plan.Critique = true, ""
	}
	return res.Reply, nil
}

func (d *driver[S]) HasApprover() bool { return d.approval.Required }

// Approve waits for a decision (UpdateApprove or SignalApprove) about
// plan, as long as the approval policy says.
func (d *driver[S]) Approve(plan *llm.Plan) (llm.Decision, error) {
	d.awaiting, d.decision, d.since = plan.Clone(), nil, workflow.Now(d.ctx)
	defer func() { d.awaiting = nil }()
	arrived := func() bool { return d.decision != nil }
	if d.approval.Timeout <= 0 {
		if err := workflow.Await(d.ctx, arrived); err != nil {
			return llm.Decision{}, err
		}
		return *d.decision, nil
	}
	ok, err := workflow.AwaitWithTimeout(d.ctx, d.approval.Timeout, arrived)
	if err != nil {
		return llm.Decision{}, err
	}
	if !ok {
		if d.approval.OnTimeout != nil {
			return *d.approval.OnTimeout, nil
		}
		return llm.Reject(fmt.Sprintf("no approval within %s", d.approval.Timeout)), nil
	}
	return *d.decision, nil
}

// Start schedules the step's activity with the options of its action.
func (d *driver[S]) Start(t llm.Task) {
	ctx := workflow.WithActivityOptions(d.ctx, d.p.stepOptions(t.Step.Action))
	f := workflow.ExecuteActivity(ctx, d.p.names.perform, stepTask{
		RunID:  workflow.GetInfo(d.ctx).WorkflowExecution.ID,
		Step:   t.Step,
		Inputs: t.Inputs,
	})
	action := t.Step.Action
	d.selector.AddFuture(f, func(f workflow.Future) {
		res := llm.TaskResult{Record: t.Record}
		var out json.RawMessage
		if err := f.Get(d.ctx, &out); err != nil {
			res.Err = stepError(err)
		} else {
			res.Output = out
			d.state = d.p.planner.Domain().Apply(action, d.state)
		}
		d.done = append(d.done, res)
	})
}

// Wait returns the next step to end.
func (d *driver[S]) Wait() llm.TaskResult {
	for len(d.done) == 0 {
		d.selector.Select(d.ctx)
	}
	res := d.done[0]
	d.done = d.done[1:]
	return res
}

// stepError is the failure of a step's activity as the step's own error
// (the action's message, as in process), a *llm.PanicError for a panic.
func stepError(err error) error {
	var app *sdktemporal.ApplicationError
	if errors.As(err, &app) {
		if app.Type() == panicType {
			return &llm.PanicError{Value: app.Message()}
		}
		return errors.New(app.Message())
	}
	var canceled *sdktemporal.CanceledError
	if errors.As(err, &canceled) {
		return canceled
	}
	var activityErr *sdktemporal.ActivityError
	if errors.As(err, &activityErr) && errors.Unwrap(activityErr) != nil {
		return errors.Unwrap(activityErr)
	}
	return err
}

func (d *driver[S]) OnStep(rec llm.StepRecord) llm.Directive {
	if d.p.onStep != nil {
		return d.p.onStep(d.ctx, rec)
	}
	return llm.Continue()
}

func (d *driver[S]) Reflect(llm.ReflectRequest) (llm.Directive, llm.Usage, error) {
	return llm.Directive{}, llm.Usage{}, errors.New("temporal: a planner with a reflector (llm.WithReflector) cannot run on Temporal")
}

// Save keeps nothing: the workflow's history is the run's checkpoint.
func (d *driver[S]) Save(*llm.Checkpoint) error { return nil }

// Observe reports an event of the run to the planner's observer, from
// workflow code: only when the workflow is not replaying its history, so
// that each event is reported once, by the worker that lives it. The
// contexts are those of the OpenTelemetry interceptor's workflow span
// (go.temporal.io/sdk/contrib/opentelemetry, when the worker has it), so
// that the run's spans join the trace the workflow was started in. A run
// taken over by another worker after a crash goes on under that worker's
// workflow span: the run's and the steps' spans begun by the dead worker
// are ended by the observer from the recorded times (see otelrolegen).
func (d *driver[S]) Observe(ev llm.Event) {
	o := d.p.planner.Observer()
	if o == nil || workflow.IsReplaying(d.ctx) {
		return
	}
	if d.run == nil {
		d.run = context.Background()
		if span, ok := sdkotel.SpanFromWorkflowContext(d.ctx); ok {
			d.run = trace.ContextWithSpan(d.run, span)
		}
	}
	switch ev.Kind {
	case llm.EventRunStart:
		d.run = o.Observe(d.run, ev)
	case llm.EventStepStart:
		if d.steps == nil {
			d.steps = map[int]context.Context{}
		}
		d.steps[ev.RecordIndex] = o.Observe(d.run, ev)
	case llm.EventStepEnd:
		ctx, ok := d.steps[ev.RecordIndex]
		if !ok {
			ctx = d.run
		}
		o.Observe(ctx, ev)
		delete(d.steps, ev.RecordIndex)
	default:
		o.Observe(d.run, ev)
	}
}

// Types of the errors the approval update is refused with, for clients
// that tell them apart (ReviewRuns does).
const (
	errNotAwaiting     = "rolegen.NotAwaiting"
	errPlanChanged     = "rolegen.PlanChanged"
	errInvalidDecision = "rolegen.InvalidDecision"
)

// validDecision says why the workflow refuses a decision: no plan awaits
// one (or one was taken), the decision names another plan than the one
// awaiting (Decision.PlanDigest), or it does not pass the checks the
// approval gate would put it to (llm.Planner.CheckDecision, from the
// workflow's state): a refused update leaves the run awaiting approval,
// where a decision that broke the plan would fail the run.
func (d *driver[S]) validDecision(dec llm.Decision) error {
	if d.awaiting == nil || d.decision != nil {
		return sdktemporal.NewApplicationError("no plan of the run awaits approval", errNotAwaiting)
	}
	if dec.PlanDigest != "" && dec.PlanDigest != d.awaiting.Digest() {
		return sdktemporal.NewApplicationError("the plan changed since you looked", errPlanChanged)
	}
	if !dec.Reject {
		if _, err := d.p.planner.CheckDecision(d.awaiting, dec, d.state); err != nil {
			return sdktemporal.NewApplicationError(err.Error(), errInvalidDecision)
		}
	}
	return nil
}

// decide takes an accepted decision, and records it for QueryReview.
func (d *driver[S]) decide(ctx workflow.Context, dec llm.Decision) {
	d.decision = &dec
	d.decided = &llm.DecisionRecord{Decision: dec, Digest: d.awaiting.Digest(), At: workflow.Now(ctx)}
}

// review is the run as a person reviewing it sees it (QueryReview).
func (d *driver[S]) review(goal string, res *llm.Result) *Review {
	r := &Review{RunID: res.RunID, Goal: goal, Status: res.Status, Plan: res.Plan, Decided: d.decided}
	if res.Err != nil {
		r.Error = res.Err.Error()
	}
	if d.awaiting != nil && d.decision == nil {
		r.Status, r.Plan, r.Since = llm.StatusAwaitingApproval, d.awaiting, d.since
		if state, err := json.Marshal(d.state); err == nil {
			r.State = state
		}
	}
	return r
}
