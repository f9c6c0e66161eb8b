package runtime

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// condition is a goal's condition or an action's precondition as the
// planners see it: its conjuncts, and the actions that can serve them in
// the order the planners try them.
type condition[S any] struct {
	holds func(S) bool   // nil: holds in every state
	unmet func(S) uint64 // nil: a single part, failing when holds fails
	parts []Part         // at least one when holds is set
	// opts are the actions that can serve the condition: for a goal,
	// those that declare it in fulfills first; then, in declaration
	// order, those in a serving relation to one of its parts.
	opts []option
	// rels[a*len(parts)+i] is the relation of action a to parts[i];
	// steps[a*len(parts)+i], when a advances parts[i] (or adds to the
	// field of an equality), what one step adds to its field.
	rels  []Relation
	steps []float64
	// lost[a*len(parts)+i], when a advances parts[i] using up conjuncts of
	// its own precondition on other fields, is what giving those back
	// moves parts[i]'s field away a run of a, at least (see Domain.nets);
	// nil when no action's is any.
	lost []float64
	// per[a*len(parts)+i], when a fills parts[i] (see Domain.fillStep),
	// what it adds toward it per unit of the field it multiplies; nil
	// when no action fills any part.
	per []float64
	// kept: the parts that no action moves away from holding (bit i
	// for parts[i]): what a step does for them stays done. ownKept, of an
	// action's precondition: the parts no other action moves away from
	// holding (see keepBesides).
	kept, ownKept uint64
	// bounds[i] bounds the cost of making parts[i] hold (see heuristic.go);
	// flat, when positive, is the bound of every part, none of which
	// depends on the state (no action moves a field by steps, and no field
	// has a range, outside which a write may land it anywhere in it): the bound
	// of the condition whatever fails.
	bounds []partBound
	flat   float64
	// places each add to the bound of their part what bringing another
	// field to the value its serving actions need costs (see
	// heuristic_place.go): on different fields, which no action sets
	// two of.
	places []*place[S]
	placed uint64 // bit i: parts[i] has a place
	// anyOf[i], for a goal's part that is a disjunction of comparisons
	// (Part.Any), are the conditions of those comparisons, each bounded
	// as a goal of that one part: the part's bound is the least of
	// theirs (see Domain.boundAny). Nil when no part has one.
	anyOf [][]condition[S]
	// flow, when set, bounds a goal by the net change its numbers need
	// (heuristic_flow.go): the bound is the larger of both.
	flow *flow[S]
	// joint, when set, adds to the bounds of the parts that have places
	// on one field the least cost of a tour of them (see joint).
	joint *joint[S]
	// group[i] numbers the group of parts[i]: parts some action serves
	// together are in one group; disjoint, when every part is a group of
	// its own.
	group    []uint8
	disjoint bool
	// For an action's precondition: consumed marks the parts whose field
	// the action's own effect moves away from holding, use[i] by how much
	// a run (see Domain.consumes); fill, the parts a batch of the action
	// asks more of when it adds a multiple of their field (use[i] is 1:
	// see Domain.fillPart).
	consumed, fill uint64
	use            []float64
	// givers[j], for a consumed part j, are the other actions that give it
	// back, each with its gain (Domain.givenBack), in declaration order;
	// opaque marks the consumed parts one gives back in a way its form
	// does not tell (see Domain.findGivers).
	givers [][]gives
	opaque uint64
	// cheapest[i] is the cost of the cheapest action that can serve
	// parts[i] (+Inf when none can), for the chainer's estimates.
	cheapest []float64
	// after[i] marks the parts to serve before parts[i] when they fail
	// (see Domain.orderParts); nil when there is none.
	after []uint64
	// ranged marks the parts that compare a field with a Range, and
	// landers are the actions that write such a part's field without an
	// option for the condition: from a value outside the range, which
	// only the live state has, they may serve it (see option.lands).
	// landed marks the parts some action writes without serving them.
	ranged, landed uint64
	landers        []option
}

