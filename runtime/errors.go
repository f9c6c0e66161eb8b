package runtime

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Reason is why planning or execution failed.
type Reason uint8

// Reasons of a PlanningError.
const (
	// Unreachable: no candidate action can achieve the goal, or the
	// precondition of every candidate cannot be established.
	Unreachable Reason = iota + 1
	// CyclicPrecondition: establishing a precondition needs the action
	// itself (directly or through its helpers).
	CyclicPrecondition
	// MaxDepthExceeded: the backward chainer needed more actions waiting
	// at once for their preconditions than WithMaxDepth allows.
	MaxDepthExceeded
	// SearchBudgetExceeded: the planner needed more expansions than
	// WithSearchBudget allows.
	SearchBudgetExceeded
	// PreconditionStale: when a step was about to run, its precondition
	// no longer held in the live (or simulated) state.
	PreconditionStale
	// GoalUnsatisfiedAfterExecution: the plan ran to the end but a goal it
	// promised does not hold.
	GoalUnsatisfiedAfterExecution
	// InvalidCost: an action's cost, which depends on the state, is not
	// positive in a state where a planner considered the action.
	InvalidCost
	// MaxStepsExceeded: every plan the planner could find is longer than
	// WithMaxSteps allows.
	MaxStepsExceeded
	// MaxStatesExceeded: A* needed to hold more distinct states than
	// WithAStarMaxStates allows.
	MaxStatesExceeded
	// TimeBudgetExceeded: the call's time (WithTimeBudget) ran out before
	// the planner had a plan.
	TimeBudgetExceeded

	lastReason = TimeBudgetExceeded
)

// Sentinels for errors.Is, one per Reason.
var (
	ErrUnreachable                   = errors.New("unreachable")
	ErrCyclicPrecondition            = errors.New("cyclic precondition")
	ErrMaxDepthExceeded              = errors.New("max depth exceeded")
	ErrSearchBudgetExceeded          = errors.New("search budget exceeded")
	ErrPreconditionStale             = errors.New("precondition stale")
	ErrGoalUnsatisfiedAfterExecution = errors.New("goal unsatisfied after execution")
	ErrInvalidCost                   = errors.New("invalid cost")
	ErrMaxStepsExceeded              = errors.New("max steps exceeded")
	ErrMaxStatesExceeded             = errors.New("max states exceeded")
	ErrTimeBudgetExceeded            = errors.New("time budget exceeded")
)

var sentinels = [...]error{
	Unreachable:                   ErrUnreachable,
	CyclicPrecondition:            ErrCyclicPrecondition,
	MaxDepthExceeded:              ErrMaxDepthExceeded,
	SearchBudgetExceeded:          ErrSearchBudgetExceeded,
	PreconditionStale:             ErrPreconditionStale,
	GoalUnsatisfiedAfterExecution: ErrGoalUnsatisfiedAfterExecution,
	InvalidCost:                   ErrInvalidCost,
	MaxStepsExceeded:              ErrMaxStepsExceeded,
	MaxStatesExceeded:             ErrMaxStatesExceeded,
	TimeBudgetExceeded:            ErrTimeBudgetExceeded,
}

func (r Reason) String() string {
	if int(r) < len(sentinels) && sentinels[r] != nil {
		return sentinels[r].Error()
	}
	return fmt.Sprintf("reason(%d)", r)
}

