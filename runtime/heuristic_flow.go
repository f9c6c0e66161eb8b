package runtime

import (
	"math"
	"slices"
)

// The flow of a goal's numbers: a lower bound on the cost of making a
// goal hold from the net change its plan's steps must make to numeric
// fields (the state equation of operator counting, for numbers). Each run
// of an action moves a field by at most its step; after a run that takes
// from a field its own precondition guards (Smelt needs Ore >= 2 and does
// Ore -= 2), the field is at least what the guard leaves. So the runs n_a
// of any plan from s satisfy, for each field the goal compares and each
// field such a guard protects,
//
//	value(s) + Σ_a n_a × step_a  ≥  max(need, min(value(s), floor))
//
// where need is what the goal needs at the end and floor the least value
// a run that lowers the field leaves. The cheapest runs, real-valued, that
// satisfy every such row together (a linear program) cost no more than
// the plan. The rows follow a chain of supplies to its end, in parts of
// runs: gold needs silver traded, silver copper, copper smelted from ore,
// ore dug with energy, each at what its step costs. The supplies'
// estimate (heuristic_supply.go) follows one giver a step deep; the flow
// knows nothing of places, fulfills or fields that are not numbers. The
// goal's bound is the larger of both.
//
// It is admissible as a relaxation, and consistent: the runs that serve
// the state after a step, with one run of that step's action added, serve
// the state before it (a step moves each field by at most its
// coefficient, and leaves a field it lowers at its floor or more, so the
// rows' right-hand sides do not fall). A sale of everything a field
// holds (Coins += 7 * Pearls, Pearls = 0) counts in units of that field,
// each a share of the sale's cost (see Domain.flowUnits). Fields the flow
// cannot bound that way (another effect that reads the state, a setter
// of a field without a range below it) have no row. A value outside its
// field's Range, which only the live state has, lands in the range at
// the field's first write whichever way that moves it: the flow then
// adds nothing to the bound of the goal's parts. A guard that other
// steps wear down (each walk cools the furnace that Blow needs at 900)
// bounds the field's end only by the least those steps leave; a reach
// row (see reachRows) asks that it get to the guard first, where every
// plan runs the guarded action.

// The largest flow a goal keeps: rows (fields and directions) and columns
// (actions that raise a row). A larger one is dropped: an estimate
// reads its rows into an array of this size on the stack.
const (
	maxFlowRows = 12
	maxFlowCols = 32
)

// flow is the linear program of a goal condition (see above). Its dual
// has one variable a row and one constraint a column: maximize Σ b_i y_i
// subject to Σ_i coef[j][i] y_i ≤ cost_j, y ≥ 0, whose start y = 0 is
// feasible (costs are not negative), and whose region does not depend on
// the state: enumerate walks it once.
type flow[S any] struct {
	rows []flowRow
	acts []ActionID
	cost []float64 // cost[j]: the least cost of a run of acts[j]
	// coef[j*len(rows)+i]: the most a run of acts[j] adds to the value
	// of rows[i] (negative: what it takes, at least).
	coef []float64
	// verts are the vertices of the dual's feasible region, len(rows)
	// numbers each, and rays its extreme rays, which the region has
	// where the rows can ask for more than any runs give (see
	// enumerate): the program's value is +Inf where the right-hand
	// sides b make b·r > 0 for a ray r, else the most b·v of a vertex v.
	verts, rays []float64
	// flat is the condition's flat bound without the flow (see
	// condition.flat), for WithoutFlow.
	flat float64
	// at, when set, are the places the columns need (see flowPlaces).
	at *flowPlaces[S]
	// most[i] is the largest coordinate i of a vertex, and tourMost the
	// dearest tour from any place (+Inf: unknown): bound passes over the
	// program where b's positive entries times most, with tourMost, do
	// not reach the bound it already has.
	most     [maxFlowRows]float64
	tourMost float64
	// grain[i], when not 0, divides what every column adds to row i
	// (see grains): what the runs add to the row is a multiple of it.
	grain [maxFlowRows]float64
	// unitBy are the fields whose units the columns of actions counted
	// in units count (see Domain.flowUnits), unitMost the most of each a
	// run has: a state with more (outside the field's range) gets no
	// bound from the flow.
	unitBy   []FieldID
	unitMost []float64
	// reaches are the indices of the reach rows, and reachRays[i] the
	// extreme rays of the dual without the column of reach row i's
	// guarded action: where b·r > 0 for one of them, the rows ask for
	// runs that only that column gives, so every plan runs it (nil:
	// unknown, and the row asks nothing).
	reaches   []int
	reachRays [maxFlowRows][]float64
	// plain is the flow of the rows but the reach rows, where it has
	// those: a state none of them asks anything of has its value (the
	// reach rows' constraints then hold for any runs), at the cost of
	// fewer rows and vertices.
	plain *flow[S]
}

