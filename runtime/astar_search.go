package runtime

import (
	"context"
	"fmt"
)

// Search is an A* search in progress, as a domain's generated search
// loop (Domain.Search) runs it: the loop takes each state to expand from
// Next and gives each of its successors to Add. Which state comes next,
// the estimates, the limits and the plan stay the planner's: the loop
// only makes the successors, with each action's precondition, effects
// and hash inline, where the planner would call a function value for
// each of them. A Search belongs to its planner and is valid only during
// the call of Domain.Search it is passed to.
type Search[S comparable] struct {
	a   *AStar[S]
	ctx context.Context
	// node is the node being expanded, g its cost so far, depth its
	// successors' steps from the start.
	node  int32
	g     float64
	depth int32
	// fields are the fields whose values Add takes (Fields); bound,
	// when set, is the estimate it reads from them.
	fields [2]FieldID
	bound  *partBound
	// onField: the goal holds exactly when the value of fields[0] is in
	// [lo, hi] (its one part compares that field with a constant, and
	// the comparison of floats says what the condition says).
	onField bool
	lo, hi  float64
	// goal is the node where the goals hold, once found; err the error
	// that ended the search.
	goal int32
	err  error
}

// start readies x for the planner's search of ctx: the root is on the
// open list.
func (x *Search[S]) start(ctx context.Context) {
	a := x.a
	x.ctx, x.goal, x.err = ctx, -1, nil
	x.fields, x.bound, x.onField = [2]FieldID{-1, -1}, nil, false
	if a.single != nil && a.singleField >= 0 && a.single.bounds[0].supply == nil && len(a.single.places) == 0 {
		// The estimate of the search's one goal is that of its one part,
		// stepped: read from its field and, when one action serves it by
		// using up another, that field.
		x.bound = &a.single.bounds[0]
		x.fields[0] = a.singleField
		if u := x.bound.use; u != nil {
			x.fields[1] = u.field
		}
		x.onField, x.lo, x.hi = x.bound.exact, x.bound.lo, x.bound.hi
	}
}

// end returns the node where the goals hold, or the error that ended the
// search, and lets go of the call's context.
func (x *Search[S]) end() (int32, error) {
	x.ctx = nil
	if x.err != nil {
		return -1, x.err
	}
	if x.goal < 0 {
		panic(fmt.Sprintf("runtime: %s's Domain.Search returned before Next or Add ended the search", x.a.d.Name))
	}
	return x.goal, nil
}

// Fields returns the fields whose values Add takes with each state, as
// the domain's Number reads them: -1 for none (Add then takes any value).
func (x *Search[S]) Fields() (FieldID, FieldID) { return x.fields[0], x.fields[1] }

// Next returns the next state to expand, and false when the search is
// over: the goals hold in the state it took, the open list ran out, or a
// limit or the context ended it.
func (x *Search[S]) Next() (S, bool) {
	if !x.next() {
		var zero S
		return zero, false
	}
	return x.a.states[x.node], true
}

// next takes the best open node that is not stale: true when it is to be
// expanded (x.node, x.g, x.depth), false when the search is over.
func (x *Search[S]) next() bool {
	a := x.a
	for a.open.len() > 0 {
		e := a.open.pop()
		n := e.node
		nd := &a.nodes[n]
		if !nd.open || !e.hasG(nd.g) {
			continue // stale: the node was reopened with a cheaper path, or closed
		}
		nd.open = false
		if nd.goalKnown && nd.goal || !nd.goalKnown && a.satisfied(a.states[n]) {
			x.goal = n
			return false
		}
		if nd.depth >= a.depthLimit {
			a.depthCut = true
			continue
		}
		if err := a.count(x.ctx, n); err != nil {
			x.err = err
			return false
		}
		x.node, x.g, x.depth = n, nd.g, nd.depth+1
		return true
	}
	x.err = a.exhausted()
	return false
}

// stepCost is the cost so far after act, whose cost depends on the state
// being expanded, and false when that cost failed (x.err). Out of line, so
// that the registers of Add's common path do not make room for the call.
//
//go:noinline
func (x *Search[S]) stepCost(act ActionID) (float64, bool) {
	c, err := x.a.d.StepCost(act, x.a.states[x.node])
	if err != nil {
		x.err = err
		return 0, false
	}
	return x.g + c, true
}

// Add records that action act leads from the state Next returned to key
// *k (the state after its effects with Domain.Key applied), whose
// Domain.Hash is hash; v0 and v1 are the values of k's fields Fields
// names. It reports false when the search must stop (a limit, or a cost
// that failed), and the loop must then return.
func (x *Search[S]) Add(k *S, hash uint64, act ActionID, v0, v1 float64) bool {
	a := x.a
	a.generated++
	g := x.g + a.costs[act]
	if a.costOf && a.ops[act].costOf != nil {
		var ok bool
		if g, ok = x.stepCost(act); !ok {
			return false
		}
	}
	h := fold(hash)
	if a.table.room <= 0 { // a.table.reserve(), which is too large to inline
		a.table.grow()
	}
	j, slot := a.find(k, h)
	if j >= 0 {
		a.relax(j, x.node, act, g, x.depth)
		return true
	}
	if len(a.keeps) > 0 && a.breaks(k) {
		return true // a state the search keeps out (the table holds none)
	}
	if len(a.nodes) >= a.maxStates {
		x.err = a.tooMany(x.depth)
		return false
	}
	n := int32(len(a.nodes))
	a.states = append(a.states, *k)
	nd := astarNode{g: g, parent: x.node, action: act, depth: x.depth}
	if x.bound != nil {
		nd.goalKnown = true
		if x.onField {
			nd.goal = x.lo <= v0 && v0 <= x.hi
		} else {
			nd.goal = a.conds[0](a.states[n])
		}
		if !nd.goal {
			if x.bound.use != nil { // as stepsAt, without the calls of Number
				nd.h = x.bound.stepsUsing(v0, v1)
			} else {
				nd.h = x.bound.outside(min(x.bound.reset, x.bound.stepsIn(v0)), v0) // as steps, inline
			}
		}
	} else {
		a.estimateNode(&nd, &a.states[n])
	}
	// As place, which a call would cost more than.
	if nd.open = g+nd.h < a.below; nd.open { // false for +Inf h too (never NaN)
		a.open.push(entry(g+a.weight*nd.h, g, n))
	}
	a.nodes = append(a.nodes, nd)
	a.table.insert(slot, h, n)
	return true
}
