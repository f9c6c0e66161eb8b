package llm

import (
	"encoding/json"
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
	// schemaErr names an action whose argument schema is not JSON: no
	// request can be sent.
	schemaErr error
	// suppliers are the WithArgs suppliers by action; repairs what repair
	// needs of the domain, built on first use.
	suppliers map[runtime.ActionID]supplierFunc[S]
	repairs   *repairer[S]
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
	observer          Observer
	repairBudget      int
	suppliers         []supplier
	candidates        int
}

// Option configures a Planner.
type Option func(*config)

// WithMaxSteps sets the step budget (default 10): the prompt asks for at
// most n steps, steps beyond n are kept but marked skipped, and a plan of
// more than 4n steps is refused (TooManySteps). The symbolic planners'
// runtime.WithMaxSteps defaults to 64 and refuses a longer plan: a
// model's plan of that length is more likely wrong than needed, so this
// budget is shorter and what lies beyond it is shown, not run.
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
		repairBudget: DefaultRepairBudget,
		candidates:   1,
	}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.observer != nil {
		model = observe(model, cfg.observer)
	}
	p := &Planner[S]{d: d, model: model, cfg: cfg, repairs: new(repairer[S])}
	p.suppliers = suppliersFor(d, cfg.suppliers)
	p.requestSchema, p.stepsSchema, p.schemaErr = requestSchemas(d, cfg.maxSteps, cfg.allowEmpty)
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

// suppliersFor checks the WithArgs suppliers against the domain: each for
// an action of d that takes arguments. The last given for an action wins.
func suppliersFor[S comparable](d *runtime.Domain[S], given []supplier) map[runtime.ActionID]supplierFunc[S] {
	out := make(map[runtime.ActionID]supplierFunc[S], len(given))
	for _, g := range given {
		supply, ok := g.supply.(supplierFunc[S])
		switch {
		case !ok:
			panic(fmt.Sprintf("llm.NewPlanner: WithArgs: a supplier over another state type than %T", *new(S)))
		case g.domain != any(d):
			panic(fmt.Sprintf("llm.NewPlanner: WithArgs: the action is not of domain %s", d.Name))
		case g.id < 0 || int(g.id) >= len(d.Actions):
			panic(fmt.Sprintf("llm.NewPlanner: WithArgs: action %d is not an action of %s", g.id, d.Name))
		case d.Actions[g.id].Args == "":
			panic(fmt.Sprintf("llm.NewPlanner: WithArgs: %s.%s takes no arguments", d.Name, d.Actions[g.id].Name))
		}
		out[g.id] = supply
	}
	return out
}
