package runtime

import (
	"hash/maphash"
	"math"

	"github.com/rolegen/rolegen/runtime/internal/fmix"
)

// complete is the backward chainer's complete pass: a best-first search
// over situations, cheapest first by the cost of the steps taken plus what
// the rest must cost at least (the cost of the actions waiting, each of
// which still has to run, or the goal's lower bound in the state,
// Domain.LowerBound, whichever is more). Neither overestimates, so the
// first plan it completes is the cheapest the chainer can build within
// its limits; a situation is expanded again only when it is reached more
// cheaply, and one from which the goal is proved out of reach not at all.
// Given a bound (the cost of the greedy pass's plan), it looks only for
// cheaper plans: branch and bound.
type complete[S comparable] struct {
	c       *chainCall[S]
	goal    *condition[S]
	seed    maphash.Seed
	nodes   []situation[S]
	agendas []agendaEntry[S]
	seen    slotTable // (state, agenda) → node
	// bounds: state → index in known, the goal's lower bound in each
	// state met (a state is met under many agendas: the fisher's
	// dearest call, 1,281 situations in 191 states).
	bounds  slotTable
	known   []knownBound[S]
	entries slotTable // agenda entry → index
	open    openList
	bound   float64 // the cost a plan must be under
	flow    bool    // the goal's bound counts its flow (condition.flowWorth)
	// cut: a situation was not expanded, or a choice not made, for the
	// step limit (a larger one might find a plan).
	cut bool
	// batches: the choices batch the runs of an action both ways when
	// looking for a cheaper plan than the greedy pass's, which may batch
	// them; one run at a time when looking for any plan.
	batches batching
	list    []choice
	entry   agendaEntry[S]
	top     agendaEntry[S] // the top entry of the situation being expanded
	// Scratch states whose addresses go to the domain's functions.
	key, at, after S
}

// situation is a node of the complete pass: a state, and an agenda.
type situation[S comparable] struct {
	state  S
	agenda int32    // index in complete.agendas; 0 is the goal alone
	parent int32    // the situation it was reached from; -1 for the start
	act    ActionID // the step that led here; NoAction for a choice
	steps  int32
	g      float64 // the cost of the steps taken
	h      float64 // the goal's lower bound in state
	closed bool
}

// knownBound is the goal's lower bound h in the states of key key.
type knownBound[S comparable] struct {
	key S
	h   float64
}

// agendaEntry is the top of an agenda, interned: equal agendas have one
// index, so situations compare by index.
type agendaEntry[S comparable] struct {
	act   ActionID
	cond  int32  // the condition of the entry below that act serves
	batch batch  // the batch act's precondition is established for
	want  uint64 // its failing parts act can serve
	from  S      // the state act was chosen in
	below int32
	depth int32   // entries above the goal: 1 for a goal's candidate
	wait  float64 // the cost of the actions waiting, this one included
	hash  uint64
}

func (e *agendaEntry[S]) same(o *agendaEntry[S]) bool {
	return e.act == o.act && e.cond == o.cond && e.batch == o.batch && e.want == o.want && e.below == o.below && e.from == o.from
}

// run searches for a plan of the call's goal from st, of rem steps at
// most and cheaper than bound. On success it appends the steps to the
// call's and sets its end state.
func (x *complete[S]) run(st S, rem int, bound float64) result {
	x.begin(st, bound)
	r, _ := x.resume(st, rem, -1)
	return r
}

// begin starts a search from st for a plan cheaper than bound: the
// start on the open list, nothing expanded yet.
func (x *complete[S]) begin(st S, bound float64) {
	x.reset(bound)
	x.batches = batchNone
	if !math.IsInf(bound, 1) {
		x.batches = batchBoth
	}
	x.cut = false
	x.at = st
	x.flow = x.goal.flowWorth(&x.at, x.c.d.Number)
	x.visit(&x.at, 0, -1, NoAction, 0, 0)
}

