package runtime

import (
	"encoding/json"
	"fmt"
	"math/bits"
	"slices"
)

// ActionID identifies an action of a domain: its index in Domain.Actions.
type ActionID int32

// GoalID identifies a goal of a domain: its index in Domain.Goals.
type GoalID int32

// FieldID identifies a state field: its index in Domain.Fields.
type FieldID int32

// NoAction and NoGoal stand for "none" where an ID is optional.
const (
	NoAction ActionID = -1
	NoGoal   GoalID   = -1
)

// Priority orders goals: higher first.
type Priority int

// The named priorities of goal tags; any integer is a priority too.
const (
	Low      Priority = 0
	Normal   Priority = 1
	High     Priority = 2
	Critical Priority = 3
)

func (p Priority) String() string {
	switch p {
	case Low:
		return "low"
	case Normal:
		return "normal"
	case High:
		return "high"
	case Critical:
		return "critical"
	}
	return fmt.Sprint(int(p))
}

// Kind is the kind of a state field's underlying type.
type Kind uint8

// Field kinds.
const (
	KindBool Kind = iota + 1
	KindInt
	KindUint
	KindFloat
	KindString
)

func (k Kind) String() string {
	switch k {
	case KindBool:
		return "bool"
	case KindInt:
		return "int"
	case KindUint:
		return "uint"
	case KindFloat:
		return "float"
	case KindString:
		return "string"
	}
	return "invalid"
}

// Field describes a state field.
type Field struct {
	Name string
	// Type is the field's Go type as the role's package writes it.
	Type string
	Kind Kind
}

// Action is an action of a domain, with its precondition and effects as
// generated Go functions.
type Action[S any] struct {
	Name string
	// Description is the method's doc comment without directives.
	Description string

	// Pre reports whether the precondition holds; nil means always.
	Pre func(S) bool
	// PreText is the precondition as written.
	PreText string
	// Effect returns the state after the effects; nil means none.
	Effect func(S) S
	// EffectText is the post as written.
	EffectText string

	Cost   float64
	Value  float64
	Weight float64
	Tags   []string

	// PreReads are the fields the precondition reads.
	PreReads []FieldID
	// PreUnmet, when the precondition is a conjunction (a && b && ...),
	// reports with one bit per conjunct (the last bit standing for the
	// rest beyond 64) those that do not hold; PreParts holds the fields
	// each conjunct reads, in the same order. Nil for a single conjunct.
	// Planners use them to skip helpers that cannot change a failing
	// conjunct.
	PreUnmet func(S) uint64
	PreParts [][]FieldID
	// Reads are the fields the precondition and the effects read.
	Reads []FieldID
	// Writes are the fields the effects assign.
	Writes []FieldID
	// Fulfills are the goals the action declares it fulfills.
	Fulfills []GoalID
	// Guarded actions run only with an approver (see WithApprover).
	Guarded bool
	// Args is the JSON Schema of the action's typed argument, or "" when
	// it takes none.
	Args string
}

// Goal is a goal of a domain.
type Goal[S any] struct {
	Name string
	// Description is the goal field's doc comment.
	Description string
	Priority    Priority
	// Cond reports whether the goal holds.
	Cond func(S) bool
	// CondText is the condition as written.
	CondText string
	// Reads are the fields the condition reads.
	Reads []FieldID
	// Unmet and Parts split a conjunction as Action.PreUnmet and
	// Action.PreParts do.
	Unmet func(S) uint64
	Parts [][]FieldID
}

// Domain is a role's planning domain: its state fields, actions and goals
// in declaration order. Generated code builds it with NewDomain; treat it
// as read-only.
type Domain[S comparable] struct {
	Name    string
	Fields  []Field
	Actions []Action[S]
	Goals   []Goal[S]
	// Schema is the JSON Schema of an LLM plan over the actions (see
	// PlanSchema).
	Schema string
	// Enabled, when set, tests every precondition at once: it writes into
	// bits (at least (len(Actions)+63)/64 words) one bit per action, bit
	// a%64 of bits[a/64], set when the action's precondition holds in *s.
	// Generated domains have it; planners that test every action in every
	// state (A*) use it instead of one call per action.
	Enabled func(s *S, bits []uint64)

	actionIndex map[string]ActionID
	goalIndex   map[string]GoalID
	// goalOrder lists the goals by priority, highest first, ties in
	// declaration order.
	goalOrder []GoalID
	// candidates[g] lists the actions that serve goal g: those that
	// declare it in fulfills, then those whose writes meet its reads.
	candidates [][]ActionID
	// helpers[a] lists the actions whose writes meet the fields a's
	// precondition reads.
	helpers [][]ActionID
}