// flowRow is a field the flow bounds, one way.
type flowRow struct {
	field FieldID
	// sign is +1 where the row's value is the field's (the goal needs it
	// at least some value, or a guard keeps it from falling), -1 where it
	// is its negation (the goal needs it at most some value).
	sign float64
	// need is the value the goal needs at the end (-Inf: none), floor the
	// least a run that lowers the value leaves (+Inf: no run lowers it).
	need, floor float64
	// rlo and rhi are the field's Range (±Inf without one).
	rlo, rhi float64
	// depth: how far down a chain of guards the row is: one more than
	// the row whose producer's guard it is (the most, of several), 0 for
	// a goal's row that is no guard.
	depth int
	// terms, for the row of a goal's Sum (field -1, sign 1), are its
	// fields, their coefficients times the sign the comparison needs the
	// sum raised (-1 for < and <=): the row's value is Σ coef × field.
	terms []sumTerm
	// reach marks a reach row (see reachRows): the field must get to
	// need before action guarded runs, and the row asks it only where
	// every plan runs guarded.
	reach   bool
	guarded ActionID
}

// on reports whether the row's value reads field f.
func (r *flowRow) on(f FieldID) bool {
	if r.terms == nil {
		return r.field == f
	}
	return slices.ContainsFunc(r.terms, func(t sumTerm) bool { return t.field == f })
}

// flowOf returns the flow of goal condition c, or nil: no column takes
// from a row (the other bounds already see a field raised by steps that
// use up nothing the goal needs raised), or no chain of guards is two
// deep. A program larger than maxFlowRows and maxFlowCols, or whose
// dual's region is larger than enumerate walks, loses its deepest rows
// until it is not.
func (d *Domain[S]) flowOf(c *condition[S]) *flow[S] {
	if d.Number == nil || c.holds == nil {
		return nil
	}
	fl := &flow[S]{}
	for i := range c.parts {
		p := &c.parts[i]
		if p.Sum != nil {
			if row, ok := d.sumRow(p.Sum); ok {
				fl.rows = append(fl.rows, row)
			}
			continue
		}
		if !d.flowField(p.Field) || p.Any != nil {
			continue
		}
		for _, sign := range [2]float64{1, -1} {
			if need := d.atLeast(p, sign); need > math.Inf(-1) {
				fl.row(p.Field, sign, need, 0)
			}
		}
	}
	if len(fl.rows) == 0 {
		return nil
	}
	// The producers of each row, and the fields their preconditions
	// guard against their own steps.
	for r := 0; r < len(fl.rows) && len(fl.rows) <= maxFlowRows; r++ {
		row := fl.rows[r]
		for ai := range d.Actions {
			a := ActionID(ai)
			if !d.rowRaises(a, &row) {
				continue
			}
			if by, units := d.flowUnits(a); units > 0 && !row.on(by) {
				// What a unit takes, guarded or not: by never falls below
				// its range's 0.
				fl.row(by, 1, math.Inf(-1), row.depth+1)
			}
			for _, q := range d.pres[a].parts {
				// A guard on the field raised (Rest while Energy < 10)
				// only keeps it from rising further.
				if row.on(q.Field) || !d.flowField(q.Field) {
					continue
				}
				for _, sign := range [2]float64{1, -1} {
					if d.atLeast(&q, sign) > math.Inf(-1) && d.raises(a, q.Field, -sign) {
						fl.row(q.Field, sign, math.Inf(-1), row.depth+1)
					}
				}
			}
		}
	}
	// Past maxFlowRows, the rows found last go: the deepest, those
	// furthest down the chains of supplies (fewer rows ask less of the
	// runs; see below).
	fl.rows = fl.rows[:min(len(fl.rows), maxFlowRows)]
	// Rows whose steps the forms do not bound go, and those of a field
	// the goal needs nothing of that a run may lower without end. A chain
	// of one guard (Forage uses up rest, and Sleep gives it back) is what
	// the consumption and the supplies of the goal's parts already bound,
	// as far or further (places), at a fraction of the cost: the flow is
	// for chains of two or more.
	kept, deep := fl.rows[:0], false
	for _, row := range fl.rows {
		row.floor = math.Inf(1)
		bounded := true
		for ai := range d.Actions {
			coef, post := d.rowStep(ActionID(ai), &row)
			row.floor = min(row.floor, post)
			bounded = bounded && coef < math.Inf(1)
		}
		if row.terms == nil {
			rg := d.Fields[row.field].Range
			row.rlo, row.rhi = rg.Lo(), rg.Hi()
		}
		if bounded && (row.need > math.Inf(-1) || row.floor > math.Inf(-1)) {
			kept = append(kept, row)
			deep = deep || row.depth >= 2
		}
	}
	if fl.rows = kept; !deep {
		return nil
	}
	rows := fl.rows
	plain := d.flowBuild(rows)
	for plain == nil {
		// A program too large to walk (the shipwright's planks, nails,
		// pitch, logs, energy and the axe's edge, for a boat) loses its
		// deepest rows that are no goal's, those furthest down the
		// chains of supplies, until it is not: fewer rows ask less of
		// the runs, so the bound stays admissible and consistent.
		deepest := 0
		for _, r := range rows {
			if math.IsInf(r.need, -1) {
				deepest = max(deepest, r.depth)
			}
		}
		if deepest < 2 {
			return nil
		}
		rows = slices.DeleteFunc(slices.Clone(rows), func(r flowRow) bool {
			return math.IsInf(r.need, -1) && r.depth == deepest
		})
		if !slices.ContainsFunc(rows, func(r flowRow) bool { return r.depth >= 2 }) {
			return nil
		}
		plain = d.flowBuild(rows)
	}
	if reach := d.reachRows(rows); len(reach) > len(rows) {
		if fl := d.flowBuild(reach); fl != nil {
			fl.plain = plain
			return fl
		}
	}
	return plain
}

