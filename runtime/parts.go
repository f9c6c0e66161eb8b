package runtime

import (
	"math"
	"slices"
)

// Cmp is the comparison of a conjunct that compares one state field with a
// constant.
type Cmp uint8

// Comparisons of a Part. CmpNone stands for any other form of conjunct.
const (
	CmpNone Cmp = iota
	CmpEq
	CmpNe
	CmpLt
	CmpLe
	CmpGt
	CmpGe
)

var cmpText = [...]string{CmpNone: "?", CmpEq: "==", CmpNe: "!=", CmpLt: "<", CmpLe: "<=", CmpGt: ">", CmpGe: ">="}

func (c Cmp) String() string {
	if int(c) < len(cmpText) {
		return cmpText[c]
	}
	return "?"
}

// Part is one conjunct of a condition: an operand of its top-level &&, or
// the whole condition when it is no conjunction.
//
// When the conjunct compares one field with a constant (Ammo > 10,
// Mode == 'idle', Stance != Prone, Hidden, !Hidden), Cmp, Field and Num or
// Str describe it: a bool field's constant is Num 1 (true) or 0 (false),
// a numeric field's is Num, a string field's is Str. Planners then know
// which way an effect moves it. Any other conjunct has Cmp CmpNone, and
// planners learn of it only what its Reads say, and Any or Sum.
type Part struct {
	// Reads are the fields the conjunct reads, sorted.
	Reads []FieldID
	Cmp   Cmp
	Field FieldID
	Num   float64
	Str   string
	// Any, for a conjunct with Cmp CmpNone that is a disjunction of
	// comparisons of one field with a constant (Ale >= 6 || Barley >= 8),
	// are the forms of those comparisons, two or more: the conjunct
	// holds when any of them does. A goal's estimate is then the least
	// of theirs.
	Any []Part
	// Sum, for a conjunct with Cmp CmpNone that orders a sum of numeric
	// fields times constants against a constant (Pies + Soup >= 4), is
	// that comparison. Planners then know which way an effect that adds
	// constants to those fields moves the sum.
	Sum *Sum
}

// Sum is the comparison Σ Terms[k].Coef × Terms[k].Field Cmp Num, where
// Cmp is CmpLt, CmpLe, CmpGt or CmpGe, of numeric fields each named once.
type Sum struct {
	Terms []Term
	Cmp   Cmp
	Num   float64
}

// Term is one field of a Sum, times a constant.
type Term struct {
	Field FieldID
	Coef  float64
}

// sumValue is the value of sum sm in *s, its fields read with number.
func sumValue[S any](sm *Sum, s *S, number func(*S, FieldID) float64) float64 {
	v := 0.0
	for _, t := range sm.Terms {
		v += t.Coef * number(s, t.Field)
	}
	return v
}

// up reports whether the sum's comparison holds above some value (> or
// >=) rather than below one.
func (sm *Sum) up() bool { return sm.Cmp == CmpGt || sm.Cmp == CmpGe }

// step is what one run of an action with the given writes and changes
// adds to the sum, when it adds a constant to each of the sum's fields
// it writes (ok); mixed when some of those constants move the sum up and
// some down (a range that clamps one but not the other may then move it
// either way). Ranges may clamp a run's step, never enlarge it.
func (sm *Sum) step(writes []FieldID, changes []Change) (step float64, mixed, ok bool) {
	var up, down bool
	for _, t := range sm.Terms {
		if !slices.Contains(writes, t.Field) {
			continue
		}
		i := slices.IndexFunc(changes, func(ch Change) bool { return ch.Field == t.Field })
		if i < 0 {
			return 0, false, false // written, but not described
		}
		ch := &changes[i]
		if ch.Op != ChangeAdd || math.IsNaN(ch.Num) || math.IsInf(ch.Num, 0) {
			return 0, false, false
		}
		d := t.Coef * ch.Num
		up, down = up || d > 0, down || d < 0
		step += d
	}
	return step, up && down, true
}

