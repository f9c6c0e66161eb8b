package llm

import (
	"context"
	"fmt"
	"slices"
)

// Decision is an approval gate's answer about a plan: approve it as it is,
// reject it, or approve it after removing and/or reordering steps.
type Decision struct {
	// Reject refuses the plan; Reason says why.
	Reject bool
	Reason string
	// Remove lists the ids of steps to drop.
	Remove []string
	// Order lists step ids to put first, in this order; the steps not
	// listed follow in their original order. (Execution still respects
	// dependsOn: order only breaks ties.)
	Order []string
}

// Approve approves a plan as it is.
func Approve() Decision { return Decision{} }

// Reject refuses a plan.
func Reject(reason string) Decision { return Decision{Reject: true, Reason: reason} }

// RemoveSteps approves a plan without the given steps.
func RemoveSteps(ids ...string) Decision { return Decision{Remove: ids} }

// ReorderSteps approves a plan with the given steps first, in this order.
func ReorderSteps(ids ...string) Decision { return Decision{Order: ids} }

// Modify approves a plan without the steps of remove, then reordered by
// order.
func Modify(remove, order []string) Decision { return Decision{Remove: remove, Order: order} }

func (d Decision) changes() bool { return len(d.Remove) > 0 || len(d.Order) > 0 }

// Approver is an approval gate: it sees every plan before it runs.
type Approver interface {
	Approve(ctx context.Context, plan *Plan) (Decision, error)
}

// ApproverFunc adapts a function to Approver.
type ApproverFunc func(ctx context.Context, plan *Plan) (Decision, error)

// Approve calls f.
func (f ApproverFunc) Approve(ctx context.Context, plan *Plan) (Decision, error) { return f(ctx, plan) }

// AutoApprove is a gate that approves every plan as it is, so guarded
// actions may run without a human.
func AutoApprove() Approver {
	return ApproverFunc(func(context.Context, *Plan) (Decision, error) { return Approve(), nil })
}

// Approve applies a decision to a plan outside a run (plan-only mode: a
// plan from Propose awaiting a human): it returns a copy with the removals
// and reordering done, validated again and marked approved, or a
// *RejectedError, or the *ValidationError of a decision that broke the plan
// (a removed step another depends on, an emptied plan). Pass the result to
// Execute.
func (p *Planner[S]) Approve(plan *Plan, d Decision) (*Plan, error) {
	if d.Reject {
		return nil, &RejectedError{Reason: d.Reason}
	}
	out := plan.Clone()
	if err := applyDecision(out, d); err != nil {
		return nil, err
	}
	if err := p.Validate(out); err != nil {
		return nil, err
	}
	out.Approved = true
	return out, nil
}

// applyDecision removes and reorders the steps of plan.
func applyDecision(plan *Plan, d Decision) error {
	for _, id := range d.Remove {
		if _, ok := plan.Step(id); !ok {
			return fmt.Errorf("llm: %w: removes unknown step %q", ErrInvalidDecision, id)
		}
	}
	plan.Steps = slices.DeleteFunc(plan.Steps, func(s Step) bool { return slices.Contains(d.Remove, s.ID) })
	if len(d.Order) == 0 {
		return nil
	}
	ordered := make([]Step, 0, len(plan.Steps))
	for i, id := range d.Order {
		if slices.Contains(d.Order[:i], id) {
			return fmt.Errorf("llm: %w: orders step %q twice", ErrInvalidDecision, id)
		}
		s, ok := plan.Step(id)
		if !ok {
			return fmt.Errorf("llm: %w: orders unknown step %q", ErrInvalidDecision, id)
		}
		ordered = append(ordered, s)
	}
	for _, s := range plan.Steps {
		if !slices.Contains(d.Order, s.ID) {
			ordered = append(ordered, s)
		}
	}
	plan.Steps = ordered
	return nil
}