// reachRows returns rows with a reach row added for each guard of an
// action that raises a goal's row (depth 0) on a field that has a row
// of its own: Blow needs Heat >= 900 and makes Vases, which the goal
// asks for. The field's own row bounds only its value at the end, from
// the least a run that lowers it leaves (a walk cools the furnace to
// 0), where every plan that blows a vase stokes it to 900 first: the
// field, before that run, is at most its value in the state plus what
// the runs add to it, so Σ_j n_j × max(coef_j, 0) ≥ need - value. The
// row asks that only where every plan runs the action (see flowBound),
// and no more than 0 elsewhere.
func (d *Domain[S]) reachRows(rows []flowRow) []flowRow {
	out := slices.Clip(rows)
	has := func(f FieldID, sign float64) (flowRow, bool) {
		for _, r := range rows {
			if r.terms == nil && r.field == f && r.sign == sign {
				return r, true
			}
		}
		return flowRow{}, false
	}
	for _, goal := range rows {
		if goal.depth != 0 || math.IsInf(goal.need, -1) {
			continue
		}
		for ai := range d.Actions {
			a := ActionID(ai)
			if !d.rowRaises(a, &goal) {
				continue
			}
			for i := range d.pres[a].parts {
				q := &d.pres[a].parts[i]
				if q.Any != nil || q.Sum != nil || goal.on(q.Field) || !d.flowField(q.Field) {
					continue
				}
				for _, sign := range [2]float64{1, -1} {
					k := d.atLeast(q, sign)
					base, ok := has(q.Field, sign)
					if !ok || math.IsInf(k, -1) || slices.ContainsFunc(out, func(r flowRow) bool {
						return r.reach && r.guarded == a && r.field == q.Field && r.sign == sign
					}) || len(out) == maxFlowRows {
						continue
					}
					out = append(out, flowRow{field: q.Field, sign: sign, need: k, floor: math.Inf(1),
						rlo: base.rlo, rhi: base.rhi, depth: base.depth, reach: true, guarded: a})
				}
			}
		}
	}
	return out
}

// flowBuild returns the flow of rows: its columns, its dual's vertices
// and rays, its places; nil where it has none (see flowOf).
func (d *Domain[S]) flowBuild(rows []flowRow) *flow[S] {
	fl := &flow[S]{rows: rows}
	for ai := range d.Actions {
		a := ActionID(ai)
		for _, row := range fl.rows {
			if d.rowRaises(a, &row) {
				fl.acts = append(fl.acts, a)
				cost := max(d.Actions[a].Cost, 0)
				if by, units := d.flowUnits(a); units > 0 {
					cost /= units
					fl.unitBy, fl.unitMost = append(fl.unitBy, by), append(fl.unitMost, units)
				}
				fl.cost = append(fl.cost, cost)
				for _, row := range fl.rows {
					coef, _ := d.rowStep(a, &row)
					if row.reach {
						coef = max(coef, 0) // what it takes comes after the guard
					}
					fl.coef = append(fl.coef, coef)
				}
				break
			}
		}
	}
	if len(fl.acts) > maxFlowCols {
		return nil
	}
	takes := false
	for _, coef := range fl.coef {
		takes = takes || coef < 0
	}
	if !takes || !slices.ContainsFunc(fl.rows, func(r flowRow) bool { return r.need > math.Inf(-1) }) {
		return nil
	}
	if !fl.enumerate(maxFlowBases, false) {
		return nil
	}
	fl.prune()
	fl.reachesOf()
	fl.at = d.flowPlacesOf(fl)
	m := len(fl.rows)
	for k := 0; k < len(fl.verts); k += m {
		for i, y := range fl.verts[k : k+m] {
			fl.most[i] = max(fl.most[i], y)
		}
	}
	if fl.at != nil {
		fl.tourMost = fl.at.most()
	}
	fl.grains(func(f FieldID) bool { return d.Fields[f].Kind == KindInt })
	return fl
}

