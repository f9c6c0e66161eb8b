package runtime

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// place is what bounds, besides its steps, a part whose serving actions
// all need one value of another field, a place: every way to earn coins
// (Sell, MendNets) needs At == 'market', so a plan from the sea must also
// go there, by the actions that set At (row back, walk to the market: 4
// at least); and a plan that sells fish it casts at sea goes there first
// and then to the market (place.tour). That cost adds to the part's bound
// when those actions write nothing any part of the goal reads and give
// back nothing the part's supplies or consumption count (see
// Domain.boundPlace): their costs are then counted nowhere else.
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
	// the least cost from the value it sets to each target; visits[t][q]
	// is the least cost from target t's value to every target of the set
	// q (bit u for targets[u]), in any order.
	movers []placeMover
	edges  []placeEdge
	visits [maxPlaces][1 << maxPlaces]float64
	// ends[t][q] is the least cost from target t's value through every
	// target of the set q to target 0 (place.tour).
	ends [maxPlaces][1 << maxPlaces]float64
	// When the targets and the movers' conjuncts all compare the field by
	// == or !=, each value they name is a class of its own and every
	// other value one more: classes[i] holds the costs from values[i]
	// (nums or texts), classes[len(values)] from any other value.
	nums    []float64
	texts   []string
	classes []placeCosts
	// tags, parallel to the part's supplies, mark the targets a plan that
	// takes a share goes to (bit t-1 for targets[t]); nil when no share
	// needs another place.
	tags []uint8
	// within[q] are the shares (bit k for segs[k] of shared, the part's
	// supplies) a plan that goes only to the targets of the set q takes
	// (their tags within q), and used those with a field they use up:
	// what bound reads (see suppliesIn). shared is nil when tags is, or
	// past maxShares shares.
	within [1 << (maxPlaces - 1)]uint16
	used   uint16
	shared *supplies
	// cutAt marks the targets where the givers of the shares that
	// boundSupplies left out run (supplies.cut), as tags do; a plan takes
	// those shares only where it goes to one, unless cutAnywhere (one
	// needs no place, or one beyond maxPlaces).
	cutAt       uint8
	cutAnywhere bool
	// also is the place of a second field the part's serving actions
	// need at one value, whose way adds (nil: none; see Domain.placeOf).
	also *place[S]
	// ret is the least cost of coming back to targets[0] after a run of
	// a serving action (see Domain.returnCost): 0 when one stays there.
	ret    float64
	number func(*S, FieldID) float64
	text   func(*S, FieldID) string
}

// maxPlaces is how many places a bound tours at most.
const maxPlaces = 4

// placeCosts are the costs from one value of a place's field: to each
// target, and of each tour (see place.tour); qs[:nq] are the sets of
// other places worth trying, by their tour, cheapest first: a set whose
// tour costs no less than that of a set of more places is not (the more
// places, the more shares open).
type placeCosts struct {
	dx    [maxPlaces]float64
	tours [1 << (maxPlaces - 1)]float64
	qs    [1 << (maxPlaces - 1)]uint8
	nq    int
}

// placeEdge is an action that sets the place's field to num (str), for
// cost, where its conjuncts on the field, conds, hold.
type placeEdge struct {
	conds []Part
	cost  float64
	num   float64
	str   string
}

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

// costs returns the costs from the field's value in *s: pl.classes'
// entry, or computed into *c.
func (pl *place[S]) costs(s *S, c *placeCosts) *placeCosts {
	if pl.classes != nil {
		i := 0
		if pl.str {
			xs := pl.text(s, pl.field)
			for i < len(pl.texts) && pl.texts[i] != xs {
				i++
			}
		} else {
			x := pl.number(s, pl.field)
			for i < len(pl.nums) && pl.nums[i] != x {
				i++
			}
		}
		return &pl.classes[i]
	}
	x, xs := pl.read(s)
	pl.costsFrom(x, xs, c)
	return c
}

