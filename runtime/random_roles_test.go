package runtime_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
)

// Random roles of the shape a new user writes: a few small int fields,
// actions with a precondition of one or two conjuncts and one or two
// effects (a set, or a step up or down with its bound in the
// precondition), costs 1 to 4, and one goal of two conjuncts; optionally a
// clock field that every action advances and no condition reads. The
// domain is built by hand exactly as rolegen generates it (parts, changes,
// unmet masks, Number), and A* is the reference for what is solvable and
// at what cost.

const roleFields = 5 // four fields and the clock

type roleState struct{ V [roleFields]int }

type roleLit struct {
	f  int
	op runtime.Cmp
	k  int
}

func (l roleLit) holds(s roleState) bool {
	v := s.V[l.f]
	switch l.op {
	case runtime.CmpEq:
		return v == l.k
	case runtime.CmpNe:
		return v != l.k
	case runtime.CmpLt:
		return v < l.k
	case runtime.CmpLe:
		return v <= l.k
	case runtime.CmpGt:
		return v > l.k
	}
	return v >= l.k
}

func (l roleLit) String() string { return fmt.Sprintf("V%d %s %d", l.f, l.op, l.k) }

type roleEffect struct {
	f   int
	add bool
	k   int
	// times: the effect adds k times field by (as it was before the
	// action): a sale of the whole bag (see sellsAll).
	times bool
	by    int
}

// sellsAll makes a add k times field by to field f and empty by, which
// it needs one of at least: Coins += 7 * Pearls, Pearls = 0.
func (a *roleAction) sellsAll(f, by, k int) {
	a.eff = append(a.eff, roleEffect{f: f, k: k, times: true, by: by}, roleEffect{f: by})
	a.pre = append(a.pre, roleLit{f: by, op: runtime.CmpGe, k: 1})
}

type roleAction struct {
	pre []roleLit
	// anyOf, when set, is one more conjunct of the precondition: the
	// disjunction of its literals (At == Mill || At == Farm).
	anyOf []roleLit
	eff   []roleEffect
	cost  float64
}

// unmet is the precondition's failing parts in s, a.pre's then a.anyOf's.
func (a *roleAction) unmet(s roleState) uint64 {
	var m uint64
	for i, l := range a.pre {
		if !l.holds(s) {
			m |= 1 << i
		}
	}
	if !slices.ContainsFunc(a.anyOf, func(l roleLit) bool { return l.holds(s) }) {
		m |= 1 << len(a.pre)
	}
	return m
}

// applies reports whether a's precondition holds in s.
func (a *roleAction) applies(s roleState) bool {
	return holdAll(a.pre, s) && (a.anyOf == nil || slices.ContainsFunc(a.anyOf, func(l roleLit) bool { return l.holds(s) }))
}

// adds makes a add k to field f, within 0..4 (its precondition leaves
// the room).
func (a *roleAction) adds(f, k int) {
	a.eff = append(a.eff, roleEffect{f: f, add: true, k: k})
	a.pre = append(a.pre, roleLit{f: f, op: runtime.CmpLe, k: 4 - k})
}

// uses makes a use up u of field f, which it needs.
func (a *roleAction) uses(f, u int) {
	a.eff = append(a.eff, roleEffect{f: f, add: true, k: -u})
	a.pre = append(a.pre, roleLit{f: f, op: runtime.CmpGe, k: u})
}

// randomRole is one random role: its literals, and the domain built
// from them.
type randomRole struct {
	nf    int // fields read by conditions: V0..V(nf-1)
	clock bool
	// str: V(nf-1) is a string field to the domain (a place): its
	// conjuncts compare it with == and != to "p0".."p4", and its effects
	// set it (see newRandomRoleWithString).
	str     bool
	actions []roleAction
	goal    []roleLit
	// anyGoal: the goal is the disjunction of its literals, one part
	// whose Part.Any are their forms (a goal such as Ale >= 6 || Barley
	// >= 8).
	anyGoal bool
	// ranges, when set, saturate the fields: each effect clamps the value
	// it writes into the field's range (see newRandomRangedRole).
	ranges []runtime.Range
	// keep, when set, is a second goal K, of higher priority than G (see
	// TestPlannersKeepGoalsOnTheWay).
	keep []roleLit
	// sum, when set, is the goal's first conjunct, before the literals
	// of goal (see newSumRole); opaque leaves its Part without the form
	// of its Sum, as for a conjunct of no known form.
	sum    *roleSum
	opaque bool
	d      *runtime.Domain[roleState]
}

var roleOps = []runtime.Cmp{runtime.CmpEq, runtime.CmpNe, runtime.CmpLt, runtime.CmpLe, runtime.CmpGt, runtime.CmpGe}

// newRandomRole draws a role: nf fields with values 0..4, n actions, a
// goal of two conjuncts.
func newRandomRole(r *rand.Rand, nf, n int, clock bool) *randomRole {
	return newRandomRoleWithGoal(r, nf, n, clock, 2)
}

// newRandomRoleWithGoal is newRandomRole with a goal of parts conjuncts
// (at most nf).
func newRandomRoleWithGoal(r *rand.Rand, nf, n int, clock bool, parts int) *randomRole {
	return newRandomRoleOf(r, &randomRole{nf: nf, clock: clock}, n, parts)
}

// newRandomRoleWithString is newRandomRoleWithGoal with V(nf-1) a string
// field: a place, which conditions compare with == and != and effects
// set. The ints stand for "p0".."p4"; the domain sees strings (Part.Str,
// Change.Str, Text).
func newRandomRoleWithString(r *rand.Rand, nf, n, parts int) *randomRole {
	return newRandomRoleOf(r, &randomRole{nf: nf, str: true}, n, parts)
}