// grains sets the grain of each row whose columns all add whole
// multiples of one number to it: their greatest common divisor. Runs
// come whole, so what they add to such a row is a multiple of its grain
// too, and a row short by o is short by o rounded up to one: to make 30
// coins selling at 7, five sales (35), not 30/7 of them. The rounding
// keeps the bound consistent: a step adds a multiple of the grain to the
// row, so it lowers the rounded shortfall by no more than it lowers the
// shortfall. A grain of 1 on an integer field's row rounds nothing (its
// shortfall is whole already) and is left out, so that flowBound does
// not divide by it.
func (fl *flow[S]) grains(integer func(FieldID) bool) {
	const eps = 1e-9
	m := len(fl.rows)
	for i := range m {
		g := 0.0
		for j := range fl.acts {
			c := math.Abs(fl.coef[j*m+i])
			if c == 0 {
				continue
			}
			n := math.Round(c)
			if math.IsInf(c, 0) || math.Abs(c-n) > eps || n > 1<<40 {
				g = 0
				break
			}
			g = gcd(g, n)
		}
		if r := &fl.rows[i]; g == 1 && r.terms == nil && integer(r.field) {
			g = 0
		}
		fl.grain[i] = g
	}
}

// reachesOf finds the reach rows and, for each, the rays of the dual
// without its action's column (see flow.reaches).
func (fl *flow[S]) reachesOf() {
	for i, r := range fl.rows {
		if !r.reach {
			continue
		}
		fl.reaches = append(fl.reaches, i)
		if j := slices.Index(fl.acts, r.guarded); j >= 0 {
			fl.reachRays[i], _ = fl.raysWithout(func(l int) bool { return l == j })
		}
	}
}

// gcd is the greatest common divisor of two whole numbers (gcd(0, b) = b).
func gcd(a, b float64) float64 {
	for b != 0 {
		a, b = b, math.Mod(a, b)
	}
	return a
}

// prune drops the vertices that never give the most: those another
// vertex (or y = 0) gives as much as in every state. Where nothing lowers
// a row's field, its right-hand side is never negative (a larger
// coordinate gives more); where the goal needs nothing of it, never
// positive (a smaller one does); elsewhere either.
func (fl *flow[S]) prune() {
	m := len(fl.rows)
	const pos, neg, mixed = 1, -1, 0
	class := make([]int, m)
	for i, r := range fl.rows {
		switch {
		case math.IsInf(r.need, -1):
			class[i] = neg
		case math.IsInf(r.floor, 1):
			class[i] = pos
		}
	}
	// dominates reports whether vertex w gives at least what v does
	// wherever the right-hand sides have their rows' signs.
	dominates := func(w, v []float64) bool {
		const eps = 1e-9
		for i := range m {
			switch class[i] {
			case pos:
				if w[i] < v[i]-eps {
					return false
				}
			case neg:
				if w[i] > v[i]+eps {
					return false
				}
			default:
				if math.Abs(w[i]-v[i]) > eps {
					return false
				}
			}
		}
		return true
	}
	zero := make([]float64, m)
	var kept []float64
	n := len(fl.verts) / m
	for k := range n {
		v := fl.verts[k*m : (k+1)*m]
		if dominates(zero, v) {
			continue
		}
		dropped := false
		for l := range n {
			w := fl.verts[l*m : (l+1)*m]
			// Of two that dominate each other (equal where it matters),
			// the first stays.
			if l != k && dominates(w, v) && (!dominates(v, w) || l < k) {
				dropped = true
				break
			}
		}
		if !dropped {
			kept = append(kept, v...)
		}
	}
	fl.verts = kept
}

// row adds the row of field f in direction sign, or raises the need of
// the one there is.
func (fl *flow[S]) row(f FieldID, sign, need float64, depth int) {
	for i := range fl.rows {
		if fl.rows[i].field == f && fl.rows[i].sign == sign {
			fl.rows[i].need = max(fl.rows[i].need, need)
			fl.rows[i].depth = max(fl.rows[i].depth, depth)
			return
		}
	}
	fl.rows = append(fl.rows, flowRow{field: f, sign: sign, need: need, depth: depth})
}

// sumRow returns the row of a goal's sum sm, and false when a field of
// it can have no row.
func (d *Domain[S]) sumRow(sm *Sum) (flowRow, bool) {
	sign := 1.0
	if !sm.up() {
		sign = -1
	}
	row := flowRow{field: -1, sign: 1, need: sign * sm.Num, rlo: math.Inf(-1), rhi: math.Inf(1)}
	if d.integerSum(sm) {
		switch sm.Cmp { // as atLeast
		case CmpGt:
			row.need = math.Floor(sm.Num) + 1
		case CmpLt:
			row.need = -(math.Ceil(sm.Num) - 1)
		}
	}
	for _, t := range sm.Terms {
		if !d.flowField(t.Field) {
			return flowRow{}, false
		}
		rg := &d.Fields[t.Field].Range
		row.terms = append(row.terms, sumTerm{field: t.Field, coef: sign * t.Coef, rlo: rg.Lo(), rhi: rg.Hi()})
	}
	return row, true
}

