package temporal

import (
	"context"
	"fmt"
	"slices"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	sdktemporal "go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/runtime"
)

// Plans runs the plans of one planner (one role's domain) on Temporal: a
// workflow and its two activities, registered on workers by Register, and
// the client calls that start, approve and read runs.
type Plans[S comparable] struct {
	planner   *llm.Planner[S]
	names     names
	performer func(ctx context.Context, runID string) (llm.Performer, error)
	onStep    func(ctx workflow.Context, rec llm.StepRecord) llm.Directive

	planOptions  workflow.ActivityOptions
	stepDefault  workflow.ActivityOptions
	stepByTag    []tagged
	stepByAction map[runtime.ActionID]workflow.ActivityOptions

	approval Approval
}

type tagged struct {
	tag  string
	opts workflow.ActivityOptions
}

// names are the names the workflow, its activities, update, signal and
// queries are registered under, by domain: several roles share workers.
type names struct {
	workflow, plan, perform string
}

// The names of the update, signal and queries of every run.
const (
	// UpdateApprove takes an llm.Decision about the plan awaiting
	// approval; it is refused, and the run still awaits approval, when no
	// plan awaits one, when the decision's PlanDigest names another plan,
	// and when the decision does not pass the approval gate's checks
	// (llm.Planner.CheckDecision from the workflow's state: edited
	// arguments the action would not take, a changed plan that fails
	// verification with WithRequireVerified).
	UpdateApprove = "rolegen.approve"
	// SignalApprove is the same as a signal, for clients that cannot send
	// updates; a decision the update would refuse (no plan awaits
	// approval, another plan's digest, a decision that does not pass the
	// gate's checks) is dropped.
	SignalApprove = "rolegen.approve"
	// QueryAwaiting returns the plan awaiting approval (*llm.Plan, nil
	// when none does).
	QueryAwaiting = "rolegen.awaiting"
	// QueryRun returns the run as it stands (*Output).
	QueryRun = "rolegen.run"
	// QueryReview returns the run as a person reviewing it sees it
	// (*Review): the plan awaiting approval with the state it was made
	// from, and the decision taken.
	QueryReview = "rolegen.review"
)

// Approval is how the workflow's approval gate waits for a person.
type Approval struct {
	// Required puts every plan (and, unless the planner says
	// WithRevisionApproval(false), every revision) to a person through
	// UpdateApprove before it runs. Without it plans run unapproved, and
	// a plan with a guarded action fails with llm.ErrGuarded.
	Required bool
	// Timeout bounds the wait (0: no bound); OnTimeout is the decision
	// taken then (default: reject, saying no approval came in time).
	Timeout   time.Duration
	OnTimeout *llm.Decision
}

// Option configures Plans.
type Option func(*config)

type config struct {
	performer    func(ctx context.Context, runID string) (llm.Performer, error)
	onStep       func(ctx workflow.Context, rec llm.StepRecord) llm.Directive
	planOptions  *workflow.ActivityOptions
	stepDefault  *workflow.ActivityOptions
	stepByTag    []tagged
	stepByAction map[runtime.ActionID]workflow.ActivityOptions
	approval     Approval
}

// WithPerformer says how a worker gets the role that performs a run's
// steps: a generated role (its PerformJSON) for the run of runID (the
// workflow's id). It is called for every step, on the worker that runs
// it: keep what a step needs from an earlier one in the steps' outputs
// (llm.StepInputs) or in your own services, not in the role's memory,
// which another worker does not share. Workers that only run workflows
// and model calls need none.
func WithPerformer(f func(ctx context.Context, runID string) (llm.Performer, error)) Option {
	return func(c *config) { c.performer = f }
}

// WithOnStep sets the hook called after every step that ran (the
// in-process WithOnStep). It runs in workflow code: it must be
// deterministic (no I/O, no clock, no randomness).
func WithOnStep(h func(ctx workflow.Context, rec llm.StepRecord) llm.Directive) Option {
	return func(c *config) { c.onStep = h }
}

// WithPlanOptions sets the activity options of model calls (default: 2
// minutes to close, up to 3 attempts).
func WithPlanOptions(o workflow.ActivityOptions) Option {
	return func(c *config) { c.planOptions = &o }
}

// WithStepOptions sets the activity options of every step whose action
// has no options of its own (default: 5 minutes to close, up to 3
// attempts). A HeartbeatTimeout makes the step's activity heartbeat at a
// third of it while the action runs, so that a worker that dies is noticed
// within it, however long the step.
func WithStepOptions(o workflow.ActivityOptions) Option {
	return func(c *config) { c.stepDefault = &o }
}

// WithTagOptions sets the activity options of the steps whose action has
// tag (the action's tags=… annotation); the first tag given that an action
// has wins.
func WithTagOptions(tag string, o workflow.ActivityOptions) Option {
	return func(c *config) { c.stepByTag = append(c.stepByTag, tagged{tag, o}) }
}

// WithActionOptions sets the activity options of the steps of one action;
// they win over tags and the default.
func WithActionOptions(a runtime.ActionID, o workflow.ActivityOptions) Option {
	return func(c *config) {
		if c.stepByAction == nil {
			c.stepByAction = map[runtime.ActionID]workflow.ActivityOptions{}
		}
		c.stepByAction[a] = o
	}
}

// WithApproval sets the approval policy of runs started without one of
// their own (StartOptions.Approval).
func WithApproval(a Approval) Option { return func(c *config) { c.approval = a } }