// option is an action that can serve a condition.
type option struct {
	act ActionID
	// helps marks the parts the action can serve (every part for an
	// action that declares the goal in fulfills); sure those it achieves
	// or advances, which need no check after the step; advances those it
	// moves by steps of a constant (advances, or adds to the field of an
	// equality), which may take several steps.
	helps, sure, advances uint64
	// fills marks the parts the action moves toward holding by a multiple
	// of a field its precondition asks for some of (Domain.fillStep): one
	// step does more the more of that field there is.
	fills uint64
	// lands marks the parts on a field with a Range that the action
	// writes without serving them: from a value outside the range any
	// write lands the field in it (Health at -40 in 0..100, Health -= 5
	// leaves 0), which may make the part hold or bring it closer, so
	// that the action serves them there (see chainCall.outside).
	lands uint64
	// fulfills: the action declares the goal in fulfills.
	fulfills bool
}

// checkParts checks the parts of a condition as a domain gives them.
func checkParts(parts []Part, hasUnmet bool, validField func([]FieldID) error) error {
	switch {
	case len(parts) > 64:
		return errors.New("more than 64 parts")
	case hasUnmet && len(parts) < 2:
		return errors.New("an Unmet function needs two parts or more")
	case !hasUnmet && len(parts) > 1:
		return errors.New("two parts or more need an Unmet function")
	}
	for i, p := range parts {
		if err := validField(p.Reads); err != nil {
			return fmt.Errorf("part %d: %w", i, err)
		}
		if p.Cmp != CmpNone {
			if err := validField([]FieldID{p.Field}); err != nil {
				return fmt.Errorf("part %d: %w", i, err)
			}
			if !slices.Contains(p.Reads, p.Field) {
				return fmt.Errorf("part %d: compares field %d, which it does not read", i, p.Field)
			}
		}
		if p.Any == nil {
			continue
		}
		if p.Cmp != CmpNone || len(p.Any) < 2 {
			return fmt.Errorf("part %d: Any needs a part with no form and two comparisons or more", i)
		}
		for j, q := range p.Any {
			if q.Cmp == CmpNone || q.Any != nil || len(q.Reads) != 1 || q.Reads[0] != q.Field || !slices.Contains(p.Reads, q.Field) {
				return fmt.Errorf("part %d: Any[%d]: not a comparison of a field the part reads with a constant", i, j)
			}
			if err := validField(q.Reads); err != nil {
				return fmt.Errorf("part %d: Any[%d]: %w", i, j, err)
			}
		}
	}
	return nil
}

// newCondition derives the planners' view of a condition, in phases:
// the relation of every action to every part, the options (the actions
// that can serve a part, in the order the planners try them), the groups
// of parts that actions touch together, and the bounds of the parts. reads
// are the fields the whole condition reads (the one part when parts is
// nil); goal is the goal the condition is of, or NoGoal for a
// precondition.
func (d *Domain[S]) newCondition(holds func(S) bool, unmet func(S) uint64, parts []Part, reads []FieldID, goal GoalID) condition[S] {
	c := condition[S]{holds: holds, unmet: unmet, parts: parts}
	if holds == nil {
		return c
	}
	if len(c.parts) == 0 {
		c.parts = []Part{{Reads: reads}}
	}
	d.relate(&c)
	d.addOptions(&c, goal)
	d.groupParts(&c)
	d.boundParts(&c)
	d.addLanders(&c)
	c.cheapest = make([]float64, len(c.parts))
	for i := range c.cheapest {
		c.cheapest[i] = math.Inf(1)
		for _, o := range c.opts {
			if o.helps&(1<<i) != 0 {
				c.cheapest[i] = min(c.cheapest[i], d.Actions[o.act].Cost)
			}
		}
	}
	return c
}

// keepBesides sets ownKept, for c the precondition of action a: the
// parts that no action but a moves away from holding. A frame that
// establishes it takes a's steps only after its helpers', so what a
// itself uses up does not undo what a helper did for it (the water drawn
// twice at the well for two brews stays drawn until they brew).
func (c *condition[S]) keepBesides(a ActionID) { c.ownKept = c.keptBesides(a) }