// relation is relation for a part with a Sum, given the action's writes
// and changes (not nil).
func (sm *Sum) relation(writes []FieldID, changes []Change) Relation {
	step, mixed, ok := sm.step(writes, changes)
	switch {
	case !ok || mixed:
		return RelMaybe
	case step == 0:
		return RelNone
	case (step > 0) == sm.up():
		return RelAdvances
	}
	return RelOpposes
}

// holdsFor reports whether the part holds when its field has the constant
// value of a change (numeric num or string str).
func (p *Part) holdsFor(num float64, str string, isStr bool) bool {
	if isStr {
		switch p.Cmp {
		case CmpEq:
			return str == p.Str
		case CmpNe:
			return str != p.Str
		case CmpLt:
			return str < p.Str
		case CmpLe:
			return str <= p.Str
		case CmpGt:
			return str > p.Str
		case CmpGe:
			return str >= p.Str
		}
		return false
	}
	switch p.Cmp {
	case CmpEq:
		return num == p.Num
	case CmpNe:
		return num != p.Num
	case CmpLt:
		return num < p.Num
	case CmpLe:
		return num <= p.Num
	case CmpGt:
		return num > p.Num
	case CmpGe:
		return num >= p.Num
	}
	return false
}

// nearer reports whether a field that fails x cmp num moved nearer to
// holding from x to y (still failing): up for > and >=, down for < and
// <=, closer for ==; a field that fails != is at its constant, and any
// move makes it hold.
func nearer(cmp Cmp, num, x, y float64) bool {
	switch cmp {
	case CmpGt, CmpGe:
		return y > x
	case CmpLt, CmpLe:
		return y < x
	case CmpEq:
		return math.Abs(y-num) < math.Abs(x-num)
	}
	return false
}

// compare reports whether x cmp num holds (false for CmpNone).
func compare(cmp Cmp, x, num float64) bool {
	switch cmp {
	case CmpEq:
		return x == num
	case CmpNe:
		return x != num
	case CmpLt:
		return x < num
	case CmpLe:
		return x <= num
	case CmpGt:
		return x > num
	case CmpGe:
		return x >= num
	}
	return false
}

// gap is how far a numeric field's value x is from satisfying the part: 0
// when it does, more the further it is. Only the order of gaps means
// anything.
func (p *Part) gap(x float64) float64 {
	if p.holdsFor(x, "", false) {
		return 0
	}
	switch p.Cmp {
	case CmpEq:
		return math.Abs(x - p.Num)
	case CmpLt, CmpLe:
		return x - p.Num + 1
	case CmpGt, CmpGe:
		return p.Num - x + 1
	}
	return 1
}

// steps is how many steps adding step to a field of value x takes before
// the part holds: at least 1, +Inf when the steps lead an equality away
// from its constant.
func (p *Part) steps(x, step float64) float64 {
	if p.Cmp == CmpEq {
		q := (p.Num - x) / step
		if !(q > 0) {
			return math.Inf(1)
		}
		return math.Ceil(q)
	}
	step = math.Abs(step)
	if step == 0 {
		return 1
	}
	var n float64
	switch p.Cmp {
	case CmpGt:
		n = math.Floor((p.Num-x)/step) + 1
	case CmpGe:
		n = math.Ceil((p.Num - x) / step)
	case CmpLt:
		n = math.Floor((x-p.Num)/step) + 1
	case CmpLe:
		n = math.Ceil((x - p.Num) / step)
	default:
		return 1
	}
	if n < 1 || math.IsNaN(n) {
		return 1
	}
	return n
}

// ChangeOp is the form of an effect on one field.
type ChangeOp uint8

// Forms of a Change.
const (
	// ChangeOther: any other right-hand side (one that reads the state,
	// say): only running the effect tells what it does.
	ChangeOther ChangeOp = iota
	// ChangeSet: the field is set to a constant.
	ChangeSet
	// ChangeAdd: a constant is added to the field (negative for -= and
	// --).
	ChangeAdd
	// ChangeAddTimes: a constant times another field's value before the
	// effect (By) is added to the field: Coins += 7 * Pearls, Stock -=
	// Sold, Gold = Gold + 2 * Ingots.
	ChangeAddTimes
)