func newRandomRoleOf(r *rand.Rand, rr *randomRole, n, parts int) *randomRole {
	nf := rr.nf
	lit := func() roleLit {
		l := roleLit{f: r.IntN(nf), op: roleOps[r.IntN(len(roleOps))], k: r.IntN(5)}
		if rr.isStr(l.f) {
			l.op = roleOps[r.IntN(2)] // == or !=
		}
		return l
	}
	for range n {
		var a roleAction
		for _, f := range r.Perm(nf)[:1+r.IntN(2)] {
			kind := r.IntN(3)
			if rr.isStr(f) {
				kind = 0 // strings are set
			}
			switch kind {
			case 0:
				a.eff = append(a.eff, roleEffect{f: f, k: r.IntN(5)})
			case 1:
				a.eff = append(a.eff, roleEffect{f: f, add: true, k: 1})
				a.pre = append(a.pre, roleLit{f: f, op: runtime.CmpLe, k: 3})
			default:
				a.eff = append(a.eff, roleEffect{f: f, add: true, k: -1})
				a.pre = append(a.pre, roleLit{f: f, op: runtime.CmpGe, k: 1})
			}
		}
		for len(a.pre) < 1+r.IntN(2) {
			a.pre = append(a.pre, lit())
		}
		a.cost = float64(1 + r.IntN(4))
		rr.actions = append(rr.actions, a)
	}
	for _, f := range r.Perm(nf)[:parts] {
		l := lit()
		l.f = f
		if rr.isStr(f) {
			l.op = roleOps[l.k%2] // == or !=
		}
		rr.goal = append(rr.goal, l)
	}
	rr.d = rr.domain()
	return rr
}

// newRandomRangedRole is a random role over nf fields that saturate: each
// has a range within 0..4 (lo 0 or 1, hi 3 or 4), and its effects add
// steps of 1 to 3 either way with nothing but the range to stop them, or
// set a value. Some actions take steps on two fields, one of which their
// precondition bounds (Forage: Food += 2, Tired += 1 while Tired < 3), so
// that the estimate counts the steps the range allows after each action
// that makes that bound hold again (see consumption.refill).
func newRandomRangedRole(r *rand.Rand, nf, n, parts int) *randomRole {
	rr := &randomRole{nf: nf, ranges: make([]runtime.Range, roleFields)}
	for f := range nf {
		rr.ranges[f] = runtime.Range{Min: float64(r.IntN(2)), Max: float64(3 + r.IntN(2)), HasMin: true, HasMax: true}
	}
	lit := func(f int) roleLit {
		return roleLit{f: f, op: roleOps[r.IntN(len(roleOps))], k: r.IntN(5)}
	}
	for range n {
		var a roleAction
		fs := r.Perm(nf)[:1+r.IntN(2)]
		for _, f := range fs {
			if r.IntN(4) == 0 {
				a.eff = append(a.eff, roleEffect{f: f, k: r.IntN(5)})
				continue
			}
			k := 1 + r.IntN(3)
			if r.IntN(3) == 0 {
				k = -k
			}
			a.eff = append(a.eff, roleEffect{f: f, add: true, k: k})
		}
		if len(fs) == 2 && r.IntN(2) == 0 {
			// The second field's steps use up a bound of the precondition.
			e := a.eff[1]
			if e.add && e.k > 0 {
				a.pre = append(a.pre, roleLit{f: e.f, op: []runtime.Cmp{runtime.CmpLt, runtime.CmpLe}[r.IntN(2)], k: 2 + r.IntN(2)})
			} else if e.add {
				a.pre = append(a.pre, roleLit{f: e.f, op: []runtime.Cmp{runtime.CmpGt, runtime.CmpGe}[r.IntN(2)], k: 1 + r.IntN(2)})
			}
		}
		for len(a.pre) < r.IntN(2) {
			a.pre = append(a.pre, lit(r.IntN(nf)))
		}
		a.cost = float64(1 + r.IntN(4))
		rr.actions = append(rr.actions, a)
	}
	for _, f := range r.Perm(nf)[:parts] {
		rr.goal = append(rr.goal, lit(f))
	}
	rr.d = rr.domain()
	return rr
}

// roleSum is the comparison Σ coef × V(field) op k.
type roleSum struct {
	fields, coefs []int
	op            runtime.Cmp
	k             int
}

func (sm *roleSum) value(s roleState) int {
	v := 0
	for i, f := range sm.fields {
		v += sm.coefs[i] * s.V[f]
	}
	return v
}

func (sm *roleSum) holds(s roleState) bool {
	return roleLit{f: 0, op: sm.op, k: sm.k}.holds(roleState{V: [roleFields]int{sm.value(s)}})
}

func (sm *roleSum) String() string {
	var b strings.Builder
	for i, f := range sm.fields {
		if i > 0 {
			b.WriteString(" + ")
		}
		fmt.Fprintf(&b, "%d*V%d", sm.coefs[i], f)
	}
	fmt.Fprintf(&b, " %s %d", sm.op, sm.k)
	return b.String()
}

// part is the sum's conjunct; without its form when opaque.
func (sm *roleSum) part(opaque bool) runtime.Part {
	var p runtime.Part
	for _, f := range sm.fields {
		p.Reads = append(p.Reads, runtime.FieldID(f))
	}
	slices.Sort(p.Reads)
	if opaque {
		return p
	}
	p.Sum = &runtime.Sum{Cmp: sm.op, Num: float64(sm.k)}
	for i, f := range sm.fields {
		p.Sum.Terms = append(p.Sum.Terms, runtime.Term{Field: runtime.FieldID(f), Coef: float64(sm.coefs[i])})
	}
	return p
}

