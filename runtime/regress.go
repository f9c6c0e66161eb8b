package runtime

import (
	"hash/maphash"
	"math"
)

// The backward chainer's complete pass: a best-first search over the
// situations the chainer can be in (a state, and an agenda: the actions
// waiting for their preconditions, each with the part of the condition
// below it that it serves and the state it was chosen in), cheapest first
// by the cost of the steps taken plus what the rest must cost at least: the
// cost of the actions waiting (each still has to run), or the goal's lower
// bound in the state (Domain.LowerBound), whichever is more. Neither
// overestimates, so the first plan it completes is the cheapest the chainer
// can build within its limits; a situation is expanded again only when it
// is reached more cheaply, and one from which the goal is proved out of
// reach not at all.

// regressNode is a situation of the complete pass.
type regressNode[S comparable] struct {
	state  S
	agenda int32    // index in regression.agendas; 0 is the goal alone
	parent int32    // the situation it was reached from; -1 for the start
	act    ActionID // the step that led here; NoAction for a choice
	steps  int32
	g      float64 // the cost of the steps taken
	h      float64 // the goal's lower bound in state
	closed bool
}

// agendaEntry is the top of an agenda, interned: equal agendas have one
// index, so situations compare by index.
type agendaEntry[S comparable] struct {
	act   ActionID
	cond  int32  // the condition of the entry below that act serves
	want  uint64 // its failing parts act can serve
	from  S      // the state act was chosen in
	below int32
	depth int32   // entries above the goal: 1 for a goal's candidate
	wait  float64 // the cost of the actions waiting, this one included
	hash  uint64
}

func (e *agendaEntry[S]) same(o *agendaEntry[S]) bool {
	return e.act == o.act && e.cond == o.cond && e.want == o.want && e.below == o.below && e.from == o.from
}

// regression is the complete pass's search space, kept between calls so
// that a chainer reused for many plans does not allocate.
type regression[S comparable] struct {
	d       *Domain[S]
	goal    *condition[S]
	key     S // scratch: the key of the state being visited
	seed    maphash.Seed
	nodes   []regressNode[S]
	agendas []agendaEntry[S]
	seen    slotTable // (state, agenda) → node
	entries slotTable // agenda entry → index
	open    openList
}

// reset empties r for a search of goal, a condition of d.
func (r *regression[S]) reset(d *Domain[S], goal *condition[S]) {
	if r.seen.slots == nil {
		r.seed = maphash.MakeSeed()
	}
	r.d, r.goal = d, goal
	r.nodes = r.nodes[:0]
	r.agendas = append(r.agendas[:0], agendaEntry[S]{act: NoAction})
	r.seen.reset()
	r.entries.reset()
	r.open = r.open[:0]
}

// stateHash hashes a situation's state (a key: see Domain.Key).
func (r *regression[S]) stateHash(k *S) uint64 {
	if r.d.Hash != nil {
		return r.d.Hash(k)
	}
	return maphash.Comparable(r.seed, *k)
}

// intern returns the index of the agenda e (its hash unset), adding it if
// it is new.
func (r *regression[S]) intern(e *agendaEntry[S]) int32 {
	e.from = r.d.key(&e.from)
	e.hash = mix64(r.agendas[e.below].hash ^ uint64(e.act)<<8 ^ uint64(e.cond)<<40 ^ e.want*0x5bd1e995 ^ r.stateHash(&e.from))
	slot := r.entries.find(e.hash)
	for ; r.entries.used(slot); slot = r.entries.next(slot) {
		if i := r.entries.slots[slot].idx; r.entries.slots[slot].hash == e.hash && r.agendas[i].same(e) {
			return i
		}
	}
	i := int32(len(r.agendas))
	r.agendas = append(r.agendas, *e)
	r.entries.put(slot, e.hash, i)
	return i
}