// resume runs the search begun from st with begin, for plans of rem
// steps at most, until it ends, or until the call has counted the
// expansion numbered until when until >= 0: then it reports false (paused),
// and the search goes on where it stopped at the next call.
func (x *complete[S]) resume(st S, rem, until int) (result, bool) {
	w := &x.c.work
	for x.open.len() > 0 {
		if until >= 0 && w.expansions >= until {
			return result{}, false
		}
		e := x.open.pop()
		n := e.node
		if x.nodes[n].closed || !e.hasG(x.nodes[n].g) {
			continue // reached again more cheaply since
		}
		x.nodes[n].closed = true
		if !w.expand() {
			return w.stop(), true
		}
		if r, done := x.expand(n, st, rem, &x.cut); done {
			return r, true
		}
	}
	return result{kind: failed, cut: x.cut, reason: Unreachable, action: NoAction, undoes: NoGoal}, true
}

// reset empties the search space for a search of the call's goal.
func (x *complete[S]) reset(bound float64) {
	if x.seen.slots == nil {
		x.seed = maphash.MakeSeed()
	}
	x.goal = &x.c.d.goals[x.c.goal]
	x.bound = bound
	x.nodes = x.nodes[:0]
	x.agendas = append(x.agendas[:0], agendaEntry[S]{act: NoAction})
	x.seen.reset()
	x.bounds.reset()
	x.known = x.known[:0]
	x.entries.reset()
	x.open.reset()
}

// expand expands situation n of a search from st: the goal reached, the
// waiting action run, or the choices for its failing condition. It
// reports whether the search is done, and how.
func (x *complete[S]) expand(n int32, st S, rem int, cut *bool) (result, bool) {
	c, d := x.c, x.c.d
	nd := x.nodes[n]
	x.top = x.agendas[nd.agenda]
	top := &x.top
	switch {
	case nd.agenda == 0:
		if d.Goals[c.goal].Cond(nd.state) && c.undone(nd.state) == NoGoal {
			x.replay(n, st)
			return result{kind: found}, true
		}
		if float64(nd.steps)+x.c.stepsBound(nd.state) > float64(rem) {
			*cut = true
			return result{}, false
		}
	case x.applies(top, nd.state):
		// The waiting action can run: it must.
		if int(nd.steps) >= rem {
			*cut = true
			return result{}, false
		}
		return x.runWaiting(n, top)
	case int(top.depth)-1 >= c.cfg.maxDepth:
		return result{}, false
	}
	return x.choose(n, top, rem, cut)
}

// applies reports whether the precondition of top's action holds in s,
// for its batch.
func (x *complete[S]) applies(top *agendaEntry[S], s S) bool {
	x.at = s
	return x.c.failing(&x.c.d.pres[top.act], top.batch, &x.at) == 0
}

// runWaiting runs the waiting action of situation n, whose precondition
// holds, when it brings what it serves closer to holding than when it was
// chosen (or than just before).
func (x *complete[S]) runWaiting(n int32, top *agendaEntry[S]) (result, bool) {
	c, d := x.c, x.c.d
	nd := &x.nodes[n]
	x.at = nd.state
	x.after = d.Apply(top.act, nd.state)
	cond := c.need(x.agendas[top.below].act, top.cond)
	b := x.agendas[top.below].batch
	if ok, _ := c.progress(cond, b, top.want, &top.from, &x.after); !ok {
		if ok, _ = c.progress(cond, b, top.want&c.failing(cond, b, &x.at), &x.at, &x.after); !ok {
			return result{}, false
		}
	}
	cost, err := d.StepCost(top.act, nd.state)
	if err != nil {
		return x.costFailed(err), true
	}
	c.work.generated++
	x.visit(&x.after, top.below, n, top.act, nd.steps+1, nd.g+cost)
	return result{}, false
}

