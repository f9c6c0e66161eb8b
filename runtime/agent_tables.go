package runtime

import (
	"math/bits"
	"slices"
)

// fieldSet is a set of state fields, one bit per field: bit f%64 of word
// f/64. Every set of one domain has the same number of words.
type fieldSet []uint64

func newFieldSet(words int, fields ...[]FieldID) fieldSet {
	s := make(fieldSet, words)
	for _, fs := range fields {
		s.add(fs)
	}
	return s
}

func (s fieldSet) add(fields []FieldID) {
	for _, f := range fields {
		s[f/64] |= 1 << (uint(f) % 64)
	}
}

func (s fieldSet) union(o fieldSet) {
	for i := range s {
		s[i] |= o[i]
	}
}

func (s fieldSet) clear() {
	for i := range s {
		s[i] = 0
	}
}

// fold reduces s to one word, the form the agents test: fields 0 to 62
// keep their bit, and bit 63 stands for field 63 and every field after
// it, so that two sets that share a field always share a bit (the test
// may say "maybe" for two that do not, never "no" for two that do).
func (s fieldSet) fold() uint64 {
	m := s[0]
	for _, w := range s[1:] {
		if w != 0 {
			m |= 1 << 63
		}
	}
	return m
}

// exact is s reduced to one word without the shared last bit: a set of
// fields to leave out, where leaving out too few is safe.
func (s fieldSet) exact() uint64 { return s[0] &^ (1 << 63) }

// agentTables is what the agents of a domain share: the fields each goal,
// action and plan depends on, which the agents compare with the fields
// that changed to skip the checks that cannot have a new answer. Every
// set is folded to one word (fieldSet.fold).
type agentTables struct {
	words int
	// goalReads[g] are the fields goal g reads; anyGoal those of every
	// goal (what an idle agent watches).
	goalReads []uint64
	anyGoal   uint64
	// allGoals has a bit for each goal, as Domain.Satisfied sets them.
	allGoals []uint64
	// higher[g] are the goals of higher priority than g, highest first,
	// and higherReads[g] the fields they read: a plan for g watches them
	// for interruptions. higherGoals[g] has their bits, in a domain of at
	// most 64 goals.
	higher      [][]GoalID
	higherReads []uint64
	higherGoals []uint64
	// depends[g] are the fields planning g depends on (dependsOn). A goal
	// that could not be planned can become plannable only when one of
	// them changes.
	depends []uint64
	// serving[g] are the actions that write a field of depends[g]: those
	// whose preconditions say whether g can be planned.
	serving [][]ActionID
	// servers[g] are the actions that can serve goal g (Domain.Serves),
	// and stuck[a] marks the conjuncts of action a's precondition (bit i
	// for PreParts[i]) that no action can make hold: none writes what they
	// read, or only the wrong way (Relation). While one fails, only the
	// world can unblock a.
	servers [][]ActionID
	stuck   []uint64
	// actionReads[a] are the fields action a's precondition, effects and
	// cost read: a plan watches those of its remaining steps; preReads[a]
	// those its precondition reads.
	actionReads, preReads []uint64
	// writes[a] are the fields action a writes: a plan none of whose steps
	// writes what a goal reads cannot undo it.
	writes []uint64
	// While action a runs, the plan is replayed from its post applied to
	// the live state: the live values of the fields it sets to constants
	// (setFields[a], exact) do not matter then, those its effect reads
	// (effectReads[a]) do.
	setFields, effectReads []uint64
	// post[a] are the fields whose live values, read as a step of action
	// a says it is done, must be what its post makes of the state read at
	// the start of the tick (exact): every field it writes, for an action
	// done when its method returns; those it sets to constants, for one
	// that takes ticks (the others may move over its ticks, as a walk
	// tires). postErrs[a] is the error of a step that misses it.
	post     []uint64
	postErrs []*PostMissedError
	// saturating are the fields with a range (Field.Range), exact.
	saturating uint64
	// order lists the goals by priority, highest first.
	order []GoalID
	// unreachable[g] is the error of goal g proven out of reach before any
	// planner call (Domain.blocked), and relaxed those of goals proven out
	// of reach by the relaxed reachability (Domain.relaxedErrors):
	// immutable, shared.
	unreachable []*PlanningError
	relaxed     [][]*PlanningError
}