// rowRaises reports whether action a may raise the value of row r.
func (d *Domain[S]) rowRaises(a ActionID, r *flowRow) bool {
	if r.terms == nil {
		return d.raises(a, r.field, r.sign)
	}
	for _, t := range r.terms {
		if d.raises(a, t.field, math.Copysign(1, t.coef)) {
			return true
		}
	}
	return false
}

// rowStep is flowStep for row r: for a sum's, coef adds up the most a
// run adds to each term, and post is -Inf (the row of a goal's sum
// needs no floor: it is no guard).
func (d *Domain[S]) rowStep(a ActionID, r *flowRow) (coef, post float64) {
	if r.terms == nil {
		return d.flowStep(a, r.field, r.sign)
	}
	for _, t := range r.terms {
		c, _ := d.flowStep(a, t.field, math.Copysign(1, t.coef))
		coef += math.Abs(t.coef) * c
	}
	return coef, math.Inf(-1)
}

// flowField reports whether field f can have rows: a signed integer or a
// float (an unsigned one wraps below zero; bools and strings have no
// steps).
func (d *Domain[S]) flowField(f FieldID) bool {
	k := d.Fields[f].Kind
	return k == KindInt || k == KindFloat
}

// atLeast is the least value of sign × p's field where comparison p
// holds: p.Num for Ge (sign 1), -p.Num for Le (sign -1), one past it for
// Gt and Lt on an integer field, both for Eq; -Inf when p bounds the field
// nothing that way.
func (d *Domain[S]) atLeast(p *Part, sign float64) float64 {
	integer := d.Fields[p.Field].Kind == KindInt
	switch {
	case p.Cmp == CmpEq, sign > 0 && p.Cmp == CmpGe, sign < 0 && p.Cmp == CmpLe:
		return sign * p.Num
	case sign > 0 && p.Cmp == CmpGt:
		if integer {
			return math.Floor(p.Num) + 1
		}
		return p.Num
	case sign < 0 && p.Cmp == CmpLt:
		if integer {
			return -(math.Ceil(p.Num) - 1)
		}
		return -p.Num
	}
	return math.Inf(-1)
}

// raises reports whether action a may raise sign × field f: it adds to
// it that way, or sets it.
func (d *Domain[S]) raises(a ActionID, f FieldID, sign float64) bool {
	for _, ch := range d.Actions[a].Changes {
		if ch.Field == f {
			return ch.Op != ChangeAdd || sign*ch.Num > 0
		}
	}
	return false
}

// flowStep is what a run of action a does to v = sign × field f, from a
// value within the field's range where a's precondition holds: coef, the
// most it adds to v (+Inf when the forms do not bound it), and post, the
// least v it leaves when it may lower it (+Inf when it never does).
func (d *Domain[S]) flowStep(a ActionID, f FieldID, sign float64) (coef, post float64) {
	if by, units := d.flowUnits(a); units > 0 {
		return d.unitStep(a, f, sign, by, units)
	}
	return d.runStep(a, f, sign)
}

// flowUnits reports whether the flow counts action a's runs in units: a
// adds a constant times an integer field by to another field
// (ChangeAddTimes: Coins += 7 * Pearls), by has a range from 0 to a
// bound, a sets by to 0 (sells them all) or leaves it, and either its
// precondition asks for at least one of by (Pearls >= 1: fillPart) or a
// changes no other field. A run is then u units, u <= units, the range's
// bound, and u >= 1 where a changes another field: the flow's column for
// a is a unit, which adds k to the field and takes one of by (unitStep),
// and costs a's cost ÷ units, so that the runs of any plan, counted in
// units, satisfy the rows and cost no more than the plan. (by itself
// outside its range, which only the live state has: see flowBound.)
func (d *Domain[S]) flowUnits(a ActionID) (by FieldID, units float64) {
	var times *Change
	for i := range d.Actions[a].Changes {
		switch ch := &d.Actions[a].Changes[i]; {
		case ch.Op != ChangeAddTimes:
		case times != nil:
			return 0, 0 // two multiples: no unit counts both
		default:
			times = ch
		}
	}
	if times == nil {
		return 0, 0
	}
	by = times.By
	rg := d.Fields[by].Range
	if d.Fields[by].Kind != KindInt || rg.Lo() != 0 || math.IsInf(rg.Hi(), 1) || !(rg.Hi() >= 1) {
		return 0, 0
	}
	// A run with no unit (by at 0) adds nothing, and costs no less than
	// nothing: such runs keep to the columns unless they change another
	// field, whose gain a unit's column counts once a run.
	unit := false
	if j := d.fillPart(a, by); j >= 0 {
		p := &d.Actions[a].PreParts[j]
		unit = p.Cmp == CmpGt || p.Num > 0
	}
	for _, ch := range d.Actions[a].Changes {
		switch {
		case ch.Field == by && (ch.Op != ChangeSet || ch.Num != 0):
			return 0, 0
		case ch.Field != by && ch.Field != times.Field && !unit:
			return 0, 0
		}
	}
	return by, rg.Hi()
}

