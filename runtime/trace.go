package runtime

import (
	"fmt"
	"strconv"
	"strings"
)

// TraceKind is what a TraceEvent records.
type TraceKind uint8

// Trace event kinds.
const (
	// TraceGoal: planning starts for an unsatisfied goal.
	TraceGoal TraceKind = iota + 1
	// TraceTry: an action is considered (a goal's candidate at depth 0, a
	// helper deeper).
	TraceTry
	// TraceSkip: an action is passed over without trying it (Detail says
	// why).
	TraceSkip
	// TraceChain: the action's precondition fails; helpers are chained.
	TraceChain
	// TraceStep: the action becomes step Step of the plan.
	TraceStep
	// TraceReject: the action cannot be used (Detail says why).
	TraceReject
	// TraceExpand: A* expands a node (Step is the node's depth; Detail
	// its cost so far).
	TraceExpand
	// TraceGoalDone: the goal holds.
	TraceGoalDone
	// TraceGoalFailed: the goal cannot be planned (Detail says why).
	TraceGoalFailed
	// TraceSearch: the backward chainer's greedy pass and its leads found
	// no plan, and its forward search over states looked further (Detail
	// says what it found).
	TraceSearch
	// TraceImprove: the backward chainer's greedy pass, or a lead, found
	// a plan, and it looked for a cheaper one: the greedy pass with other
	// first choices and after leads, then the forward search; Detail
	// says what each found.
	TraceImprove
	// TraceDrop: the backward chainer's plan reaches its goal without
	// Action, which it takes out (Detail says which later steps went
	// with it).
	TraceDrop
	// TraceLead: the backward chainer found a cheaper plan, or its first,
	// by taking Action first, before its greedy pass (Detail says how
	// many times, and the plan).
	TraceLead
	// TraceKeep: the backward chainer takes Action's step with helpers
	// that spent what it serves, for nothing else establishes its
	// precondition and the runs its batch was established for make up
	// for them (Detail says so).
	TraceKeep
	// TraceLast: the backward chainer's greedy pass tries Action after
	// the frame's other choices (Detail says why).
	TraceLast
)

// TraceEvent is one decision of a planner.
type TraceEvent struct {
	Kind   TraceKind
	Goal   string
	Action string
	Depth  int
	Step   int
	Detail string
}

// Trace records why a planner chose its plan: every candidate it tried,
// skipped or rejected, and why. Pass one to a planner's WithTrace option;
// each call to Plan starts it afresh. Tracing costs time and allocations:
// leave it off in a hot loop.
type Trace struct {
	Events []TraceEvent
}

func (t *Trace) reset() { t.Events = t.Events[:0] }

func (t *Trace) add(e TraceEvent) { t.Events = append(t.Events, e) }

// String tells the trace as indented lines, one per event.
func (t *Trace) String() string {
	var b strings.Builder
	for _, e := range t.Events {
		b.WriteString(strings.Repeat("  ", e.Depth))
		switch e.Kind {
		case TraceGoal:
			fmt.Fprintf(&b, "goal %s: %s does not hold", e.Goal, e.Detail)
		case TraceTry:
			fmt.Fprintf(&b, "try %s", e.Action)
		case TraceSkip:
			fmt.Fprintf(&b, "skip %s: %s", e.Action, e.Detail)
		case TraceChain:
			fmt.Fprintf(&b, "%s: precondition %q fails, chaining helpers", e.Action, e.Detail)
		case TraceStep:
			fmt.Fprintf(&b, "step %d: %s", e.Step, e.Action)
		case TraceReject:
			fmt.Fprintf(&b, "reject %s: %s", e.Action, e.Detail)
		case TraceExpand:
			fmt.Fprintf(&b, "expand depth %d, cost %s", e.Step, e.Detail)
		case TraceGoalDone:
			fmt.Fprintf(&b, "goal %s holds", e.Goal)
		case TraceGoalFailed:
			fmt.Fprintf(&b, "goal %s fails: %s", e.Goal, e.Detail)
		case TraceSearch:
			fmt.Fprintf(&b, "goal %s: no greedy plan; search forward: %s", e.Goal, e.Detail)
		case TraceImprove:
			fmt.Fprintf(&b, "goal %s: search for a cheaper plan: %s", e.Goal, e.Detail)
		case TraceDrop:
			fmt.Fprintf(&b, "drop %s: %s", e.Action, e.Detail)
		case TraceLead:
			fmt.Fprintf(&b, "goal %s: %s first, %s", e.Goal, e.Action, e.Detail)
		case TraceKeep:
			fmt.Fprintf(&b, "keep %s: %s", e.Action, e.Detail)
		case TraceLast:
			fmt.Fprintf(&b, "last %s: %s", e.Action, e.Detail)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// counted is n and the noun, plural unless n is 1: "1 state", "2 states".
func counted(n int, noun string) string {
	s := strconv.Itoa(n) + " " + noun
	if n != 1 {
		s += "s"
	}
	return s
}

// timesWord is how many times, in words where they are short: "twice",
// "4 times".
func timesWord(w float64) string {
	if w == 2 {
		return "twice"
	}
	return strconv.FormatFloat(w, 'g', -1, 64) + " times"
}