// choose visits every choice that can serve the failing condition of
// situation n's top entry: run at once when it applies, waiting
// otherwise.
func (x *complete[S]) choose(n int32, top *agendaEntry[S], rem int, cut *bool) (result, bool) {
	c, d := x.c, x.c.d
	nd := x.nodes[n]
	x.at = nd.state
	var first uint64
	targets := 1
	if nd.agenda == 0 {
		first = x.goal.failing(nd.state)
		targets += len(c.protected)
	} else {
		first = c.failing(&d.pres[top.act], top.batch, &x.at)
	}
	x.list = c.choose(x.list, top.act, top.batch, &x.at, first, targets, x.batches, int(top.depth)+1)
	for i := range x.list {
		ch := &x.list[i]
		a := ch.opt.act
		switch {
		case x.waiting(nd.agenda, a):
		case ch.pre == 0:
			// Chosen and run at once.
			if int(nd.steps) >= rem {
				*cut = true
				continue
			}
			x.after = d.Apply(a, nd.state)
			b := top.batch
			if ch.cond > 0 {
				b = batch{}
			}
			if ok, _ := c.progress(c.need(top.act, ch.cond), b, ch.want, &x.at, &x.after); !ok {
				continue
			}
			cost, err := d.StepCost(a, nd.state)
			if err != nil {
				return x.costFailed(err), true
			}
			c.work.generated++
			x.visit(&x.after, nd.agenda, n, a, nd.steps+1, nd.g+cost)
		case int(nd.steps)+int(top.depth)+1 > rem:
			*cut = true // every waiting action needs a step
		default:
			x.entry = agendaEntry[S]{act: a, cond: ch.cond, batch: ch.batch, want: ch.want, from: nd.state, below: nd.agenda,
				depth: top.depth + 1, wait: top.wait + d.Actions[a].Cost}
			c.work.generated++
			x.visit(&x.at, x.intern(&x.entry), n, NoAction, nd.steps, nd.g)
		}
	}
	return result{}, false
}

// stateHash hashes a situation's state (a key: see Domain.Key).
func (x *complete[S]) stateHash(k *S) uint64 {
	if x.c.d.Hash != nil {
		return x.c.d.Hash(k)
	}
	return maphash.Comparable(x.seed, *k)
}

// intern returns the index of the agenda e (its hash unset), adding it if
// it is new.
func (x *complete[S]) intern(e *agendaEntry[S]) int32 {
	e.from = x.c.d.key(&e.from)
	e.hash = fmix.Mix64(x.agendas[e.below].hash ^ uint64(e.act)<<8 ^ uint64(e.cond)<<40 ^ uint64(e.batch.runs)<<48 ^ e.want*0x5bd1e995 ^ e.batch.parts*0x2545f491 ^ x.stateHash(&e.from))
	slot := x.entries.find(e.hash)
	for ; x.entries.used(slot); slot = x.entries.next(slot) {
		if i := x.entries.slots[slot].idx; x.entries.slots[slot].hash == e.hash && x.agendas[i].same(e) {
			return i
		}
	}
	i := int32(len(x.agendas))
	x.agendas = append(x.agendas, *e)
	x.entries.put(slot, e.hash, i)
	return i
}

// visit records that situation (s, agenda) is reached at cost g, by the
// step act from parent, and puts it on the open list; unless it was reached
// before at no more cost, or cannot lead to a plan under the bound.
func (x *complete[S]) visit(s *S, agenda, parent int32, act ActionID, steps int32, g float64) {
	d := x.c.d
	x.key = d.key(s) // in x: its address goes to the domain's hash
	k := &x.key
	hk := x.stateHash(k)
	h := fmix.Mix64(hk ^ x.agendas[agenda].hash*0x9e3779b97f4a7c15)
	slot := x.seen.find(h)
	for ; x.seen.used(slot); slot = x.seen.next(slot) {
		n := x.seen.slots[slot].idx
		if nd := &x.nodes[n]; x.seen.slots[slot].hash == h && nd.agenda == agenda && d.key(&nd.state) == *k {
			if g >= nd.g || math.IsInf(nd.h, 1) {
				return
			}
			nd.state, nd.parent, nd.act, nd.steps, nd.g, nd.closed = *s, parent, act, steps, g, false
			x.enqueue(n)
			return
		}
	}
	n := int32(len(x.nodes))
	x.nodes = append(x.nodes, situation[S]{state: *s, agenda: agenda, parent: parent, act: act, steps: steps, g: g,
		h: x.rest(s, agenda, hk)})
	x.seen.put(slot, h, n)
	if math.IsInf(x.nodes[n].h, 1) {
		x.nodes[n].closed = true // the goal is out of reach from there
		return
	}
	x.enqueue(n)
}

