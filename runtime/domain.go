package runtime

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
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

// numeric reports whether k is a number's kind.
func (k Kind) numeric() bool { return k == KindInt || k == KindUint || k == KindFloat }

// Field describes a state field.
type Field struct {
	Name string
	// Type is the field's Go type as the role's package writes it.
	Type string
	Kind Kind
	// Range is where a saturating number stays (plan:"state; min=0;
	// max=100"): every effect that assigns the field clamps its value
	// into it. The zero Range bounds nothing. The live state is read as
	// it is; planners rely on the range only for a value an effect wrote.
	Range Range
}

// Range is the interval of a saturating field: [Min, Max], each end only
// where HasMin or HasMax says the role gave it.
type Range struct {
	Min, Max       float64
	HasMin, HasMax bool
}

// Lo is the range's lower end, -Inf when it has none.
func (r Range) Lo() float64 {
	if !r.HasMin {
		return math.Inf(-1)
	}
	return r.Min
}

// clamp is x within the range.
func (r Range) clamp(x float64) float64 { return min(max(x, r.Lo()), r.Hi()) }

// Hi is the range's upper end, +Inf when it has none.
func (r Range) Hi() float64 {
	if !r.HasMax {
		return math.Inf(1)
	}
	return r.Max
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

	// Cost is the action's cost, > 0. When CostOf is set, the cost
	// depends on the state (cost="2 + Distance / 10"): CostOf(s) is the
	// cost of the action taken in s, and Cost a lower bound of it (0 when
	// none is known), on which the planners' estimates rely.
	Cost   float64
	CostOf func(S) float64
	// CostText is the cost as written when it depends on the state.
	CostText string
	Value    float64
	Weight   float64
	Tags     []string

	// PreReads are the fields the precondition reads.
	PreReads []FieldID
	// PreParts are the conjuncts of the precondition (the operands of
	// its top-level &&, or the whole precondition), at most 64; nil when
	// there is none or the domain does not say. PreUnmet, set when there
	// are two parts or more, reports with bit i set that PreParts[i] does
	// not hold. Planners use them to pick, for a failing conjunct, only
	// the actions that can make it hold.
	PreParts []Part
	PreUnmet func(S) uint64
	// Reads are the fields the precondition, the effects and the cost
	// read.
	Reads []FieldID
	// Writes are the fields the effects assign.
	Writes []FieldID
	// Changes describe the effects, one per field assigned, when the
	// domain says (generated domains do): planners tell from them which
	// way the action moves each field.
	Changes []Change
	// Fulfills are the goals the action declares it fulfills.
	Fulfills []GoalID
	// Guarded actions run only with an approver (see WithApprover).
	Guarded bool
	// Durative actions take ticks: their method has a runtime.Step
	// parameter and returns a Status, and an Agent calls it once per tick
	// until it is done. Other actions finish when their method returns.
	Durative bool
	// Uninterruptible actions (durative ones) run to their end once
	// begun: an Agent lets them finish before it follows a goal of higher
	// priority or drops the plan.
	Uninterruptible bool
	// Args is the JSON Schema of the action's typed argument, or "" when
	// it takes none: a closed object, whose properties keep their order.
	// Package llm assembles the schema of an LLM plan from the actions'
	// names, descriptions and Args.
	Args string
	// CheckArgs decodes JSON arguments exactly as the generated PerformJSON
	// does, into a value it drops, and returns the error PerformJSON would
	// return for them (nil when the action accepts them): what the schema
	// cannot say (a day 31 in February, a number too large for its type) is
	// refused before any step runs. Nil for an action without arguments.
	CheckArgs func(args json.RawMessage) error
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
	// Parts and Unmet split the condition into conjuncts as
	// Action.PreParts and Action.PreUnmet do.
	Parts []Part
	Unmet func(S) uint64
}

