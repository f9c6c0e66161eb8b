package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/rolegen/rolegen/runtime"
)

// Planner asks a model for plans over a domain, validates and verifies
// them, passes them through an approval gate, and runs them. A Planner is
// immutable once built and safe for concurrent use by several runs (as far
// as its Model, Store, hooks and approver are).
type Planner[S comparable] struct {
	d     *runtime.Domain[S]
	model Model
	cfg   config
	// requestSchema is the domain's plan schema as planning requests send
	// it: with the planner's bounds on the number of steps.
	requestSchema json.RawMessage
	// stepsSchema is the schema of its "steps" array, reused by the
	// reflector for adjusted steps (which may be none).
	stepsSchema json.RawMessage
}

// Defaults of the options.
const (
	DefaultMaxSteps     = 10
	DefaultConcurrency  = 4
	DefaultMaxReplans   = 2
	DefaultParseRetries = 1
)

type config struct {
	maxSteps          int
	temperature       float64
	maxTokens         int
	parseRetries      int
	validationRetries int
	requireVerified   bool
	verifyRetries     int
	goals             []runtime.GoalID
	approver          Approver
	reapprove         bool
	allowEmpty        bool
	dag               bool
	concurrency       int
	onStep            StepHook
	maxReplans        int
	tokenBudget       int
	store             Store
	reflector         Reflector
	reflectEvery      int
	systemPrompt      string
	omitState         bool
	livePre           bool
}

// Option configures a Planner.
type Option func(*config)

// WithMaxSteps sets the step budget (default 10): the prompt asks for at
// most n steps, steps beyond n are kept but marked skipped, and a plan of
// more than 4n steps is refused (TooManySteps).
func WithMaxSteps(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.maxSteps = n
		}
	}
}

// WithTemperature sets the sampling temperature of every model call
// (default 0, which is sent too).
func WithTemperature(t float64) Option { return func(c *config) { c.temperature = t } }

// WithMaxTokens caps each reply of the model (default: the server's).
func WithMaxTokens(n int) Option { return func(c *config) { c.maxTokens = n } }

// WithParseRetries sets how many times an unreadable reply is sent back to
// the model with the parse error (default 1; 0 fails at once).
func WithParseRetries(n int) Option { return func(c *config) { c.parseRetries = max(n, 0) } }

// WithValidationRetries sets how many times an invalid plan is sent back
// to the model with the validation errors (default 0: an invalid plan
// fails the call with its *ValidationError).
func WithValidationRetries(n int) Option { return func(c *config) { c.validationRetries = max(n, 0) } }

// WithRequireVerified refuses plans that fail symbolic verification: the
// critique is fed back to the model up to retries times, after which the
// *VerificationError is returned. Without it a plan that fails
// verification still runs (its Critique set), and the live precondition
// check stops it at the failing step (see WithoutLivePreconditions for
// which steps of a DAG are checked).
func WithRequireVerified(retries int) Option {
	return func(c *config) { c.requireVerified, c.verifyRetries = true, max(retries, 0) }
}

// WithGoals makes verification also require that the goals hold after the
// simulated plan, and a completed run that they hold in the live state
// (else it is a failure, replanned like a step failure).
func WithGoals(goals ...runtime.GoalID) Option {
	return func(c *config) { c.goals = append(c.goals[:0:0], goals...) }
}

// WithApprover sets the approval gate every plan passes before it runs
// (revised plans too, unless WithRevisionApproval(false)). Guarded actions
// run only in plans a gate approved.
func WithApprover(a Approver) Option { return func(c *config) { c.approver = a } }

// WithRevisionApproval says whether replanned and adjusted plans pass the
// gate again (default true). With false, a revision of an approved plan is
// approved with it.
func WithRevisionApproval(required bool) Option { return func(c *config) { c.reapprove = required } }

// WithAllowEmptyPlan accepts an empty plan (from the model, or left by an
// approver that removed every step) as "nothing to do": the run completes
// without running a step. By default an empty plan is an EmptyPlan
// *ValidationError.
func WithAllowEmptyPlan() Option { return func(c *config) { c.allowEmpty = true } }