// withSum makes the goal of rr the comparison of a sum of two or three
// of its first nf fields (coefficients 1, 2 or -1), and keeps the first
// literal of its goal after it in every other role (k odd).
func (rr *randomRole) withSum(r *rand.Rand, nf, k int) *randomRole {
	sm := &roleSum{op: []runtime.Cmp{runtime.CmpGe, runtime.CmpGt, runtime.CmpLe, runtime.CmpLt}[r.IntN(4)]}
	lo, hi := 0, 0
	for _, f := range r.Perm(nf)[:2+r.IntN(min(2, nf-1))] {
		c := []int{1, 1, 2, -1}[r.IntN(4)]
		sm.fields, sm.coefs = append(sm.fields, f), append(sm.coefs, c)
		lo, hi = lo+min(0, 4*c), hi+max(0, 4*c)
	}
	sm.k = lo + 1 + r.IntN(max(hi-lo-1, 1))
	rr.sum = sm
	if k%2 == 0 || len(rr.goal) == 0 {
		rr.goal = nil
	} else {
		rr.goal = rr.goal[:1]
	}
	rr.d = rr.domain()
	return rr
}

func holdAll(lits []roleLit, s roleState) bool {
	for _, l := range lits {
		if !l.holds(s) {
			return false
		}
	}
	return true
}

func unmetOf(lits []roleLit) func(roleState) uint64 {
	if len(lits) < 2 {
		return nil
	}
	return func(s roleState) uint64 {
		var m uint64
		for i, l := range lits {
			if !l.holds(s) {
				m |= 1 << i
			}
		}
		return m
	}
}

func partsOf(lits []roleLit) []runtime.Part {
	var ps []runtime.Part
	for _, l := range lits {
		ps = append(ps, runtime.Part{Reads: []runtime.FieldID{runtime.FieldID(l.f)}, Cmp: l.op, Field: runtime.FieldID(l.f), Num: float64(l.k)})
	}
	return ps
}

func readsOf(lits []roleLit) []runtime.FieldID {
	var fs []runtime.FieldID
	for _, l := range lits {
		fs = append(fs, runtime.FieldID(l.f))
	}
	slices.Sort(fs)
	return slices.Compact(fs)
}

func (rr *randomRole) clockField() int { return roleFields - 1 }

// isStr reports whether field f is the role's string field.
func (rr *randomRole) isStr(f int) bool { return rr.str && f == rr.nf-1 }

// strOf gives the string parts and changes of the string field their
// constant ("p0".."p4") in place of the number.
func (rr *randomRole) strOf(ps []runtime.Part) []runtime.Part {
	for i := range ps {
		if rr.isStr(int(ps[i].Field)) {
			ps[i].Str, ps[i].Num = fmt.Sprintf("p%d", int(ps[i].Num)), 0
		}
	}
	return ps
}

func (rr *randomRole) apply(a *roleAction, s roleState) roleState {
	next := s
	for _, e := range a.eff {
		switch {
		case e.times:
			next.V[e.f] = s.V[e.f] + e.k*s.V[e.by]
		case e.add:
			next.V[e.f] = s.V[e.f] + e.k
		default:
			next.V[e.f] = e.k
		}
		if rr.ranges != nil {
			rg := rr.ranges[e.f]
			next.V[e.f] = int(min(max(float64(next.V[e.f]), rg.Lo()), rg.Hi()))
		}
	}
	if rr.clock {
		next.V[rr.clockField()]++
	}
	return next
}