// Change describes what an action's effect does to one field: Field = Num
// (or Str, for a string field), Field += Num, Field += Num × By (another
// field, as it was before the effect), or something else.
type Change struct {
	Field FieldID
	Op    ChangeOp
	Num   float64
	Str   string
	By    FieldID // ChangeAddTimes only
}

// Relation is what an action can do to a conjunct, by the forms of both.
type Relation uint8

// Relations, from no use to sure use.
const (
	// RelNone: the action writes no field the conjunct reads.
	RelNone Relation = iota
	// RelOpposes: the action can never make the conjunct hold: it sets
	// its field to a value that fails it, or moves the field away from
	// what it needs.
	RelOpposes
	// RelMaybe: the action writes what the conjunct reads in a way only
	// running it tells (a right-hand side that reads the state, a
	// conjunct of another form, an equality approached by steps).
	RelMaybe
	// RelAdvances: the action moves the field toward what the conjunct
	// needs (Food += 10 for Food > 80): repeated, it makes it hold.
	RelAdvances
	// RelAchieves: the action makes the conjunct hold from any state
	// where it fails (Ammo = 30 for Ammo > 10).
	RelAchieves
)

var relationText = [...]string{RelNone: "none", RelOpposes: "opposes", RelMaybe: "maybe", RelAdvances: "advances", RelAchieves: "achieves"}

func (r Relation) String() string {
	if int(r) < len(relationText) {
		return relationText[r]
	}
	return "?"
}

// serves reports whether an action in relation r to a failing conjunct
// can help make it hold.
func (r Relation) serves() bool { return r >= RelMaybe }

// relation tells what an action with the given writes and changes can do
// to part p. changes may be nil (a domain built by hand): then every write
// of a field p reads is RelMaybe. strField reports whether a field holds
// strings.
func relation(p *Part, writes []FieldID, changes []Change, strField func(FieldID) bool) Relation {
	if !intersects(writes, p.Reads) {
		return RelNone
	}
	if p.Sum != nil && changes != nil {
		return p.Sum.relation(writes, changes)
	}
	if p.Any != nil && changes != nil {
		return anyRelation(p.Any, writes, changes, strField)
	}
	if p.Cmp == CmpNone || changes == nil {
		return RelMaybe
	}
	var c *Change
	for i := range changes {
		if changes[i].Field == p.Field {
			c = &changes[i]
			break
		}
	}
	if c == nil {
		// The part's field is written but not described: say nothing.
		return RelMaybe
	}
	isStr := strField(p.Field)
	switch c.Op {
	case ChangeSet:
		if p.holdsFor(c.Num, c.Str, isStr) {
			return RelAchieves
		}
		return RelOpposes
	case ChangeAdd:
		if isStr || c.Num == 0 || math.IsNaN(c.Num) {
			return RelMaybe
		}
		switch p.Cmp {
		case CmpNe:
			// The part fails only at the constant; any step leaves it.
			return RelAchieves
		case CmpEq:
			// Toward the constant from one side, away from the other.
			return RelMaybe
		case CmpLt, CmpLe:
			if c.Num < 0 {
				return RelAdvances
			}
			return RelOpposes
		case CmpGt, CmpGe:
			if c.Num > 0 {
				return RelAdvances
			}
			return RelOpposes
		}
	}
	return RelMaybe
}

// anyRelation is relation for a disjunction of comparisons: the action
// achieves it when it achieves one of them; where it fails, every one
// fails, and one the action does not write, or can never make hold,
// fails after it too, so an action that achieves or may advance none of
// them opposes it (walking to the mill for At == Office || At == Inn).
func anyRelation(any []Part, writes []FieldID, changes []Change, strField func(FieldID) bool) Relation {
	r := RelOpposes
	for i := range any {
		switch q := relation(&any[i], writes, changes, strField); q {
		case RelAchieves:
			return RelAchieves
		case RelNone, RelOpposes:
		default:
			r = RelMaybe
		}
	}
	return r
}