// keptBesides returns the parts of c that no action but a (NoAction: no
// action at all) may move away from holding, by c.rels.
func (c *condition[S]) keptBesides(a ActionID) uint64 {
	n := len(c.parts)
	kept := uint64(1)<<n - 1 // all parts, for n up to 64 (1<<64 is 0)
	for ai := range len(c.rels) / max(n, 1) {
		if ActionID(ai) == a {
			continue
		}
		for i := range n {
			if r := c.rels[ai*n+i]; r == RelOpposes || r == RelMaybe {
				kept &^= 1 << i
			}
		}
	}
	return kept
}

// relate fills c.rels and c.steps: what each action can do to each part,
// and what one step of an action that moves a part's field by a constant
// adds to it.
func (d *Domain[S]) relate(c *condition[S]) {
	strField := func(f FieldID) bool { return d.Fields[f].Kind == KindString }
	n := len(c.parts)
	c.rels = make([]Relation, len(d.Actions)*n)
	c.steps = make([]float64, len(d.Actions)*n)
	for ai := range d.Actions {
		a := &d.Actions[ai]
		for i := range c.parts {
			p := &c.parts[i]
			r := relation(p, a.Writes, a.Changes, strField)
			if a.Effect != nil && (len(a.Writes) == 0 || len(p.Reads) == 0) {
				// The domain does not say what the action writes or the
				// part reads: the action may change anything.
				r = RelMaybe
			}
			c.rels[ai*n+i] = r
			if r == RelMaybe {
				if k := d.fillStep(ActionID(ai), p); k > 0 {
					if c.per == nil {
						c.per = make([]float64, len(d.Actions)*n)
					}
					c.per[ai*n+i] = k
				}
			}
			if p.Cmp != CmpNone && (r == RelAdvances || (r == RelMaybe && p.Cmp == CmpEq)) {
				for _, ch := range a.Changes {
					if ch.Field == p.Field && ch.Op == ChangeAdd {
						c.steps[ai*n+i] = ch.Num
					}
				}
			}
		}
	}
	c.kept = c.keptBesides(NoAction)
}

// addOptions lists the actions that can serve some part of c: for a
// goal, those that declare it in fulfills first; then, in declaration
// order, those in a serving relation to one of its parts.
func (d *Domain[S]) addOptions(c *condition[S], goal GoalID) {
	n := len(c.parts)
	all := uint64(1)<<n - 1
	if n == 64 {
		all = ^uint64(0)
	}
	add := func(ai int, fulfills bool) {
		o := option{act: ActionID(ai), fulfills: fulfills}
		for i := range n {
			switch r := c.rels[ai*n+i]; {
			case r >= RelAdvances:
				o.sure |= 1 << i
				o.helps |= 1 << i
			case r.serves():
				o.helps |= 1 << i
			}
			if c.steps[ai*n+i] != 0 {
				o.advances |= 1 << i
			}
			if c.per != nil && c.per[ai*n+i] > 0 {
				o.fills |= 1 << i
			}
		}
		if fulfills {
			o.helps = all
		}
		if o.helps != 0 {
			c.opts = append(c.opts, o)
		}
	}
	fulfills := func(ai int) bool { return goal != NoGoal && slices.Contains(d.Actions[ai].Fulfills, goal) }
	for ai := range d.Actions {
		if fulfills(ai) {
			add(ai, true)
		}
	}
	for ai := range d.Actions {
		if !fulfills(ai) {
			add(ai, false)
		}
	}
}