func (rr *randomRole) domain() *runtime.Domain[roleState] {
	d := runtime.Domain[roleState]{Name: "Random"}
	for i := range roleFields {
		d.Fields = append(d.Fields, runtime.Field{Name: fmt.Sprintf("V%d", i), Type: "int", Kind: runtime.KindInt})
	}
	d.Fields[rr.clockField()].Name = "Tick"
	for i, rg := range rr.ranges {
		d.Fields[i].Range = rg
	}
	for i := range rr.actions {
		a := &rr.actions[i]
		act := runtime.Action[roleState]{
			Name:     fmt.Sprintf("A%d", i),
			Cost:     a.cost,
			Weight:   1,
			Pre:      a.applies,
			PreReads: readsOf(a.pre),
			PreParts: rr.strOf(partsOf(a.pre)),
			PreUnmet: unmetOf(a.pre),
			Effect:   func(s roleState) roleState { return rr.apply(a, s) },
		}
		var text []string
		for _, l := range a.pre {
			text = append(text, l.String())
		}
		if a.anyOf != nil {
			var or []string
			for _, l := range a.anyOf {
				or = append(or, l.String())
			}
			text = append(text, "("+strings.Join(or, " || ")+")")
			act.PreReads = append(act.PreReads, readsOf(a.anyOf)...)
			slices.Sort(act.PreReads)
			act.PreReads = slices.Compact(act.PreReads)
			act.PreParts = append(act.PreParts, runtime.Part{Reads: readsOf(a.anyOf), Any: rr.strOf(partsOf(a.anyOf))})
			act.PreUnmet = nil // one part: the Any alone
			if len(act.PreParts) > 1 {
				act.PreUnmet = a.unmet
			}
		}
		act.PreText = strings.Join(text, " && ")
		for _, e := range a.eff {
			act.Writes = append(act.Writes, runtime.FieldID(e.f))
			c := runtime.Change{Field: runtime.FieldID(e.f), Op: runtime.ChangeSet, Num: float64(e.k)}
			if rr.isStr(e.f) {
				c.Str, c.Num = fmt.Sprintf("p%d", e.k), 0
			}
			switch {
			case e.times:
				c.Op, c.By = runtime.ChangeAddTimes, runtime.FieldID(e.by)
				act.Reads = append(act.Reads, runtime.FieldID(e.f), runtime.FieldID(e.by))
			case e.add:
				c.Op = runtime.ChangeAdd
				act.Reads = append(act.Reads, runtime.FieldID(e.f))
			}
			act.Changes = append(act.Changes, c)
		}
		if rr.clock {
			act.Writes = append(act.Writes, runtime.FieldID(rr.clockField()))
			act.Reads = append(act.Reads, runtime.FieldID(rr.clockField()))
			act.Changes = append(act.Changes, runtime.Change{Field: runtime.FieldID(rr.clockField()), Op: runtime.ChangeAdd, Num: 1})
		}
		act.Reads = append(act.Reads, act.PreReads...)
		slices.Sort(act.Reads)
		act.Reads = slices.Compact(act.Reads)
		slices.Sort(act.Writes)
		slices.SortFunc(act.Changes, func(x, y runtime.Change) int { return int(x.Field - y.Field) })
		d.Actions = append(d.Actions, act)
	}
	var text []string
	for _, l := range rr.goal {
		text = append(text, l.String())
	}
	d.Goals = []runtime.Goal[roleState]{{
		Name:     "G",
		Cond:     func(s roleState) bool { return holdAll(rr.goal, s) },
		CondText: strings.Join(text, " && "),
		Reads:    readsOf(rr.goal),
		Parts:    rr.strOf(partsOf(rr.goal)),
		Unmet:    unmetOf(rr.goal),
	}}
	if rr.anyGoal {
		g := &d.Goals[0]
		g.Cond = func(s roleState) bool {
			return slices.ContainsFunc(rr.goal, func(l roleLit) bool { return l.holds(s) })
		}
		g.CondText = strings.Join(text, " || ")
		g.Parts, g.Unmet = []runtime.Part{{Reads: g.Reads, Any: rr.strOf(partsOf(rr.goal))}}, nil
	}
	if sm := rr.sum; sm != nil {
		g := &d.Goals[0]
		lits := rr.goal
		g.Cond = func(s roleState) bool { return sm.holds(s) && holdAll(lits, s) }
		g.CondText = strings.Join(append([]string{sm.String()}, text...), " && ")
		g.Parts = append([]runtime.Part{sm.part(rr.opaque)}, partsOf(lits)...)
		g.Reads = slices.Clone(g.Parts[0].Reads)
		for _, p := range g.Parts[1:] {
			g.Reads = append(g.Reads, p.Reads...)
		}
		slices.Sort(g.Reads)
		g.Reads = slices.Compact(g.Reads)
		g.Unmet = nil
		if len(lits) > 0 {
			g.Unmet = func(s roleState) uint64 {
				var m uint64
				if !sm.holds(s) {
					m |= 1
				}
				for i, l := range lits {
					if !l.holds(s) {
						m |= 2 << i
					}
				}
				return m
			}
		}
	}
	if len(rr.keep) > 0 {
		d.Goals = append(d.Goals, runtime.Goal[roleState]{
			Name:     "K",
			Priority: runtime.High,
			Cond:     func(s roleState) bool { return holdAll(rr.keep, s) },
			CondText: rr.keep[0].String(),
			Reads:    readsOf(rr.keep),
			Parts:    partsOf(rr.keep),
			Unmet:    unmetOf(rr.keep),
		})
	}
	d.Number = func(s *roleState, f runtime.FieldID) float64 { return float64(s.V[f]) }
	if rr.str {
		sf := rr.nf - 1
		d.Fields[sf].Type, d.Fields[sf].Kind = "string", runtime.KindString
		d.Number = func(s *roleState, f runtime.FieldID) float64 {
			if int(f) == sf {
				return 0
			}
			return float64(s.V[f])
		}
		d.Text = func(s *roleState, f runtime.FieldID) string {
			if int(f) == sf {
				return fmt.Sprintf("p%d", s.V[f])
			}
			return ""
		}
	}
	return runtime.NewDomain(d)
}

// roleProblem is a start of a random role that A* solves within 8 steps,
// with the optimal cost.
type roleProblem struct {
	role    int
	rr      *randomRole
	start   roleState
	optimal float64
}

// roleProblems draws roles×starts random problems and keeps those that A*
// solves within 8 steps.
func roleProblems(seed uint64, roles, starts int, clock bool) []roleProblem {
	r := rand.New(rand.NewPCG(seed, 0xbac))
	return problemsOf(r, roles, starts, func(int) *randomRole { return newRandomRole(r, 4, 8, clock) })
}

// problemsOf draws starts random starts of each of roles roles, the i-th
// built by role(i), and keeps those that A* solves within 8 steps.
func problemsOf(r *rand.Rand, roles, starts int, role func(i int) *randomRole) []roleProblem {
	ctx := context.Background()
	var out []roleProblem
	var ref runtime.Plan
	for i := range roles {
		rr := role(i)
		as := runtime.NewAStar(rr.d, runtime.WithMaxSteps(8))
		for range starts {
			var s roleState
			for j := range rr.nf {
				s.V[j] = r.IntN(5)
			}
			if rr.d.Holds(0, s) || as.PlanGoalInto(ctx, s, 0, &ref) != nil {
				continue
			}
			out = append(out, roleProblem{role: i, rr: rr, start: s, optimal: ref.Cost})
		}
	}
	return out
}

// chainerFigures are the figures of the backward chainer against A* on
// random roles: over the starts A* solves within 8 steps.
type chainerFigures struct {
	starts, found int
	ratios        []float64 // plan cost / optimal cost, found plans
	expansions    int       // over all calls
	maxExpansions int
	maxFound      int // the most expansions of a call that found a plan
	total, worst  time.Duration
	worstWhat     string
}

func (f *chainerFigures) percentile(p float64) float64 {
	if len(f.ratios) == 0 {
		return math.NaN()
	}
	r := slices.Clone(f.ratios)
	slices.Sort(r)
	return r[min(len(r)-1, int(math.Ceil(p*float64(len(r))))-1)]
}