// NewDomain checks d and derives the tables the planners use. It panics
// when d is inconsistent (an ID out of range, two actions or goals with one
// name): generated domains never are.
func NewDomain[S comparable](d Domain[S]) *Domain[S] {
	if err := d.init(); err != nil {
		panic("runtime.NewDomain: " + err.Error())
	}
	return &d
}

func (d *Domain[S]) init() error {
	d.actionIndex = make(map[string]ActionID, len(d.Actions))
	d.goalIndex = make(map[string]GoalID, len(d.Goals))
	validField := func(ids []FieldID) error {
		for _, f := range ids {
			if f < 0 || int(f) >= len(d.Fields) {
				return fmt.Errorf("field %d out of range", f)
			}
		}
		return nil
	}
	for i, g := range d.Goals {
		if _, dup := d.goalIndex[g.Name]; dup {
			return fmt.Errorf("goal %q declared twice", g.Name)
		}
		if g.Cond == nil {
			return fmt.Errorf("goal %q has no condition", g.Name)
		}
		if (g.Unmet == nil) != (g.Parts == nil) || len(g.Parts) > 64 {
			return fmt.Errorf("goal %q: Unmet and Parts (at most 64) go together", g.Name)
		}
		if err := validField(g.Reads); err != nil {
			return fmt.Errorf("goal %q: %w", g.Name, err)
		}
		d.goalIndex[g.Name] = GoalID(i)
	}
	for i, a := range d.Actions {
		if _, dup := d.actionIndex[a.Name]; dup {
			return fmt.Errorf("action %q declared twice", a.Name)
		}
		for _, ids := range [][]FieldID{a.PreReads, a.Reads, a.Writes} {
			if err := validField(ids); err != nil {
				return fmt.Errorf("action %q: %w", a.Name, err)
			}
		}
		for _, g := range a.Fulfills {
			if g < 0 || int(g) >= len(d.Goals) {
				return fmt.Errorf("action %q: goal %d out of range", a.Name, g)
			}
		}
		if (a.PreUnmet == nil) != (a.PreParts == nil) || len(a.PreParts) > 64 {
			return fmt.Errorf("action %q: PreUnmet and PreParts (at most 64) go together", a.Name)
		}
		if a.Cost <= 0 {
			return fmt.Errorf("action %q: cost %v is not positive", a.Name, a.Cost)
		}
		d.actionIndex[a.Name] = ActionID(i)
	}

	d.goalOrder = make([]GoalID, len(d.Goals))
	for i := range d.goalOrder {
		d.goalOrder[i] = GoalID(i)
	}
	slices.SortStableFunc(d.goalOrder, func(a, b GoalID) int {
		return int(d.Goals[b].Priority) - int(d.Goals[a].Priority)
	})

	d.candidates = make([][]ActionID, len(d.Goals))
	for gi, g := range d.Goals {
		var list []ActionID
		for ai, a := range d.Actions {
			if slices.Contains(a.Fulfills, GoalID(gi)) {
				list = append(list, ActionID(ai))
			}
		}
		for ai, a := range d.Actions {
			if !slices.Contains(list, ActionID(ai)) && intersects(a.Writes, g.Reads) {
				list = append(list, ActionID(ai))
			}
		}
		d.candidates[gi] = list
	}
	d.helpers = make([][]ActionID, len(d.Actions))
	for ai, a := range d.Actions {
		var list []ActionID
		for hi, h := range d.Actions {
			if intersects(h.Writes, a.PreReads) {
				list = append(list, ActionID(hi))
			}
		}
		d.helpers[ai] = list
	}
	return nil
}

// intersects reports whether two sorted field sets share a field.
func intersects(a, b []FieldID) bool {
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			return true
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return false
}

