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

	// Expansions counts the actions the planner considered (the backward
	// chainer) or the states whose successors it generated (A*).
	Expansions int
	// Generated counts the successor states A* generated, duplicates
	// included; other planners leave it zero.
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

// Planner is what Think needs of a planner.
type Planner[S comparable] interface {
	Domain() *Domain[S]
	Plan(ctx context.Context, s S) (Plan, error)
}

// Role is what Think needs of a role: the methods rolegen generates.
type Role[S comparable] interface {
	PlanState() S
	Perform(ctx context.Context, a ActionID) error
}