func (f *chainerFigures) String() string {
	return fmt.Sprintf("%d starts: found %d (%.1f%%); cost/optimal median %.2f, p90 %.2f, max %.2f; "+
		"expansions mean %.0f, max %d (%d finding a plan); mean %v a call, worst %v (%s)",
		f.starts, f.found, 100*float64(f.found)/float64(f.starts), f.percentile(0.5), f.percentile(0.9), f.percentile(1),
		float64(f.expansions)/float64(max(f.starts, 1)), f.maxExpansions, f.maxFound,
		f.total/time.Duration(max(f.starts, 1)), f.worst, f.worstWhat)
}

// measureChainer plans every problem with a chainer of the options; every
// plan the chainer returns must be valid.
func measureChainer(t testing.TB, problems []roleProblem, opts ...runtime.BackwardOption) chainerFigures {
	ctx := context.Background()
	var f chainerFigures
	var plan runtime.Plan
	var bc *runtime.BackwardChainer[roleState]
	for i, p := range problems {
		if i == 0 || p.rr != problems[i-1].rr {
			bc = runtime.NewBackwardChainer(p.rr.d, opts...)
		}
		f.starts++
		begin := time.Now()
		err := bc.PlanGoalInto(ctx, p.start, 0, &plan)
		took := time.Since(begin)
		f.total += took
		f.expansions += plan.Expansions
		f.maxExpansions = max(f.maxExpansions, plan.Expansions)
		if took > f.worst {
			f.worst, f.worstWhat = took, fmt.Sprintf("role %d, start %v: %v", p.role, p.start.V, err)
		}
		if err != nil {
			continue
		}
		require.NoError(t, p.rr.d.Verify(p.start, &plan), "role %d start %v", p.role, p.start.V)
		require.True(t, p.rr.d.Holds(0, mustSimulate(t, p.rr.d, p.start, plan.Steps)))
		f.found++
		f.maxFound = max(f.maxFound, plan.Expansions)
		f.ratios = append(f.ratios, plan.Cost/p.optimal)
	}
	return f
}

func mustSimulate(t testing.TB, d *runtime.Domain[roleState], s roleState, steps []runtime.ActionID) roleState {
	end, err := d.Simulate(s, steps)
	require.NoError(t, err)
	return end
}

// TestBackwardChainerOnRandomRoles holds the chainer to its targets on
// random roles, with and without a clock field: a valid plan for at least
// 99% of the starts A* solves within 8 steps, and within 1.5× the optimal
// cost at the 90th percentile. (Times are printed, not asserted: see the
// benchmark in bench/.)
func TestBackwardChainerOnRandomRoles(t *testing.T) {
	roles := 40
	if testing.Short() {
		roles = 10
	}
	for _, clock := range []bool{false, true} {
		for _, seed := range []uint64{1, 2, 3} {
			t.Run(fmt.Sprintf("clock=%v/seed=%d", clock, seed), func(t *testing.T) {
				problems := roleProblems(seed, roles, 30, clock)
				require.Greater(t, len(problems), roles)
				f := measureChainer(t, problems)
				t.Log(f.String())
				assert.GreaterOrEqual(t, float64(f.found), 0.99*float64(f.starts), "valid plans found")
				assert.LessOrEqual(t, f.percentile(0.9), 1.5, "cost / optimal at the 90th percentile")
			})
		}
	}
}

// BenchmarkBackwardChainerOnRandomRoles plans the random roles of the test
// above (the clock variant, one seed) and reports the mean and worst call.
func BenchmarkBackwardChainerOnRandomRoles(b *testing.B) {
	problems := roleProblems(1, 40, 30, true)
	b.ResetTimer()
	for range b.N {
		f := measureChainer(b, problems)
		b.ReportMetric(float64(f.total.Nanoseconds())/float64(f.starts), "ns/call")
		b.ReportMetric(float64(f.worst.Nanoseconds()), "worst-ns")
	}
}

// costsToGo returns every state of a random role of four fields (each
// 0..4, no clock) and the cost of the cheapest plan from each to its goal
// (+Inf where none reaches it), by Dijkstra over the reversed transitions.
func costsToGo(t *testing.T, d *runtime.Domain[roleState]) ([]roleState, []float64) {
	return costsToGoThrough(t, d, nil)
}

// allRoleStates returns the 625 states of four fields of values 0..4,
// V0 fastest.
func allRoleStates() []roleState {
	states := make([]roleState, 625)
	for v := range states {
		for f, x := 0, v; f < 4; f, x = f+1, x/5 {
			states[v].V[f] = x % 5
		}
	}
	return states
}

// costsToGoThrough is costsToGo through the states where keep holds (all
// when keep is nil): +Inf from a state where it fails, or from which the
// goal cannot be reached without passing one.
func costsToGoThrough(t *testing.T, d *runtime.Domain[roleState], keep func(roleState) bool) ([]roleState, []float64) {
	through := func(s roleState) bool { return keep == nil || keep(s) }
	index := map[roleState]int{}
	var states []roleState
	for _, s := range allRoleStates() {
		index[s] = len(states)
		states = append(states, s)
	}
	rev := make([][]randEdge, len(states))
	var goals []int
	for i, s := range states {
		if !through(s) {
			continue
		}
		if d.Holds(0, s) {
			goals = append(goals, i)
		}
		for a := range d.Actions {
			if !d.Applicable(runtime.ActionID(a), s) {
				continue
			}
			next := d.Apply(runtime.ActionID(a), s)
			j, ok := index[next]
			require.True(t, ok, "a state beyond 0..4")
			if through(next) {
				rev[j] = append(rev[j], randEdge{to: i, cost: d.Actions[a].Cost})
			}
		}
	}
	return states, shortest(rev, goals)
}

