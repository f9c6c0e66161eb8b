package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// Decision is an approval gate's answer about a plan: approve it as it is,
// reject it, or approve it after removing, reordering and editing steps.
type Decision struct {
	// Reject refuses the plan; Reason says why.
	Reject bool   `json:"reject,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Remove lists the ids of steps to drop.
	Remove []string `json:"remove,omitempty"`
	// Order lists step ids to put first, in this order; the steps not
	// listed follow in their original order. (Execution still respects
	// dependsOn: order only breaks ties.)
	Order []string `json:"order,omitempty"`
	// Args replaces the arguments of steps, by step id. Edited arguments
	// are checked as the model's are: decoded as the action's generated
	// PerformJSON will decode them, then against the action's schema.
	Args map[string]json.RawMessage `json:"args,omitempty"`
	// PlanDigest, when set, is the Digest of the plan the decision was
	// made on: Planner.Decide and the Temporal adapter refuse the
	// decision with ErrPlanChanged when the plan awaiting approval is
	// another one (revised, or decided, since the person looked).
	PlanDigest string `json:"planDigest,omitempty"`
	// By names who decided, for the record (the review page puts the
	// reviewer its authorisation function named).
	By string `json:"by,omitempty"`
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

// EditArgs approves a plan with the arguments of the step id replaced.
func EditArgs(id string, args json.RawMessage) Decision {
	return Decision{Args: map[string]json.RawMessage{id: args}}
}

func (d Decision) changes() bool { return len(d.Remove) > 0 || len(d.Order) > 0 || len(d.Args) > 0 }

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
// plan from Propose awaiting a human): it returns a copy with the removals,
// reordering and argument edits done, validated again and marked
// approved, or a *RejectedError, or the *ValidationError of a decision
// that broke the plan (a removed step another depends on, an emptied
// plan, arguments the action would not take). Pass the result to Execute.
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

// CheckDecision says what a decision about plan would do, deciding
// nothing: it returns the plan that would run — the decision applied,
// validated again, and, when the decision changes the plan, verified from
// state (the state the plan was made for, Checkpoint.State) — or the
// error the decision would end the run with: a *RejectedError, the
// *ValidationError of a decision that broke the plan (an edited argument
// the action would not take, with its JSON Pointer), an error wrapping
// ErrInvalidDecision, or, with WithRequireVerified, the changed plan's
// *VerificationError. Without WithRequireVerified a changed plan that
// fails verification is returned with its Critique set, as the model's
// would run. plan is not changed. A person's edits are held to the checks
// a model's plan is held to, by the same code: this is what the approval
// gate of a run does with the decision.
func (p *Planner[S]) CheckDecision(plan *Plan, d Decision, state S) (*Plan, error) {
	return p.checkDecision(plan, d, state, nil)
}

// checkDecision is CheckDecision for a plan whose steps in done are done
// (state holds their effects).
func (p *Planner[S]) checkDecision(plan *Plan, d Decision, state S, done map[string]bool) (*Plan, error) {
	out, err := p.Approve(plan, d)
	if err != nil {
		return nil, err
	}
	if d.changes() {
		verr := p.verify(out, state, done)
		out.Verified, out.Critique = verr == nil, errorText(verr)
		if verr != nil && p.cfg.requireVerified {
			return out, verr
		}
	}
	return out, nil
}

// applyDecision edits, removes and reorders the steps of plan.
func applyDecision(plan *Plan, d Decision) error {
	for _, id := range slices.Sorted(maps.Keys(d.Args)) {
		i := slices.IndexFunc(plan.Steps, func(s Step) bool { return s.ID == id })
		if i < 0 {
			return fmt.Errorf("llm: %w: edits the arguments of unknown step %q", ErrInvalidDecision, id)
		}
		plan.Steps[i].Args = normalizeArgs(d.Args[id])
	}
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