// New returns the Temporal runner of planner's plans.
func New[S comparable](planner *llm.Planner[S], opts ...Option) *Plans[S] {
	var c config
	for _, o := range opts {
		o(&c)
	}
	name := planner.Domain().Name
	p := &Plans[S]{
		planner: planner,
		names: names{
			workflow: "rolegen.Run." + name,
			plan:     "rolegen.Plan." + name,
			perform:  "rolegen.Perform." + name,
		},
		performer:    c.performer,
		onStep:       c.onStep,
		stepByTag:    c.stepByTag,
		stepByAction: c.stepByAction,
		approval:     c.approval,
		planOptions: workflow.ActivityOptions{
			StartToCloseTimeout: 2 * time.Minute,
			RetryPolicy:         &sdktemporal.RetryPolicy{MaximumAttempts: 3},
		},
		stepDefault: workflow.ActivityOptions{
			StartToCloseTimeout: 5 * time.Minute,
			RetryPolicy:         &sdktemporal.RetryPolicy{MaximumAttempts: 3},
		},
	}
	if c.planOptions != nil {
		p.planOptions = *c.planOptions
	}
	if c.stepDefault != nil {
		p.stepDefault = *c.stepDefault
	}
	return p
}

// WorkflowName is the name the workflow is registered under
// ("rolegen.Run." and the domain's name).
func (p *Plans[S]) WorkflowName() string { return p.names.workflow }

// Register registers the workflow and its activities on a worker.
func (p *Plans[S]) Register(r worker.Registry) {
	p.RegisterWorkflow(r)
	p.RegisterActivities(r)
}

// RegisterActivities registers the activities alone (the model calls and
// the steps): on a worker that runs no workflows
// (worker.Options.DisableWorkflowWorker).
func (p *Plans[S]) RegisterActivities(r worker.ActivityRegistry) {
	a := &activities[S]{p: p}
	r.RegisterActivityWithOptions(a.plan, activity.RegisterOptions{Name: p.names.plan})
	r.RegisterActivityWithOptions(a.perform, activity.RegisterOptions{Name: p.names.perform})
}

// RegisterWorkflow registers the workflow alone: on a
// worker.WorkflowReplayer, or on a worker that runs no activities.
func (p *Plans[S]) RegisterWorkflow(r worker.WorkflowRegistry) {
	r.RegisterWorkflowWithOptions(p.workflow, workflow.RegisterOptions{Name: p.names.workflow})
}

// stepOptions returns the activity options of a step of action a.
func (p *Plans[S]) stepOptions(a runtime.ActionID) workflow.ActivityOptions {
	if o, ok := p.stepByAction[a]; ok {
		return o
	}
	tags := p.planner.Domain().Actions[a].Tags
	for _, t := range p.stepByTag {
		if slices.Contains(tags, t.tag) {
			return t.opts
		}
	}
	return p.stepDefault
}

// Input is what a run starts with: the goal, the state the plan is made
// from (the workflow's live state from then on), and the approval policy
// of the run (nil: the Plans').
type Input[S comparable] struct {
	Goal     string
	State    S
	Approval *Approval
}

// StartOptions are the options of Start.
type StartOptions struct {
	// ID is the run's id, the workflow's (default: Temporal's).
	ID string
	// Approval overrides the Plans' approval policy for this run.
	Approval *Approval
}

// Start starts a run of goal from state on the task queue.
func (p *Plans[S]) Start(ctx context.Context, c client.Client, taskQueue, goal string, state S, opts ...StartOptions) (client.WorkflowRun, error) {
	var so StartOptions
	if len(opts) > 0 {
		so = opts[0]
	}
	return c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: so.ID, TaskQueue: taskQueue},
		p.names.workflow, Input[S]{Goal: goal, State: state, Approval: so.Approval})
}

// Approve sends a decision about the plan of run runID that awaits
// approval, and returns once the workflow accepted it; it fails when no
// plan awaits approval.
func (p *Plans[S]) Approve(ctx context.Context, c client.Client, runID string, d llm.Decision) error {
	h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID:   runID,
		UpdateName:   UpdateApprove,
		Args:         []any{d},
		WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err != nil {
		return fmt.Errorf("temporal: approve run %s: %w", runID, err)
	}
	return h.Get(ctx, nil)
}

// Awaiting returns the plan of run runID awaiting approval, nil when none
// does.
func (p *Plans[S]) Awaiting(ctx context.Context, c client.Client, runID string) (*llm.Plan, error) {
	v, err := c.QueryWorkflow(ctx, runID, "", QueryAwaiting)
	if err != nil {
		return nil, err
	}
	var plan *llm.Plan
	if err := v.Get(&plan); err != nil {
		return nil, err
	}
	return plan, nil
}

// Result waits for run runID to end and returns its result, as Run
// returns it in process: the error is the run's (nil when it completed),
// with the message it has in process, and errors.Is finds the llm
// sentinel it matches (llm.ErrReplansExhausted, llm.ErrRejected, …).
func (p *Plans[S]) Result(ctx context.Context, c client.Client, runID string) (*llm.Result, error) {
	var out Output
	if err := c.GetWorkflow(ctx, runID, "").Get(ctx, &out); err != nil {
		return nil, err
	}
	res := out.Result()
	p.resolveActions(res)
	return res, res.Err
}

// resolveActions sets the actions of the steps of res, which do not cross
// the wire (Step.Action is found by validation from the capability).
func (p *Plans[S]) resolveActions(res *llm.Result) {
	d := p.planner.Domain()
	resolve := func(st *llm.Step) {
		if a, ok := actionNamed(d, st.Capability); ok {
			st.Action = a
		}
	}
	if res.Plan != nil {
		for i := range res.Plan.Steps {
			resolve(&res.Plan.Steps[i])
		}
	}
	for i := range res.Steps {
		resolve(&res.Steps[i].Step)
	}
}