// WithDAG runs plans as a DAG on dependsOn, up to concurrency steps at once
// (default 4 when concurrency <= 0); each step sees only its dependencies'
// outputs. The default runs steps one at a time in dependency order, each
// seeing every earlier output.
func WithDAG(concurrency int) Option {
	return func(c *config) {
		c.dag = true
		if concurrency > 0 {
			c.concurrency = concurrency
		}
	}
}

// WithOnStep calls h after every step that ran (done or failed); its
// Directive continues, aborts, replans or adjusts the run. Hooks are never
// called concurrently.
func WithOnStep(h StepHook) Option { return func(c *config) { c.onStep = h } }

// WithMaxReplans bounds the replans of a run (default 2); a failure after
// the last one ends the run with that failure (wrapped with
// ErrReplansExhausted). 0 disables replanning.
func WithMaxReplans(n int) Option { return func(c *config) { c.maxReplans = max(n, 0) } }

// WithTokenBudget stops a run whose model calls used more than n tokens in
// total with a *BudgetError (default: no limit).
func WithTokenBudget(n int) Option { return func(c *config) { c.tokenBudget = n } }

// WithStore checkpoints every run in s: the plan and the execution state
// after every step, so that Resume can continue a run.
func WithStore(s Store) Option { return func(c *config) { c.store = s } }

// WithReflector asks r every `every` completed steps whether to continue,
// adjust the remaining steps, replan or abort. A nil r reflects with the
// planner's own model (NewModelReflector).
func WithReflector(every int, r Reflector) Option {
	return func(c *config) { c.reflectEvery, c.reflector = every, r }
}

// WithSystemPrompt appends text to the system prompt (domain knowledge,
// house rules).
func WithSystemPrompt(text string) Option { return func(c *config) { c.systemPrompt = text } }

// WithoutState leaves the current state out of the prompts (it is still
// used for verification).
func WithoutState() Option { return func(c *config) { c.omitState = true } }

// WithoutLivePreconditions stops runs from checking each step's
// precondition against the live state before the step runs (the check
// fails the step, which triggers a replan). In order every step is
// checked; in a DAG the steps that start while no step runs are (the
// first wave of every plan, every wave with WithDAG(1)): the live state
// is not read while a step may be changing it.
func WithoutLivePreconditions() Option { return func(c *config) { c.livePre = false } }

// NewPlanner returns a planner over d asking model for plans.
func NewPlanner[S comparable](d *runtime.Domain[S], model Model, opts ...Option) *Planner[S] {
	cfg := config{
		maxSteps:     DefaultMaxSteps,
		parseRetries: DefaultParseRetries,
		concurrency:  DefaultConcurrency,
		maxReplans:   DefaultMaxReplans,
		reapprove:    true,
		livePre:      true,
	}
	for _, o := range opts {
		o(&cfg)
	}
	p := &Planner[S]{d: d, model: model, cfg: cfg}
	p.requestSchema, p.stepsSchema = requestSchemas(d.Schema, cfg.maxSteps, cfg.allowEmpty)
	if cfg.reflectEvery > 0 && cfg.reflector == nil {
		p.cfg.reflector = NewModelReflector(model)
	}
	return p
}

// Domain returns the planner's domain.
func (p *Planner[S]) Domain() *runtime.Domain[S] { return p.d }

// GoalText describes a goal of the domain for a prompt: its name, its
// description and its condition, as in "Armed: enough ammunition to fight
// (Ammo > 10)". Pass it as the goal of Run or Propose.
func (p *Planner[S]) GoalText(g runtime.GoalID) string {
	goal := &p.d.Goals[g]
	s := goal.Name
	if desc := strings.Join(strings.Fields(goal.Description), " "); desc != "" {
		s += ": " + desc
	}
	if goal.CondText != "" {
		s += " (" + goal.CondText + ")"
	}
	return s
}

// revision is what a replanning prompt tells the model.
type revision struct {
	number   int
	done     []StepRecord
	failure  string
	critique string
	previous *Plan
}