// unitStep is flowStep for a unit of action a (see flowUnits): k on the
// field a adds k times by to, one taken from by where a empties it, and
// on another field what a run does, shared among its units as the most a
// unit may add (a run's gain: a run has one unit at least; a run's loss,
// over the most units a run has).
func (d *Domain[S]) unitStep(a ActionID, f FieldID, sign float64, by FieldID, units float64) (coef, post float64) {
	for _, ch := range d.Actions[a].Changes {
		if ch.Field != f {
			continue
		}
		switch {
		case ch.Op == ChangeAddTimes:
			step := sign * ch.Num
			if step < 0 {
				return step, math.Inf(-1) // it may lower the value, to no floor
			}
			return step, math.Inf(1)
		case f == by:
			_, post = d.runStep(a, f, sign)
			return -sign, post
		}
	}
	coef, post = d.runStep(a, f, sign)
	if coef < 0 {
		coef /= units
	}
	return coef, post
}

// runStep is flowStep for a run of action a.
func (d *Domain[S]) runStep(a ActionID, f FieldID, sign float64) (coef, post float64) {
	inf := math.Inf(1)
	rg := d.Fields[f].Range
	lo := rg.Lo() // the least v within the range
	if sign < 0 {
		lo = -rg.Hi()
	}
	for _, ch := range d.Actions[a].Changes {
		if ch.Field != f {
			continue
		}
		// Its precondition keeps v at guard or more before a run, the
		// range at lo or more.
		guard := lo
		for i := range d.pres[a].parts {
			if q := &d.pres[a].parts[i]; q.Field == f && q.Any == nil {
				guard = max(guard, d.atLeast(q, sign))
			}
		}
		switch ch.Op {
		case ChangeSet:
			// From guard or more to v: a run that empties what its
			// precondition asks for (Caulk needs Hull >= 3 and sets it
			// to 0) takes at least the guard's worth, as a step of -3
			// would.
			v := sign * rg.clamp(ch.Num)
			return v - guard, v // +Inf from a v unbounded below
		case ChangeAdd:
			step := sign * ch.Num
			if step >= 0 {
				return step, inf // clamped at the range's far end, if anything
			}
			// A run takes from v; a step the range clamps takes less.
			if math.IsInf(lo, -1) {
				return step, guard + step // -Inf unguarded: no floor
			}
			return max(step, lo-guard), max(guard+step, lo)
		}
		return inf, math.Inf(-1)
	}
	return 0, inf
}

// flowBound is the more of h and fl's lower bound on the cost of a plan
// from *s: the value of its linear program (the best of its vertices),
// and the tour of the places its columns must go to (see
// flowPlaces). It computes no more of the flow's than it takes to know
// whether h is more, and takes what it can from memo, when not nil.
func flowBound[S any](fl *flow[S], s *S, number func(*S, FieldID) float64, h float64, memo *flowMemo[S]) float64 {
	const eps = 1e-9
	for i, f := range fl.unitBy {
		if number(s, f) > fl.unitMost[i] {
			return h
		}
	}
	var b [maxFlowRows]float64 // the dual's objective, reduced
	short, most := false, fl.tourMost
	for i := range fl.rows {
		r := &fl.rows[i]
		if r.reach {
			b[i] = 0 // below, once the other rows are known
			continue
		}
		var v float64
		if r.terms != nil {
			var in bool
			if v, in = termsValue(r.terms, s, number); !in {
				return h
			}
		} else {
			x := number(s, r.field)
			if x < r.rlo || x > r.rhi {
				return h // the live state's: see above
			}
			v = r.sign * x
		}
		// max(r.need, min(v, r.floor)) - v, without min's and max's
		// care for NaN and -0: a NaN v gives NaN either way.
		w := v
		if w > r.floor {
			w = r.floor
		}
		if w < r.need {
			w = r.need
		}
		o := w - v
		if g := fl.grain[i]; g > 0 {
			o = g * math.Ceil(o/g-eps) // see grains
		}
		b[i] = o
		if o > 0 {
			short = short || o > eps
			most += o * fl.most[i]
		}
	}
	// Where a reach row's field is short of need and every plan runs its
	// guarded action (the other rows ask for more than the runs of the
	// other columns can give: a ray of the dual without it, read with
	// every reach row at 0, so that this stays so after any step but a
	// run of that action), the row asks that the field get to need
	// first; else nothing (a reach row's coefficients are not negative).
	var asked [maxFlowRows]float64
	asks := false
	for _, i := range fl.reaches {
		r := &fl.rows[i]
		o := r.need - r.sign*number(s, r.field)
		if !(o > eps) {
			continue
		}
		rays, m := fl.reachRays[i], len(fl.rows)
		needed := false
		for k := 0; k+m <= len(rays) && !needed; k += m {
			needed = dot(&b, rays[k:k+m]) > eps
		}
		if !needed {
			continue
		}
		if g := fl.grain[i]; g > 0 {
			o = g * math.Ceil(o/g-eps)
		}
		asked[i], asks = o, true
	}
	if asks {
		for _, i := range fl.reaches {
			if o := asked[i]; o > 0 {
				b[i] = o
				short = true
				most += o * fl.most[i]
			}
		}
	}
	if !short {
		return h // y = 0 is optimal
	}
	if !asks && fl.plain != nil {
		// The program without the reach rows has the same value: the
		// rows of the others come first, the same in both.
		fl = fl.plain
		most = fl.tourMost
		for i := range fl.rows {
			most += max(b[i], 0) * fl.most[i]
		}
	}
	if len(fl.rays) == 0 && most*flowRounding <= h {
		return h
	}
	m := len(fl.rows)
	var sl *flowMemoSlot[S]
	found := false
	if memo != nil {
		sl, found = memo.slot(fl, &b, m)
	} else {
		sl = new(flowMemoSlot[S]) // computed, not kept (on the stack)
	}
	if !found {
		sl.fill(fl, &b, m, fl.best(&b))
	}
	v := sl.value
	if fl.at != nil && v < math.Inf(1) && (v+fl.tourMost)*flowRounding > h {
		if !sl.known {
			sl.must, sl.known = fl.at.must(&b, m), true
		}
		v += fl.at.walk(s, sl.must)
	}
	return max(h, v*flowRounding)
}

