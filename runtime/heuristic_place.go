package runtime

import "math"

// place is what bounds, besides its steps, a part whose serving actions
// all need one value of another field, a place: every way to earn coins
// (Sell, MendNets) needs At == 'market', so a plan from the sea must also
// go there, by the actions that set At (row back, walk to the market: 4
// at least). That cost adds to the part's bound when those actions write
// nothing any part of the goal reads and give back nothing the part's
// supplies or consumption count (see Domain.boundPlace): their costs are
// then counted nowhere else.
//
// It is consistent: the cost to the place falls by at most the cost of a
// step that moves the field (the step is an edge of the graph it is the
// shortest path in), and no other step moves the field.
type place[S any] struct {
	part  int // the part whose bound it adds to
	field FieldID
	str   bool
	to    Part // the serving actions' conjunct: field == the place
	// movers are the actions that set the field, each with its cost plus
	// the least cost from the value it sets to the place.
	movers []placeMover
	number func(*S, FieldID) float64
	text   func(*S, FieldID) string
}

// placeMover is an action that sets the place's field: where its
// conjuncts on the field hold, it moves it to a value from which the place
// costs rest more.
type placeMover struct {
	conds []Part
	cost  float64
}

// cost is the least cost of bringing the field to the place from *s (0
// when it is there; +Inf when nothing can).
func (pl *place[S]) cost(s *S) float64 {
	var x float64
	var xs string
	if pl.str {
		xs = pl.text(s, pl.field)
	} else {
		x = pl.number(s, pl.field)
	}
	if pl.to.holdsFor(x, xs, pl.str) {
		return 0
	}
	return pl.from(x, xs)
}

// from is cost at a value of the field that is not the place.
func (pl *place[S]) from(x float64, xs string) float64 {
	best := math.Inf(1)
	for i := range pl.movers {
		m := &pl.movers[i]
		if m.cost < best && holdsAll(m.conds, x, xs, pl.str) {
			best = m.cost
		}
	}
	return best
}

func holdsAll(ps []Part, x float64, xs string, str bool) bool {
	for i := range ps {
		if !ps[i].holdsFor(x, xs, str) {
			return false
		}
	}
	return true
}

// placeOf returns the place of part i of goal condition c (a stepped
// comparison), or nil: its serving actions need no one value of another
// field (by a conjunct field == constant of each one's precondition), or
// an action writes that field but by setting it to a constant, or an
// action that sets it writes a field a part of c reads or gives back a
// field one of c's bounds counts as used up (used).
func (d *Domain[S]) placeOf(c *condition[S], i int, used []*consumption) *place[S] {
	p := &c.parts[i]
	if d.Number == nil || p.Cmp < CmpLt || !c.bounds[i].stepped() {
		return nil
	}
	n := len(c.parts)
	var to *Part
	for a := range d.Actions {
		if !c.rels[a*n+i].serves() {
			continue
		}
		var eq *Part
		for j := range d.pres[a].parts {
			q := &d.pres[a].parts[j]
			if q.Cmp == CmpEq && q.Field != p.Field && (to == nil || q.Field == to.Field && q.Num == to.Num && q.Str == to.Str) {
				eq = q
				break
			}
		}
		if eq == nil {
			return nil
		}
		to = eq
	}
	if to == nil {
		return nil
	}
	f := to.Field
	pl := &place[S]{part: i, field: f, str: d.Fields[f].Kind == KindString, to: *to, number: d.Number, text: d.Text}
	if pl.str && d.Text == nil {
		return nil
	}
	// The movers, and the values they set.
	type edge struct {
		conds    []Part
		cost     float64
		num      float64
		str      string
		fromHere float64 // cost plus the least cost from the value set
	}
	var edges []edge
	for a := range d.Actions {
		var set *Change
		for k := range d.Actions[a].Changes {
			ch := &d.Actions[a].Changes[k]
			if ch.Field != f {
				continue
			}
			if ch.Op != ChangeSet {
				return nil
			}
			set = ch
		}
		if set == nil {
			continue
		}
		for k := range n {
			if c.rels[a*n+k] != RelNone {
				return nil
			}
		}
		for _, u := range used {
			if gain, known := d.givenBack(u, ActionID(a)); gain > 0 || !known {
				return nil
			}
		}
		e := edge{cost: d.Actions[a].Cost, num: d.Fields[f].Range.clamp(set.Num), str: set.Str}
		for _, q := range d.pres[a].parts {
			if q.Field == f && q.Cmp != CmpNone {
				e.conds = append(e.conds, q)
			}
		}
		edges = append(edges, e)
	}
	// The least cost to the place from each value set (Bellman-Ford: a
	// path has at most one edge a value).
	toGo := make([]float64, len(edges))
	for k := range edges {
		toGo[k] = math.Inf(1)
		if to.holdsFor(edges[k].num, edges[k].str, pl.str) {
			toGo[k] = 0
		}
	}
	for range edges {
		for k := range edges {
			for m := range edges {
				if holdsAll(edges[m].conds, edges[k].num, edges[k].str, pl.str) {
					toGo[k] = min(toGo[k], edges[m].cost+toGo[m])
				}
			}
		}
	}
	for k := range edges {
		pl.movers = append(pl.movers, placeMover{conds: edges[k].conds, cost: edges[k].cost + toGo[k]})
	}
	return pl
}

// boundPlace sets c.place where one part of goal condition c has a place
// (see placeOf); where several have, none counts it (their movers' costs
// could count twice).
func (d *Domain[S]) boundPlace(c *condition[S]) {
	var used []*consumption
	for i := range c.bounds {
		if u := c.bounds[i].use; u != nil {
			used = append(used, u)
		}
		if sp := c.bounds[i].supply; sp != nil {
			for _, sg := range sp.segs {
				if sg.use != nil {
					used = append(used, sg.use)
				}
			}
		}
	}
	for i := range c.parts {
		if pl := d.placeOf(c, i, used); pl != nil {
			if c.place != nil {
				c.place = nil
				return
			}
			c.place = pl
		}
	}
}
