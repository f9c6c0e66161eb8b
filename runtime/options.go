package runtime

import "math"

// BackwardOption configures a BackwardChainer.
type BackwardOption interface{ applyBackward(*backwardConfig) }

// AStarOption configures an AStar.
type AStarOption interface{ applyAStar(*astarConfig) }

// PlannerOption configures either planner: the options they share, with
// one name and one meaning (WithTrace, WithSearchBudget, WithMaxSteps).
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

// WithSearchBudget bounds the work of one call, at least 1: the actions
// the backward chainer may consider (default DefaultSearchBudget), the
// states A* may expand (default DefaultAStarBudget). A call that needs
// more fails with SearchBudgetExceeded. The work of a call is at most
// proportional to its budget, so the budget bounds its time.
func WithSearchBudget(n int) PlannerOption {
	n = max(n, 1)
	return plannerOption{
		backward: func(c *backwardConfig) { c.budget = n },
		astar:    func(c *astarConfig) { c.budget = n },
	}
}

// WithMaxSteps sets the longest plan the planner returns, at least 1
// (default 64 for both): a call fails with MaxDepthExceeded when every plan
// it can find is longer (A* does not expand states that many steps from
// the start).
func WithMaxSteps(n int) PlannerOption {
	n = max(n, 1)
	return plannerOption{
		backward: func(c *backwardConfig) { c.maxSteps = n },
		astar:    func(c *astarConfig) { c.maxDepth = min(n, math.MaxInt32) },
	}
}