func newAgentTables[S comparable](d *Domain[S]) *agentTables {
	words := max((len(d.Fields)+63)/64, 1)
	t := &agentTables{words: words, order: d.goalOrder, allGoals: make([]uint64, goalWords(d))}
	for g := range d.Goals {
		t.allGoals[g/64] |= 1 << (uint(g) % 64)
	}
	goalSets := make([]fieldSet, len(d.Goals))
	for gi := range d.Goals {
		goalSets[gi] = newFieldSet(words, d.Goals[gi].Reads)
		t.goalReads = append(t.goalReads, goalSets[gi].fold())
		t.anyGoal |= t.goalReads[gi]
	}
	for a := range d.Actions {
		act := &d.Actions[a]
		t.actionReads = append(t.actionReads, newFieldSet(words, act.Reads, act.PreReads).fold())
		t.preReads = append(t.preReads, newFieldSet(words, act.PreReads).fold())
		t.writes = append(t.writes, newFieldSet(words, act.Writes).fold())
		set, reads := newFieldSet(words), newFieldSet(words)
		known := len(act.Changes) == len(act.Writes)
		for _, ch := range act.Changes {
			switch ch.Op {
			case ChangeSet:
				set.add([]FieldID{ch.Field})
			case ChangeAdd:
				reads.add([]FieldID{ch.Field})
			case ChangeAddTimes:
				reads.add([]FieldID{ch.Field, ch.By})
			default:
				known = false
			}
		}
		if !known { // only running the effect tells what it reads
			set.clear()
			reads.add(act.Reads)
		}
		t.setFields = append(t.setFields, set.exact())
		t.effectReads = append(t.effectReads, reads.fold())
		post := newFieldSet(words, act.Writes).exact()
		if act.Durative {
			post = set.exact()
		}
		t.post = append(t.post, post)
		t.postErrs = append(t.postErrs, &PostMissedError{Domain: d.Name, Action: act.Name, Post: act.EffectText})
	}
	for f := range min(len(d.Fields), 63) {
		if r := d.Fields[f].Range; r.HasMin || r.HasMax {
			t.saturating |= 1 << f
		}
	}
	for a := range d.Actions {
		t.stuck = append(t.stuck, stuckParts(d, &d.Actions[a]))
	}
	for gi := range d.Goals {
		g := GoalID(gi)
		t.servers = append(t.servers, d.Serves(g))
		var higher []GoalID
		var reads, bits uint64
		for _, h := range d.goalOrder {
			if d.Goals[h].Priority > d.Goals[g].Priority {
				higher = append(higher, h)
				reads |= t.goalReads[h]
				bits |= 1 << (uint(h) % 64)
			}
		}
		t.higher = append(t.higher, higher)
		t.higherReads = append(t.higherReads, reads)
		t.higherGoals = append(t.higherGoals, bits)
		deps := dependsOn(d, goalSets[gi])
		t.depends = append(t.depends, deps.fold())
		var serving []ActionID
		for a := range d.Actions {
			for _, f := range d.Actions[a].Writes {
				if deps[f/64]&(1<<(uint(f)%64)) != 0 {
					serving = append(serving, ActionID(a))
					break
				}
			}
		}
		t.serving = append(t.serving, serving)
		blocked := d.newError(Unreachable, g, NoAction)
		blocked.Blocked, blocked.Fields = true, d.stuckFields(t.servers[g], t.stuck)
		t.unreachable = append(t.unreachable, blocked)
	}
	t.relaxed = d.relaxedErrors()
	return t
}

// dependsOn closes reads over the actions of d: an action that writes a
// field of the set could serve it, so what its precondition and cost read
// joins the set, and what its effect on that field reads (the field
// itself for F += 1, nothing for F = 1, every field it reads for another
// right-hand side), until nothing is added.
func dependsOn[S comparable](d *Domain[S], reads fieldSet) fieldSet {
	words := len(reads)
	set := newFieldSet(words)
	set.union(reads)
	adds := newFieldSet(words)
	for changed := true; changed; {
		changed = false
		for a := range d.Actions {
			act := &d.Actions[a]
			adds.clear()
			serves := false
			for _, f := range act.Writes {
				if set[f/64]&(1<<(uint(f)%64)) != 0 {
					serves = true
				}
			}
			if !serves {
				continue
			}
			adds.add(act.PreReads)
			if act.CostOf != nil || len(act.Changes) != len(act.Writes) {
				adds.add(act.Reads) // what reads what is not said: all of it
			}
			for _, ch := range act.Changes {
				if set[ch.Field/64]&(1<<(uint(ch.Field)%64)) == 0 {
					continue
				}
				switch ch.Op {
				case ChangeAdd:
					adds.add([]FieldID{ch.Field})
				case ChangeAddTimes:
					adds.add([]FieldID{ch.Field, ch.By})
				case ChangeSet:
				default:
					adds.add(act.Reads)
				}
			}
			if !adds.within(set) {
				set.union(adds)
				changed = true
			}
		}
	}
	return set
}

// within reports whether every field of s is in o.
func (s fieldSet) within(o fieldSet) bool {
	for i := range s {
		if s[i]&^o[i] != 0 {
			return false
		}
	}
	return true
}

// agentTables returns the tables the domain's agents share.
func (d *Domain[S]) agentTables() *agentTables { return d.agents }

// replay applies steps to *s while their preconditions hold and returns
// how many it applied (Domain.Replay, or, in a domain without it, the
// actions' Pre and Effect).
func (d *Domain[S]) replay(s *S, steps []ActionID) int {
	if d.Replay != nil {
		return d.Replay(s, steps)
	}
	for i, id := range steps {
		act := &d.Actions[id]
		if act.Pre != nil && !act.Pre(*s) {
			return i
		}
		if act.Effect != nil {
			*s = act.Effect(*s)
		}
	}
	return len(steps)
}