// addLanders marks the parts of c on a field with a Range (c.ranged) and,
// for each, the actions that write its field without serving it: an
// option's lands, or an option of c.landers for an action with none.
func (d *Domain[S]) addLanders(c *condition[S]) {
	n := len(c.parts)
	for i := range n {
		if c.bounds[i].ranged() {
			c.ranged |= 1 << i
		}
	}
	if c.ranged == 0 {
		return
	}
	writes := func(ai int) uint64 {
		var m uint64
		for w := c.ranged; w != 0; w &= w - 1 {
			if i := bits.TrailingZeros64(w); c.rels[ai*n+i] != RelNone {
				m |= 1 << i
			}
		}
		return m
	}
	optioned := make([]bool, len(d.Actions))
	for j := range c.opts {
		o := &c.opts[j]
		o.lands = writes(int(o.act)) &^ o.helps
		c.landed |= o.lands
		optioned[o.act] = true
	}
	for ai := range d.Actions {
		if m := writes(ai); m != 0 && !optioned[ai] {
			c.landers = append(c.landers, option{act: ActionID(ai), lands: m})
			c.landed |= m
		}
	}
}

// landable returns the parts of c in parts that some action writes
// without serving them, whose field *s has outside its range: a write
// lands it there, which may make the part hold.
func (d *Domain[S]) landable(c *condition[S], parts uint64, s *S) uint64 {
	var out uint64
	if d.Number == nil {
		return 0
	}
	for w := parts & c.landed; w != 0; w &= w - 1 {
		if i := bits.TrailingZeros64(w); c.outsideAt(i, d.Number(s, c.parts[i].Field)) {
			out |= 1 << i
		}
	}
	return out
}

// outsideAt reports whether x is outside the Range of part i's field.
func (c *condition[S]) outsideAt(i int, x float64) bool {
	return x < c.bounds[i].rlo || x > c.bounds[i].rhi
}

// groupParts groups the parts of c by the actions that touch them: those
// that serve a part, and those that set its field (the bound of a part
// may end with any setter).
func (d *Domain[S]) groupParts(c *condition[S]) {
	n := len(c.parts)
	touches := make([]bool, len(c.rels))
	for ai := range d.Actions {
		for i := range n {
			p := &c.parts[i]
			touches[ai*n+i] = c.rels[ai*n+i].serves() || p.Cmp != CmpNone && sets(d.Actions[ai].Changes, p.Field)
		}
	}
	c.group, c.disjoint = groupParts(touches, n)
}

// boundParts derives the bound of each part of c, and c.flat.
func (d *Domain[S]) boundParts(c *condition[S]) {
	n := len(c.parts)
	c.bounds = make([]partBound, n)
	for i := range n {
		c.bounds[i] = d.newPartBound(c, i)
		switch b := &c.bounds[i]; {
		case b.stepped() || b.ranged() || math.IsInf(b.reset, 1) || i > 0 && b.reset != c.flat:
			c.flat = -1
		case i == 0:
			c.flat = b.reset
		}
	}
}

// consumes fills c.use for the precondition c of action a: for each part
// that compares a numeric field with a constant and that a's own effect
// moves away from holding by a constant step (Wheat >= 1 for SellWheat,
// which does Wheat -= 1), what one run of a takes from the field. The
// chainer then establishes the precondition for several runs at once when
// a goal needs a to run several times (see chainCall.failing).
func (d *Domain[S]) consumes(c *condition[S], a ActionID) {
	if c.holds == nil {
		return
	}
	for i := range c.parts {
		p := &c.parts[i]
		if p.Cmp < CmpLt || d.Fields[p.Field].Kind == KindString || d.Fields[p.Field].Kind == KindBool {
			continue // equalities and strings are not consumed by steps
		}
		for _, ch := range d.Actions[a].Changes {
			if ch.Field != p.Field || ch.Op != ChangeAdd || ch.Num == 0 {
				continue
			}
			if up := p.Cmp >= CmpGt; up == (ch.Num < 0) && !d.saturatesHolding(p, ch.Num > 0) {
				if c.use == nil {
					c.use = make([]float64, len(c.parts))
				}
				c.use[i] = math.Abs(ch.Num)
				c.consumed |= 1 << i
			}
		}
	}
}