// PlanningError says why a plan could not be made or run. errors.Is
// matches it against the sentinel of its Reason.
type PlanningError struct {
	Reason Reason
	// Domain is the role's name.
	Domain string
	// Goal is the goal being planned, or NoGoal.
	Goal     GoalID
	GoalName string
	// Action is the action involved, or NoAction.
	Action     ActionID
	ActionName string
	// Precondition is the text of the precondition involved, if any.
	Precondition string
	// Depth is the chaining depth reached.
	Depth int
	// Step is the index in the plan of the step involved, or -1.
	Step int
	// Limit is the limit exceeded, when one was: the depth, the plan
	// length, the budget or the number of states, by Reason.
	Limit int
	// TimeBudget is the time a call was given, for TimeBudgetExceeded.
	TimeBudget time.Duration
	// States counts the states a forward search (A*) explored.
	States int
	// Undoes names the goal of higher priority that Action would undo,
	// when that is why the goal is Unreachable.
	Undoes string
	// Cost is the cost Action has in the state the planner met, for
	// InvalidCost.
	Cost float64
	// Relaxed: the goal is Unreachable by the relaxed reachability of the
	// annotations: no values the actions can give the fields from the
	// start satisfy it, counting an integer's steps and what actions that
	// fire only so often add up to (A* tries the proof after 16
	// expansions, the backward chainer after 32 or when its first pass
	// fails).
	Relaxed bool
	// Fields, for Relaxed, names the fields of the goal's conjunct that
	// no values the actions can give them from the start satisfy:
	// "Fame", "Ale and Wine"; for Blocked, the fields of the conjuncts
	// those actions wait for: "Open".
	Fields string
	// Blocked: the goal is Unreachable because every action that could
	// serve it waits for a conjunct of its precondition that fails and
	// that no action can make hold (a market that is closed): an agent's
	// proof, made without a planner call.
	Blocked bool
}

func (e *PlanningError) Unwrap() error {
	if int(e.Reason) < len(sentinels) {
		return sentinels[e.Reason]
	}
	return nil
}

func (e *PlanningError) Error() string {
	var b strings.Builder
	b.WriteString("rolegen: ")
	if e.Domain != "" {
		b.WriteString(e.Domain + ": ")
	}
	if e.Goal != NoGoal {
		fmt.Fprintf(&b, "goal %s: ", e.GoalName)
	}
	switch e.Reason {
	case Unreachable:
		switch {
		case e.Relaxed && e.Fields != "":
			b.WriteString("unreachable: no plan reaches it (no values the actions can give " + e.Fields + " from here satisfy it)")
		case e.Relaxed:
			b.WriteString("unreachable: no plan reaches it (no values the actions can give the fields from here satisfy it)")
		case e.Blocked && e.Fields != "":
			b.WriteString("unreachable: every action that could serve it waits for a condition on " + e.Fields + " that no action can make hold")
		case e.Blocked:
			b.WriteString("unreachable: every action that could serve it waits for a condition that no action can make hold")
		case e.Undoes != "":
			fmt.Fprintf(&b, "unreachable: %s would undo goal %s of higher priority", e.ActionName, e.Undoes)
		case e.Action == NoAction && e.States > 0:
			b.WriteString("unreachable: no plan reaches it (" + counted(e.States, "state") + " searched)")
		case e.Action == NoAction:
			b.WriteString("unreachable: no action can make a failing part of it hold")
		default:
			fmt.Fprintf(&b, "unreachable: no action can establish %q for %s", e.Precondition, e.ActionName)
		}
	case CyclicPrecondition:
		fmt.Fprintf(&b, "cyclic precondition: establishing %q for %s needs %s itself", e.Precondition, e.ActionName, e.ActionName)
	case MaxDepthExceeded:
		fmt.Fprintf(&b, "max depth %d exceeded establishing %q for %s", e.Limit, e.Precondition, e.ActionName)
	case MaxStepsExceeded:
		fmt.Fprintf(&b, "max steps exceeded: no plan of at most %d steps reaches it", e.Limit)
	case SearchBudgetExceeded:
		fmt.Fprintf(&b, "search budget of %d expansions exceeded", e.Limit)
	case MaxStatesExceeded:
		fmt.Fprintf(&b, "max states exceeded: the search holds %d states, the limit", e.Limit)
	case TimeBudgetExceeded:
		fmt.Fprintf(&b, "time budget of %v exceeded before a plan was found", e.TimeBudget)
	case PreconditionStale:
		fmt.Fprintf(&b, "step %d: precondition %q of %s does not hold", e.Step, e.Precondition, e.ActionName)
	case GoalUnsatisfiedAfterExecution:
		b.WriteString("still unsatisfied after the plan ran")
	case InvalidCost:
		fmt.Fprintf(&b, "invalid cost: %s costs %v in a state where it was considered; a cost must be positive", e.ActionName, e.Cost)
	default:
		b.WriteString(e.Reason.String())
	}
	return b.String()
}