// relevant reports whether writes meets the fields of a conjunct that
// unmet marks as failing: only then can an action that writes them make
// the conjunction true. With no parts every action is relevant.
func relevant(writes []FieldID, unmet uint64, parts [][]FieldID) bool {
	if parts == nil {
		return true
	}
	for unmet != 0 {
		i := bits.TrailingZeros64(unmet)
		unmet &= unmet - 1
		if i < len(parts) && intersects(writes, parts[i]) {
			return true
		}
	}
	return false
}

// Action returns the ID of the action with the given name.
func (d *Domain[S]) Action(name string) (ActionID, bool) {
	id, ok := d.actionIndex[name]
	return id, ok
}

// Goal returns the ID of the goal with the given name.
func (d *Domain[S]) Goal(name string) (GoalID, bool) {
	id, ok := d.goalIndex[name]
	return id, ok
}

// ActionName returns the name of action a, or a placeholder when a is out
// of range.
func (d *Domain[S]) ActionName(a ActionID) string {
	if a >= 0 && int(a) < len(d.Actions) {
		return d.Actions[a].Name
	}
	return fmt.Sprintf("action(%d)", a)
}

// GoalName returns the name of goal g, or a placeholder when g is out of
// range.
func (d *Domain[S]) GoalName(g GoalID) string {
	if g >= 0 && int(g) < len(d.Goals) {
		return d.Goals[g].Name
	}
	return fmt.Sprintf("goal(%d)", g)
}

// GoalOrder returns the goals by priority, highest first, ties in
// declaration order: the order planners visit them.
func (d *Domain[S]) GoalOrder() []GoalID { return slices.Clone(d.goalOrder) }

// Serves returns the actions that can serve goal g, in the order planners
// try them: those that declare it in fulfills, then those whose writes meet
// the fields the goal's condition reads.
func (d *Domain[S]) Serves(g GoalID) []ActionID { return slices.Clone(d.candidates[g]) }

// Helpers returns the actions whose writes meet the fields the precondition
// of a reads, in declaration order: what backward chaining tries when the
// precondition of a does not hold.
func (d *Domain[S]) Helpers(a ActionID) []ActionID { return slices.Clone(d.helpers[a]) }

// Applicable reports whether the precondition of a holds in s.
func (d *Domain[S]) Applicable(a ActionID, s S) bool {
	pre := d.Actions[a].Pre
	return pre == nil || pre(s)
}

// Apply returns s after the effects of a (whether or not its precondition
// holds).
func (d *Domain[S]) Apply(a ActionID, s S) S {
	if eff := d.Actions[a].Effect; eff != nil {
		return eff(s)
	}
	return s
}

// Holds reports whether goal g holds in s.
func (d *Domain[S]) Holds(g GoalID, s S) bool { return d.Goals[g].Cond(s) }

// Simulate applies the steps to s in order, checking each precondition
// first. It returns the state after the last step, or a *PlanningError
// with reason PreconditionStale naming the first step whose precondition
// fails in the simulated state.
func (d *Domain[S]) Simulate(s S, steps []ActionID) (S, error) {
	for i, a := range steps {
		if a < 0 || int(a) >= len(d.Actions) {
			return s, fmt.Errorf("rolegen: %s: step %d: unknown action %d", d.Name, i, a)
		}
		if !d.Applicable(a, s) {
			return s, d.staleError(a, i)
		}
		s = d.Apply(a, s)
	}
	return s, nil
}

// Verify simulates p from s and checks that every goal p promises holds
// at the end.
func (d *Domain[S]) Verify(s S, p *Plan) error {
	end, err := d.Simulate(s, p.Steps)
	if err != nil {
		return err
	}
	for _, g := range p.Goals {
		if !d.Goals[g].Cond(end) {
			return d.unsatisfiedError(g)
		}
	}
	return nil
}

// PlanSchema returns the JSON Schema of an LLM plan over the domain's
// actions: an object with a list of steps, each naming one action as its
// capability with that action's typed arguments.
func (d *Domain[S]) PlanSchema() json.RawMessage { return json.RawMessage(d.Schema) }

// cost sums the costs of steps.
func (d *Domain[S]) cost(steps []ActionID) float64 {
	var c float64
	for _, a := range steps {
		c += d.Actions[a].Cost
	}
	return c
}
