package runtime

import (
	"errors"
	"sync/atomic"
	"time"
)

// Stats counts what planners do: their calls, how long they took and how
// much they searched, by planner, goal and outcome (planned, or the
// Reason of the failure), and what agents do in a game loop (see
// WithAgentStats and Agents). Give one to the planners of a domain with
// WithStats (and to Think with WithThinkStats); read it with Each, or
// export it (package otelrolegen reports a Stats as OpenTelemetry
// metrics when the program's metric reader collects).
//
// Recording a call allocates nothing and takes a few atomic additions
// and two readings of the clock; a planner without Stats pays one test of
// a nil pointer a call. A Stats is safe for concurrent use by any number
// of planners (the workers of a frame loop may share one).
type Stats struct {
	domain string
	goals  []string
	// cells are indexed by planner kind, goal (NoGoal first) and
	// outcome.
	cells []statCell
	// agents counts what agents do (agent_stats.go).
	agents agentTotals
}

// statCell aggregates the calls of one planner kind, goal and outcome.
type statCell struct {
	calls, nanos, expansions atomic.Int64
}

// PlannerKind names a planner in Stats.
type PlannerKind uint8

// Planner kinds.
const (
	PlannerBackward PlannerKind = iota // BackwardChainer
	PlannerAStar                       // AStar
	PlannerThink                       // Think: planning and performing
	numPlannerKinds
)

// String names the planner kind: "backward", "astar" or "think".
func (k PlannerKind) String() string {
	switch k {
	case PlannerBackward:
		return "backward"
	case PlannerAStar:
		return "astar"
	case PlannerThink:
		return "think"
	}
	return "planner"
}

// outcomes: planned (0), a failure's Reason (1 … lastReason), or another
// error (the context done, an action's error, a refused plan).
const (
	outcomePlanned = 0
	outcomeOther   = int(lastReason) + 1
	numOutcomes    = outcomeOther + 1
)

// NewStats returns empty statistics for the planners of d.
func NewStats[S comparable](d *Domain[S]) *Stats {
	s := &Stats{domain: d.Name, goals: make([]string, len(d.Goals))}
	for i := range d.Goals {
		s.goals[i] = d.Goals[i].Name
	}
	s.cells = make([]statCell, int(numPlannerKinds)*(len(d.Goals)+1)*numOutcomes)
	return s
}

// WithStats records every call of the planner in s (see Stats).
func WithStats(s *Stats) PlannerOption {
	return plannerOption{
		backward: func(c *backwardConfig) { c.stats = s },
		astar:    func(c *astarConfig) { c.stats = s },
	}
}

// WithThinkStats records every call of Think in s, as planner kind
// PlannerThink: its outcome is the run's (a precondition gone stale, a
// goal that does not hold after the steps, …), its duration the planning
// and the steps. Give the planner its own WithStats to count the planning
// apart.
func WithThinkStats(s *Stats) ThinkOption { return func(c *thinkConfig) { c.stats = s } }

// Domain returns the name of the domain whose planners s counts.
func (s *Stats) Domain() string { return s.domain }

// record counts a call of planner k that began at start, searched
// expansions times and ended with err, for goal g: the goal err names, or
// when err names none (or planned), g.
func (s *Stats) record(k PlannerKind, g GoalID, start time.Time, expansions int, err error) {
	elapsed := time.Since(start)
	outcome := outcomePlanned
	if err != nil {
		outcome = outcomeOther
		var perr *PlanningError
		if pe, ok := err.(*PlanningError); ok {
			perr = pe
		} else if pe, ok := errors.AsType[*PlanningError](err); ok {
			perr = pe
		}
		if perr != nil {
			if perr.Reason > 0 && perr.Reason <= lastReason {
				outcome = int(perr.Reason)
			}
			if perr.Goal != NoGoal {
				g = perr.Goal
			}
		}
	}
	gi := int(g) + 1
	if gi < 0 || gi > len(s.goals) {
		gi = 0
	}
	c := &s.cells[(int(k)*(len(s.goals)+1)+gi)*numOutcomes+outcome]
	c.calls.Add(1)
	c.nanos.Add(int64(elapsed))
	c.expansions.Add(int64(expansions))
}

// recordPlan records a call of a planner's Into method that began at
// start, for goal g (NoGoal: the plan's first goal), once it returned p
// and err.
func (s *Stats) recordPlan(k PlannerKind, g GoalID, start time.Time, p *Plan, err error) {
	if g == NoGoal && len(p.Goals) > 0 {
		g = p.Goals[0]
	}
	s.record(k, g, start, p.Expansions, err)
}

// firstOf is the first of goals, or NoGoal.
func firstOf(goals []GoalID) GoalID {
	if len(goals) > 0 {
		return goals[0]
	}
	return NoGoal
}

// StatsRow is what Stats counted for one planner kind, goal and outcome.
type StatsRow struct {
	Planner PlannerKind
	// Goal is the goal planned (the first of a plan for several), or the
	// goal that failed; NoGoal when there was none (every goal held, or an
	// error that names no goal). GoalName is its name ("" for NoGoal).
	Goal     GoalID
	GoalName string
	// Failed: the call returned an error; Reason is its PlanningError's
	// reason (0 for another error: the context done, an action's error,
	// a plan refused for want of an approver or of arguments).
	Failed bool
	Reason Reason
	// Calls counts the calls, Duration sums their durations and
	// Expansions their Plan.Expansions.
	Calls      int64
	Duration   time.Duration
	Expansions int64
}

// Outcome names the row's outcome: "planned", the reason of a failure
// ("unreachable", "search budget exceeded", …), or "error".
func (r StatsRow) Outcome() string {
	switch {
	case !r.Failed:
		return "planned"
	case r.Reason != 0:
		return r.Reason.String()
	}
	return "error"
}

// Each calls f with every row of s that counted a call, in the order of
// planner kind, goal (NoGoal first) and outcome. It allocates nothing;
// rows counted while it runs may or may not be seen, each whole or in
// part.
func (s *Stats) Each(f func(StatsRow)) {
	per := (len(s.goals) + 1) * numOutcomes
	for i := range s.cells {
		c := &s.cells[i]
		calls := c.calls.Load()
		if calls == 0 {
			continue
		}
		k, rest := i/per, i%per
		gi, outcome := rest/numOutcomes, rest%numOutcomes
		row := StatsRow{
			Planner:    PlannerKind(k),
			Goal:       GoalID(gi - 1),
			Failed:     outcome != outcomePlanned,
			Calls:      calls,
			Duration:   time.Duration(c.nanos.Load()),
			Expansions: c.expansions.Load(),
		}
		if gi > 0 {
			row.GoalName = s.goals[gi-1]
		}
		if outcome != outcomePlanned && outcome != outcomeOther {
			row.Reason = Reason(outcome)
		}
		f(row)
	}
}