// The estimate derived from the annotations never exceeds the true cost to
// go (checked against a backward Dijkstra over every state of random roles
// with no clock, whose fields stay within 0..4), and A* with it returns
// cheapest plans with fewer expansions than uniform-cost search.
func TestDerivedEstimateIsAdmissible(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(11, 0xbac))
	var st admissibility
	roles := 80
	if testing.Short() {
		roles = 20
	}
	for i := range roles {
		// Goals of two to four conjuncts, so that the bounds of parts
		// served by different actions add up.
		st.check(t, newRandomRoleWithGoal(r, 4, 8, false, 2+i%3))
	}
	t.Log(&st)
	assert.Less(t, st.derived, st.uniform)
}

// The same of roles whose fields saturate in a range: the estimate counts
// the runs of steps a bounded precondition allows between the actions
// that make it hold again, and stays admissible.
func TestDerivedEstimateIsAdmissibleWithRanges(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 0xbac))
	var st admissibility
	roles := 400
	if testing.Short() {
		roles = 200
	}
	raised := 0
	for i := range roles {
		rr := newRandomRangedRole(r, 4, 8, 1+i%3)
		st.check(t, rr)
		// The ranges raise the estimate somewhere: else this would test
		// the estimate without them.
		bare := *rr
		bare.ranges = nil
		bare.d = bare.domain()
		states, _ := costsToGo(t, rr.d)
		for _, s := range states {
			if rr.d.LowerBound(0, s) > bare.d.LowerBound(0, s) {
				raised++
			}
		}
	}
	t.Logf("%v; the ranges raised the estimate of %d states", &st, raised)
	assert.Less(t, st.derived, st.uniform)
	assert.Positive(t, raised)
}

// admissibility is what admissibility.check counted.
type admissibility struct {
	derived, uniform, searches, unreachable, proved int
	// raised and states: what admissibility.consistent counted.
	raised, states int
}

func (st *admissibility) String() string {
	return fmt.Sprintf("%d searches: %d expansions with the derived estimate, %d uniform-cost (%.2f); %d unreachable starts, %d proved so before any search",
		st.searches, st.derived, st.uniform, float64(st.derived)/float64(st.uniform), st.unreachable, st.proved)
}

// check holds the derived estimate of rr's goal to the cost to go from
// every state, and A* with it to the cheapest plan and to right proofs.
func (st *admissibility) check(t *testing.T, rr *randomRole) {
	t.Helper()
	ctx := context.Background()
	d := rr.d
	states, togo := costsToGo(t, d)
	as, dijkstra := runtime.NewAStar(d), runtime.NewAStar(d, runtime.WithUniformCost())
	for i, s := range states {
		lb := d.LowerBound(0, s)
		require.LessOrEqual(t, lb, togo[i], "state %v of goal %s: the estimate exceeds the cost to go; %+v", s.V, d.Goals[0].CondText, rr.actions)
		if math.IsInf(togo[i], 1) {
			// No plan: A* must say so, and whatever proof it gives
			// must be right (checked the other way below).
			_, err := as.PlanGoal(ctx, s, 0)
			var perr *runtime.PlanningError
			require.ErrorAs(t, err, &perr)
			if perr.Relaxed {
				st.proved++
			}
			st.unreachable++
			continue
		}
		if togo[i] == 0 {
			continue
		}
		if i%7 != 0 {
			// Reachable: no proof may claim otherwise.
			_, err := as.PlanGoal(ctx, s, 0)
			require.NoError(t, err, "state %v of goal %s", s.V, d.Goals[0].CondText)
			continue
		}
		p, err := as.PlanGoal(ctx, s, 0)
		require.NoError(t, err)
		assert.InDelta(t, togo[i], p.Cost, 1e-9)
		q, err := dijkstra.PlanGoal(ctx, s, 0)
		require.NoError(t, err)
		st.derived += p.Expansions
		st.uniform += q.Expansions
		st.searches++
	}
}

// Weighted A* keeps its bound: plans cost at most w times the cheapest.
func TestWeightedAStarStaysWithinItsBound(t *testing.T) {
	ctx := context.Background()
	var plain, weighted int
	for _, p := range roleProblems(5, 40, 30, false) {
		opt, err := runtime.NewAStar(p.rr.d).PlanGoal(ctx, p.start, 0)
		require.NoError(t, err)
		w, err := runtime.NewAStar(p.rr.d, runtime.WithWeight(2)).PlanGoal(ctx, p.start, 0)
		require.NoError(t, err)
		require.NoError(t, p.rr.d.Verify(p.start, &w))
		require.LessOrEqual(t, w.Cost, 2*opt.Cost+1e-9, "role %d from %v", p.role, p.start.V)
		plain += opt.Expansions
		weighted += w.Expansions
	}
	t.Logf("expansions: %d with A*, %d with weight 2", plain, weighted)
	assert.LessOrEqual(t, weighted, plain)
}

// TestRelaxedReachabilityReadsStrings checks the relaxed reachability's
// proofs on random roles whose last field is a place (a string field),
// against every state's true distance to the goal: no proof where a plan
// exists, and, where the same role with the place as an int is proved
// hopeless, a proof with the string too (a set of the role's constants
// tells at least what an interval tells, so a string field is no excuse).
func TestRelaxedReachabilityReadsStrings(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 0x5a5))
	roles := 80
	if testing.Short() {
		roles = 20
	}
	var hopeless, byInt, byStr int
	for i := range roles {
		rr := newRandomRoleWithString(r, 4, 8, 2+i%3)
		asInt := *rr
		asInt.str = false
		di := asInt.domain()
		d := rr.d
		states, togo := costsToGo(t, d)
		for i, s := range states {
			str, num := runtime.ProvedUnreachable(d, 0, s), runtime.ProvedUnreachable(di, 0, s)
			if !math.IsInf(togo[i], 1) {
				require.False(t, str, "state %v of goal %s: proved out of reach, and a plan reaches it", s.V, d.Goals[0].CondText)
				continue
			}
			hopeless++
			require.True(t, str || !num, "state %v of goal %s: proved out of reach with the place an int, not with it a string", s.V, d.Goals[0].CondText)
			if str {
				byStr++
			}
			if num {
				byInt++
			}
		}
	}
	t.Logf("%d hopeless starts: %d proved so with the place a string, %d with it an int", hopeless, byStr, byInt)
	assert.Positive(t, byInt, "no proof to compare")
}