// Domain is a role's planning domain: its state fields, actions and goals
// in declaration order. Generated code builds it with NewDomain; treat it
// as read-only.
type Domain[S comparable] struct {
	Name    string
	Fields  []Field
	Actions []Action[S]
	Goals   []Goal[S]
	// Enabled, when set, tests every precondition at once: it writes into
	// bits (at least (len(Actions)+63)/64 words) one bit per action, bit
	// a%64 of bits[a/64], set when the action's precondition holds in *s.
	// Generated domains have it; planners that test every action in every
	// state (A*) use it instead of one call per action.
	Enabled func(s *S, bits []uint64)
	// Satisfied, when set, tests every goal at once as Enabled tests the
	// preconditions: bit g%64 of bits[g/64] is set when goal g holds in
	// *s. Generated domains have it; an Agent looks at its goals with it.
	Satisfied func(s *S, bits []uint64)
	// Replay, when set, applies steps to *s in order, each when its
	// precondition holds in the state the steps before it left, and
	// returns how many it applied: len(steps), or the index of the first
	// that could not apply (*s is then the state before it). Generated
	// domains have it, each action's precondition and effects inline; an
	// Agent replays the rest of its plan with it.
	Replay func(s *S, steps []ActionID) int
	// Number returns the value of field f of *s as a float64 when the
	// field is a number or a bool (true is 1), and 0 for a string field.
	// Generated domains have it; planners use it to tell whether a step
	// brings a field closer to what a conjunct needs.
	Number func(s *S, f FieldID) float64
	// Text returns the value of string field f of *s, and "" for any
	// other field. Generated domains of roles with a string field have
	// it; the relaxed reachability uses it to tell which of the role's
	// constants a field can come to hold (a location the agent cannot
	// leave).
	Text func(s *S, f FieldID) string
	// Hash returns a hash of *s (equal states hash equal). Generated
	// domains have it; planners' tables use it, and hash/maphash when it
	// is nil.
	Hash func(s *S) uint64
	// Key, when set, returns *s with its inert fields set to their zero
	// value: fields that no goal, precondition or cost reads, nor any
	// effect on a field they read (a clock every action advances). States
	// with the same key are one situation to the planners' searches, which
	// keep the first state of a situation they reach at least cost.
	// Generated domains with inert fields have it.
	Key func(s *S) S
	// Search, when set, runs A*'s search loop for the domain: it takes
	// states to expand from x.Next and gives x.Add, for each action whose
	// precondition holds, in declaration order, the state its effect
	// leaves as a key (Key: its inert fields zero), that key's Hash and
	// the values of the fields x.Fields names, until either says to stop.
	// It does in one loop, each action's precondition, effects and hash
	// inline, what Enabled, Effect, Key and Hash do action by action;
	// the search's order, limits and estimates stay A*'s (Search's
	// methods). Generated domains have it.
	Search func(x *Search[S])
	// Changed, when set, compares two states field by field: bit f of
	// its result is set when field f differs, for f < 63, and bit 63 when
	// any field from the 63rd on does. Generated domains have it; an Agent
	// uses it to check its plan only when a field the plan reads changed.
	Changed func(a, b *S) uint64

	actionIndex map[string]ActionID
	goalIndex   map[string]GoalID
	// goalOrder lists the goals by priority, highest first, ties in
	// declaration order.
	goalOrder []GoalID
	// goals[g] is goal g's condition as planners see it, pres[a] the
	// precondition of action a.
	goals []condition[S]
	pres  []condition[S]
	// giveShare[a] is the share of action a's cost that the supplies of
	// the goal being built charge for what it gives back to one consumed
	// field (see splitGivers).
	giveShare []float64
	// stateCosts: some action's cost depends on the state.
	stateCosts bool
	// flows: some goal condition, or a comparison of a goal's
	// disjunction, has a flow (see flowOf).
	flows bool
	// scratch holds *S for the methods that pass a state's address to
	// the domain's functions (LowerBound): the address of their argument
	// would make every call allocate it, and a Domain is shared by
	// goroutines.
	scratch *sync.Pool
	// setsConstants: some action sets a field to a constant.
	setsConstants bool
	// lasting[a]: action a sets a field to a constant that every action
	// writing that field sets it to, so that what it buys stays bought
	// (BuyPick's Pick = true; see greedy.batchProgress).
	lasting []bool
	// outstepped[a]: some action adds more in one step to a field action
	// a adds to (a rest's four energy, a nap's one; see
	// BackwardChainer.repeated).
	outstepped []bool
	// sets[a] has bit f%64 for each field f action a sets to a constant.
	sets []uint64
	// widens[a] is what action a might do to the fields it writes, for
	// the relaxed reachability (reach.go), and symbols[f] the constants
	// that string field f is compared with or set to there.
	widens  [][]widening
	symbols [][]string
	// ints are the integer fields, whose values the relaxed reachability
	// keeps on lattices (reach.go).
	ints []FieldID
	// firings[a] are the rules that bound how many times action a fires,
	// for the relaxed reachability (reach.go).
	firings [][]firingRule
	// agents is what the domain's agents share (agent_tables.go).
	agents *agentTables
	// partNames[g][i] names the fields part i of goal g reads, for the
	// errors of the relaxed reachability (see partFields).
	partNames [][]string
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
	d.scratch = &sync.Pool{New: func() any { return new(S) }}
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
		if err := checkParts(g.Parts, g.Unmet != nil, validField); err != nil {
			return fmt.Errorf("goal %q: %w", g.Name, err)
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
		if err := checkParts(a.PreParts, a.PreUnmet != nil, validField); err != nil {
			return fmt.Errorf("action %q: precondition: %w", a.Name, err)
		}
		if len(a.PreParts) > 0 && a.Pre == nil {
			return fmt.Errorf("action %q: PreParts without Pre", a.Name)
		}
		for _, c := range a.Changes {
			if !slices.Contains(a.Writes, c.Field) {
				return fmt.Errorf("action %q: a change of field %d it does not write", a.Name, c.Field)
			}
			if c.Op == ChangeAddTimes && (c.By < 0 || int(c.By) >= len(d.Fields) || c.By == c.Field || !d.Fields[c.By].Kind.numeric()) {
				return fmt.Errorf("action %q: the change of field %d adds a multiple of field %d, which is not another numeric field", a.Name, c.Field, c.By)
			}
		}
		if a.CostOf == nil && !(a.Cost > 0) || a.CostOf != nil && !(a.Cost >= 0) {
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

	d.stateCosts = d.hasStateCosts()
	d.sets = make([]uint64, len(d.Actions))
	for i := range d.Actions {
		for _, ch := range d.Actions[i].Changes {
			if ch.Op == ChangeSet {
				d.setsConstants = true
				d.sets[i] |= 1 << (uint(ch.Field) % 64)
			}
		}
	}
	d.lasting, d.outstepped = d.lastingActions(), d.outsteppedActions()
	d.goals = make([]condition[S], len(d.Goals))
	for gi := range d.Goals {
		g := &d.Goals[gi]
		d.goals[gi] = d.newCondition(g.Cond, g.Unmet, g.Parts, g.Reads, GoalID(gi))
	}
	d.pres = make([]condition[S], len(d.Actions))
	d.symbols = d.stringSymbols()
	for f := range d.Fields {
		if k := d.Fields[f].Kind; k == KindInt || k == KindUint {
			d.ints = append(d.ints, FieldID(f))
		}
	}
	for ai := range d.Actions {
		a := &d.Actions[ai]
		d.pres[ai] = d.newCondition(a.Pre, a.PreUnmet, a.PreParts, a.PreReads, NoGoal)
		if d.pres[ai].rels != nil {
			d.pres[ai].keepBesides(ActionID(ai))
		}
		d.widens = append(d.widens, d.widenings(ActionID(ai)))
		d.firings = append(d.firings, d.firingRules(ActionID(ai)))
		if d.Number != nil {
			d.consumes(&d.pres[ai], ActionID(ai))
			d.fills(&d.pres[ai], ActionID(ai))
			d.findGivers(&d.pres[ai], ActionID(ai))
		}
	}
	for gi := range d.goals {
		d.nets(&d.goals[gi])
	}
	for ai := range d.pres {
		d.nets(&d.pres[ai])
	}
	d.partNames = make([][]string, len(d.goals))
	for gi := range d.goals {
		for _, p := range d.goals[gi].parts {
			d.partNames[gi] = append(d.partNames[gi], d.fieldList(p.Reads))
		}
	}
	for gi := range d.goals {
		d.boundGoal(&d.goals[gi])
		d.orderParts(&d.goals[gi])
		d.boundAny(&d.goals[gi])
	}
	for ai := range d.pres {
		d.orderParts(&d.pres[ai])
	}
	d.agents = newAgentTables(d)
	return nil
}

// fieldList names fields fs: "Fame", "Ale and Wine", "Ale, Wine and
// Where".
func (d *Domain[S]) fieldList(fs []FieldID) string {
	var b strings.Builder
	for i, f := range fs {
		switch {
		case i == 0:
		case i == len(fs)-1:
			b.WriteString(" and ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(d.Fields[f].Name)
	}
	return b.String()
}

// partFields names the fields part i of goal g reads ("" for no goal).
func (d *Domain[S]) partFields(g GoalID, i int) string {
	if g < 0 || int(g) >= len(d.partNames) || i < 0 || i >= len(d.partNames[g]) {
		return ""
	}
	return d.partNames[g][i]
}

// lastingActions returns, for each action, whether it sets a field to a
// constant that no action ever changes: every action that writes the
// field sets it to that constant (see Domain.lasting).
func (d *Domain[S]) lastingActions() []bool {
	lasting := make([]bool, len(d.Actions))
	for i := range d.Actions {
		for _, ch := range d.Actions[i].Changes {
			if ch.Op == ChangeSet && d.onlySetTo(ch) {
				lasting[i] = true
				break
			}
		}
	}
	return lasting
}

// onlySetTo reports whether every action that writes ch's field sets it to
// ch's constant.
func (d *Domain[S]) onlySetTo(ch Change) bool {
	for j := range d.Actions {
		b := &d.Actions[j]
		if !slices.Contains(b.Writes, ch.Field) {
			continue
		}
		i := slices.IndexFunc(b.Changes, func(c Change) bool { return c.Field == ch.Field })
		if i < 0 || b.Changes[i].Op != ChangeSet || b.Changes[i].Num != ch.Num || b.Changes[i].Str != ch.Str {
			return false
		}
	}
	return true
}

// outsteppedActions returns, for each action, whether some action adds
// more in one step to a field it adds to (see Domain.outstepped).
func (d *Domain[S]) outsteppedActions() []bool {
	most := map[FieldID]float64{} // the most an action adds to each field
	for i := range d.Actions {
		for _, ch := range d.Actions[i].Changes {
			if ch.Op == ChangeAdd && ch.Num > 0 {
				most[ch.Field] = max(most[ch.Field], ch.Num)
			}
		}
	}
	outstepped := make([]bool, len(d.Actions))
	for i := range d.Actions {
		for _, ch := range d.Actions[i].Changes {
			if ch.Op == ChangeAdd && ch.Num > 0 && most[ch.Field] > ch.Num {
				outstepped[i] = true
			}
		}
	}
	return outstepped
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

// Names returns the names of actions, in order, for printing:
// fmt.Println(d.Names(plan.Steps)) prints [FetchMagazine Reload].
func (d *Domain[S]) Names(actions []ActionID) []string {
	out := make([]string, len(actions))
	for i, a := range actions {
		out[i] = d.ActionName(a)
	}
	return out
}

// GoalNames returns the names of goals, in order.
func (d *Domain[S]) GoalNames(goals []GoalID) []string {
	out := make([]string, len(goals))
	for i, g := range goals {
		out[i] = d.GoalName(g)
	}
	return out
}

// Format returns p as a person reads it: its steps by name, its cost and
// the goals it promises, as in "[FetchMagazine Reload] (cost 3, goals
// Armed)".
func (d *Domain[S]) Format(p Plan) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, a := range p.Steps {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(d.ActionName(a))
	}
	fmt.Fprintf(&b, "] (cost %g", p.Cost)
	if len(p.Goals) > 0 {
		b.WriteString(", goals ")
		b.WriteString(strings.Join(d.GoalNames(p.Goals), " "))
	}
	b.WriteByte(')')
	return b.String()
}

// GoalOrder returns the goals by priority, highest first, ties in
// declaration order: the order planners visit them.
func (d *Domain[S]) GoalOrder() []GoalID { return slices.Clone(d.goalOrder) }

// Serves returns the actions that can serve goal g, in the order planners
// try them: those that declare it in fulfills, then those that can make a
// conjunct of its condition hold (they write a field it reads, and not only
// in the wrong direction: see Relation).
func (d *Domain[S]) Serves(g GoalID) []ActionID { return d.goals[g].actions() }

// Helpers returns the actions that can make a conjunct of the precondition
// of a hold, in declaration order: what backward chaining tries when the
// precondition of a does not hold.
func (d *Domain[S]) Helpers(a ActionID) []ActionID { return d.pres[a].actions() }

// Relation tells what action a can do to conjunct part of goal g's
// condition (part indexes Goal.Parts; 0 for a goal without parts).
func (d *Domain[S]) Relation(a ActionID, g GoalID, part int) Relation {
	return d.goals[g].relation(a, part)
}

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

// LowerBound returns a lower bound on the cost of any plan that makes goal
// g hold from s, derived from the forms of the goal's conjuncts and of the
// actions' effects (see Part and Change): 0 when g holds, +Inf when some
// failing conjunct of g cannot be made to hold by any action. It is A*'s
// default estimate, and a measure of how far a state is from a goal.
// It does not allocate (the state it reads through Number is kept for the
// next call).
func (d *Domain[S]) LowerBound(g GoalID, s S) float64 {
	p := d.scratch.Get().(*S)
	*p = s
	b := d.goals[g].bound(p, d.Number)
	d.scratch.Put(p)
	return b
}

// key returns the situation of *s: Key(s), or *s without Key.
func (d *Domain[S]) key(s *S) S {
	if d.Key == nil {
		return *s
	}
	return d.Key(s)
}

// Holds reports whether goal g holds in s.
func (d *Domain[S]) Holds(g GoalID, s S) bool { return d.Goals[g].Cond(s) }

// FirstUnsatisfied returns the first of goals that does not hold in s, or
// NoGoal when all of them hold.
func (d *Domain[S]) FirstUnsatisfied(goals []GoalID, s S) GoalID {
	for _, g := range goals {
		if !d.Goals[g].Cond(s) {
			return g
		}
	}
	return NoGoal
}

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
			return s, d.StaleError(a, i)
		}
		s = d.Apply(a, s)
	}
	return s, nil
}

// Verify simulates p from s and checks that every goal p promises holds
// at the end, and that every step's cost is positive.
func (d *Domain[S]) Verify(s S, p *Plan) error {
	end, err := d.Simulate(s, p.Steps)
	if err != nil {
		return err
	}
	if d.stateCosts {
		if _, err := d.PathCost(s, p.Steps); err != nil {
			return err
		}
	}
	if g := d.FirstUnsatisfied(p.Goals, end); g != NoGoal {
		return d.UnsatisfiedError(g)
	}
	return nil
}

// verifyAt is Verify, with the generated Replay when the domain has it
// (every step's precondition and effects inline) and no cost depends on
// the state; Verify itself tells what is wrong when something is. *at is
// its scratch: a planner's field, as the address of s would make every
// call allocate it.
func (d *Domain[S]) verifyAt(s S, p *Plan, at *S) error {
	if d.Replay == nil || d.stateCosts {
		return d.Verify(s, p)
	}
	*at = s
	if d.Replay(at, p.Steps) != len(p.Steps) || d.FirstUnsatisfied(p.Goals, *at) != NoGoal {
		return d.Verify(s, p)
	}
	return nil
}

// StepCost returns the cost of action a taken in s: its Cost, or CostOf(s)
// for a cost that depends on the state, which must then be positive: a
// cost that is not (0, negative, NaN) is a *PlanningError with reason
// InvalidCost.
func (d *Domain[S]) StepCost(a ActionID, s S) (float64, error) {
	act := &d.Actions[a]
	if act.CostOf == nil {
		return act.Cost, nil
	}
	c := act.CostOf(s)
	if !(c > 0) || math.IsInf(c, 1) {
		e := d.newError(InvalidCost, NoGoal, a)
		e.Cost = c
		return 0, e
	}
	return c, nil
}

// PathCost returns the cost of steps taken from s, in order, without
// checking their preconditions.
func (d *Domain[S]) PathCost(s S, steps []ActionID) (float64, error) {
	var total float64
	for _, a := range steps {
		c, err := d.StepCost(a, s)
		if err != nil {
			return 0, err
		}
		total += c
		s = d.Apply(a, s)
	}
	return total, nil
}

// planCost is the cost of steps from s: the sum of the actions' costs, or
// PathCost when some depend on the state.
func (d *Domain[S]) planCost(s S, steps []ActionID) (float64, error) {
	if d.stateCosts {
		return d.PathCost(s, steps)
	}
	var c float64
	for _, a := range steps {
		c += d.Actions[a].Cost
	}
	return c, nil
}

// hasStateCosts reports whether some action's cost depends on the state.
func (d *Domain[S]) hasStateCosts() bool {
	for i := range d.Actions {
		if d.Actions[i].CostOf != nil {
			return true
		}
	}
	return false
}
