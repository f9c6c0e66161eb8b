// Package corrupt makes good plans wrong the ways a language model gets
// them wrong — a step dropped, two steps swapped, a step repeated, a step
// replaced by a wrong action — and finds, by exhaustive search, the
// cheapest repair that only inserts steps: the reference the repair
// benchmark holds rolegen's repair (llm.WithRepair) to.
package corrupt

import (
	"container/heap"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/rolegen/rolegen/runtime"
)

// Kind is a way of corrupting a plan.
type Kind uint8

// The corruptions.
const (
	Drop Kind = iota
	Swap
	Repeat
	Replace
)

var kindNames = [...]string{Drop: "drop", Swap: "swap", Repeat: "repeat", Replace: "replace"}

func (k Kind) String() string { return kindNames[k] }

// Corruption is a plan made wrong: its kind, the positions involved (I;
// and J for a swap), the wrong action of a replacement, and the steps.
type Corruption struct {
	Kind   Kind
	I, J   int
	Action runtime.ActionID
	Steps  []runtime.ActionID
}

func (c Corruption) String() string {
	switch c.Kind {
	case Swap:
		return fmt.Sprintf("swap %d and %d", c.I, c.J)
	case Replace:
		return fmt.Sprintf("replace %d by action %d", c.I, c.Action)
	}
	return fmt.Sprintf("%s %d", c.Kind, c.I)
}

// All returns every corruption of plan, in a fixed order: each step
// dropped (unless the plan would be empty), each pair of different
// actions swapped, each step repeated right after itself, and each step
// replaced by each other action of the domain's n.
func All(plan []runtime.ActionID, n int) []Corruption {
	var out []Corruption
	edit := func(k Kind, i, j int, a runtime.ActionID, steps []runtime.ActionID) {
		out = append(out, Corruption{Kind: k, I: i, J: j, Action: a, Steps: steps})
	}
	for i := range plan {
		if len(plan) > 1 {
			edit(Drop, i, i, runtime.NoAction, slices.Delete(slices.Clone(plan), i, i+1))
		}
	}
	for i := range plan {
		for j := i + 1; j < len(plan); j++ {
			if plan[i] != plan[j] {
				s := slices.Clone(plan)
				s[i], s[j] = s[j], s[i]
				edit(Swap, i, j, runtime.NoAction, s)
			}
		}
	}
	for i := range plan {
		edit(Repeat, i, i, runtime.NoAction, slices.Insert(slices.Clone(plan), i+1, plan[i]))
	}
	for i := range plan {
		for a := range runtime.ActionID(n) {
			if a != plan[i] {
				s := slices.Clone(plan)
				s[i] = a
				edit(Replace, i, i, a, s)
			}
		}
	}
	return out
}

// Sample returns at most per corruptions of each kind from cs, chosen by
// a generator seeded with seed (the same every run), in cs's order.
func Sample(cs []Corruption, per int, seed uint64) []Corruption {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var out []Corruption
	for k := Drop; k <= Replace; k++ {
		var idx []int
		for i, c := range cs {
			if c.Kind == k {
				idx = append(idx, i)
			}
		}
		r.Shuffle(len(idx), func(a, b int) { idx[a], idx[b] = idx[b], idx[a] })
		idx = idx[:min(per, len(idx))]
		slices.Sort(idx)
		for _, i := range idx {
			out = append(out, cs[i])
		}
	}
	return out
}

// Verifies reports whether steps run from start (every precondition
// holding) and leave every goal holding.
func Verifies[S comparable](d *runtime.Domain[S], start S, steps []runtime.ActionID, goals []runtime.GoalID) bool {
	end, err := d.Simulate(start, steps)
	return err == nil && d.FirstUnsatisfied(goals, end) == runtime.NoGoal
}

// Reference is the cheapest repair of a plan that keeps its steps in
// order and only inserts others: Steps, of Cost on the domain; Found is
// false when none exists, and Exhausted says the search stopped before it
// knew (at its limit of states, or with a cheapest repair longer than the
// step limit).
type Reference struct {
	Found, Exhausted bool
	Cost             float64
	Steps            []runtime.ActionID
	States           int
}

