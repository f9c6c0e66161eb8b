package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/rolegen/rolegen/runtime"
)

// Sentinels for errors.Is. Every *ValidationError matches ErrInvalidPlan and
// the sentinel of its Kind.
var (
	// ErrInvalidPlan matches every *ValidationError.
	ErrInvalidPlan       = errors.New("invalid plan")
	ErrEmptyPlan         = errors.New("empty plan")
	ErrTooManySteps      = errors.New("too many steps")
	ErrMissingStepID     = errors.New("missing step id")
	ErrDuplicateStepID   = errors.New("duplicate step id")
	ErrUnknownCapability = errors.New("unknown capability")
	ErrInvalidArgs       = errors.New("invalid arguments")
	ErrUnknownDependency = errors.New("unknown dependency")
	ErrCyclicDependency  = errors.New("cyclic dependency")

	// ErrUnreadableReply matches a *ParseError: the model's reply holds no
	// readable plan.
	ErrUnreadableReply = errors.New("unreadable model reply")
	// ErrTruncatedReply matches a *ParseError of a reply the server cut at
	// the token limit (finish reason "length"): raise WithMaxTokens.
	ErrTruncatedReply = errors.New("model reply cut at the token limit")
	// ErrUnverified matches a *VerificationError: symbolic simulation of the
	// plan fails.
	ErrUnverified = errors.New("plan fails symbolic verification")
	// ErrRejected matches a *RejectedError; it is runtime.ErrRejected, so
	// one check covers both planners.
	ErrRejected = runtime.ErrRejected
	// ErrGuarded matches a *GuardedError; it is runtime.ErrGuarded.
	ErrGuarded = runtime.ErrGuarded
	// ErrInvalidDecision is returned (wrapped) for an approval decision
	// naming steps the plan does not have.
	ErrInvalidDecision = errors.New("invalid approval decision")
	// ErrAborted matches an *AbortError: a hook or reflector stopped the run.
	ErrAborted = errors.New("run aborted")
	// ErrReplansExhausted wraps the last failure of a run that failed again
	// after its last allowed replan.
	ErrReplansExhausted = errors.New("replanning exhausted")
	// ErrTokenBudget matches a *BudgetError.
	ErrTokenBudget = errors.New("token budget exceeded")
	// ErrNoCheckpoint is returned (wrapped) by a Store for an unknown run.
	ErrNoCheckpoint = errors.New("no checkpoint")
	// ErrNoStore is returned by Resume on a planner without a Store.
	ErrNoStore = errors.New("no checkpoint store configured")
	// ErrRunFinished is returned (wrapped) by Resume for a run that already
	// failed or was rejected.
	ErrRunFinished = errors.New("run already finished")
	// ErrRunInProgress matches a *RunInProgressError: another runner owns
	// the run.
	ErrRunInProgress = errors.New("run in progress")
	// ErrPlanChanged matches a *PlanChangedError: a decision was made on
	// another plan than the one awaiting approval.
	ErrPlanChanged = errors.New("plan changed")
	// ErrNotAwaiting matches a *NotAwaitingError: the run awaits no
	// decision (it was decided already).
	ErrNotAwaiting = errors.New("no plan awaits approval")
	// ErrNoRunLister is returned by Planner.Runs when the planner's Store
	// does not list runs (RunLister).
	ErrNoRunLister = errors.New("the checkpoint store does not list runs")
	// ErrScriptExhausted is returned by a ScriptedModel asked for more
	// replies than it was given.
	ErrScriptExhausted = errors.New("scripted model has no reply left")
)

// ValidationKind says what is wrong with a plan.
type ValidationKind uint8

// Kinds of ValidationError.
const (
	EmptyPlan ValidationKind = iota + 1
	TooManySteps
	MissingStepID
	DuplicateStepID
	UnknownCapability
	InvalidArgs
	UnknownDependency
	CyclicDependency
)

var kindSentinels = [...]error{
	EmptyPlan:         ErrEmptyPlan,
	TooManySteps:      ErrTooManySteps,
	MissingStepID:     ErrMissingStepID,
	DuplicateStepID:   ErrDuplicateStepID,
	UnknownCapability: ErrUnknownCapability,
	InvalidArgs:       ErrInvalidArgs,
	UnknownDependency: ErrUnknownDependency,
	CyclicDependency:  ErrCyclicDependency,
}

