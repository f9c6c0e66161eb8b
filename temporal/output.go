package temporal

import (
	"errors"

	"github.com/rolegen/rolegen/llm"
)

// Output is what a run's workflow returns: its llm.Result in a form that
// crosses the wire (the error as an *Error).
type Output struct {
	RunID   string
	Status  llm.Status
	Plan    *llm.Plan
	Steps   []llm.StepRecord
	Replans int
	Usage   llm.Usage
	Calls   []llm.Call
	Error   *Error `json:",omitempty"`
}

func outputOf(res *llm.Result) *Output {
	return &Output{
		RunID:   res.RunID,
		Status:  res.Status,
		Plan:    res.Plan,
		Steps:   res.Steps,
		Replans: res.Replans,
		Usage:   res.Usage,
		Calls:   res.Calls,
		Error:   wireError(res.Err),
	}
}

// Result returns the run's llm.Result (its Err an *Error, nil when it
// completed).
func (o *Output) Result() *llm.Result {
	res := &llm.Result{
		RunID:   o.RunID,
		Status:  o.Status,
		Plan:    o.Plan,
		Steps:   o.Steps,
		Replans: o.Replans,
		Usage:   o.Usage,
		Calls:   o.Calls,
	}
	if o.Error != nil {
		res.Err = o.Error
	}
	return res
}

// Error is an llm error that crossed the wire: its message, and the llm
// sentinels it matched, which errors.Is finds on it again.
type Error struct {
	Message string
	// Kinds name the sentinels the error matched (see sentinels).
	Kinds []string `json:",omitempty"`
}

func (e *Error) Error() string { return e.Message }

// Is reports whether the original error matched target.
func (e *Error) Is(target error) bool {
	for _, k := range e.Kinds {
		if sentinels[k] == target {
			return true
		}
	}
	return false
}

// sentinels are the llm errors an *Error remembers, by name.
var sentinels = map[string]error{
	"InvalidPlan":       llm.ErrInvalidPlan,
	"EmptyPlan":         llm.ErrEmptyPlan,
	"TooManySteps":      llm.ErrTooManySteps,
	"MissingStepID":     llm.ErrMissingStepID,
	"DuplicateStepID":   llm.ErrDuplicateStepID,
	"UnknownCapability": llm.ErrUnknownCapability,
	"InvalidArgs":       llm.ErrInvalidArgs,
	"UnknownDependency": llm.ErrUnknownDependency,
	"CyclicDependency":  llm.ErrCyclicDependency,
	"UnreadableReply":   llm.ErrUnreadableReply,
	"TruncatedReply":    llm.ErrTruncatedReply,
	"Unverified":        llm.ErrUnverified,
	"Rejected":          llm.ErrRejected,
	"Guarded":           llm.ErrGuarded,
	"InvalidDecision":   llm.ErrInvalidDecision,
	"Aborted":           llm.ErrAborted,
	"ReplansExhausted":  llm.ErrReplansExhausted,
	"TokenBudget":       llm.ErrTokenBudget,
}

// sentinelOrder lists the sentinels' names in a fixed order, so that an
// error's kinds are the same on every replay.
var sentinelOrder = []string{
	"InvalidPlan", "EmptyPlan", "TooManySteps", "MissingStepID", "DuplicateStepID",
	"UnknownCapability", "InvalidArgs", "UnknownDependency", "CyclicDependency",
	"UnreadableReply", "TruncatedReply", "Unverified", "Rejected", "Guarded",
	"InvalidDecision", "Aborted", "ReplansExhausted", "TokenBudget",
}

// wireError keeps err's message and the sentinels it matches.
func wireError(err error) *Error {
	if err == nil {
		return nil
	}
	var w *Error
	if errors.As(err, &w) && w.Message == err.Error() {
		return w
	}
	out := &Error{Message: err.Error()}
	for _, k := range sentinelOrder {
		if errors.Is(err, sentinels[k]) {
			out.Kinds = append(out.Kinds, k)
		}
	}
	return out
}