// flowRounding takes from the flow's bound what rounding may have added to
// it (a bound of 3 computed as 3.0000000000000004 is not one).
const flowRounding = 1 - 1e-12

// dot is b·r, for r a vertex or a ray of a flow's rows (no more than
// maxFlowRows numbers).
func dot(b *[maxFlowRows]float64, r []float64) float64 {
	bs := b[:len(r)]
	sum := 0.0
	for i, x := range r {
		sum += x * bs[i]
	}
	return sum
}

// best is the program's value for right-hand sides b: +Inf where a ray
// r has b·r > 0, else the most b·v of a vertex v (at least 0: y = 0 is
// one).
func (fl *flow[S]) best(b *[maxFlowRows]float64) float64 {
	const eps = 1e-9
	m := len(fl.rows)
	for k := 0; k+m <= len(fl.rays); k += m {
		if dot(b, fl.rays[k:k+m]) > eps {
			return math.Inf(1)
		}
	}
	// Four vertices at a time: each one's sum is added up in dot's order
	// (the same value to the last bit), but the four sums do not wait on
	// one another, so the processor adds them side by side instead of
	// waiting on each addition in turn.
	h := 0.0
	bs, verts := b[:m], fl.verts
	k := 0
	for ; k+4*m <= len(verts); k += 4 * m {
		v0, v1, v2, v3 := verts[k:k+m], verts[k+m:k+2*m], verts[k+2*m:k+3*m], verts[k+3*m:k+4*m]
		v0, v1, v2, v3 = v0[:len(bs)], v1[:len(bs)], v2[:len(bs)], v3[:len(bs)]
		var s0, s1, s2, s3 float64
		for i, x := range bs {
			s0 += v0[i] * x
			s1 += v1[i] * x
			s2 += v2[i] * x
			s3 += v3[i] * x
		}
		if s0 > h {
			h = s0
		}
		if s1 > h {
			h = s1
		}
		if s2 > h {
			h = s2
		}
		if s3 > h {
			h = s3
		}
	}
	for ; k+m <= len(verts); k += m {
		if sum := dot(b, verts[k:k+m]); sum > h {
			h = sum
		}
	}
	return h
}

// The most feasible bases enumerate visits, and the most vertices it
// keeps: past them, the goal has no flow.
const (
	maxFlowBases = 1024
	maxFlowVerts = 512
)

// bases are basic feasible solutions of the dual, visited in order by
// enumerate: in basis k, row j is the variable basic(k)[j], equal to
// rhs(k)[j] less tab(k)[j*m:(j+1)*m] times the nonbasic variables
// nonbasic(k); variable i < m is y_i, m+j the slack of column j. A
// basis's tableau is needed only until enumerate has pivoted from it:
// done hands its storage to the next basis, so that the walk holds the
// tableaux of the bases it has yet to visit, not of all it has seen.
type bases struct {
	m, n   int
	tabs   [][]float64 // basis k's n*m tableau entries, then its n right-hand sides; nil once done
	free   [][]float64 // the storage of bases done
	labels []int8      // n basic variables, then m nonbasic ones, a basis
}

func (bs *bases) len() int { return len(bs.tabs) }

func (bs *bases) tab(k int) []float64 { return bs.tabs[k][:bs.n*bs.m] }

func (bs *bases) rhs(k int) []float64 { return bs.tabs[k][bs.n*bs.m:] }

func (bs *bases) basic(k int) []int8 {
	w := bs.n + bs.m
	return bs.labels[k*w : k*w+bs.n]
}

func (bs *bases) nonbasic(k int) []int8 {
	w := bs.n + bs.m
	return bs.labels[k*w+bs.n : (k+1)*w]
}