// CheapestInsertion searches, by A* over (steps of plan taken, state,
// steps so far), for the cheapest plan of at most maxSteps steps that
// takes the steps of plan in order, inserts actions for which insertable
// holds anywhere, verifies from start and leaves goals holding. Its
// estimate is the largest of the least cost of the plan's steps not taken
// yet (Action.Cost, a lower bound), the domain's lower bound of the goals
// and of the precondition of every step not taken yet
// (Domain.LowerBound): each never overestimates and is consistent, so
// the first repair found is a cheapest one, and a precondition no action
// can make hold prunes the search. A search of more than limit states is
// Exhausted.
func CheapestInsertion[S comparable](d *runtime.Domain[S], start S, plan []runtime.ActionID, goals []runtime.GoalID,
	insertable []bool, maxSteps, limit int) Reference {
	type key struct {
		taken, used int
		s           S
	}
	rest := make([]float64, len(plan)+1) // rest[k]: least cost of plan[k:]
	for k := len(plan) - 1; k >= 0; k-- {
		rest[k] = rest[k+1] + d.Actions[plan[k]].Cost
	}
	pre, pd := preconditions(d)
	estimate := func(taken int, s S) float64 {
		h := rest[taken]
		for _, g := range goals {
			h = max(h, d.LowerBound(g, s))
		}
		// Each step of the plan still to take needs its precondition to
		// hold first: a precondition no action can make hold from here
		// is a dead end, however many steps are inserted.
		for _, a := range plan[taken:] {
			if g := pre[a]; g != runtime.NoGoal {
				h = max(h, pd.LowerBound(g, s))
			}
		}
		return h
	}
	best := map[key]float64{}
	closed := map[key]bool{}
	var nodes []node[S]
	q := &queue{}
	push := func(n node[S]) {
		k := key{n.taken, n.used, n.s}
		if c, ok := best[k]; ok && c <= n.cost || closed[k] || n.used+len(plan)-n.taken > maxSteps {
			return
		}
		h := estimate(n.taken, n.s)
		if math.IsInf(h, 1) {
			return
		}
		best[k] = n.cost
		nodes = append(nodes, n)
		heap.Push(q, entry{f: n.cost + h, cost: n.cost, id: len(nodes) - 1})
	}
	push(node[S]{s: start, parent: -1, action: runtime.NoAction})
	for q.Len() > 0 {
		if len(nodes) > limit {
			return Reference{Exhausted: true, States: len(nodes)}
		}
		e := heap.Pop(q).(entry)
		n := nodes[e.id]
		k := key{n.taken, n.used, n.s}
		if closed[k] || best[k] < n.cost {
			continue
		}
		closed[k] = true
		if n.taken == len(plan) && d.FirstUnsatisfied(goals, n.s) == runtime.NoGoal {
			return Reference{Found: true, Cost: n.cost, Steps: path(nodes, e.id), States: len(nodes)}
		}
		step := func(a runtime.ActionID, taken int) {
			if !d.Applicable(a, n.s) {
				return
			}
			c, err := d.StepCost(a, n.s)
			if err != nil {
				return
			}
			push(node[S]{s: d.Apply(a, n.s), taken: taken, used: n.used + 1, cost: n.cost + c, parent: e.id, action: a})
		}
		if n.taken < len(plan) {
			step(plan[n.taken], n.taken+1)
		}
		for a := range d.Actions {
			if insertable[a] {
				step(runtime.ActionID(a), n.taken)
			}
		}
	}
	return Reference{States: len(nodes)}
}

// preconditions returns d with one more goal per action precondition, and
// the goal of each action's (NoGoal for none), made once per domain.
func preconditions[S comparable](d *runtime.Domain[S]) ([]runtime.GoalID, *runtime.Domain[S]) {
	type made struct {
		pre []runtime.GoalID
		d   *runtime.Domain[S]
	}
	if m, ok := preDomains.Load(d); ok {
		return m.(made).pre, m.(made).d
	}
	goals := slices.Clone(d.Goals)
	pre := make([]runtime.GoalID, len(d.Actions))
	for i, a := range d.Actions {
		pre[i] = runtime.NoGoal
		if a.Pre != nil {
			pre[i] = runtime.GoalID(len(goals))
			goals = append(goals, runtime.Goal[S]{Name: "pre " + a.Name, Cond: a.Pre, CondText: a.PreText,
				Reads: a.PreReads, Parts: a.PreParts, Unmet: a.PreUnmet})
		}
	}
	pd := runtime.NewDomain(runtime.Domain[S]{Name: d.Name, Fields: d.Fields, Actions: d.Actions, Goals: goals,
		Enabled: d.Enabled, Number: d.Number, Hash: d.Hash, Key: d.Key})
	preDomains.Store(d, made{pre, pd})
	return pre, pd
}

var preDomains sync.Map

type node[S any] struct {
	s           S
	taken, used int
	cost        float64
	parent      int
	action      runtime.ActionID
}

func path[S any](nodes []node[S], id int) []runtime.ActionID {
	var out []runtime.ActionID
	for ; nodes[id].parent >= 0; id = nodes[id].parent {
		out = append(out, nodes[id].action)
	}
	slices.Reverse(out)
	return out
}

// entry is a node in the queue: least f first, then the deeper (larger
// cost so far), then first found.
type entry struct {
	f, cost float64
	id      int
}

type queue []entry

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	if q[i].f != q[j].f {
		return q[i].f < q[j].f
	}
	if q[i].cost != q[j].cost {
		return q[i].cost > q[j].cost
	}
	return q[i].id < q[j].id
}
func (q queue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)   { *q = append(*q, x.(entry)) }
func (q *queue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}
