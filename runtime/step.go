package runtime

import (
	"errors"
	"fmt"
)

// Status is what an action that takes ticks says at each call: still
// running, done (its post now holds, as far as the planner is concerned)
// or failed.
type Status uint8

// Statuses of an action's step. The zero Status is Done, which is what an
// action whose method finishes when it returns always is.
const (
	// Done: the action has finished; the planner's post is assumed to hold.
	Done Status = iota
	// Running: the action goes on; call it again next tick.
	Running
	// Failed: the action cannot finish; the agent replans.
	Failed
)

// String names the status: "done", "running" or "failed".
func (s Status) String() string {
	switch s {
	case Done:
		return "done"
	case Running:
		return "running"
	case Failed:
		return "failed"
	}
	return fmt.Sprintf("status(%d)", uint8(s))
}

// Step is what an action that takes ticks is told at each call of its
// method (a method of the shape func(runtime.Step) runtime.Status): how
// long it has run, and whether it is being interrupted.
type Step struct {
	// Ticks counts the ticks the step ran before this call: 0 on its
	// first call, when the action begins.
	Ticks int
	// Tick is the tick of the agent (of its crowd) at this call.
	Tick uint64
	// Interrupted is set on the last call of a step the agent abandons
	// while it runs: a goal of higher priority took over, or the rest of
	// the plan no longer reaches its goal. The method stops what it
	// started (an animation, a reservation); what it returns is ignored
	// and its post is not assumed.
	Interrupted bool
}

// First reports whether this is the step's first call: the action begins.
func (s Step) First() bool { return s.Ticks == 0 && !s.Interrupted }

// ErrActionFailed matches (errors.Is) the error of an action that takes
// ticks and returned Failed, when a generated Perform ran it to its end
// (for Think, or package llm): Perform calls such a method until it is
// done; in a game loop, an Agent calls it once a tick (PerformStep).
var ErrActionFailed = errors.New("action failed")