// rest is a lower bound on the cost of the rest of a plan from situation
// (*s, agenda), x.key the key of *s and hk its hash: the goal's lower
// bound in *s, or what the actions waiting cost with the lower bound of
// the top one's precondition (which must hold before it runs, and before
// those below it run), whichever is more; +Inf when the goal is out of
// reach.
func (x *complete[S]) rest(s *S, agenda int32, hk uint64) float64 {
	d := x.c.d
	h := x.goalBound(s, hk)
	if agenda == 0 || math.IsInf(h, 1) {
		return h
	}
	top := &x.agendas[agenda]
	return max(h, top.wait+d.pres[top.act].bound(s, d.Number))
}

// goalBound is the goal's lower bound in *s, whose key is x.key and its
// hash hk: computed the first time a search meets the state.
func (x *complete[S]) goalBound(s *S, hk uint64) float64 {
	slot := x.bounds.find(hk)
	for ; x.bounds.used(slot); slot = x.bounds.next(slot) {
		if kb := &x.known[x.bounds.slots[slot].idx]; x.bounds.slots[slot].hash == hk && kb.key == x.key {
			return kb.h
		}
	}
	h := 0.0
	if failing := x.goal.failing(*s); failing != 0 {
		h = x.goal.boundWith(s, failing, x.c.d.Number, x.flow)
	}
	x.bounds.put(slot, hk, int32(len(x.known)))
	x.known = append(x.known, knownBound[S]{key: x.key, h: h})
	return h
}

// enqueue puts situation n on the open list, unless no plan through it
// can be under the bound.
func (x *complete[S]) enqueue(n int32) {
	nd := &x.nodes[n]
	f := nd.g + nd.h
	if f >= x.bound {
		return
	}
	x.open.push(entry(f, nd.g, n))
}

// waiting reports whether action a is on agenda.
func (x *complete[S]) waiting(agenda int32, a ActionID) bool {
	for ; agenda != 0; agenda = x.agendas[agenda].below {
		if x.agendas[agenda].act == a {
			return true
		}
	}
	return false
}

// replay appends the steps that lead to situation n, and sets the end
// state: exact in its inert fields too (the states along a situation's
// path may differ there), from st.
func (x *complete[S]) replay(n int32, st S) {
	c := x.c
	k := 0
	for i := n; i >= 0; i = x.nodes[i].parent {
		if x.nodes[i].act != NoAction {
			k++
		}
	}
	mark := len(c.steps)
	for range k {
		c.steps = append(c.steps, NoAction)
	}
	for i := n; i >= 0; i = x.nodes[i].parent {
		if a := x.nodes[i].act; a != NoAction {
			k--
			c.steps[mark+k] = a
		}
	}
	c.end = st
	for _, a := range c.steps[mark:] {
		c.end = c.d.Apply(a, c.end)
	}
}

// costFailed ends the pass on an action's invalid cost: a plan priced
// with it would be silently wrong.
func (x *complete[S]) costFailed(err error) result {
	x.c.costErr = err.(*PlanningError)
	return result{kind: stopped, reason: InvalidCost, action: x.c.costErr.Action, undoes: NoGoal}
}