// visit records that situation (s, agenda) is reached at cost g, by the
// step act from parent, and puts it on the open list; unless it was reached
// before at no more cost.
func (r *regression[S]) visit(s *S, agenda, parent int32, act ActionID, steps int32, g float64) {
	r.key = r.d.key(s) // in r: its address goes to the domain's hash
	k := &r.key
	h := mix64(r.stateHash(k) ^ r.agendas[agenda].hash*0x9e3779b97f4a7c15)
	slot := r.seen.find(h)
	for ; r.seen.used(slot); slot = r.seen.next(slot) {
		n := r.seen.slots[slot].idx
		if nd := &r.nodes[n]; r.seen.slots[slot].hash == h && nd.agenda == agenda && r.d.key(&nd.state) == *k {
			if g >= nd.g || math.IsInf(nd.h, 1) {
				return
			}
			nd.state, nd.parent, nd.act, nd.steps, nd.g, nd.closed = *s, parent, act, steps, g, false
			r.enqueue(n)
			return
		}
	}
	n := int32(len(r.nodes))
	r.nodes = append(r.nodes, regressNode[S]{state: *s, agenda: agenda, parent: parent, act: act, steps: steps, g: g,
		h: r.goal.bound(s, r.d.Number)})
	r.seen.put(slot, h, n)
	if math.IsInf(r.nodes[n].h, 1) {
		r.nodes[n].closed = true // the goal is out of reach from there
		return
	}
	r.enqueue(n)
}

func (r *regression[S]) enqueue(n int32) {
	nd := &r.nodes[n]
	r.open.push(openEntry{f: nd.g + max(r.agendas[nd.agenda].wait, nd.h), g: nd.g, node: n})
}

// waiting reports whether action a is on agenda.
func (r *regression[S]) waiting(agenda int32, a ActionID) bool {
	for ; agenda != 0; agenda = r.agendas[agenda].below {
		if r.agendas[agenda].act == a {
			return true
		}
	}
	return false
}

// complete runs the complete pass for the chainer's goal from st, with rem
// steps at most. On success it appends the steps and sets b.end.
func (b *BackwardChainer[S]) complete(st S, rem int) result {
	d, rg := b.d, &b.reg
	rg.reset(d, &d.goals[b.goal])
	b.probe = st
	rg.visit(&b.probe, 0, -1, NoAction, 0, 0)
	cut := false
	for len(rg.open) > 0 {
		e := rg.open.pop()
		n := e.node
		if rg.nodes[n].closed || e.g != rg.nodes[n].g {
			continue // reached again more cheaply since
		}
		rg.nodes[n].closed = true
		b.expansions++
		if b.expansions > b.budget {
			return result{kind: stopped, reason: SearchBudgetExceeded, action: NoAction, undoes: NoGoal}
		}
		if b.expansions&63 == 0 {
			if err := b.ctx.Err(); err != nil {
				b.ctxErr = err
				return result{kind: stopped}
			}
		}
		nd := rg.nodes[n]
		b.probe = nd.state // states whose address goes to the domain live in b
		top := rg.agendas[nd.agenda]
		switch {
		case nd.agenda == 0:
			if b.goalHolds(nd.state) {
				mark := len(b.steps)
				b.replay(n)
				// The end state, exact in its inert fields too (the
				// states along a situation's path may differ there).
				b.end = st
				for _, a := range b.steps[mark:] {
					b.end = d.Apply(a, b.end)
				}
				return result{kind: found}
			}
			if float64(nd.steps)+b.stepsBound(nd.state) > float64(rem) {
				cut = true
				continue
			}
		case d.Applicable(top.act, nd.state):
			// The waiting action can run: it must, and it must bring what
			// it serves closer to holding than when it was chosen (or than
			// just before).
			if int(nd.steps) >= rem {
				cut = true
				continue
			}
			b.after = d.Apply(top.act, nd.state)
			b.from = top.from
			c := b.targetOf(rg.agendas[top.below].act, int(top.cond))
			if ok, _ := d.progress(c, top.want, &b.from, &b.after); !ok {
				if ok, _ = d.progress(c, top.want&c.failing(nd.state), &b.probe, &b.after); !ok {
					continue
				}
			}
			cost, err := d.StepCost(top.act, nd.state)
			if err != nil {
				return b.costFailed(err)
			}
			b.generated++
			rg.visit(&b.after, top.below, n, top.act, nd.steps+1, nd.g+cost)
			continue
		case int(top.depth)-1 >= b.maxDepth:
			b.depthCut = true
			continue
		}
		// The top condition fails: every choice that can serve it.
		level := b.level
		b.level++
		var first uint64
		if nd.agenda == 0 {
			first = d.goals[b.goal].failing(nd.state)
		} else {
			first = d.pres[top.act].failing(nd.state)
		}
		list := b.choices(level, top.act, nd.state, first)
		for i := range list {
			ch := &list[i]
			a := ch.opt.act
			if rg.waiting(nd.agenda, a) {
				continue
			}
			if ch.applicable {
				// Chosen and run at once.
				if int(nd.steps) >= rem {
					cut = true
					continue
				}
				b.after = d.Apply(a, nd.state)
				if ok, _ := d.progress(b.targetOf(top.act, int(ch.cond)), ch.want, &b.probe, &b.after); !ok {
					continue
				}
				cost, err := d.StepCost(a, nd.state)
				if err != nil {
					b.level--
					return b.costFailed(err)
				}
				b.generated++
				rg.visit(&b.after, nd.agenda, n, a, nd.steps+1, nd.g+cost)
				continue
			}
			if int(nd.steps)+int(top.depth)+1 > rem {
				// Every waiting action needs a step.
				cut = true
				continue
			}
			b.entry = agendaEntry[S]{act: a, cond: ch.cond, want: ch.want, from: nd.state, below: nd.agenda,
				depth: top.depth + 1, wait: top.wait + d.Actions[a].Cost}
			b.generated++
			rg.visit(&b.probe, rg.intern(&b.entry), n, NoAction, nd.steps, nd.g)
		}
		b.level--
	}
	return result{kind: failed, cut: cut, reason: Unreachable, action: NoAction, undoes: NoGoal}
}