func (k ValidationKind) sentinel() error {
	if int(k) < len(kindSentinels) {
		return kindSentinels[k]
	}
	return nil
}

func (k ValidationKind) String() string {
	if s := k.sentinel(); s != nil {
		return s.Error()
	}
	return fmt.Sprintf("kind(%d)", k)
}

// ValidationError is one reason a plan is refused before any step runs.
// errors.Is matches ErrInvalidPlan and the sentinel of Kind; Unwrap returns
// the underlying cause (for InvalidArgs, the *runtime.ArgsError of decoding
// or the *jsonschema.ValidationError of the schema).
type ValidationError struct {
	Kind ValidationKind
	// StepID and Capability name the step involved, when one is.
	StepID     string
	Capability string
	// Path is, for InvalidArgs, the JSON Pointer (RFC 6901) of the wrong
	// argument within the step's args ("/seat/row"; "" for the whole).
	Path string
	// Detail says what exactly is wrong, in words fit for the model: for
	// InvalidArgs, where and Go's reason when decoding the arguments as
	// the action will fails, else the schema's.
	Detail string
	Err    error
}

func (e *ValidationError) Error() string {
	var b strings.Builder
	b.WriteString("llm: invalid plan: ")
	if e.StepID != "" || e.Capability != "" {
		fmt.Fprintf(&b, "step %q", e.StepID)
		if e.Capability != "" {
			fmt.Fprintf(&b, " (%s)", e.Capability)
		}
		b.WriteString(": ")
	}
	b.WriteString(e.Kind.String())
	if e.Detail != "" {
		b.WriteString(": " + e.Detail)
	}
	return b.String()
}

// Is matches ErrInvalidPlan and the sentinel of e.Kind.
func (e *ValidationError) Is(target error) bool {
	return target == ErrInvalidPlan || (target != nil && target == e.Kind.sentinel())
}

func (e *ValidationError) Unwrap() error { return e.Err }

// ParseError is a model reply that holds no readable plan. Raw keeps the
// reply as the model sent it.
type ParseError struct {
	Raw string
	Err error
	// Truncated: the server ended the reply at the token limit (finish
	// reason "length"), which is why it does not parse.
	Truncated bool
}

func (e *ParseError) Error() string {
	if e.Truncated {
		return fmt.Sprintf("llm: %v: %v: %v (reply: %s)", ErrUnreadableReply, ErrTruncatedReply, e.Err, abbreviate(e.Raw, 200))
	}
	return fmt.Sprintf("llm: %v: %v (reply: %s)", ErrUnreadableReply, e.Err, abbreviate(e.Raw, 200))
}

// Is matches ErrUnreadableReply, and ErrTruncatedReply when Truncated.
func (e *ParseError) Is(target error) bool {
	return target == ErrUnreadableReply || e.Truncated && target == ErrTruncatedReply
}

func (e *ParseError) Unwrap() error { return e.Err }

// FieldValue is a state field and its value (as JSON) in a simulated state.
type FieldValue struct {
	Name  string          `json:"name"`
	Value json.RawMessage `json:"value"`
}

// VerificationError reports the first step of a plan whose precondition
// fails when the plan is simulated from the current state, or a goal that
// does not hold after the simulated plan. Unwrap returns the
// *runtime.PlanningError (PreconditionStale or GoalUnsatisfiedAfterExecution),
// and errors.Is matches ErrUnverified too.
type VerificationError struct {
	// StepID, Capability and Index (in Plan.Steps) name the failing step;
	// Index is -1 for a goal failure.
	StepID     string
	Capability string
	Index      int
	// Precondition is the failing precondition as written.
	Precondition string
	// Goal and GoalCondition name a goal that does not hold at the end.
	Goal          string
	GoalCondition string
	// Fields are the values, in the simulated state, of the fields the
	// failing condition reads.
	Fields []FieldValue
	Err    *runtime.PlanningError
	// Repair is why repair could not make the plan verify, when it tried
	// (see WithRepair): the message, and so the critique the model gets
	// back, says what it tried.
	Repair *RepairError
}