// The backward chainer on random roles whose fields saturate, from every
// fifth state that has a plan, against its true cost to go: starts with
// every field inside its range, and starts with one outside it, which
// only the live state has (a game's damage that left Health at -40). From
// there any write lands the field in its range, whichever way it moves
// it (0 - 2 in 1..3 is 1), so an action that moves the field away from
// what a part needs may make it hold: the chainer may not call such a
// goal out of reach, and its plans keep near the cheapest.
func TestBackwardChainerOnRandomRolesWithRanges(t *testing.T) {
	t.Parallel()
	roles := 400
	if testing.Short() {
		roles = 100
	}
	ctx := context.Background()
	for _, seed := range []uint64{3, 99} {
		r := rand.New(rand.NewPCG(seed, 0xbac))
		var inside, outside chainerFigures
		var p runtime.Plan
		for i := range roles {
			rr := newRandomRangedRole(r, 4, 8, 1+i%3)
			states, togo := costsToGo(t, rr.d)
			bc := runtime.NewBackwardChainer(rr.d)
			for k, s := range states {
				if k%5 != 0 || math.IsInf(togo[k], 1) || togo[k] == 0 {
					continue
				}
				f := &inside
				for v := range rr.nf {
					if x := float64(s.V[v]); x < rr.ranges[v].Min || x > rr.ranges[v].Max {
						f = &outside
					}
				}
				f.starts++
				err := bc.PlanGoalInto(ctx, s, 0, &p)
				if err != nil {
					require.NotErrorIs(t, err, runtime.ErrUnreachable, "role %d, start %v: a plan of cost %v reaches %s", i, s.V, togo[k], rr.d.Goals[0].CondText)
					continue
				}
				require.NoError(t, rr.d.Verify(s, &p))
				f.found++
				f.ratios = append(f.ratios, p.Cost/togo[k])
			}
		}
		for _, f := range []struct {
			name string
			*chainerFigures
		}{{"inside", &inside}, {"outside", &outside}} {
			t.Logf("seed %d, starts %s their ranges: %d, found %d; cost/optimal p90 %.3f, worst %.3f",
				seed, f.name, f.starts, f.found, f.percentile(0.9), f.percentile(1))
			assert.GreaterOrEqual(t, float64(f.found), 0.99*float64(f.starts), "valid plans found")
			assert.LessOrEqual(t, f.percentile(0.9), 1.2, "cost / optimal at the 90th percentile")
		}
	}
}

// TestAStarReweighed: an A* search whose estimate is weighed twice from
// some point on, as the chainer's forward search is past 512 states,
// finds a plan at most twice the cheapest, on random roles; weighed from
// its root on, it is WithWeight(2)'s search, state for state; weighed
// twice, then four times (the chainer's past 1,024), a plan at most four
// times the cheapest. Every entry left on the open list is live, keyed
// with the new weight, in the heap's order.
func TestAStarReweighed(t *testing.T) {
	ctx := context.Background()
	problems := roleProblems(7, 80, 20, false)
	require.Greater(t, len(problems), 400)
	var p, q runtime.Plan
	cheaper, beyondTwice := 0, 0
	for _, pr := range problems {
		d := pr.rr.d
		require.NoError(t, runtime.NewAStar(d, runtime.WithWeight(2)).PlanGoalInto(ctx, pr.start, 0, &q))
		a := runtime.NewAStar(d)
		wrong, err := runtime.PlanGoalReweighedInto(ctx, a, pr.start, 0, &p, runtime.Reweigh{After: 0, Weight: 2})
		require.NoError(t, err)
		require.Zero(t, wrong, "role %d, start %v: entries reweighed wrong", pr.role, pr.start.V)
		require.Equal(t, d.Names(q.Steps), d.Names(p.Steps), "role %d, start %v", pr.role, pr.start.V)
		require.Equal(t, q.Expansions, p.Expansions, "role %d, start %v", pr.role, pr.start.V)
		for _, n := range []int{3, 10} {
			wrong, err := runtime.PlanGoalReweighedInto(ctx, a, pr.start, 0, &p, runtime.Reweigh{After: n, Weight: 2})
			require.NoError(t, err)
			require.Zero(t, wrong, "role %d, start %v: entries reweighed wrong after %d", pr.role, pr.start.V, n)
			require.NoError(t, d.Verify(pr.start, &p))
			assert.GreaterOrEqual(t, p.Cost, pr.optimal-1e-9, "role %d, start %v", pr.role, pr.start.V)
			assert.LessOrEqual(t, p.Cost, 2*pr.optimal+1e-9, "role %d, start %v, weighed after %d", pr.role, pr.start.V, n)
			if n == 10 && p.Cost < q.Cost {
				cheaper++
			}
		}
		// Weighed twice after 3 states and four times after 10, as the
		// chainer's forward search is past 512 and 1,024: at most four
		// times the cheapest.
		wrong, err = runtime.PlanGoalReweighedInto(ctx, a, pr.start, 0, &p, runtime.Reweigh{After: 3, Weight: 2}, runtime.Reweigh{After: 10, Weight: 4})
		require.NoError(t, err)
		require.Zero(t, wrong, "role %d, start %v: entries reweighed wrong in two stages", pr.role, pr.start.V)
		require.NoError(t, d.Verify(pr.start, &p))
		assert.LessOrEqual(t, p.Cost, 4*pr.optimal+1e-9, "role %d, start %v, weighed in two stages", pr.role, pr.start.V)
		if p.Cost > 2*pr.optimal+1e-9 {
			beyondTwice++
		}
	}
	// Expanding some states exactly first does find cheaper plans.
	assert.Positive(t, cheaper)
	t.Logf("%d problems; weighed after 10 states, %d plans cheaper than weighed throughout; weighed four times, %d plans over twice the cheapest", len(problems), cheaper, beyondTwice)
}

