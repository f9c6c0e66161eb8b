package runtime

import (
	"math"
	"slices"
)

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
	// targets[0] is the serving actions' conjunct, field == the place;
	// the others are places that actions giving back what the part's
	// supplies use up need (Cast needs At == 'sea'), at most maxPlaces
	// in all.
	targets []Part
	// movers are the actions that set the field, each with its cost plus
	// the least cost from the value it sets to each target; between[i][j]
	// is the least cost from target i's value to target j.
	movers  []placeMover
	between [maxPlaces][maxPlaces]float64
	// tags, parallel to the part's supplies, mark the targets a plan that
	// takes a share goes to (bit t-1 for targets[t]); nil when no share
	// needs another place.
	tags   []uint8
	number func(*S, FieldID) float64
	text   func(*S, FieldID) string
}

// maxPlaces is how many places a bound tours at most.
const maxPlaces = 4

// placeMover is an action that sets the place's field: where its
// conjuncts on the field hold, it moves it to a value from which each
// target costs costTo in all, itself included.
type placeMover struct {
	conds  []Part
	costTo [maxPlaces]float64
}

// read reads the field in *s.
func (pl *place[S]) read(s *S) (x float64, xs string) {
	if pl.str {
		return 0, pl.text(s, pl.field)
	}
	return pl.number(s, pl.field), ""
}

// cost is the least cost of bringing the field to the place from *s (0
// when it is there; +Inf when nothing can).
func (pl *place[S]) cost(s *S) float64 {
	x, xs := pl.read(s)
	return pl.to(0, x, xs)
}

// to is the least cost of bringing the field from value x (xs) to target t.
func (pl *place[S]) to(t int, x float64, xs string) float64 {
	if pl.targets[t].holdsFor(x, xs, pl.str) {
		return 0
	}
	best := math.Inf(1)
	for i := range pl.movers {
		m := &pl.movers[i]
		if m.costTo[t] < best && holdsAll(m.conds, x, xs, pl.str) {
			best = m.costTo[t]
		}
	}
	return best
}

// tour is the least cost of going from the field's value, whose cost to
// each target is dx, to target 0 and the targets of q, in any order.
func (pl *place[S]) tour(dx *[maxPlaces]float64, q uint8) float64 {
	best := math.Inf(1)
	left := q<<1 | 1
	for t := range len(pl.targets) {
		if left&(1<<t) != 0 {
			best = min(best, dx[t]+pl.visit(t, left&^(1<<t)))
		}
	}
	return best
}

// visit is the least cost of going from target t to every target of left.
func (pl *place[S]) visit(t int, left uint8) float64 {
	if left == 0 {
		return 0
	}
	best := math.Inf(1)
	for u := range len(pl.targets) {
		if left&(1<<u) != 0 {
			best = min(best, pl.between[t][u]+pl.visit(u, left&^(1<<u)))
		}
	}
	return best
}

// bound is the bound of part pl.part of c, at value x of its field in
// *s, with the place: the part's steps (or consumption) and the way to
// the place; with supplies, also the least, over the places the plan
// goes to besides, of the shares of plans that go only there and the
// tour of them.
func (pl *place[S]) bound(c *condition[S], s *S, x float64, number func(*S, FieldID) float64) float64 {
	px, pxs := pl.read(s)
	pb := &c.bounds[pl.part]
	if pl.tags == nil {
		return stepsAt(pb, s, x, number) + pl.to(0, px, pxs)
	}
	var dx [maxPlaces]float64
	for t := range pl.targets {
		dx[t] = pl.to(t, px, pxs)
	}
	h := stepsOnly(pb, s, x, number) + dx[0]
	d := pb.supplied(x)
	if d <= 0 {
		return h
	}
	best := math.Inf(1)
	for q := range uint8(1) << (len(pl.targets) - 1) {
		if k := suppliesOf(pb.supply, d, s, number, pl.tags, q); k < best {
			best = min(best, k+pl.tour(&dx, q))
		}
	}
	return max(h, best)
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
	pl := &place[S]{part: i, field: f, str: d.Fields[f].Kind == KindString, targets: []Part{*to}, number: d.Number, text: d.Text}
	if pl.str && d.Text == nil {
		return nil
	}
	// The movers, and the values they set.
	type edge struct {
		conds []Part
		cost  float64
		num   float64
		str   string
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
	// The places the givers of the part's supplies need.
	if sp := c.bounds[i].supply; sp != nil {
		tags := make([]uint8, len(sp.segs))
		for k, sg := range sp.segs {
			if sg.by == NoAction {
				continue
			}
			w := d.pres[sg.by].eqOn(f)
			if w == nil || w.holdsFor(to.Num, to.Str, pl.str) {
				continue
			}
			t := slices.IndexFunc(pl.targets, func(p Part) bool { return p.holdsFor(w.Num, w.Str, pl.str) })
			if t < 0 && len(pl.targets) < maxPlaces {
				pl.targets = append(pl.targets, *w)
				t = len(pl.targets) - 1
			}
			if t > 0 {
				tags[k] = 1 << (t - 1)
				pl.tags = tags
			}
		}
	}
	// The least cost to each target from each value set (Bellman-Ford: a
	// path has at most one edge a value).
	pl.movers = make([]placeMover, len(edges))
	for k := range edges {
		pl.movers[k].conds = edges[k].conds
	}
	toGo := make([]float64, len(edges))
	for t := range pl.targets {
		for k := range edges {
			toGo[k] = math.Inf(1)
			if pl.targets[t].holdsFor(edges[k].num, edges[k].str, pl.str) {
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
			pl.movers[k].costTo[t] = edges[k].cost + toGo[k]
		}
	}
	for t := range pl.targets {
		for u := range pl.targets {
			pl.between[t][u] = pl.to(u, pl.targets[t].Num, pl.targets[t].Str)
		}
	}
	return pl
}

// eqOn returns the conjunct field f == constant of c, or nil.
func (c *condition[S]) eqOn(f FieldID) *Part {
	for j := range c.parts {
		if p := &c.parts[j]; p.Field == f && p.Cmp == CmpEq {
			return p
		}
	}
	return nil
}

// boundPlace sets c.place where one part of goal condition c has a place
// (see placeOf); where several have, none counts it (their movers' costs
// could count twice).
func (d *Domain[S]) boundPlace(c *condition[S]) {
	used := c.consumptions()
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
