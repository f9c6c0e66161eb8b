package runtime

import (
	"math"
	"time"
)

// BackwardOption configures a BackwardChainer.
type BackwardOption interface{ applyBackward(*backwardConfig) }

// AStarOption configures an AStar.
type AStarOption interface{ applyAStar(*astarConfig) }

// PlannerOption configures either planner: the options they share, with
// one name and one meaning (WithTrace, WithSearchBudget, WithTimeBudget,
// WithMaxSteps, WithStats).
type PlannerOption interface {
	BackwardOption
	AStarOption
}

type backwardFunc func(*backwardConfig)

func (f backwardFunc) applyBackward(c *backwardConfig) { f(c) }

type astarFunc func(*astarConfig)

func (f astarFunc) applyAStar(c *astarConfig) { f(c) }

// plannerOption is an option both planners take.
type plannerOption struct {
	backward func(*backwardConfig)
	astar    func(*astarConfig)
}

func (o plannerOption) applyBackward(c *backwardConfig) { o.backward(c) }
func (o plannerOption) applyAStar(c *astarConfig)       { o.astar(c) }

// WithTrace records in t, at each call, why the planner chose its plan:
// for the backward chainer, the candidates and helpers it tried, skipped
// and rejected; for A*, every state it expanded with its cost so far and
// estimate, then the steps. A trace costs time and grows with the search:
// use it to debug, not in a hot loop.
func WithTrace(t *Trace) PlannerOption {
	return plannerOption{
		backward: func(c *backwardConfig) { c.trace = t },
		astar:    func(c *astarConfig) { c.trace = t },
	}
}

// Defaults of the options both planners take.
const (
	// DefaultSearchBudget is how many expansions one call may make
	// (WithSearchBudget): sized for a frame loop, so that a call that
	// cannot succeed, and that the annotations do not prove hopeless at
	// once, still ends within a few milliseconds. A puzzle that needs a
	// longer search sets its own.
	DefaultSearchBudget = 10_000
	// DefaultMaxSteps is the longest plan a planner returns
	// (WithMaxSteps). Package llm's own default is shorter (ten steps),
	// as a model's plan that long is more likely wrong than needed.
	DefaultMaxSteps = 64
)

// WithSearchBudget bounds the work of one call to n expansions, at
// least 1 (default DefaultSearchBudget). An expansion is one node of a
// search whose successors the planner generated: a state for A*; for the
// backward chainer, a frame of its greedy pass (a state and the actions
// waiting for their preconditions) or a state of its forward search;
// Plan.Expansions counts them. A call that needs
// more fails with SearchBudgetExceeded. The budget is the call's, not a
// goal's: Plan shares it among the goals it plans. Each expansion costs at
// most time proportional to the domain's actions, so the budget bounds a
// call's time.
func WithSearchBudget(n int) PlannerOption {
	n = max(n, 1)
	return plannerOption{
		backward: func(c *backwardConfig) { c.budget = n },
		astar:    func(c *astarConfig) { c.budget = n },
	}
}

// WithTimeBudget bounds the time of one call to d, when d > 0 (by
// default a call has no time budget: its time is bounded by its work,
// WithSearchBudget). The backward chainer finds a first plan, then
// spends the rest of its budget on a cheaper one: past d it returns the
// cheapest plan it has, and fails with TimeBudgetExceeded only when it
// has none. A*, whose plan is the end of its search, fails. The planners
// read the clock every 16 expansions, so a call ends within about 16
// expansions of d (on the written roles in bench, the dearest
// expansions take a few microseconds), and whatever the machine takes
// from it meanwhile (a preemption, a collection's assist). A call the
// clock ends is no longer deterministic: how far it got depends on the
// machine and its load; a call that ends before d is the same call as
// without the option. The budget is the call's: Plan shares it among
// the goals it plans. An agent backs off a goal whose call ran out of
// time, as it does any goal that failed.
func WithTimeBudget(d time.Duration) PlannerOption {
	d = max(d, 0)
	return plannerOption{
		backward: func(c *backwardConfig) { c.timeBudget = d },
		astar:    func(c *astarConfig) { c.timeBudget = d },
	}
}

// WithMaxSteps sets the longest plan a call returns, at least 1 (default
// DefaultMaxSteps): a call fails with MaxStepsExceeded when every plan it
// can find is longer. Plan counts the steps of all its goals together.
func WithMaxSteps(n int) PlannerOption {
	n = min(max(n, 1), math.MaxInt32)
	return plannerOption{
		backward: func(c *backwardConfig) { c.maxSteps = n },
		astar:    func(c *astarConfig) { c.maxSteps = n },
	}
}