// goalWords is how many words a set of d's goals takes.
func goalWords[S comparable](d *Domain[S]) int { return max((len(d.Goals)+63)/64, 1) }

// satisfied writes into bits the goals that hold in *s, bit g%64 of
// bits[g/64] for goal g: with Domain.Satisfied, or, in a domain without
// it, with each goal's condition.
func (d *Domain[S]) satisfied(s *S, bits []uint64) {
	if d.Satisfied != nil {
		d.Satisfied(s, bits)
		return
	}
	clear(bits)
	for g := range d.Goals {
		if d.Goals[g].Cond(*s) {
			bits[g/64] |= 1 << (uint(g) % 64)
		}
	}
}

// allOf reports whether bits has every bit of set (of as many words).
func allOf(bits, set []uint64) bool {
	for i, w := range set {
		if bits[i]&w != w {
			return false
		}
	}
	return true
}

// has reports whether bit i of the set bits is set.
func has[I ~int | ~int32](bits []uint64, i I) bool { return bits[i/64]&(1<<(uint(i)%64)) != 0 }

// flipped reports whether a condition that planning goal g depends on
// says something else in s than in prev, which differ in the fields
// changed: a conjunct of g, or of the precondition of an action that
// could serve it, that held and fails now or the other way round. A goal
// that could not be planned is planned again at once after one does;
// while none does, the agent waits for the backoff.
func (d *Domain[S]) flipped(t *agentTables, g GoalID, prev, s *S, changed uint64) bool {
	if d.goalFlipped(t, g, prev, s, changed) {
		return true
	}
	for _, a := range t.serving[g] {
		if changed&t.preReads[a] != 0 && d.pres[a].failing(*prev) != d.pres[a].failing(*s) {
			return true
		}
	}
	return false
}

// goalFlipped reports whether a conjunct of goal g says something else in
// s than in prev.
func (d *Domain[S]) goalFlipped(t *agentTables, g GoalID, prev, s *S, changed uint64) bool {
	return changed&t.goalReads[g] != 0 && d.goals[g].failing(*prev) != d.goals[g].failing(*s)
}

// blocked reports whether no action can serve goal g from s: each has a
// conjunct of its precondition that fails in s and that no action can make
// hold (stuck). It is a quick, partial proof that g cannot be planned: a
// goal it proves out of reach needs no planner call until the world
// changes what those conjuncts read. A conjunct of g or of a
// precondition whose saturating field s has outside its range is not
// stuck when some action writes the field: the write lands it in the
// range (see option.lands).
func (d *Domain[S]) blocked(t *agentTables, g GoalID, s *S) bool {
	if goal := &d.goals[g]; goal.landed != 0 && d.landable(goal, goal.failing(*s), s) != 0 {
		return false
	}
	for _, a := range t.servers[g] {
		stuck := t.stuck[a]
		if stuck == 0 {
			return false
		}
		act := &d.Actions[a]
		var failing uint64
		switch {
		case act.PreUnmet != nil:
			failing = act.PreUnmet(*s)
		case !act.Pre(*s):
			failing = 1 // a single part
		}
		if failing&stuck == 0 {
			return false
		}
		if pre := &d.pres[a]; pre.landed&failing&stuck != 0 && failing&stuck&^d.landable(pre, failing&stuck, s) == 0 {
			return false
		}
	}
	return true
}

// stuckFields names the fields that the conjuncts marked in stuck of the
// preconditions of actions read, in the order of the role's fields:
// what a goal that only those actions serve waits for when an agent
// proves it blocked (Domain.blocked).
func (d *Domain[S]) stuckFields(actions []ActionID, stuck []uint64) string {
	var fs []FieldID
	for _, a := range actions {
		parts := d.Actions[a].PreParts
		for w := stuck[a]; w != 0; w &= w - 1 {
			if i := bits.TrailingZeros64(w); i < len(parts) {
				for _, f := range parts[i].Reads {
					if !slices.Contains(fs, f) {
						fs = append(fs, f)
					}
				}
			}
		}
	}
	slices.Sort(fs)
	return d.fieldList(fs)
}

// stuckParts marks the conjuncts of act's precondition that no action of d
// can make hold.
func stuckParts[S comparable](d *Domain[S], act *Action[S]) uint64 {
	strField := func(f FieldID) bool { return d.Fields[f].Kind == KindString }
	var stuck uint64
	for i := range act.PreParts {
		p := &act.PreParts[i]
		fixable := false
		for b := range d.Actions {
			if relation(p, d.Actions[b].Writes, d.Actions[b].Changes, strField).serves() {
				fixable = true
				break
			}
		}
		if !fixable {
			stuck |= 1 << min(i, 63)
		}
	}
	return stuck
}
