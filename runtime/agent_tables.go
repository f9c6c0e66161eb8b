package runtime

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

// unionExcept adds to s the fields of o that are not in not.
func (s fieldSet) unionExcept(o, not fieldSet) {
	for i := range s {
		s[i] |= o[i] &^ not[i]
	}
}

func (s fieldSet) meets(o fieldSet) bool {
	for i := range s {
		if s[i]&o[i] != 0 {
			return true
		}
	}
	return false
}

func (s fieldSet) clear() {
	for i := range s {
		s[i] = 0
	}
}

func (s fieldSet) fill() {
	for i := range s {
		s[i] = ^uint64(0)
	}
}

// agentTables is what the agents of a domain share: the fields each goal,
// action and plan depends on, which the agents compare with the fields
// that changed to skip the checks that cannot have a new answer.
type agentTables struct {
	words int
	// goalReads[g] are the fields goal g reads; anyGoal those of every
	// goal (what an idle agent watches).
	goalReads []fieldSet
	anyGoal   fieldSet
	// higher[g] are the goals of higher priority than g, highest first,
	// and higherReads[g] the fields they read: a plan for g watches them
	// for interruptions.
	higher      [][]GoalID
	higherReads []fieldSet
	// depends[g] are the fields planning g depends on: those g reads,
	// and those read by the precondition, effects or cost of an action
	// that writes a field in the set, until nothing is added. A goal that
	// could not be planned can become plannable only when one of them
	// changes.
	depends []fieldSet
	// actionReads[a] are the fields action a's precondition, effects and
	// cost read: a plan watches those of its remaining steps.
	actionReads []fieldSet
	// While action a runs, the plan is replayed from its post applied to
	// the live state: the live values of the fields it sets to constants
	// (setReads[a]) do not matter then, those its effect reads
	// (effectReads[a]) do.
	setFields, effectReads []fieldSet
	// order lists the goals by priority, highest first.
	order []GoalID
	// unreachable[g] is the error of goal g proven out of reach before any
	// planner call: immutable, shared.
	unreachable []*PlanningError
}

func newAgentTables[S comparable](d *Domain[S]) *agentTables {
	words := max((len(d.Fields)+63)/64, 1)
	t := &agentTables{words: words, anyGoal: newFieldSet(words), order: d.goalOrder}
	for gi := range d.Goals {
		reads := newFieldSet(words, d.Goals[gi].Reads)
		t.goalReads = append(t.goalReads, reads)
		t.anyGoal.union(reads)
	}
	for a := range d.Actions {
		act := &d.Actions[a]
		t.actionReads = append(t.actionReads, newFieldSet(words, act.Reads, act.PreReads))
		set, reads := newFieldSet(words), newFieldSet(words)
		known := len(act.Changes) == len(act.Writes)
		for _, ch := range act.Changes {
			switch ch.Op {
			case ChangeSet:
				set.add([]FieldID{ch.Field})
			case ChangeAdd:
				reads.add([]FieldID{ch.Field})
			default:
				known = false
			}
		}
		if !known { // only running the effect tells what it reads
			set.clear()
			reads.add(act.Reads)
		}
		t.setFields = append(t.setFields, set)
		t.effectReads = append(t.effectReads, reads)
	}
	for gi := range d.Goals {
		g := GoalID(gi)
		var higher []GoalID
		reads := newFieldSet(words)
		for _, h := range d.goalOrder {
			if d.Goals[h].Priority > d.Goals[g].Priority {
				higher = append(higher, h)
				reads.union(t.goalReads[h])
			}
		}
		t.higher = append(t.higher, higher)
		t.higherReads = append(t.higherReads, reads)
	}
	for gi := range d.Goals {
		t.depends = append(t.depends, dependsOn(d, t.goalReads[gi]))
		t.unreachable = append(t.unreachable, d.newError(Unreachable, GoalID(gi), NoAction))
	}
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
