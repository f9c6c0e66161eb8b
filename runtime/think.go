package runtime

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ApproveFunc decides whether a plan may run. Returning an error refuses
// it; Think then runs no step.
type ApproveFunc func(ctx context.Context, p Plan) error

// ThinkOption configures Think.
type ThinkOption func(*thinkConfig)

type thinkConfig struct {
	approve ApproveFunc
	onStep  func(ActionID)
	args    []argSupplier
	stats   *Stats
}

// argSupplier runs one action that takes typed arguments (see WithArgs),
// its types erased so that ThinkOption need not be generic.
type argSupplier struct {
	domain any // the action's *Domain[S]
	id     ActionID
	// fits reports whether role is of the type the action's method has.
	fits func(role any) bool
	// run supplies the arguments from the state and calls the method.
	run func(ctx context.Context, role, state any) error
}

// supplier returns the last supplier WithArgs gave for action a of d.
func (c *thinkConfig) supplier(d any, a ActionID) *argSupplier {
	for i := len(c.args) - 1; i >= 0; i-- {
		if c.args[i].domain == d && c.args[i].id == a {
			return &c.args[i]
		}
	}
	return nil
}

// ArgAction is an action whose method takes typed arguments, of type T,
// on a role of type R with state S. Generated code declares one for each
// such action, named after its ActionID constant with "Args" appended
// (VillagerBuySeedsArgs for Villager.BuySeeds); give it to WithArgs.
//
// A hand-built domain declares its own: the domain, the action's ID in
// it, and a function that calls the method.
type ArgAction[R any, S comparable, T any] struct {
	Domain *Domain[S]
	ID     ActionID
	Run    func(ctx context.Context, r R, in T) error
}

// WithArgs supplies the arguments of an action that takes typed
// arguments, which planners do not choose: before each step that runs
// the action, Think calls supply with the live state and calls the
// action's method with what it returns (an error from supply fails the
// step, as an *ArgsError); a result the method returns is dropped (use
// PerformJSON, or package llm, for results). The compiler checks the
// types: supply takes the role's state and returns the method's argument
// type.
//
//	runtime.Think(ctx, planner, v, runtime.WithArgs(VillagerBuySeedsArgs,
//		func(ctx context.Context, s VillagerState) (SeedOrder, error) {
//			return SeedOrder{Crop: "wheat", Bags: 1}, nil
//		}))
//
// Without a supplier for each such action it contains, Think refuses a
// plan before any step runs (ErrNeedsArguments).
func WithArgs[R any, S comparable, T any](a ArgAction[R, S, T], supply func(ctx context.Context, s S) (T, error)) ThinkOption {
	return func(c *thinkConfig) {
		c.args = append(c.args, argSupplier{
			domain: a.Domain,
			id:     a.ID,
			fits:   func(role any) bool { _, ok := role.(R); return ok },
			run: func(ctx context.Context, role, state any) error {
				in, err := supply(ctx, state.(S))
				if err != nil {
					return &ArgsError{Role: a.Domain.Name, Action: a.Domain.ActionName(a.ID), Err: err}
				}
				return a.Run(ctx, role.(R), in)
			},
		})
	}
}

// WithApprover sets the approver that Think asks before running a plan
// with a guarded action (and only then). Without one, such plans are
// refused with ErrGuarded.
func WithApprover(f ApproveFunc) ThinkOption { return func(c *thinkConfig) { c.approve = f } }

// WithOnStep calls f after each step Think performed (llm.WithOnStep is
// the same idea for plans a model made).
func WithOnStep(f func(ActionID)) ThinkOption { return func(c *thinkConfig) { c.onStep = f } }