// generate asks the model for a plan for goal from state, feeding parse
// errors, validation errors and verification critiques back as configured.
func (r *run[S]) generate(ctx context.Context, goal string, state S, rev *revision) (*Plan, error) {
	p := r.p
	msgs := []Message{
		{Role: RoleSystem, Content: p.systemPrompt()},
		{Role: RoleUser, Content: p.planPrompt(goal, state, rev)},
	}
	purpose := CallPlan
	number := 0
	if rev != nil {
		purpose, number = CallReplan, rev.number
	}
	parseLeft, validLeft, verifyLeft := p.cfg.parseRetries, p.cfg.validationRetries, p.cfg.verifyRetries
	for {
		resp, err := r.complete(ctx, purpose, Request{
			Messages:    msgs,
			Schema:      p.requestSchema,
			SchemaName:  "plan",
			Temperature: p.cfg.temperature,
			MaxTokens:   p.cfg.maxTokens,
		})
		if err != nil {
			return nil, err
		}
		purpose = CallRetry
		retry := func(feedback string) {
			msgs = append(msgs,
				Message{Role: RoleAssistant, Content: resp.Text},
				Message{Role: RoleUser, Content: feedback})
		}
		plan, err := ParsePlan(resp.Text)
		if err != nil {
			if pe, ok := errors.AsType[*ParseError](err); ok && resp.FinishReason == "length" {
				pe.Truncated = true
			}
			if parseLeft > 0 {
				parseLeft--
				retry(parseFeedback(err))
				continue
			}
			return nil, err
		}
		plan.Goal, plan.Revision = goal, number
		if err := p.Validate(plan); err != nil {
			if validLeft > 0 {
				validLeft--
				retry(validationFeedback(err))
				continue
			}
			return nil, err
		}
		if err := p.Verify(plan, state); err != nil {
			plan.Critique = err.Error()
			if p.cfg.requireVerified {
				if verifyLeft > 0 {
					verifyLeft--
					retry(verificationFeedback(err))
					continue
				}
				return nil, err
			}
		} else {
			plan.Verified = true
		}
		return plan, nil
	}
}

// complete makes one model call, metered.
func (r *run[S]) complete(ctx context.Context, purpose string, req Request) (Response, error) {
	var resp Response
	callErr, budgetErr := r.metered(purpose, func() (Usage, error) {
		var err error
		resp, err = r.p.model.Complete(ctx, req)
		return resp.Usage, err
	})
	switch {
	case budgetErr != nil:
		return Response{}, budgetErr
	case callErr != nil && ctx.Err() != nil:
		return Response{}, ctx.Err()
	case callErr != nil:
		return Response{}, fmt.Errorf("llm: model: %w", callErr)
	}
	return resp, nil
}

// metered makes one call to the model (or the reflector) and accounts its
// usage against the budget: no call starts once the budget is used up, a
// call that takes the total over the budget ends the run, and a failed
// call is recorded too, with the usage it reports (a refusal costs its
// tokens).
func (r *run[S]) metered(purpose string, call func() (Usage, error)) (callErr, budgetErr error) {
	if err := r.budgetLeft(); err != nil {
		return nil, err
	}
	usage, err := call()
	r.account(purpose, usage)
	return err, r.overBudget()
}

// account records the usage of one model call.
func (r *run[S]) account(purpose string, u Usage) {
	u = u.normalized()
	r.usage = r.usage.Add(u)
	r.calls = append(r.calls, Call{Purpose: purpose, Usage: u})
}

// budgetLeft fails when the token budget is used up.
func (r *run[S]) budgetLeft() error {
	if b := r.p.cfg.tokenBudget; b > 0 && r.usage.TotalTokens >= b {
		return &BudgetError{Limit: b, Used: r.usage.TotalTokens}
	}
	return nil
}

// overBudget fails when the calls used more tokens than the budget.
func (r *run[S]) overBudget() error {
	if b := r.p.cfg.tokenBudget; b > 0 && r.usage.TotalTokens > b {
		return &BudgetError{Limit: b, Used: r.usage.TotalTokens}
	}
	return nil
}
