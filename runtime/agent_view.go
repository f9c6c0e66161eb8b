package runtime

import (
	"fmt"
	"strconv"
	"strings"
)

// Replan is why an agent planned: each plan an agent makes has one, and
// an agent plans only for one of these.
type Replan uint8

// Reasons to plan.
const (
	ReplanNone Replan = iota
	// ReplanNoPlan: the agent had no plan and a goal is unsatisfied: its
	// first plan, or a goal that stopped holding while it was idle.
	ReplanNoPlan
	// ReplanDone: the plan's last step finished, or its goal already
	// holds in the live state.
	ReplanDone
	// ReplanStepFailed: a step returned Failed or an error.
	ReplanStepFailed
	// ReplanStale: the precondition of the next step does not hold in the
	// live state.
	ReplanStale
	// ReplanBroken: the rest of the plan, replayed from the live state
	// with the generated effects, no longer reaches its goal.
	ReplanBroken
	// ReplanInterrupted: a goal of higher priority than the plan's stopped
	// holding.
	ReplanInterrupted
	// ReplanRetry: a goal that could not be planned is due again: its
	// backoff ended.
	ReplanRetry
	// ReplanInterval: the plan is older than the interval the game set
	// (WithReplanInterval).
	ReplanInterval
	// ReplanWoken: a goal that could not be planned is planned again
	// before its backoff ended, as a condition its planning depends on
	// says something else than when it failed (or the plan it refused
	// would no longer undo the goal above it).
	ReplanWoken
	numReplans
)

var replanNames = [numReplans]string{
	ReplanNone:        "none",
	ReplanNoPlan:      "no plan",
	ReplanDone:        "plan done",
	ReplanStepFailed:  "step failed",
	ReplanStale:       "precondition stale",
	ReplanBroken:      "plan broken",
	ReplanInterrupted: "interrupted",
	ReplanRetry:       "retry",
	ReplanInterval:    "interval",
	ReplanWoken:       "woken",
}

// String names the reason: "no plan", "plan done", "step failed",
// "precondition stale", "plan broken", "interrupted", "retry", "interval",
// "woken" (or "none").
func (r Replan) String() string {
	if r < numReplans {
		return replanNames[r]
	}
	return fmt.Sprintf("replan(%d)", uint8(r))
}

// Replans lists the reasons to plan, ReplanNone aside, in their order.
func Replans() []Replan {
	out := make([]Replan, 0, numReplans-1)
	for r := ReplanNoPlan; r < numReplans; r++ {
		out = append(out, r)
	}
	return out
}

// AgentEvent is what just happened to an agent, for an observer.
type AgentEvent uint8

// Events an observer sees.
const (
	// EventPlanned: the agent adopted a new plan (Reason says why).
	EventPlanned AgentEvent = iota + 1
	// EventPlanFailed: Goal could not be planned (Err); it backs off
	// until RetryAt, or until a condition its planning depends on changes.
	EventPlanFailed
	// EventStepDone: the step finished.
	EventStepDone
	// EventStepFailed: the step failed (Err, when it returned one, or a
	// PostMissedError when it said done without its post); the goal backs
	// off until RetryAt when RetryAt is not 0.
	EventStepFailed
	// EventInterrupted: the running step was abandoned, and its method
	// told with Step.Interrupted.
	EventInterrupted
	// EventDropped: the plan was dropped (Reason says why), before any
	// new plan.
	EventDropped
)

// String names the event ("none" for the 0 of Agent.View).
func (e AgentEvent) String() string {
	switch e {
	case 0:
		return "none"
	case EventPlanned:
		return "planned"
	case EventPlanFailed:
		return "plan failed"
	case EventStepDone:
		return "step done"
	case EventStepFailed:
		return "step failed"
	case EventInterrupted:
		return "interrupted"
	case EventDropped:
		return "dropped"
	}
	return fmt.Sprintf("event(%d)", uint8(e))
}