func (e *VerificationError) Error() string {
	var b strings.Builder
	b.WriteString("llm: plan fails verification: ")
	if e.Goal != "" {
		fmt.Fprintf(&b, "goal %s (%q) does not hold after the last step", e.Goal, e.GoalCondition)
	} else {
		fmt.Fprintf(&b, "step %q (%s): precondition %q does not hold", e.StepID, e.Capability, e.Precondition)
	}
	if len(e.Fields) > 0 {
		b.WriteString(" where ")
		for i, f := range e.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s = %s", f.Name, f.Value)
		}
	}
	if e.Repair != nil {
		b.WriteString("; " + e.Repair.Error())
	}
	return b.String()
}

// Is matches ErrUnverified.
func (e *VerificationError) Is(target error) bool { return target == ErrUnverified }

func (e *VerificationError) Unwrap() error {
	if e.Err == nil {
		return nil
	}
	return e.Err
}

// RejectedError is an approval gate's refusal of a plan.
type RejectedError struct{ Reason string }

func (e *RejectedError) Error() string {
	if e.Reason == "" {
		return "llm: " + ErrRejected.Error()
	}
	return "llm: " + ErrRejected.Error() + ": " + e.Reason
}

func (e *RejectedError) Unwrap() error { return ErrRejected }

// GuardedError refuses a plan holding a guarded action that no approval
// gate approved. No step of the plan runs.
type GuardedError struct {
	StepID     string
	Capability string
}

func (e *GuardedError) Error() string {
	return fmt.Sprintf("llm: step %q (%s): %v", e.StepID, e.Capability, ErrGuarded)
}

func (e *GuardedError) Unwrap() error { return ErrGuarded }

// AbortError is a run stopped by an OnStep hook or a reflector.
type AbortError struct {
	// StepID is the step after which the run stopped, if any.
	StepID string
	Reason string
}

func (e *AbortError) Error() string {
	s := "llm: " + ErrAborted.Error()
	if e.StepID != "" {
		s += fmt.Sprintf(" after step %q", e.StepID)
	}
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	return s
}

func (e *AbortError) Unwrap() error { return ErrAborted }

// BudgetError stops a run whose model calls used more tokens than its
// budget (WithTokenBudget).
type BudgetError struct {
	Limit int
	Used  int
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("llm: %v: used %d of %d tokens", ErrTokenBudget, e.Used, e.Limit)
}

func (e *BudgetError) Unwrap() error { return ErrTokenBudget }

// RunInProgressError refuses to run, resume or propose a run that another
// runner owns (see RunLocker): nothing of the run was read, performed or
// saved. errors.Is matches ErrRunInProgress.
type RunInProgressError struct {
	RunID string
	// Err is the store's own error, when it said more than
	// ErrRunInProgress (who holds the run, until when).
	Err error
}

func (e *RunInProgressError) Error() string {
	s := fmt.Sprintf("llm: run %s: %v: another runner owns it", e.RunID, ErrRunInProgress)
	if e.Err != nil {
		s += " (" + e.Err.Error() + ")"
	}
	return s
}

// Is matches ErrRunInProgress.
func (e *RunInProgressError) Is(target error) bool { return target == ErrRunInProgress }

func (e *RunInProgressError) Unwrap() error { return e.Err }

// StepError is the failure of one step; Unwrap returns the executor's error
// (or the *runtime.PlanningError of a live precondition that failed).
type StepError struct {
	StepID     string
	Capability string
	Err        error
}

func (e *StepError) Error() string {
	return fmt.Sprintf("llm: step %q (%s): %v", e.StepID, e.Capability, e.Err)
}

func (e *StepError) Unwrap() error { return e.Err }

// PanicError is the error of a step whose executor panicked (or, in a DAG,
// ended its goroutine with runtime.Goexit), as the Err of a *StepError. A
// panic is a bug in the action, not a state of the world: the run is not
// replanned (whatever the OnStep hook answers); it ends failed once the
// steps in flight have returned, with every record saved, and the process
// goes on.
type PanicError struct {
	// Value is what the step panicked with; nil after runtime.Goexit.
	Value any
	// Stack is the panicking goroutine's stack.
	Stack []byte
}

func (e *PanicError) Error() string {
	if e.Value == nil {
		return "the step's goroutine exited (runtime.Goexit) without returning"
	}
	return fmt.Sprintf("panic: %v", e.Value)
}

// abbreviate shortens s to at most n bytes (on a rune boundary) for
// messages.
func abbreviate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