// done releases basis k's tableau: no pivot starts from it again.
func (bs *bases) done(k int) {
	bs.free = append(bs.free, bs.tabs[k])
	bs.tabs[k] = nil
}

// key is the set of basis k's basic variables.
func (bs *bases) key(k int) (key uint64) {
	for _, v := range bs.basic(k) {
		key |= 1 << v
	}
	return key
}

// pivot adds the basis where, from basis k, the variable of column e
// enters in row r.
func (bs *bases) pivot(k, r, e int) {
	m, n := bs.m, bs.n
	var nums []float64
	if f := len(bs.free); f > 0 {
		nums, bs.free = bs.free[f-1], bs.free[:f-1]
	} else {
		nums = make([]float64, n*m+n)
	}
	copy(nums, bs.tabs[k])
	bs.tabs = append(bs.tabs, nums)
	bs.labels = append(bs.labels, bs.labels[k*(n+m):(k+1)*(n+m)]...)
	nk := bs.len() - 1
	t, rhs := bs.tab(nk), bs.rhs(nk)
	pr := t[r*m : (r+1)*m]
	inv := 1 / pr[e]
	for l := range pr {
		pr[l] *= inv
	}
	rhs[r] *= inv
	pr[e] = inv
	for j := range n {
		row := t[j*m : (j+1)*m]
		f := row[e]
		if j == r || f == 0 {
			continue
		}
		for l := range row {
			row[l] -= f * pr[l]
		}
		rhs[j] -= f * rhs[r]
		row[e] = -f * inv
	}
	basic, nonbasic := bs.basic(nk), bs.nonbasic(nk)
	basic[r], nonbasic[e] = nonbasic[e], basic[r]
}

// enumerate fills fl.verts (unless raysOnly) and fl.rays by a
// breadth-first walk of the dual's feasible bases from y = 0, through
// every pivot the ratio test allows: every vertex of the region is
// reached (its feasible bases are connected), and every extreme ray
// leaves one. False when there are too many bases (most) or vertices.
func (fl *flow[S]) enumerate(most int, raysOnly bool) bool {
	const eps = 1e-9
	m, n := len(fl.rows), len(fl.acts)
	bs := &bases{m: m, n: n, tabs: [][]float64{slices.Concat(fl.coef, fl.cost)}, labels: make([]int8, n+m)}
	for j := range n {
		bs.labels[j] = int8(m + j)
	}
	for i := range m {
		bs.labels[n+i] = int8(i)
	}
	seen := map[uint64]bool{bs.key(0): true}
	y := make([]float64, m)
	var verts, rays points
	defer func() { fl.verts, fl.rays = verts.at, rays.at }()
	for k := 0; k < bs.len(); k++ {
		// Pivots append bases, and may move the labels' array, but
		// never change basis k's: these slices stay right.
		key := bs.key(k)
		t, rhs, basic, nonbasic := bs.tab(k), bs.rhs(k), bs.basic(k), bs.nonbasic(k)
		if !raysOnly {
			clear(y)
			for j, v := range basic {
				if int(v) < m {
					y[v] = rhs[j]
				}
			}
			verts.add(y)
		}
		for e := range m {
			r, least := -1, 0.0
			for j := range n {
				if tj := t[j*m+e]; tj > eps {
					if q := rhs[j] / tj; r < 0 || q < least {
						r, least = j, q
					}
				}
			}
			if r < 0 { // the variable of column e grows without end
				clear(y)
				if v := nonbasic[e]; int(v) < m {
					y[v] = 1
				}
				for j, v := range basic {
					if int(v) < m {
						y[v] = -t[j*m+e]
					}
				}
				rays.add(y)
				continue
			}
			for j := range n { // every row the ratio test ties
				if tj := t[j*m+e]; tj > eps && rhs[j]/tj <= least+eps*(1+least) {
					if nk := key&^(1<<basic[j]) | 1<<nonbasic[e]; !seen[nk] {
						if len(seen) >= most {
							return false
						}
						seen[nk] = true
						bs.pivot(k, j, e)
					}
				}
			}
		}
		bs.done(k)
		if len(verts.at) > maxFlowVerts*m {
			return false
		}
	}
	return true
}

// points is a set of points of one dimension, for enumerate.
type points struct {
	at   []float64
	seen map[uint64]bool
}

// add adds p unless the set has it (to a millionth). Points are told
// apart by a hash of their coordinates: two that collide keep the first
// alone, which leaves the flow's bound a maximum over fewer dual-feasible
// points (lower, still admissible and consistent) or its places fewer
// rays (fewer places it must go to).
func (ps *points) add(p []float64) {
	h := uint64(14695981039346656037)
	for _, x := range p {
		h ^= uint64(int64(math.Round(x * 1e6)))
		h *= 1099511628211
		h ^= h >> 29
	}
	if ps.seen == nil {
		ps.seen = make(map[uint64]bool)
	}
	if !ps.seen[h] {
		ps.seen[h] = true
		ps.at = append(ps.at, p...)
	}
}