// TestRelaxedReachabilityKnowsSteps checks the relaxed reachability's
// lattices on random roles whose actions move fields by 2 or 3 (within
// 0..4, which their preconditions keep) or set them, and whose goal is
// one field equal to a value: every proof is right against every state's
// true distance to the goal, and some hopeless states are proved so only
// by the lattices (their value lies within the interval the actions
// open).
func TestRelaxedReachabilityKnowsSteps(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 0x57e9))
	roles := 200
	if testing.Short() {
		roles = 50
	}
	var hopeless, proved, bySteps int
	for range roles {
		rr := &randomRole{nf: 4}
		for range 2 + r.IntN(4) {
			var a roleAction
			for _, f := range r.Perm(rr.nf)[:1+r.IntN(2)] {
				switch k := 2 + r.IntN(2); r.IntN(6) {
				case 0:
					a.eff = append(a.eff, roleEffect{f: f, k: r.IntN(5)})
				case 1, 2:
					a.uses(f, k)
				default:
					a.adds(f, k)
				}
			}
			a.cost = float64(1 + r.IntN(3))
			rr.actions = append(rr.actions, a)
		}
		rr.goal = []roleLit{{f: r.IntN(rr.nf), op: runtime.CmpEq, k: r.IntN(5)}}
		rr.d = rr.domain()
		states, togo := costsToGo(t, rr.d)
		for i, s := range states {
			p := runtime.ProvedUnreachable(rr.d, 0, s)
			if !math.IsInf(togo[i], 1) {
				require.False(t, p, "state %v of goal %s: proved out of reach, and a plan reaches it; %+v", s.V, rr.d.Goals[0].CondText, rr.actions)
				continue
			}
			hopeless++
			if !p {
				continue
			}
			proved++
			if !runtime.ProvedUnreachableByIntervals(rr.d, 0, s) {
				bySteps++
			}
		}
	}
	t.Logf("%d hopeless starts: %d proved so, %d of them only by the lattices", hopeless, proved, bySteps)
	assert.Positive(t, bySteps)
}

// TestRelaxedReachabilityCountsFirings checks the bounds on the actions'
// firings on random roles built to have them: actions that set a field
// their precondition asks for to another value (they turn their own
// precondition off), that use up a field their precondition asks enough
// of, and that add to a field below a cap; goals of one or two
// comparisons, some of them sums or disjunctions. Every proof is right
// against every state's true distance to the goal, and some hopeless
// states are proved so only with the bounds.
func TestRelaxedReachabilityCountsFirings(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 0xf1e5))
	roles := 300
	if testing.Short() {
		roles = 80
	}
	var hopeless, proved, byFirings int
	for range roles {
		rr := &randomRole{nf: 4}
		for range 3 + r.IntN(4) {
			var a roleAction
			for _, f := range r.Perm(rr.nf)[:1+r.IntN(2)] {
				switch r.IntN(4) {
				case 0: // turns its own precondition off
					from := r.IntN(5)
					a.pre = append(a.pre, roleLit{f: f, op: runtime.CmpEq, k: from})
					a.eff = append(a.eff, roleEffect{f: f, k: (from + 1 + r.IntN(4)) % 5})
				case 1:
					a.uses(f, 1+r.IntN(3))
				case 2:
					a.adds(f, 1+r.IntN(2))
				default:
					a.eff = append(a.eff, roleEffect{f: f, k: r.IntN(5)})
				}
			}
			a.cost = float64(1 + r.IntN(3))
			rr.actions = append(rr.actions, a)
		}
		fs := r.Perm(rr.nf)
		switch r.IntN(3) {
		case 0:
			rr.goal = []roleLit{{f: fs[0], op: roleOps[r.IntN(len(roleOps))], k: r.IntN(5)}}
		case 1:
			rr.goal = []roleLit{{f: fs[0], op: runtime.CmpGe, k: 2 + r.IntN(3)}, {f: fs[1], op: runtime.CmpGe, k: 2 + r.IntN(3)}}
			rr.anyGoal = true
		default:
			rr.sum = &roleSum{fields: fs[:2], coefs: []int{1, 1 + r.IntN(2)}, op: runtime.CmpGe, k: 3 + r.IntN(5)}
		}
		rr.d = rr.domain()
		states, togo := costsToGo(t, rr.d)
		for i, s := range states {
			p := runtime.ProvedUnreachable(rr.d, 0, s)
			if !math.IsInf(togo[i], 1) {
				require.False(t, p, "state %v of goal %s: proved out of reach, and a plan reaches it; %+v", s.V, rr.d.Goals[0].CondText, rr.actions)
				continue
			}
			hopeless++
			if !p {
				continue
			}
			proved++
			if !runtime.ProvedUnreachableWithoutFirings(rr.d, 0, s) {
				byFirings++
			}
		}
	}
	t.Logf("%d hopeless starts: %d proved so, %d of them only with the bounds on firings", hopeless, proved, byFirings)
	assert.Positive(t, byFirings)
}