// replay appends the steps that lead to situation n.
func (b *BackwardChainer[S]) replay(n int32) {
	rg := &b.reg
	k := 0
	for i := n; i >= 0; i = rg.nodes[i].parent {
		if rg.nodes[i].act != NoAction {
			k++
		}
	}
	mark := len(b.steps)
	for range k {
		b.steps = append(b.steps, NoAction)
	}
	for i := n; i >= 0; i = rg.nodes[i].parent {
		if a := rg.nodes[i].act; a != NoAction {
			k--
			b.steps[mark+k] = a
		}
	}
}

// slotTable is an open-addressing hash table of indexes, with linear
// probing; the caller compares the entries a hash leads to. Slots of an
// older generation are empty, so reset clears nothing.
type slotTable struct {
	slots []slot
	gen   uint32
	count int
}

type slot struct {
	gen  uint32
	idx  int32
	hash uint64
}

func (t *slotTable) reset() {
	if t.slots == nil {
		t.slots = make([]slot, 256)
	}
	t.gen++
	if t.gen == 0 {
		clear(t.slots)
		t.gen = 1
	}
	t.count = 0
}

// find returns the first slot to probe for hash h.
func (t *slotTable) find(h uint64) int { return int(h & uint64(len(t.slots)-1)) }

func (t *slotTable) used(i int) bool { return t.slots[i].gen == t.gen }

func (t *slotTable) next(i int) int { return (i + 1) & (len(t.slots) - 1) }

// put fills the free slot i that probing for h ended at.
func (t *slotTable) put(i int, h uint64, idx int32) {
	t.slots[i] = slot{gen: t.gen, idx: idx, hash: h}
	t.count++
	if 4*t.count > 3*len(t.slots) {
		t.grow()
	}
}

func (t *slotTable) grow() {
	old := t.slots
	t.slots = make([]slot, 2*len(old))
	for _, s := range old {
		if s.gen != t.gen {
			continue
		}
		i := t.find(s.hash)
		for t.used(i) {
			i = t.next(i)
		}
		t.slots[i] = s
	}
}

// costFailed ends the complete pass on an action's invalid cost: a plan
// priced with it would be silently wrong.
func (b *BackwardChainer[S]) costFailed(err error) result {
	b.costErr = err.(*PlanningError)
	return result{kind: stopped, reason: InvalidCost, action: b.costErr.Action, undoes: NoGoal}
}
