package runtime

import (
	"context"
	"slices"
)

// Plan is a sequence of actions and the goals it achieves.
type Plan struct {
	Steps []ActionID
	// Goals are the goals the plan promises: unsatisfied before, holding
	// after the last step.
	Goals []GoalID
	// Cost is the sum of the steps' costs.
	Cost float64

	// Expansions counts the nodes of the search whose successors the
	// planner generated: states for A*; for the backward chainer, frames
	// of its greedy pass (a state and the actions waiting for their
	// preconditions) and states of its forward search.
	// WithSearchBudget bounds it.
	Expansions int
	// Generated counts the successors the planner generated, duplicates
	// included.
	Generated int
}

// Reset empties p, keeping its storage for reuse.
func (p *Plan) Reset() {
	p.Steps = p.Steps[:0]
	p.Goals = p.Goals[:0]
	p.Cost = 0
	p.Expansions = 0
	p.Generated = 0
}

// Clone returns a copy of p that shares no storage with it.
func (p Plan) Clone() Plan {
	p.Steps = slices.Clone(p.Steps)
	p.Goals = slices.Clone(p.Goals)
	return p
}

// Planner is what Think needs of a planner. Plan means the same for
// every planner: it plans every goal unsatisfied in s, highest priority
// first, each from the state the previous goal's steps leave and without
// undoing a goal of higher priority that holds, and returns the plan for
// the goals it could plan (Plan.Goals) with the *PlanningError of the
// first goal it could not.
type Planner[S comparable] interface {
	Domain() *Domain[S]
	Plan(ctx context.Context, s S) (Plan, error)
}

// Role is what Think needs of a role: the methods rolegen generates.
type Role[S comparable] interface {
	PlanState() S
	Perform(ctx context.Context, a ActionID) error
}