// fillStep is what one step of action a adds toward part p (an
// inequality of a number) per unit of another field, where a adds a
// multiple of that field's value to p's field (ChangeAddTimes: Coins +=
// 7 * Pearls for Coins >= 30) and its precondition asks for some of it
// (see fillPart): then a step does more the more of that field there is,
// and the chainer may ask for more before it (see chainCall.fillOf). 0
// where a does not.
func (d *Domain[S]) fillStep(a ActionID, p *Part) float64 {
	if p.Cmp < CmpLt || p.Sum != nil || p.Any != nil || d.Fields[p.Field].Kind == KindString {
		return 0
	}
	for _, ch := range d.Actions[a].Changes {
		if ch.Field != p.Field || ch.Op != ChangeAddTimes {
			continue
		}
		if up := p.Cmp >= CmpGt; up != (ch.Num > 0) || d.fillPart(a, ch.By) < 0 {
			return 0
		}
		return math.Abs(ch.Num)
	}
	return 0
}

// fillPart is the index of the conjunct of action a's precondition that
// asks for at least some of field by (by >= m or by > m, m >= 0), where
// a's effect does not add a constant to by (that part a consumes: see
// consumes); -1 where there is none. A batch of a's runs asks one more
// unit of by for each run after the first (use 1): a step with the batch
// established adds as much as the runs would one unit at a time.
func (d *Domain[S]) fillPart(a ActionID, by FieldID) int {
	act := &d.Actions[a]
	for _, ch := range act.Changes {
		if ch.Field == by && ch.Op == ChangeAdd {
			return -1
		}
	}
	for j := range act.PreParts {
		p := &act.PreParts[j]
		if p.Field == by && p.Sum == nil && p.Any == nil && p.Cmp >= CmpGt && p.Num >= 0 && len(p.Reads) == 1 {
			return j
		}
	}
	return -1
}

// fills marks, in precondition c of action a, the parts a batch of a
// asks more of for the multiples a adds (see fillPart), with their use.
func (d *Domain[S]) fills(c *condition[S], a ActionID) {
	for _, ch := range d.Actions[a].Changes {
		if ch.Op != ChangeAddTimes {
			continue
		}
		if j := d.fillPart(a, ch.By); j >= 0 && j < len(c.parts) {
			if c.use == nil {
				c.use = make([]float64, len(c.parts))
			}
			c.use[j], c.fill = 1, c.fill|1<<j
		}
	}
}

// saturatesHolding reports whether part p (Lt, Le, Gt or Ge) of a number
// holds at the end of its field's Range that steps up (or down) stop at:
// then no number of such steps makes it fail.
func (d *Domain[S]) saturatesHolding(p *Part, up bool) bool {
	rg := d.Fields[p.Field].Range
	end := rg.Lo()
	if up {
		end = rg.Hi()
	}
	return !math.IsInf(end, 0) && p.holdsFor(end, "", false)
}

// batch is how many runs of an action its precondition is established
// for, and the consumed parts that must leave enough for them all (see
// Domain.consumes). The zero batch is one run.
type batch struct {
	runs  int32
	parts uint64
}

// of reports whether part i of the precondition is established for more
// than one run.
func (b batch) of(i int) bool { return b.runs > 1 && b.parts&(1<<i) != 0 }

// shiftedNum is the constant of part i of c shifted for batch b (see
// shifted).
func (c *condition[S]) shiftedNum(i int, b batch) float64 {
	num := c.parts[i].Num
	if b.of(i) {
		more := float64(b.runs-1) * c.use[i]
		if c.parts[i].Cmp >= CmpGt {
			return num + more
		}
		return num - more
	}
	return num
}

// shifted returns part i of c as it must hold before the first of the
// runs of batch b of the action c is the precondition of: what the runs
// before the last take, added to the constant.
func (c *condition[S]) shifted(i int, b batch) Part {
	p := c.parts[i]
	if b.of(i) {
		more := float64(b.runs-1) * c.use[i]
		if p.Cmp >= CmpGt {
			p.Num += more
		} else {
			p.Num -= more
		}
	}
	return p
}

// failing returns the parts of c that fail in s, one bit each.
func (c *condition[S]) failing(s S) uint64 {
	switch {
	case c.holds == nil:
		return 0
	case c.unmet != nil:
		return c.unmet(s)
	case c.holds(s):
		return 0
	}
	return 1
}