// Think reads the role's state, plans with p, and performs the plan step by
// step. Before each step that has a precondition it re-reads the live state:
// if the precondition no longer holds, Think stops, without error when
// every goal the plan promised already holds (the world did the rest) and
// with a PreconditionStale *PlanningError otherwise. After the last step it
// fails with GoalUnsatisfiedAfterExecution when a goal the plan promised
// does not hold. A plan with a guarded action runs only when an approver
// (WithApprover) accepts it; a plan with an action that takes typed
// arguments only when WithArgs supplies them. Think returns the actions it
// performed.
//
// When the planner plans some goals and fails on another (its Plan returns
// a plan with goals and a *PlanningError), Think performs the plan for the
// goals it could plan and then returns that PlanningError too, joined with
// any error of the run: every planner is treated alike. A planning error
// with nothing planned, or any other error of Plan, runs no step.
func Think[S comparable](ctx context.Context, p Planner[S], role Role[S], opts ...ThinkOption) (ran []ActionID, err error) {
	var cfg thinkConfig
	for _, o := range opts {
		o(&cfg)
	}
	d := p.Domain()
	var plan Plan
	if cfg.stats != nil {
		defer func(start time.Time) {
			cfg.stats.record(PlannerThink, firstOf(plan.Goals), start, plan.Expansions, err)
		}(time.Now())
	}
	plan, planErr := p.Plan(ctx, role.PlanState())
	if planErr != nil {
		var perr *PlanningError
		if !errors.As(planErr, &perr) || len(plan.Goals) == 0 {
			return nil, planErr
		}
	}
	ran, err = perform(ctx, d, plan, role, &cfg)
	if planErr != nil {
		return ran, errors.Join(err, planErr)
	}
	return ran, err
}

// perform runs plan on role as Think documents.
func perform[S comparable](ctx context.Context, d *Domain[S], plan Plan, role Role[S], cfg *thinkConfig) ([]ActionID, error) {
	if err := checkArgs(d, plan.Steps, role, cfg); err != nil {
		return nil, err
	}
	if guarded := firstGuarded(d, plan.Steps); guarded != NoAction {
		if cfg.approve == nil {
			return nil, fmt.Errorf("rolegen: %s: %w (%s)", d.Name, ErrGuarded, d.Actions[guarded].Name)
		}
		if err := cfg.approve(ctx, plan); err != nil {
			return nil, fmt.Errorf("rolegen: %s: %w: %w", d.Name, ErrRejected, err)
		}
	}
	ran := make([]ActionID, 0, len(plan.Steps))
	for i, a := range plan.Steps {
		if err := ctx.Err(); err != nil {
			return ran, err
		}
		sup := cfg.supplier(d, a)
		if d.Actions[a].Pre != nil || sup != nil {
			s := role.PlanState()
			if pre := d.Actions[a].Pre; pre != nil && !pre(s) {
				if d.FirstUnsatisfied(plan.Goals, s) == NoGoal {
					return ran, nil
				}
				return ran, d.StaleError(a, i)
			}
			if sup != nil {
				if err := sup.run(ctx, role, s); err != nil {
					return ran, d.stepError(i, a, err)
				}
				ran = append(ran, a)
				if cfg.onStep != nil {
					cfg.onStep(a)
				}
				continue
			}
		}
		if err := role.Perform(ctx, a); err != nil {
			return ran, d.stepError(i, a, err)
		}
		ran = append(ran, a)
		if cfg.onStep != nil {
			cfg.onStep(a)
		}
	}
	if g := d.FirstUnsatisfied(plan.Goals, role.PlanState()); g != NoGoal {
		return ran, d.UnsatisfiedError(g)
	}
	return ran, nil
}

// checkArgs refuses, before any step runs, a plan with an action that
// takes typed arguments and has no supplier, or whose supplier is for
// another type of role than the one Think runs.
func checkArgs[S comparable](d *Domain[S], steps []ActionID, role Role[S], cfg *thinkConfig) error {
	for i, a := range steps {
		if d.Actions[a].Args == "" {
			continue
		}
		sup := cfg.supplier(d, a)
		if sup == nil {
			return &NeedsArgumentsError{Role: d.Name, Action: d.Actions[a].Name, Step: i}
		}
		if !sup.fits(role) {
			return fmt.Errorf("rolegen: %s: step %d (%s): runtime.WithArgs(%s%sArgs, f) calls the method on the role type it was made for, and the role given to Think has another type",
				d.Name, i, d.Actions[a].Name, d.Name, d.Actions[a].Name)
		}
	}
	return nil
}

func firstGuarded[S comparable](d *Domain[S], steps []ActionID) ActionID {
	for _, a := range steps {
		if d.Actions[a].Guarded {
			return a
		}
	}
	return NoAction
}
