package runtime

import (
	"context"
	"errors"
	"fmt"
)

// ApproveFunc decides whether a plan may run. Returning an error refuses
// it; Think then runs no step.
type ApproveFunc func(ctx context.Context, p Plan) error

// ThinkOption configures Think.
type ThinkOption func(*thinkConfig)

type thinkConfig struct {
	approve ApproveFunc
	onStep  func(ActionID)
}

// WithApprover sets the approver that Think asks before running a plan
// with a guarded action (and only then). Without one, such plans are
// refused with ErrGuarded.
func WithApprover(f ApproveFunc) ThinkOption { return func(c *thinkConfig) { c.approve = f } }

// WithStepHook calls f after each step Think performed.
func WithStepHook(f func(ActionID)) ThinkOption { return func(c *thinkConfig) { c.onStep = f } }

// Think reads the role's state, plans with p, and performs the plan step by
// step. Before each step that has a precondition it re-reads the live state:
// if the precondition no longer holds, Think stops, without error when
// every goal the plan promised already holds (the world did the rest) and
// with a PreconditionStale *PlanningError otherwise. After the last step it
// fails with GoalUnsatisfiedAfterExecution when a goal the plan promised
// does not hold. A plan with a guarded action runs only when an approver
// (WithApprover) accepts it. Think returns the actions it performed.
//
// When the planner plans some goals and fails on another (its Plan returns
// a plan with goals and a *PlanningError), Think performs the plan for the
// goals it could plan and then returns that PlanningError too, joined with
// any error of the run: every planner is treated alike. A planning error
// with nothing planned, or any other error of Plan, runs no step.
func Think[S comparable](ctx context.Context, p Planner[S], role Role[S], opts ...ThinkOption) ([]ActionID, error) {
	var cfg thinkConfig
	for _, o := range opts {
		o(&cfg)
	}
	d := p.Domain()
	plan, planErr := p.Plan(ctx, role.PlanState())
	if planErr != nil {
		var perr *PlanningError
		if !errors.As(planErr, &perr) || len(plan.Goals) == 0 {
			return nil, planErr
		}
	}
	ran, err := perform(ctx, d, plan, role, &cfg)
	if planErr != nil {
		return ran, errors.Join(err, planErr)
	}
	return ran, err
}

// perform runs plan on role as Think documents.
func perform[S comparable](ctx context.Context, d *Domain[S], plan Plan, role Role[S], cfg *thinkConfig) ([]ActionID, error) {
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
		if d.Actions[a].Pre != nil {
			s := role.PlanState()
			if !d.Actions[a].Pre(s) {
				if allHold(d, plan.Goals, s) {
					return ran, nil
				}
				return ran, d.staleError(a, i)
			}
		}
		if err := role.Perform(ctx, a); err != nil {
			return ran, fmt.Errorf("rolegen: %s: step %d (%s): %w", d.Name, i, d.Actions[a].Name, err)
		}
		ran = append(ran, a)
		if cfg.onStep != nil {
			cfg.onStep(a)
		}
	}
	s := role.PlanState()
	for _, g := range plan.Goals {
		if !d.Goals[g].Cond(s) {
			return ran, d.unsatisfiedError(g)
		}
	}
	return ran, nil
}

func firstGuarded[S comparable](d *Domain[S], steps []ActionID) ActionID {
	for _, a := range steps {
		if d.Actions[a].Guarded {
			return a
		}
	}
	return NoAction
}

// allHold reports whether every goal of goals holds in s.
func allHold[S comparable](d *Domain[S], goals []GoalID, s S) bool {
	for _, g := range goals {
		if !d.Goals[g].Cond(s) {
			return false
		}
	}
	return true
}