// AgentView is what an agent is doing: its goal, plan, step and status,
// and why it last planned. Agent.View returns it; an observer
// (WithAgentObserver) gets it with each event.
type AgentView struct {
	// ID is the agent's: its index in its crowd (see Crowd.Add), or what
	// WithAgentID gave.
	ID int
	// Tick is the agent's tick.
	Tick uint64
	// Event is what just happened (0 from Agent.View).
	Event AgentEvent

	// Goal is the goal the plan serves, NoGoal without a plan.
	Goal GoalID
	// Plan is the plan's steps: the agent's own storage, valid during the
	// observer's call (copy it to keep it).
	Plan []ActionID
	// Step is the index in Plan of the current step, and Action that
	// step's action (NoAction without a plan).
	Step   int
	Action ActionID
	// Status is what the last call of a step's method returned: Running
	// while the current step runs; once a step ends, Done or Failed until
	// the next step's first call. Ticks is how many ticks the current (or
	// last) step has run.
	Status Status
	Ticks  int
	// Reason is why the agent made its plan, or, without one, why it
	// dropped its last.
	Reason Replan
	// Err is the error of a step that failed or a goal that could not be
	// planned, for EventStepFailed and EventPlanFailed.
	Err error
	// RetryAt, for EventPlanFailed, is the tick from which Goal is
	// planned again if no condition its planning depends on changes first;
	// for EventStepFailed, the same when the goal backs off (a step of its
	// plans failed before, and it has not held since), else 0; from View,
	// the same for Waiting, 0 when it does not back off.
	RetryAt uint64
	// Waiting, from View when the agent has no plan, is the goal of
	// highest priority that does not hold in the live state, which View
	// reads (NoGoal when every goal holds): one that backs off (RetryAt
	// says until when, Err why it could not be planned), or that the
	// agent plans at its next tick, or when its crowd grants it a call.
	Waiting GoalID
}

// FormatView says what v tells in one line, with the names of d's goals
// and actions (v's IDs index them): the agent and tick, the event, the
// goal, the current step and what it is doing, the plan with that step
// marked, why the agent planned, and an error with when it is retried:
//
//	agent 0 tick 4: goal Rich, step 3/10 GoToHive running for 2 ticks: [Nap Nap *GoToHive LightSmoker …] (planned for no plan)
//	agent 0 tick 7: planned (interrupted): goal Calm, step 1/1 Retreat: [*Retreat]
//	agent 0 tick 9: plan failed: goal Armed: …: unreachable: …, retried at tick 13
func (d *Domain[S]) FormatView(v AgentView) string {
	var b strings.Builder
	fmt.Fprintf(&b, "agent %d tick %d: ", v.ID, v.Tick)
	if v.Event != 0 {
		b.WriteString(v.Event.String())
		if v.Event == EventPlanned || v.Event == EventDropped {
			fmt.Fprintf(&b, " (%s)", v.Reason)
		}
		b.WriteString(": ")
	}
	switch {
	case v.Goal == NoGoal:
		fmt.Fprintf(&b, "no plan (last: %s)", v.Reason)
		switch {
		case v.Waiting == NoGoal:
		case v.RetryAt > v.Tick:
			fmt.Fprintf(&b, ": goal %s backs off until tick %d", d.GoalName(v.Waiting), v.RetryAt)
		default:
			fmt.Fprintf(&b, ": goal %s to plan", d.GoalName(v.Waiting))
		}
	case v.Action == NoAction || v.Step >= len(v.Plan):
		fmt.Fprintf(&b, "goal %s", d.GoalName(v.Goal))
	default:
		fmt.Fprintf(&b, "goal %s, step %d/%d %s", d.GoalName(v.Goal), v.Step+1, len(v.Plan), d.ActionName(v.Action))
		switch {
		case v.Event == EventPlanned:
		case v.Event == EventInterrupted:
			b.WriteString(" after " + ticks(v.Ticks))
		case v.Event == EventStepDone || v.Event == EventStepFailed:
			fmt.Fprintf(&b, " %s after %s", v.Status, ticks(v.Ticks))
		case v.Status == Running:
			b.WriteString(" running for " + ticks(v.Ticks))
		default:
			b.WriteString(" next") // the step before it ended; this one has not begun
		}
	}
	if len(v.Plan) > 0 && v.Goal != NoGoal {
		b.WriteString(": [")
		for i, a := range v.Plan {
			if i > 0 {
				b.WriteByte(' ')
			}
			if i == v.Step && v.Action != NoAction {
				b.WriteByte('*')
			}
			b.WriteString(d.ActionName(a))
		}
		b.WriteByte(']')
		if v.Event == 0 {
			fmt.Fprintf(&b, " (planned for %s)", v.Reason)
		}
	}
	if v.Err != nil {
		b.WriteString(": " + v.Err.Error())
	}
	if v.Event == EventPlanFailed || v.Event == EventStepFailed && v.RetryAt > 0 {
		b.WriteString(", retried at tick " + strconv.FormatUint(v.RetryAt, 10))
	}
	return b.String()
}

// ticks is n ticks, in words.
func ticks(n int) string {
	if n == 1 {
		return "1 tick"
	}
	return strconv.Itoa(n) + " ticks"
}