// actions lists the actions of c's options.
func (c *condition[S]) actions() []ActionID {
	out := make([]ActionID, len(c.opts))
	for i, o := range c.opts {
		out[i] = o.act
	}
	return out
}

func (c *condition[S]) relation(a ActionID, part int) Relation {
	n := len(c.parts)
	if part < 0 || part >= n || a < 0 || int(a)*n >= len(c.rels) {
		return RelNone
	}
	return c.rels[int(a)*n+part]
}

// opposes reports whether action a moves a part of c in want away from
// holding (RelOpposes).
func (c *condition[S]) opposes(a ActionID, want uint64) bool {
	for w := want; w != 0; w &= w - 1 {
		if c.relation(a, bits.TrailingZeros64(w)) == RelOpposes {
			return true
		}
	}
	return false
}

// fields reads the numeric fields of one state on demand, each once,
// through Domain.Number.
type fields[S any] struct {
	number func(*S, FieldID) float64
	s      *S
	vals   []float64
	stamp  []uint32 // vals[f] is current when stamp[f] == gen
	gen    uint32
}

// reset makes r read *s (s must outlive r's use: a field of the planner).
func (r *fields[S]) reset(number func(*S, FieldID) float64, s *S, n int) {
	r.number, r.s = number, s
	if len(r.vals) < n {
		r.vals, r.stamp = make([]float64, n), make([]uint32, n)
	}
	r.gen++
	if r.gen == 0 {
		clear(r.stamp)
		r.gen = 1
	}
}

// get returns field f's value, or false when the domain has no Number.
func (r *fields[S]) get(f FieldID) (float64, bool) {
	if r.number == nil {
		return 0, false
	}
	if r.stamp[f] != r.gen {
		r.vals[f], r.stamp[f] = r.number(r.s, f), r.gen
	}
	return r.vals[f], true
}

// outside reports whether part i's field has a Range and a value outside
// it, as r reads it.
func (c *condition[S]) outside(i int, r *fields[S]) bool {
	if c.ranged&(1<<i) == 0 {
		return false
	}
	x, ok := r.get(c.parts[i].Field)
	return ok && c.outsideAt(i, x)
}

// stepsBound is a lower bound on the number of steps that make c hold: for
// each part failing (in failing), the fewest steps any one action that can
// serve it would need alone (1, or more for an action that advances the
// part's field by steps, read by r); the most over the parts.
// No mix of actions does better, as none moves a field further a step than
// the action that moves it furthest. +Inf when a failing part has no action
// that can serve it.
func (c *condition[S]) stepsBound(failing uint64, fs *fields[S]) float64 {
	n := len(c.parts)
	bound := 0.0
	for failing != 0 {
		i := bits.TrailingZeros64(failing)
		failing &= failing - 1
		// Outside its range, any write may land the field anywhere in it.
		outside := c.outside(i, fs)
		best := math.Inf(1)
		for a := range len(c.rels) / n {
			r := c.rels[a*n+i]
			switch {
			case outside && r != RelNone:
				best = 1
				continue
			case !r.serves():
				continue
			}
			k := 1.0
			if step := c.steps[a*n+i]; step != 0 {
				if x, ok := fs.get(c.parts[i].Field); ok {
					// +Inf: the action leads an equality's field away
					// from here, but may lead it there from where another
					// step leaves it.
					if k = c.parts[i].steps(x, step); math.IsInf(k, 1) {
						k = 1
					}
				}
			}
			best = min(best, k)
		}
		bound = max(bound, best)
	}
	return bound
}

