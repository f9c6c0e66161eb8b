package llm

import (
	"context"
	"fmt"
)

// DirectiveKind is what a hook or reflector wants next.
type DirectiveKind uint8

// Directive kinds.
const (
	// Continue the plan.
	DirectiveContinue DirectiveKind = iota
	// Adjust: replace the steps not yet run with Directive.Steps.
	DirectiveAdjust
	// Replan from the current state, with Directive.Reason as critique.
	DirectiveReplan
	// Abort the run (status failed, *AbortError).
	DirectiveAbort
)

func (k DirectiveKind) String() string {
	switch k {
	case DirectiveContinue:
		return "continue"
	case DirectiveAdjust:
		return "adjust"
	case DirectiveReplan:
		return "replan"
	case DirectiveAbort:
		return "abort"
	}
	return fmt.Sprintf("directive(%d)", k)
}

// Directive is the answer of an OnStep hook or a reflector.
type Directive struct {
	Kind DirectiveKind
	// Reason is the feedback of a replan, the reason of an abort.
	Reason string
	// Steps replace the steps not yet run (Adjust).
	Steps []Step
}

// Continue goes on with the plan.
func Continue() Directive { return Directive{} }

// Abort stops the run.
func Abort(reason string) Directive { return Directive{Kind: DirectiveAbort, Reason: reason} }

// Replan asks the model for a new plan from the current state, with
// feedback as critique. It counts against WithMaxReplans.
func Replan(feedback string) Directive { return Directive{Kind: DirectiveReplan, Reason: feedback} }

// Adjust replaces the steps not yet run with steps (which may depend on
// the steps done). The adjusted plan is validated, verified and passes the
// gate like a replan; if it is invalid the run replans instead.
func Adjust(reason string, steps ...Step) Directive {
	return Directive{Kind: DirectiveAdjust, Reason: reason, Steps: steps}
}

// StepHook is called after every step that ran, with its record.
type StepHook func(ctx context.Context, rec StepRecord) Directive

// RunOption configures one run.
type RunOption func(*runConfig)

type runConfig struct{ id string }

// WithRunID names a run; with a Store its checkpoint is saved under the id
// (default: a random id, see Result.RunID). Ids are letters, digits, '.',
// '_' and '-', starting with a letter or digit. A new run under the id of a
// run awaiting approval goes on with its history; under the id of any other
// run it replaces its checkpoint, unless another runner owns that run (see
// RunLocker): then it fails with ErrRunInProgress.
func WithRunID(id string) RunOption { return func(c *runConfig) { c.id = id } }