// relaxedErrors returns, for each goal g and part i of it, the error of g
// proven out of reach by the relaxed reachability with part i the one
// that no values of the fields it reads satisfy (reach.part), as the
// planners say it: immutable, for a planner or an agent to return again
// without allocating (relaxedError picks one).
func (d *Domain[S]) relaxedErrors() [][]*PlanningError {
	errs := make([][]*PlanningError, len(d.Goals))
	for g := range errs {
		for i := range max(len(d.partNames[g]), 1) {
			e := d.newError(Unreachable, GoalID(g), NoAction)
			e.Relaxed, e.Fields = true, d.partFields(GoalID(g), i)
			errs[g] = append(errs[g], e)
		}
	}
	return errs
}

// relaxedError is the error of errs (Domain.relaxedErrors) of goal g
// proven out of reach by the relaxed reachability in r.
func relaxedError(errs [][]*PlanningError, g GoalID, r *reach) *PlanningError {
	if r.part >= 0 && r.part < len(errs[g]) {
		return errs[g][r.part]
	}
	return errs[g][0]
}

func (d *Domain[S]) newError(r Reason, g GoalID, a ActionID) *PlanningError {
	e := d.errorValue(r, g, a)
	return &e
}

// maxKeptErrors is how many distinct errors a planner keeps to return
// again: a role's goals fail in a few ways each.
const maxKeptErrors = 64

// keptErrors are the errors a planner returned, to return again for the
// same failure, at most maxKeptErrors of them, in room made for all at
// once: a failure allocates nothing once it has been seen, nor the first
// time while there is room.
type keptErrors []PlanningError

func newKeptErrors() keptErrors { return make(keptErrors, 0, maxKeptErrors) }

// keep returns the kept error equal to *e, keeping a copy of it first
// when there is none (and room).
func (k *keptErrors) keep(e *PlanningError) *PlanningError {
	for i := range *k {
		if (*k)[i] == *e {
			return &(*k)[i]
		}
	}
	if len(*k) < cap(*k) {
		*k = append(*k, *e) // in place: the pointers returned stay valid
		return &(*k)[len(*k)-1]
	}
	c := new(PlanningError)
	*c = *e
	return c
}

// errorValue is the PlanningError of reason r about goal g and action a
// (either may be none), with their names and the action's precondition.
func (d *Domain[S]) errorValue(r Reason, g GoalID, a ActionID) PlanningError {
	e := PlanningError{Reason: r, Domain: d.Name, Goal: g, Action: a, Step: -1}
	if g != NoGoal {
		e.GoalName = d.GoalName(g)
	}
	if a != NoAction {
		e.ActionName = d.ActionName(a)
		e.Precondition = d.Actions[a].PreText
	}
	return e
}

// StaleError returns the PreconditionStale error of action a, whose
// precondition does not hold when step (its index in the plan) is about
// to run, in a live state or a simulated one.
func (d *Domain[S]) StaleError(a ActionID, step int) *PlanningError {
	e := d.newError(PreconditionStale, NoGoal, a)
	e.Step = step
	return e
}

// UnsatisfiedError returns the GoalUnsatisfiedAfterExecution error of goal
// g, which does not hold after a plan that promised it ran (or was
// simulated) to the end.
func (d *Domain[S]) UnsatisfiedError(g GoalID) *PlanningError {
	return d.newError(GoalUnsatisfiedAfterExecution, g, NoAction)
}

// ErrGuarded is returned (wrapped) by Think for a plan with a guarded
// action when no approver is set.
var ErrGuarded = errors.New("plan contains a guarded action and no approver is set")

// ErrRejected is returned (wrapped) by Think when the approver refuses a
// plan.
var ErrRejected = errors.New("plan rejected by the approver")