// groupParts puts parts that some action touches together (touches[a*n+i]:
// action a touches part i) in one group, and reports whether every part is
// a group of its own.
func groupParts(touches []bool, n int) ([]uint8, bool) {
	group := make([]uint8, n)
	for i := range group {
		group[i] = uint8(i)
	}
	// find returns the smallest part of i's group.
	var find func(i int) int
	find = func(i int) int {
		for int(group[i]) != i {
			i = int(group[i])
		}
		return i
	}
	disjoint := true
	for a := 0; a*n < len(touches); a++ {
		first := -1
		for i := range n {
			if !touches[a*n+i] {
				continue
			}
			if first < 0 {
				first = i
				continue
			}
			x, y := find(first), find(i)
			if x != y {
				group[max(x, y)] = uint8(min(x, y))
				disjoint = false
			}
		}
	}
	for i := range group {
		group[i] = uint8(find(i))
	}
	return group, disjoint
}

// orderParts sets c.after: after[k] marks each other part j of c whose
// every option sets part k's field to a value that fails it, or needs the
// field at such a value (digging bait needs the shore, where casting
// needs the sea): serving k before such a part j would be undone, so the
// chainer serves k after it. Where k is an equality, so does every part
// whose options all need k's field at k's value (see below).
func (d *Domain[S]) orderParts(c *condition[S]) {
	n := len(c.parts)
	if n < 2 {
		return
	}
	for k := range c.parts {
		pk := &c.parts[k]
		if pk.Cmp == CmpNone {
			continue
		}
		isStr := d.Fields[pk.Field].Kind == KindString
		for j := range c.parts {
			if j == k {
				continue
			}
			some, all := false, true
			for oi := range c.opts {
				o := &c.opts[oi]
				if o.helps&(1<<j) == 0 {
					continue
				}
				some = true
				if o.helps&(1<<k) != 0 || !d.against(o.act, pk, isStr) {
					all = false
					break
				}
			}
			if some && all {
				if c.after == nil {
					c.after = make([]uint64, n)
				}
				c.after[k] |= 1 << j
			}
		}
	}
	if c.after == nil {
		return
	}
	// A part whose every option needs the field of an equality k at k's
	// value (sowing needs the field, where reaping does) waits for what k
	// waits for (drawing water needs the well): served first, it would
	// take the plan to k's value, away for the other, and back.
	for k := range c.parts {
		pk := &c.parts[k]
		if pk.Cmp != CmpEq || c.after[k] == 0 {
			continue
		}
		isStr := d.Fields[pk.Field].Kind == KindString
		for m := range c.parts {
			if m == k || c.after[k]&(1<<m) != 0 {
				continue
			}
			some, all := false, true
			for oi := range c.opts {
				o := &c.opts[oi]
				if o.helps&(1<<m) == 0 {
					continue
				}
				some = true
				if o.helps&(1<<k) != 0 || !d.needsAt(o.act, pk, isStr) {
					all = false
					break
				}
			}
			if some && all {
				c.after[m] |= c.after[k] &^ (1 << m)
			}
		}
	}
}

// needsAt reports whether action a's precondition needs part p's field
// (of an equality) at p's constant.
func (d *Domain[S]) needsAt(a ActionID, p *Part, isStr bool) bool {
	for i := range d.pres[a].parts {
		q := &d.pres[a].parts[i]
		if q.Field == p.Field && q.Cmp == CmpEq && p.holdsFor(q.Num, q.Str, isStr) {
			return true
		}
	}
	return false
}

// against reports whether action a sets part p's field to a constant
// that fails p, or needs the field at a value that fails p (the constant
// of its equality, or any but the constant of p's equality). An action
// that only moves the field by steps (walking tires) is not against it:
// what it takes, serving p first with room to spare may leave.
func (d *Domain[S]) against(a ActionID, p *Part, isStr bool) bool {
	for _, ch := range d.Actions[a].Changes {
		if ch.Field == p.Field && ch.Op == ChangeSet && !p.holdsFor(ch.Num, ch.Str, isStr) {
			return true
		}
	}
	for i := range d.pres[a].parts {
		q := &d.pres[a].parts[i]
		switch {
		case q.Field != p.Field:
		case q.Cmp == CmpEq && !p.holdsFor(q.Num, q.Str, isStr):
			return true
		case q.Cmp == CmpNe && p.Cmp == CmpEq && q.Num == p.Num && q.Str == p.Str:
			return true
		}
	}
	return false
}