// costsFrom sets *c to the costs from value x (xs) of the field.
func (pl *place[S]) costsFrom(x float64, xs string, c *placeCosts) {
	for t := range pl.targets {
		c.dx[t] = pl.to(t, x, xs)
	}
	if pl.tags == nil {
		return
	}
	sets := uint8(1) << (len(pl.targets) - 1)
	for q := range sets {
		c.tours[q] = pl.tour(&c.dx, q)
	}
	c.nq = 0
	for q := range sets {
		worth := !math.IsInf(c.tours[q], 1)
		for r := range sets {
			if r != q && q&^r == 0 && c.tours[r] <= c.tours[q] {
				worth = false
			}
		}
		if worth {
			c.qs[c.nq] = q
			c.nq++
		}
	}
	slices.SortStableFunc(c.qs[:c.nq], func(a, b uint8) int { return cmp.Compare(c.tours[a], c.tours[b]) })
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
// each target is dx, through the targets of q (bit t-1 for targets[t]) to
// target 0, in that order: a plan that takes a share given at another
// place sells it, or uses it up some other way, at target 0 after it was
// given (the fisher sells at the market fish cast at sea), so it goes
// there last. With q empty, the cost to target 0.
func (pl *place[S]) tour(dx *[maxPlaces]float64, q uint8) float64 {
	if q == 0 {
		return dx[0]
	}
	best := math.Inf(1)
	left := q << 1
	for t := 1; t < len(pl.targets); t++ {
		if left&(1<<t) != 0 {
			best = min(best, dx[t]+pl.ends[t][left&^(1<<t)])
		}
	}
	return best
}

// visitAll is the least cost of going from the field's value, whose
// cost to each target is dx, to every target of set (bit t for
// targets[t]) in any order, and the target it goes to first (-1: none,
// set empty or no way there).
func (pl *place[S]) visitAll(dx *[maxPlaces]float64, set uint8) (cost float64, first int) {
	cost, first = math.Inf(1), -1
	for t := range len(pl.targets) {
		if set&(1<<t) != 0 {
			if v := dx[t] + pl.visits[t][set&^(1<<t)]; v < cost {
				cost, first = v, t
			}
		}
	}
	return cost, first
}

// visitEnding is the least cost of going from target t through every
// target of left to target 0, given the least cost between each two
// targets.
func visitEnding(between *[maxPlaces][maxPlaces]float64, n, t int, left uint8) float64 {
	if left == 0 {
		return between[t][0]
	}
	best := math.Inf(1)
	for u := range n {
		if left&(1<<u) != 0 {
			best = min(best, between[t][u]+visitEnding(between, n, u, left&^(1<<u)))
		}
	}
	return best
}

// visit is the least cost of going from target t to every target of
// left, given the least cost between each two targets.
func visit(between *[maxPlaces][maxPlaces]float64, n, t int, left uint8) float64 {
	if left == 0 {
		return 0
	}
	best := math.Inf(1)
	for u := range n {
		if left&(1<<u) != 0 {
			best = min(best, between[t][u]+visit(between, n, u, left&^(1<<u)))
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
	pb := &c.bounds[pl.part]
	var scratch placeCosts
	pc := pl.costs(s, &scratch)
	back := 0.0
	if pl.ret > 0 {
		back = pl.returns(pb, x)
	}
	if al := pl.also; al != nil {
		var scratch placeCosts
		back += al.costs(s, &scratch).dx[0]
		if al.ret > 0 {
			back += al.returns(pb, x)
		}
	}
	if pl.tags == nil {
		return stepsAt(pb, s, x, number) + pc.dx[0] + back
	}
	h := stepsOnly(pb, s, x, number) + pc.dx[0] + back
	d := pb.supplied(x)
	if d <= 0 {
		return h
	}
	sp := pb.supply
	if sp != pl.shared {
		return pl.boundEach(pb, s, number, pc, h, d)
	}
	// The free runs each share's field allows, read once for every set
	// of places.
	var room [maxShares]float64
	for w := pl.used; w != 0; w &= w - 1 {
		i := bits.TrailingZeros16(w)
		sg := &sp.segs[i]
		room[i] = sg.use.runs(number(s, sg.use.field)) * sg.step
	}
	// The sets come cheapest tour first, and none pays less for its
	// shares than a plan that goes everywhere (lo): the search stops
	// where a tour plus lo reaches the best so far, or the best falls to
	// h, which bounds anyway.
	lo := 0.0
	if pc.nq > 1 { // the first set is tried anyway
		all := uint8(1)<<(len(pl.targets)-1) - 1
		lo = suppliesIn(sp, d, pl.within[all], &room, pl.cutAnywhere || pl.cutAt != 0)
	}
	best := math.Inf(1)
	for _, q := range pc.qs[:pc.nq] {
		t := pc.tours[q]
		if t+lo >= best || best <= h {
			break
		}
		best = min(best, suppliesIn(sp, d, pl.within[q], &room, pl.cutAnywhere || q&pl.cutAt != 0)+t)
	}
	return max(h, best)
}

// returns is what coming back to the place costs at least, between the
// runs of the serving actions that the part's field at value x needs
// (each run moves it by at most the largest step; one run, where an
// action may set it, or outside the field's range).
func (pl *place[S]) returns(pb *partBound, x float64) float64 {
	runs := 1.0
	switch {
	case !math.IsInf(pb.reset, 1) || x < pb.rlo || x > pb.rhi:
	case pb.lo-x > 0 && pb.maxUp > 0:
		runs = math.Ceil((pb.lo - x) / pb.maxUp)
	case x-pb.hi > 0 && pb.maxDown > 0:
		runs = math.Ceil((x - pb.hi) / pb.maxDown)
	}
	if runs <= 1 {
		return 0
	}
	return (runs - 1) * pl.ret
}

// boundEach is bound where shares does not tell the shares of each set
// of places (past maxShares of them): it reads their tags, and each
// share's free runs, for each set.
func (pl *place[S]) boundEach(pb *partBound, s *S, number func(*S, FieldID) float64, pc *placeCosts, h, d float64) float64 {
	lo := 0.0
	if pc.nq > 1 {
		all := uint8(1)<<(len(pl.targets)-1) - 1
		lo = suppliesOf(pb.supply, d, s, number, pl.tags, all, pl.cutAnywhere || pl.cutAt != 0)
	}
	best := math.Inf(1)
	for _, q := range pc.qs[:pc.nq] {
		t := pc.tours[q]
		if t+lo >= best || best <= h {
			break
		}
		best = min(best, suppliesOf(pb.supply, d, s, number, pl.tags, q, pl.cutAnywhere || q&pl.cutAt != 0)+t)
	}
	return max(h, best)
}

// maxShares is how many shares' free runs place.bound reads once.
const maxShares = 16

// holdsAll reports whether every conjunct of ps holds at value x (xs)
// of the field they compare; a disjunction (onlyOn) holds where one of
// its comparisons does.
func holdsAll(ps []Part, x float64, xs string, str bool) bool {
	for i := range ps {
		p := &ps[i]
		if p.Any != nil {
			if !slices.ContainsFunc(p.Any, func(q Part) bool { return q.holdsFor(x, xs, str) }) {
				return false
			}
		} else if !p.holdsFor(x, xs, str) {
			return false
		}
	}
	return true
}

// onlyOn reports whether any, a disjunction's comparisons, all compare
// field f with a constant (At == Mill || At == Farm), so that a mover's
// edge may start only where one holds.
func onlyOn(any []Part, f FieldID) bool {
	for i := range any {
		q := &any[i]
		if q.Field != f || q.Cmp == CmpNone || q.Any != nil || q.Sum != nil || len(q.Reads) != 1 || q.Reads[0] != f {
			return false
		}
	}
	return len(any) > 0
}

// placeOf returns the place of part i of goal condition c (a stepped
// comparison, or a comparison that only a step of some action that sets
// or fixes its field makes hold: Delivered, set at the farm), or nil: its
// serving actions need no one value of another field (by a conjunct
// field == constant of each one's precondition), or an action writes
// that field but by setting it to a constant, or an action that sets it
// writes a field a part of c reads or gives back a field one of c's
// bounds counts as used up (used).
func (d *Domain[S]) placeOf(c *condition[S], i int, used []consumer) *place[S] {
	p := &c.parts[i]
	if d.Number == nil || !placeable(p, &c.bounds[i]) {
		return nil
	}
	to := d.servedAt(c, i, -1)
	if to == nil {
		return nil
	}
	pl, ok := d.newPlace(c, i, to, used)
	if !ok {
		return nil
	}
	// The places the givers of the part's supplies need.
	if sp := c.bounds[i].supply; sp != nil {
		tags := make([]uint8, len(sp.segs))
		for k, sg := range sp.segs {
			if sg.by == NoAction {
				continue
			}
			if t := d.giverTarget(pl, sg.by, to); t > 0 {
				tags[k] = 1 << (t - 1)
				pl.tags = tags
			}
		}
		pl.cutAt, pl.cutAnywhere = d.cutPlaces(pl, sp.cut, to)
		pl.shares(sp)
	}
	pl.measure()
	pl.ret = d.returnCost(pl, c, i)
	// A second field the serving actions need at one value (the loaf
	// shaped, Stage == Shaped, in the kitchen, At == Kitchen): its way
	// adds, where no action sets both fields.
	if g := d.servedAt(c, i, to.Field); g != nil && !d.setsBoth(to.Field, g.Field) {
		if also, ok := d.newPlace(c, i, g, used); ok {
			also.measure()
			also.ret = d.returnCost(also, c, i)
			pl.also = also
		}
	}
	return pl
}

// servedAt returns the conjunct field == constant, on a field other than
// part i's and than skip, of the precondition of every action that
// serves part i of c (the first such of the first one), or nil.
func (d *Domain[S]) servedAt(c *condition[S], i int, skip FieldID) *Part {
	p := &c.parts[i]
	n := len(c.parts)
	var to *Part
	for a := range d.Actions {
		if !c.rels[a*n+i].serves() {
			continue
		}
		var eq *Part
		for j := range d.pres[a].parts {
			q := &d.pres[a].parts[j]
			if q.Cmp == CmpEq && q.Field != p.Field && q.Field != skip && (to == nil || q.Field == to.Field && q.Num == to.Num && q.Str == to.Str) {
				eq = q
				break
			}
		}
		if eq == nil {
			return nil
		}
		to = eq
	}
	return to
}

// newPlace returns the place of part i of c at target to, with its
// movers' edges (not yet measured), and false: an action writes to's
// field but by setting it to a constant, or an action that sets it
// (but one serving the part: see returnCost) writes a field a part of c
// reads or gives back a field one of c's bounds counts as used up
// (used).
func (d *Domain[S]) newPlace(c *condition[S], i int, to *Part, used []consumer) (*place[S], bool) {
	f := to.Field
	pl := &place[S]{part: i, field: f, str: d.Fields[f].Kind == KindString, targets: []Part{*to}, number: d.Number, text: d.Text}
	if pl.str && d.Text == nil {
		return nil, false
	}
	n := len(c.parts)
	edges, ok := d.placeEdges(f, func(a ActionID) bool { return c.rels[int(a)*n+i].serves() }, func(a ActionID) bool {
		for k := range n {
			if c.rels[int(a)*n+k] != RelNone {
				return false
			}
		}
		for _, u := range used {
			if gain, known := d.givenBack(u.u, a); gain > 0 || !known {
				return false
			}
		}
		return true
	})
	pl.edges = edges
	return pl, ok
}

// returnCost is the least cost of bringing pl's field back to its place
// after a run of an action that serves part i of c, each of which
// needs the field there: 0 when one leaves it there, else the least, over
// them, of the way from the value it sets.
func (d *Domain[S]) returnCost(pl *place[S], c *condition[S], i int) float64 {
	ret := math.Inf(1)
	n := len(c.parts)
	for a := range d.Actions {
		if !c.rels[a*n+i].serves() {
			continue
		}
		k := slices.IndexFunc(d.Actions[a].Changes, func(ch Change) bool { return ch.Field == pl.field })
		if k < 0 {
			return 0
		}
		ch := &d.Actions[a].Changes[k]
		ret = min(ret, pl.to(0, d.Fields[pl.field].Range.clamp(ch.Num), ch.Str))
	}
	return ret
}

// placeable reports whether part p, with bound b, may have a place: an
// ordering comparison moved by steps, or a comparison of one field with
// a constant that no action moves by steps and some action makes hold in
// one (a flag, a stage): its bound is that step's cost, from wherever the
// field is, and a plan makes it hold only by a step of an action that
// serves it (Relation), which is what the place asks of all of them.
func placeable(p *Part, b *partBound) bool {
	if b.stepped() {
		return p.Cmp >= CmpLt
	}
	return p.Cmp != CmpNone && p.Sum == nil && p.Any == nil && !b.ranged() && !math.IsInf(b.reset, 1)
}

// placeEdges returns the edges of the actions that set place field f,
// each from where its conjuncts on f hold to the value it sets, but the
// setters skip marks (nil: none); false when an action writes f but by
// setting it to a constant, or a setter is not one the caller may count
// as a mover (may).
func (d *Domain[S]) placeEdges(f FieldID, skip, may func(ActionID) bool) ([]placeEdge, bool) {
	var edges []placeEdge
	for a := range d.Actions {
		var set *Change
		for k := range d.Actions[a].Changes {
			ch := &d.Actions[a].Changes[k]
			if ch.Field != f {
				continue
			}
			if ch.Op != ChangeSet {
				return nil, false
			}
			set = ch
		}
		if set == nil || skip != nil && skip(ActionID(a)) {
			continue
		}
		if !may(ActionID(a)) {
			return nil, false
		}
		e := placeEdge{cost: d.Actions[a].Cost, num: d.Fields[f].Range.clamp(set.Num), str: set.Str}
		for _, q := range d.pres[a].parts {
			if q.Field == f && q.Cmp != CmpNone || onlyOn(q.Any, f) {
				e.conds = append(e.conds, q)
			}
		}
		edges = append(edges, e)
	}
	return edges, true
}

// shares sets pl.within and pl.used for the part's supplies sp.
func (pl *place[S]) shares(sp *supplies) {
	if pl.tags == nil || len(sp.segs) > maxShares {
		return
	}
	pl.shared = sp
	for k, sg := range sp.segs {
		for q := range pl.within {
			if pl.tags[k]&^uint8(q) == 0 {
				pl.within[q] |= 1 << k
			}
		}
		if sg.use != nil {
			pl.used |= 1 << k
		}
	}
}

// giverTarget returns the index in pl's targets of the place that
// action by, which gives back what a share uses up, needs on pl's field,
// adding it when it is new and there is room: 0 when it needs none other
// than target 0, at to, and -1 when the targets are full.
func (d *Domain[S]) giverTarget(pl *place[S], by ActionID, to *Part) int {
	w := d.pres[by].eqOn(pl.field)
	if w == nil || w.holdsFor(to.Num, to.Str, pl.str) {
		return 0
	}
	t := slices.IndexFunc(pl.targets, func(p Part) bool { return p.holdsFor(w.Num, w.Str, pl.str) })
	if t < 0 && len(pl.targets) < maxPlaces {
		pl.targets = append(pl.targets, *w)
		t = len(pl.targets) - 1
	}
	return t
}

// cutPlaces adds to pl's targets the places where the givers of the
// shares cut run (boundSupplies left them out), and returns them as
// tags, or anywhere when a plan may take one of those shares without
// going elsewhere than target 0, at to: a share at hand, or given by an
// action that needs no other place of pl's field, or one past maxPlaces.
func (d *Domain[S]) cutPlaces(pl *place[S], cut []supply, to *Part) (at uint8, anywhere bool) {
	for _, sg := range cut {
		if sg.by == NoAction {
			return 0, true
		}
		t := d.giverTarget(pl, sg.by, to)
		if t <= 0 {
			return 0, true
		}
		at |= 1 << (t - 1)
	}
	return at, false
}

// measure sets the movers' costs to each target from pl.edges, the
// costs between the targets, and the costs by class of value.
func (pl *place[S]) measure() {
	edges := pl.edges
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
	var between [maxPlaces][maxPlaces]float64
	for t := range pl.targets {
		for u := range pl.targets {
			between[t][u] = pl.to(u, pl.targets[t].Num, pl.targets[t].Str)
		}
	}
	for t := range pl.targets {
		for q := range uint8(1) << len(pl.targets) {
			pl.visits[t][q] = visit(&between, len(pl.targets), t, q)
			pl.ends[t][q] = visitEnding(&between, len(pl.targets), t, q)
		}
	}
	pl.classify()
}

// classify sets pl.classes, when every conjunct on the field compares it
// by == or !=.
func (pl *place[S]) classify() {
	named := slices.Clone(pl.targets)
	for _, m := range pl.movers {
		for _, q := range m.conds {
			if q.Any != nil {
				named = append(named, q.Any...)
			} else {
				named = append(named, q)
			}
		}
	}
	for _, p := range named {
		if p.Cmp != CmpEq && p.Cmp != CmpNe {
			return
		}
		if pl.str && !slices.Contains(pl.texts, p.Str) {
			pl.texts = append(pl.texts, p.Str)
		} else if !pl.str && !slices.Contains(pl.nums, p.Num) {
			pl.nums = append(pl.nums, p.Num)
		}
	}
	// A value no conjunct names: one that differs from all of them.
	other, others := math.NaN(), ""
	for pl.str && slices.Contains(pl.texts, others) {
		others += "_"
	}
	n := len(pl.nums) + len(pl.texts)
	pl.classes = make([]placeCosts, n+1)
	for i := range pl.classes {
		x, xs := other, others
		switch {
		case i < len(pl.nums):
			x = pl.nums[i]
		case i < len(pl.texts):
			xs = pl.texts[i]
		}
		pl.costsFrom(x, xs, &pl.classes[i])
	}
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

// boundPlace sets c.places where one part of goal condition c has a
// place (see placeOf), and c.joint where several have, when it can (see
// joint). Else each field's first place counts, where no action sets two
// of their fields: the movers of each are then actions of their own,
// which serve no part, so their least costs add up to a lower bound, and
// an action lowers at most one of them, by its cost at most. (Two parts'
// places on one field may be reached by one walk, whose cost would then
// count twice.)
func (d *Domain[S]) boundPlace(c *condition[S]) {
	used := c.consumers()
	var pls []*place[S]
	var parts []int
	for i := range c.parts {
		if pl := d.placeOf(c, i, used); pl != nil {
			pls, parts = append(pls, pl), append(parts, i)
		}
	}
	if slices.ContainsFunc(pls, func(pl *place[S]) bool { return pl.tags != nil }) {
		// A place that tours the givers of its part's supplies bounds
		// more than a joint tour, which leaves them out (jointOf): the
		// parts that one step makes hold (the roof, laid at the camp
		// where the walls rise) do without their places then.
		k := 0
		for j, pl := range pls {
			if c.bounds[parts[j]].stepped() {
				pls[k], parts[k] = pl, parts[j]
				k++
			}
		}
		pls, parts = pls[:k], parts[:k]
	}
	if len(pls) > 0 {
		c.flat = -1 // the parts' bounds depend on the state now
	}
	switch {
	case len(pls) == 1:
		c.places = pls
	case len(pls) > 1:
		if c.joint = jointOf(c, pls, parts); c.joint == nil {
			c.places = d.apart(pls)
		}
	}
	for _, pl := range c.places {
		c.placed |= 1 << pl.part
	}
}

// placeFor returns the place of part i, which has one.
func (c *condition[S]) placeFor(i int) *place[S] {
	for _, pl := range c.places {
		if pl.part == i {
			return pl
		}
	}
	panic("runtime: a part without a place")
}

// apart returns the first place on each field of pls, leaving out those
// on a field that an action sets along with the field of one kept.
func (d *Domain[S]) apart(pls []*place[S]) []*place[S] {
	var kept []*place[S]
	for _, pl := range pls {
		if !slices.ContainsFunc(kept, func(k *place[S]) bool { return d.near(k.field, pl.field) }) {
			kept = append(kept, pl)
		}
	}
	// A second field (also) counts where no other field kept is near it.
	var fields []FieldID
	for _, pl := range kept {
		fields = append(fields, pl.field)
	}
	for _, pl := range kept {
		if pl.also == nil {
			continue
		}
		if slices.ContainsFunc(fields, func(f FieldID) bool { return d.near(f, pl.also.field) }) {
			pl.also = nil
		} else {
			fields = append(fields, pl.also.field)
		}
	}
	return kept
}

// near reports whether places on fields f and g count the same steps:
// one field, or an action sets both.
func (d *Domain[S]) near(f, g FieldID) bool { return f == g || d.setsBoth(f, g) }

// setsBoth reports whether an action may write both fields f and g (one
// with effects and no write set may write any).
func (d *Domain[S]) setsBoth(f, g FieldID) bool {
	for a := range d.Actions {
		act := &d.Actions[a]
		writes := func(x FieldID) bool {
			return act.Effect != nil && len(act.Writes) == 0 || slices.Contains(act.Writes, x) ||
				slices.ContainsFunc(act.Changes, func(ch Change) bool { return ch.Field == x })
		}
		if writes(f) && writes(g) {
			return true
		}
	}
	return false
}

// joint is what bounds, besides their steps, the parts of a goal
// condition that each have a place on one field, when their bounds add
// up (no action serves two of them): Sell needs At == 'market' and Chop
// At == 'forest', so a plan for Coins >= 10 && Wood >= 3 walks to both.
// The least cost of a tour of the places of the parts that fail, from
// the field's value, adds to their steps once.
//
// It is admissible: every part that fails needs a run of one of its
// serving actions, each of which needs the field at the part's place, and
// only the movers, which serve no part and give back nothing a bound
// counts, move the field. It is consistent: a mover lowers the tour by at
// most its cost (its costs are shortest paths); a serving action runs at
// its part's place, where the tour with that place costs what the tour
// without it does; other steps only add places.
type joint[S any] struct {
	pl    *place[S] // targets[k] is the place of parts[k]
	parts []int
}

// jointOf returns the joint of the places pls of parts of c, or nil: the
// parts' bounds do not simply add up, or the places are on different
// fields. The places that the givers of a part's supplies need
// (place.tags) are left out: each part's bound is then its steps and all
// its shares, as where it has no place.
func jointOf[S any](c *condition[S], pls []*place[S], parts []int) *joint[S] {
	if c.flat > 0 || !c.disjoint || len(pls) > maxPlaces {
		return nil
	}
	first := pls[0]
	j := &joint[S]{parts: parts, pl: &place[S]{part: -1, field: first.field, str: first.str, edges: first.edges,
		number: first.number, text: first.text}}
	for _, pl := range pls {
		if pl.field != first.field {
			return nil
		}
		j.pl.targets = append(j.pl.targets, pl.targets[0])
	}
	j.pl.measure()
	return j
}

// first returns the part of failing (bits of the condition's parts) whose
// place the cheapest tour of their places from *s visits first, or -1
// when fewer than two of them have a place.
func (j *joint[S]) first(s *S, failing uint64) int {
	_, first, n := j.route(s, failing)
	if n < 2 {
		return -1
	}
	return first
}

// tour is the least cost, from *s, of going to the places of the parts
// of failing (bits of the condition's parts).
func (j *joint[S]) tour(s *S, failing uint64) float64 {
	cost, _, _ := j.route(s, failing)
	return cost
}

// route returns the least cost, from *s, of a tour of the places of the
// parts of failing, the part whose place it visits first (-1: none) and
// how many places it visits.
func (j *joint[S]) route(s *S, failing uint64) (cost float64, first, n int) {
	var set uint8
	for k, i := range j.parts {
		if failing&(1<<i) != 0 {
			set |= 1 << k
		}
	}
	if set == 0 {
		return 0, -1, 0
	}
	var scratch placeCosts
	cost, t := j.pl.visitAll(&j.pl.costs(s, &scratch).dx, set)
	first = -1
	if t >= 0 {
		first = j.parts[t]
	}
	return cost, first, bits.OnesCount8(set)
}