// ErrNeedsArguments matches (errors.Is) a *NeedsArgumentsError: an
// action that takes typed arguments was to run without them.
var ErrNeedsArguments = errors.New("action takes arguments")

// ErrUnknownAction is returned by generated code for an ActionID that is
// not one of the role's actions.
var ErrUnknownAction = errors.New("unknown action")

// NeedsArgumentsError is an action that takes typed arguments asked to
// run without them: through Perform, which has none to give, or in a plan
// Think was given no supplier for (see WithArgs). It names the option
// that supplies them; errors.Is matches ErrNeedsArguments.
type NeedsArgumentsError struct {
	Role, Action string
	// Step is the index of the step in the plan Think refused, or -1 for
	// a call of Perform.
	Step int
}

func (e *NeedsArgumentsError) Error() string {
	if e.Step < 0 {
		return "rolegen: " + e.Role + "." + e.Action + " " + e.detail()
	}
	return fmt.Sprintf("rolegen: %s: step %d (%s) %s", e.Role, e.Step, e.Action, e.detail())
}

func (e *NeedsArgumentsError) detail() string {
	option := fmt.Sprintf("runtime.WithArgs(%s%sArgs, f)", e.Role, e.Action)
	if e.Step < 0 {
		return "takes arguments: call PerformJSON, or give Think " + option
	}
	return "takes arguments and Think has no supplier for them: give Think " + option
}

func (e *NeedsArgumentsError) Unwrap() error { return ErrNeedsArguments }

// ArgsError is a typed argument that could not be decoded, or a result
// that could not be encoded, by a generated PerformJSON; or arguments a
// supplier (WithArgs) could not give.
type ArgsError struct {
	Role, Action string
	// Result is true for a result that could not be encoded.
	Result bool
	Err    error
}

func (e *ArgsError) Error() string {
	return fmt.Sprintf("rolegen: %s.%s: %s", e.Role, e.Action, e.detail())
}

func (e *ArgsError) detail() string {
	if e.Result {
		return fmt.Sprintf("result: %v", e.Err)
	}
	return fmt.Sprintf("arguments: %v", e.Err)
}

func (e *ArgsError) Unwrap() error { return e.Err }

// stepError is the error of step i, action a, of a plan Think ran:
// "rolegen: Villager: step 0 (BuySeeds): ...". The runtime's own errors,
// which name the role and action themselves, give only what follows, so
// that neither is said twice.
func (d *Domain[S]) stepError(i int, a ActionID, err error) error {
	msg := err.Error()
	if own, ok := err.(interface{ detail() string }); ok {
		msg = own.detail()
	}
	return &wrapped{msg: fmt.Sprintf("rolegen: %s: step %d (%s): %s", d.Name, i, d.ActionName(a), msg), err: err}
}

// wrapped is an error with its own message that unwraps to err.
type wrapped struct {
	msg string
	err error
}

func (w *wrapped) Error() string { return w.msg }
func (w *wrapped) Unwrap() error { return w.err }

// ErrPostMissed matches (errors.Is) a *PostMissedError: an agent's step
// said it was done, but the live state does not show its post.
var ErrPostMissed = errors.New("step done without its post")

// PostMissedError is the error of a step whose method said it was done
// while the live state, read as it returned, does not show the action's
// post: the planner assumed the post, so the plan's next steps would be
// planned on a state that is not there. An Agent counts the step as
// failed. It compares the fields the post assigns, applied to the state
// read at the start of the tick; for an action that takes ticks, only
// those it sets to a value that does not depend on the state (the rest
// may change over the ticks, as a walk tires); a saturating field
// matches when its live value, clamped into its range, is the post's.
// errors.Is matches ErrPostMissed.
type PostMissedError struct {
	Domain, Action string
	// Post is the action's post, as written.
	Post string
}

func (e *PostMissedError) Error() string {
	return fmt.Sprintf("rolegen: %s.%s said done, but the live state does not show its post %q", e.Domain, e.Action, e.Post)
}

func (e *PostMissedError) Unwrap() error { return ErrPostMissed }
