package runtime

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// supplies is what bounds a part that actions serve by steps, some of
// which use up a field of their own precondition that only other actions
// give back: Sell (Coins += 3) needs Fish >= 1 and does Fish -= 1, and
// only Cast (Fish += 2, cost 1) brings fish; MendNets (Coins += 1, cost 2)
// needs nothing back. The fish at hand sell for Sell's cost alone; each
// sale after them needs half a Cast more. So moving the part's field d
// units costs at least what the cheapest units cost, filled in order of
// cost per unit, each action's free runs (those its field allows from
// here) before its runs that need giving back: a fractional knapsack, a
// relaxation of the integer plan, so never above a plan's cost.
//
// It is consistent, as A* needs: a step of an action lowers d by its
// step and uses up one of its own free runs, which the cheapest filling
// of d less the step plus that run at its cost covers; an action that
// gives back a field adds at most its gain of free runs, each costing at
// most its share of that action (e is its cost over its gain); other
// actions only raise the bound.
//
// Actions serving one part that use up the same field count as one that
// stands for them all (Domain.pool). The costs of giving back count for
// one part only if no action that gives back one supply's field gives
// back another's (one run could then count twice) and none serves a
// part of the goal (where parts' bounds add up); see
// Domain.boundSupplies.
type supplies struct {
	// segs, cheapest unit first, up to the first without a limit that
	// every plan may take (see supplyOf).
	segs []supply
	// cut are the shares after the first without a limit that
	// boundSupplies left out, which plans that go elsewhere may take.
	cut []supply
}

// supply is a share of the units that actions serving a part can move its
// field: at unit a unit, up to an action's free runs of step units each
// (use: the conjunct of its precondition they use up), or with no limit
// (use nil).
type supply struct {
	unit, step float64
	use        *consumption
	// by is the action that gives back what its runs use up (NoAction
	// for free runs): a plan that takes these units runs it, where its
	// precondition holds (see place).
	by ActionID
}

// cost is the bound of moving the part's field d units (d > 0) from *s.
func suppliesCost[S any](u *supplies, d float64, s *S, number func(*S, FieldID) float64) float64 {
	return suppliesOf(u, d, s, number, nil, 0, true)
}

// suppliesOf is suppliesCost with only the shares whose tags (parallel
// to u.segs, when set) are within within: the units of plans that go
// only to those places (see place); cut says whether they may take the
// shares boundSupplies left out (u.cut).
func suppliesOf[S any](u *supplies, d float64, s *S, number func(*S, FieldID) float64, tags []uint8, within uint8, cut bool) float64 {
	h := 0.0
	for i := range u.segs {
		sg := &u.segs[i]
		if tags != nil && tags[i]&^within != 0 {
			continue
		}
		if sg.use == nil {
			return h + d*sg.unit
		}
		take := min(d, sg.use.runs(number(s, sg.use.field))*sg.step)
		h += take * sg.unit
		if d -= take; d <= 0 {
			return h
		}
	}
	if cut && u.cut != nil {
		// More units than the shares within hold: the shares past the
		// last (see boundSupplies) cost at least its unit.
		return h + d*u.segs[len(u.segs)-1].unit
	}
	// More units than the shares within hold: no plan that goes only to
	// their places has them. Each run of an action serving the part uses
	// up its conjunct, which only its free runs and the actions that
	// give it back (its shares, every one of them) allow, and a share's
	// giver runs before the run it allows, at its place; supplyOf stops
	// the shares early only at one without a limit or a place, which is
	// within every set of places.
	return math.Inf(1)
}

// suppliesIn is suppliesOf with the shares in take (bit k for segs[k],
// as place.within says for a set of places) and the free units of each
// in room.
func suppliesIn(u *supplies, d float64, take uint16, room *[maxShares]float64, cut bool) float64 {
	h := 0.0
	for w := take; w != 0; w &= w - 1 {
		i := bits.TrailingZeros16(w)
		sg := &u.segs[i]
		if sg.use == nil {
			return h + d*sg.unit
		}
		t := room[i]
		if d <= t { // min(d, t), without the cost of its NaN and zero cases
			return h + d*sg.unit
		}
		h += t * sg.unit
		d -= t
	}
	if cut && u.cut != nil {
		return h + d*u.segs[len(u.segs)-1].unit
	}
	return math.Inf(1) // see suppliesOf
}

// gives is an action that gives back a field a supply uses up: gain runs
// of the consumption's action a run of it, for its cost.
type gives struct {
	act  ActionID
	gain float64
}

// givenBack returns what one run of action o gives back to the conjunct
// of consumption u (runs of its action), and whether the form of o's
// effect on its field tells.
func (d *Domain[S]) givenBack(u *consumption, o ActionID) (gain float64, known bool) {
	for _, ch := range d.Actions[o].Changes {
		if ch.Field != u.field {
			continue
		}
		switch ch.Op {
		case ChangeAdd:
			if ch.Num < 0 == u.below && ch.Num != 0 { // room: toward the bound's far side
				gain += math.Ceil(math.Abs(ch.Num) / u.per)
			}
		case ChangeSet:
			gain += u.runs(d.Fields[u.field].Range.clamp(ch.Num))
		default:
			return 0, false
		}
	}
	return gain, true
}

// findGivers sets pre.givers and pre.opaque for the consumed parts of
// pre, action a's precondition: what the estimate's supplies (usedUp)
// and the chainer's batches (Domain.nets) read of who gives them back.
func (d *Domain[S]) findGivers(pre *condition[S], a ActionID) {
	for j := range pre.parts {
		if pre.consumed&(1<<j) == 0 {
			continue
		}
		if pre.givers == nil {
			pre.givers = make([][]gives, len(pre.parts))
		}
		u := consumed(&pre.parts[j], pre.use[j])
		for o := range d.Actions {
			if ActionID(o) == a {
				continue
			}
			gain, known := d.givenBack(&u, ActionID(o))
			if !known {
				pre.opaque |= 1 << j
				pre.givers[j] = nil
				break
			}
			if gain > 0 {
				pre.givers[j] = append(pre.givers[j], gives{act: ActionID(o), gain: gain})
			}
		}
	}
}

// splitGivers sets giveShare for the supplies of condition c, as
// supplies computed with shares (the first time: whole costs) count
// them: for each action, 1 over the number of distinct fields of the
// conjuncts c's bounds use up that it gives back, with those it counted
// before (1 when none). A shot that brings meat for one sale and a hide
// for another costs the supplies half its cost each: what they charge
// for one run sums to no more than its cost, so the bound stays below
// every plan's, and a run of it lowers the bound by at most its cost.
// It reports whether a share changed.
func (d *Domain[S]) splitGivers(c *condition[S], fields [][]FieldID) bool {
	changed := false
	for _, cu := range c.consumers() {
		for o := range d.Actions {
			if gain, known := d.givenBack(cu.u, ActionID(o)); known && gain > 0 && !slices.Contains(fields[o], cu.u.field) {
				fields[o] = append(fields[o], cu.u.field)
				changed = true
			}
		}
	}
	for o := range d.giveShare {
		d.giveShare[o] = 1 / float64(max(len(fields[o]), 1))
	}
	return changed
}

// giveCost is what the supplies charge a run of giver g for what it
// gives back to one consumed field.
func (d *Domain[S]) giveCost(g gives) float64 {
	return d.Actions[g.act].Cost * d.giveShare[g.act] / g.gain
}

// usedUp returns the conjunct of action a's precondition, on a field
// other than part i's of c, whose use by a's runs costs most to give back
// (e a run, +Inf when nothing gives it back), with the actions that give
// it back; or nil when none costs anything: no such conjunct, an action
// gives one back in a way its form does not tell, or serves a part of c.
func (d *Domain[S]) usedUp(c *condition[S], i int, a ActionID) (u *consumption, e float64, by []gives) {
	n := len(c.parts)
	pre := &d.pres[a]
	for j := range pre.parts {
		if pre.consumed&(1<<j) == 0 || pre.parts[j].Field == c.parts[i].Field || pre.opaque&(1<<j) != 0 {
			continue
		}
		ej := math.Inf(1)
		for _, g := range pre.givers[j] {
			for k := range n {
				if c.rels[int(g.act)*n+k].serves() {
					ej = 0
				}
			}
			ej = min(ej, d.giveCost(g))
		}
		if ej > e {
			cu := consumed(&pre.parts[j], pre.use[j])
			u, e, by = &cu, ej, pre.givers[j]
		}
	}
	return u, e, by
}

// supplyOf returns the supplies of part i of goal condition c, or nil
// when they bound nothing the part's steps do not already: its field
// moved only by steps (nothing sets it), and some action serving it uses
// up a field that costs something to give back.
//
// An action that gives a field back may use up one of its own (Cast
// needs bait): the runs it gives back then cost its share while its own
// field lasts, and its share and what giving that back costs after.
// Where what gives that back moves the part's field away (the sack of
// flour a baker buys with the coins her loaves sell for), the least it
// does so for a run of the giver comes off the net as well (below).
//
// An action that gives a field back may also move the part's own field
// away by steps (BuyCloth: Gold -= 5, for a SellCloth that brings 9):
// a run it allows then moves the field by the difference (4), the net,
// and a share whose net is none moves it nowhere. Every unit such a run
// brings costs a plan the giver's loss too (a bolt bought and sold nets
// 4 gold for the cost of both), so the bound stays below every plan's
// cost; and a run of the giver raises the distance by its loss and adds
// free runs that fill the same distance for its cost less, so that the
// bound falls by at most that cost: it stays consistent.
func (d *Domain[S]) supplyOf(c *condition[S], i int) *supplies {
	pb, p := &c.bounds[i], &c.parts[i]
	if d.Number == nil || p.Cmp < CmpLt || !pb.stepped() || !math.IsInf(pb.reset, 1) {
		return nil
	}
	up, n := p.Cmp >= CmpGt, len(c.parts)
	var segs []supply
	costly := false
	// share adds the shares of runs of cost each moving the part's field
	// step units and using up u, which by give back.
	share := func(cost, step float64, u *consumption, by []gives) {
		segs = append(segs, supply{unit: cost / step, step: step, use: u, by: NoAction})
		for _, g := range by {
			share := d.giveCost(g)
			net := step - d.lostBy(p, g.act)/g.gain
			if net <= 0 {
				continue // its runs bring the part nothing
			}
			uo, eo, byo := d.usedUp(c, i, g.act)
			if uo == nil || uo.field == u.field {
				segs = append(segs, supply{unit: (cost + share) / net, by: g.act})
				continue
			}
			segs = append(segs, supply{unit: (cost + share) / net, step: g.gain * net, use: uo, by: g.act})
			if math.IsInf(eo, 1) {
				continue
			}
			// Past the giver's own free runs, what gives its field back
			// may move the part's field away too (flour bought with the
			// coins the loaves are baked and sold for): the least it
			// does a run of the giver comes off the net.
			if net2 := net - d.leastLost(p, byo)/g.gain; net2 > 0 {
				segs = append(segs, supply{unit: (cost + share + eo/g.gain) / net2, by: g.act})
			}
		}
	}
	var users []user
	for a := range d.Actions {
		if !c.rels[a*n+i].serves() {
			continue
		}
		step := c.steps[a*n+i]
		if step == 0 || up != (step > 0) {
			return nil
		}
		step = math.Abs(step)
		cost := d.Actions[a].Cost
		u, _, by := d.usedUp(c, i, ActionID(a))
		if u == nil {
			segs = append(segs, supply{unit: cost / step, by: NoAction})
			continue
		}
		costly = true
		users = append(users, user{cost: cost, step: step, u: u, by: by})
	}
	// Actions that use up one field share what it holds: they count as
	// one (Domain.pool).
	for len(users) > 0 {
		f, below := users[0].u.field, users[0].u.below
		same := func(x user) bool { return x.u.field == f && x.u.below == below }
		if slices.IndexFunc(users[1:], same) < 0 {
			share(users[0].cost, users[0].step, users[0].u, users[0].by)
		} else {
			cost, step, u, by, ok := d.pool(users, same)
			if !ok {
				return nil
			}
			share(cost, step, u, by)
		}
		users = slices.DeleteFunc(users, same)
	}
	if !costly {
		return nil
	}
	// The cost stops at the first share without a limit. Those after it
	// count for plans that do without it when it needs an action that
	// must be somewhere (see place): up to one that needs no place.
	slices.SortStableFunc(segs, func(x, y supply) int { return cmp.Compare(x.unit, y.unit) })
	if k := slices.IndexFunc(segs, func(sg supply) bool {
		return sg.use == nil && (sg.by == NoAction || !slices.ContainsFunc(d.pres[sg.by].parts, func(p Part) bool { return p.Cmp == CmpEq }))
	}); k >= 0 {
		segs = segs[:k+1]
	}
	if segs[0].use == nil {
		return nil // the cheapest has no limit: the steps' bound already says it
	}
	return &supplies{segs: slices.Clip(segs)}
}

// user is an action that serves a part by steps, using up u, which by
// give back (see supplyOf).
type user struct {
	cost, step float64
	u          *consumption
	by         []gives
}

// pool returns, for the users of one field (same), the cost, step, use
// and givers of one action that stands for them all: each run uses one
// unit of the field and moves the part's field as far as the user that
// moves it furthest for a unit (kappa), at the least cost a unit moved
// of any of them, and the field allows at least as many of its units
// as any of them takes. Counted once, what the field holds is not
// counted for each user (which let a giver's run lower the bound by
// more than its cost); and a plan's runs of any user cost at least what
// the units they move cost it: the bound stays below every plan's. Its
// givers are those of the field, their gain counted in its units. Not
// ok where an action gives back units of the pool that it gives back
// to none of the users (a setter of the field to a value below every
// user's threshold, above the pool's): counted as a giver of none, a
// run of it would lower the bound by more than its cost, and the users
// have no supplies then.
func (d *Domain[S]) pool(users []user, same func(user) bool) (cost, step float64, u *consumption, by []gives, ok bool) {
	unit, kappa := math.Inf(1), 0.0
	var v *consumption
	integer := d.Fields[users[0].u.field].Kind != KindFloat
	for _, x := range users {
		if !same(x) {
			continue
		}
		unit = min(unit, x.cost/x.step)
		kappa = max(kappa, x.step/x.u.per)
		// x's runs from value y take at most its room (y less its
		// threshold) and one run's use, less one for an integer field
		// (two, strict): a threshold that far from x's lets runs of one
		// unit take as many.
		slack := x.u.per
		if integer {
			if slack--; x.u.strict {
				slack--
			}
		}
		num := x.u.num - slack
		if x.u.below {
			num = x.u.num + slack
		}
		switch {
		case v == nil:
			v = &consumption{field: x.u.field, below: x.u.below, num: num, per: 1, restore: math.Inf(1), refill: math.Inf(1)}
		case v.below:
			v.num = max(v.num, num)
		default:
			v.num = min(v.num, num)
		}
	}
	giver := func(o ActionID) bool {
		return slices.ContainsFunc(users, func(x user) bool {
			return same(x) && slices.ContainsFunc(x.by, func(g gives) bool { return g.act == o })
		})
	}
	for o := range d.Actions {
		gain, known := d.givenBack(v, ActionID(o))
		if !known || gain <= 0 {
			continue
		}
		if !giver(ActionID(o)) {
			return 0, 0, nil, nil, false
		}
		by = append(by, gives{act: ActionID(o), gain: gain})
	}
	return unit * kappa, kappa, v, by, true
}

// nets sets c.lost: for each action that advances a part of c by steps
// and uses up conjuncts of its own precondition on other fields, the sum
// over those conjuncts of the least, over the actions that give one back,
// of what they move the part's field away (Domain.lostBy) for each run
// they give back; 0 where an action gives one back for nothing, or
// gives it back in a way its form does not tell.
func (d *Domain[S]) nets(c *condition[S]) {
	if d.Number == nil {
		return
	}
	n := len(c.parts)
	for a := range d.Actions {
		pre := &d.pres[a]
		for i := range c.parts {
			if c.steps[a*n+i] == 0 || c.parts[i].Cmp < CmpLt {
				continue
			}
			sum := 0.0
			for j := range pre.parts {
				if pre.consumed&(1<<j) == 0 || pre.parts[j].Field == c.parts[i].Field {
					continue
				}
				if pre.opaque&(1<<j) != 0 {
					continue // given back for nothing, as far as anyone can tell
				}
				sum += d.leastLost(&c.parts[i], pre.givers[j])
			}
			if sum > 0 {
				if c.lost == nil {
					c.lost = make([]float64, len(d.Actions)*n)
				}
				c.lost[a*n+i] = sum
			}
		}
	}
}

// leastLost is the least, over the actions in by that give back a
// conjunct, of what they move the field of part p away (lostBy) for each
// run of the conjunct's action they give back; 0 when by is empty.
func (d *Domain[S]) leastLost(p *Part, by []gives) float64 {
	if len(by) == 0 {
		return 0
	}
	least := math.Inf(1)
	for _, g := range by {
		least = min(least, d.lostBy(p, g.act)/g.gain)
	}
	return least
}

// lostBy is how far one run of action a moves the field of part p (a
// comparison Lt, Le, Gt or Ge) away from holding by steps: 0 when it
// does not, when it changes the field in a way its form does not tell,
// or when the field's range may clamp the step and a's precondition does
// not leave it room (as the giver's effect on the part was read before:
// never more than a run loses).
func (d *Domain[S]) lostBy(p *Part, a ActionID) float64 {
	lost := 0.0
	for _, ch := range d.Actions[a].Changes {
		if ch.Field != p.Field {
			continue
		}
		if ch.Op != ChangeAdd {
			return 0
		}
		lost += ch.Num
	}
	up := p.Cmp >= CmpGt // the field must rise: what falls is lost
	if up {
		lost = -lost
	}
	if lost <= 0 {
		return 0
	}
	rg := d.Fields[p.Field].Range
	if up && rg.HasMin || !up && rg.HasMax {
		// The step lands in the range: it loses all of it only where
		// the precondition keeps the field that far from its end.
		room := false
		for _, q := range d.pres[a].parts {
			if q.Field != p.Field {
				continue
			}
			switch {
			case up && (q.Cmp == CmpGe || q.Cmp == CmpGt):
				room = room || q.Num-lost >= rg.Lo()
			case !up && (q.Cmp == CmpLe || q.Cmp == CmpLt):
				room = room || q.Num+lost <= rg.Hi()
			}
		}
		if !room {
			return 0
		}
	}
	return lost
}

// boundSupplies sets bounds[i].supply of the goal condition c where the
// part qualifies (see supplyOf), but not where two of c's supplies, or
// one and another part's consumption (partBound.use), use up the same
// field, or an action gives back two of their fields: one run of an
// action that gives back could then lower the bound twice, by more than
// its cost (the bound would still never exceed the cost to go, but A*
// would reopen states). The later parts then go without theirs, until
// none shares.
func (d *Domain[S]) boundSupplies(c *condition[S]) {
	if d.giveShare == nil {
		d.giveShare = make([]float64, len(d.Actions))
	}
	// Split between the fields the parts use up, then again between
	// those the supplies use up, until they count the fields they were
	// split for.
	fields := make([][]FieldID, len(d.Actions))
	d.splitGivers(c, fields)
	some := false
	for {
		some = false
		for i := range c.parts {
			c.bounds[i].supply = d.supplyOf(c, i)
			some = some || c.bounds[i].supply != nil
		}
		if !some || !d.splitGivers(c, fields) {
			break
		}
	}
	if !some || !d.suppliesShare(c) {
		return
	}
	// The shares after the first without a limit count only for the
	// places (see supplyOf): without them, they may share nothing.
	for i := range c.bounds {
		if sp := c.bounds[i].supply; sp != nil {
			k := slices.IndexFunc(sp.segs, func(sg supply) bool { return sg.use == nil })
			if k >= 0 && k+1 < len(sp.segs) {
				sp.segs, sp.cut = sp.segs[:k+1], sp.segs[k+1:]
			}
		}
	}
	// Still shared: the later parts keep their steps alone, until what
	// is left shares nothing.
	for i := len(c.bounds) - 1; i >= 0 && d.suppliesShare(c); i-- {
		c.bounds[i].supply = nil
	}
}

// dropDominated forgets the supplies of c's parts that never bound more
// than the part's consumption (partBound.use) does, so that the estimate
// costs what the consumption's does (A* then reads it from the two
// fields the generated search hands it: see Search.start). A place whose
// givers need places of their own (place.tags) reads the supplies apart
// from the steps, and keeps them.
//
// Such a supply has the consumption's own action and conjunct as its
// first share, and then only shares without a limit, the cheapest
// adding σ (the cost of one run's giving back, its giver's cost over its
// gain) to each run past the r the field allows. For k runs (k ≥ d/s for
// d units of steps of s), it adds at most (k - r)σ to the cost of the
// runs; the consumption adds the restorer's cost once for each refill
// (R runs) past r: ⌈(k - r) / R⌉ × restore. So R × σ <= restore (for
// every giver, the cheapest: R × cost <= restore × gain) bounds the
// supply by the consumption everywhere. Without a giver, both are +Inf
// past r when nothing restores.
func (d *Domain[S]) dropDominated(c *condition[S]) {
	for i := range c.bounds {
		pb := &c.bounds[i]
		if pb.supply == nil || pb.use == nil || slices.ContainsFunc(c.places, func(pl *place[S]) bool { return pl.part == i && pl.tags != nil }) {
			continue
		}
		if d.dominated(pb.supply, pb.use) {
			pb.supply = nil
		}
	}
}

// dominated reports whether supplies sp never bound more than
// consumption u (see dropDominated).
func (d *Domain[S]) dominated(sp *supplies, u *consumption) bool {
	first := &sp.segs[0]
	if first.use == nil || first.by != NoAction || !u.sameConjunct(first.use) {
		return false
	}
	rest := sp.segs[1:]
	if len(rest) == 0 {
		return math.IsInf(u.restore, 1)
	}
	for _, sg := range rest {
		if sg.use != nil || sg.by == NoAction {
			return false
		}
	}
	giver := rest[0].by
	gain, known := d.givenBack(first.use, giver)
	if !known || gain <= 0 {
		return false
	}
	cost := d.Actions[giver].Cost
	if math.IsInf(u.refill, 1) {
		return cost <= 0
	}
	return u.refill*cost <= u.restore*gain
}

// sameConjunct reports whether u and v count runs of one conjunct.
func (u *consumption) sameConjunct(v *consumption) bool {
	return u.field == v.field && u.below == v.below && u.strict == v.strict && u.num == v.num && u.per == v.per
}

// suppliesShare reports whether two of c's supplies, or one and another
// part's consumption, use up the same field, or an action gives back two
// of their fields.
func (d *Domain[S]) suppliesShare(c *condition[S]) bool {
	us := c.consumers()
	// A part's bound is the more of its consumption and its supplies,
	// not their sum: those two may share.
	for k, a := range us {
		for _, b := range us[:k] {
			// Two supplies' shares charge a giver of both fields only
			// its share of its cost for each (splitGivers), but each
			// the whole of what it takes from a part's field; a part's
			// consumption charges its whole cost.
			if (a.part != b.part || a.use == b.use) && (a.u.field == b.u.field || d.givesBackShared(c, a, b)) {
				return true
			}
		}
	}
	return false
}

// givesBackShared reports whether an action gives back the fields of
// both a and b and would be charged more than its cost: a part's
// consumption charges the whole of it, supplies split it unless
// givesBackBothWhole.
func (d *Domain[S]) givesBackShared(c *condition[S], a, b consumer) bool {
	if a.use || b.use {
		return d.givesBackBoth(a.u, b.u)
	}
	return d.givesBackBothWhole(c, a.u, b.u)
}

// consumer is a consumption one of a condition's bounds counts: part's
// own (partBound.use), or one of its supplies' shares.
type consumer struct {
	u    *consumption
	part int
	use  bool // partBound.use, not a share of the supply
}

// consumers returns the consumptions c's bounds count: the parts' (use)
// and their supplies'.
func (c *condition[S]) consumers() []consumer {
	var us []consumer
	for i := range c.bounds {
		if u := c.bounds[i].use; u != nil {
			us = append(us, consumer{u, i, true})
		}
		if sp := c.bounds[i].supply; sp != nil {
			for _, sg := range sp.segs {
				if sg.use != nil {
					us = append(us, consumer{sg.use, i, false})
				}
			}
		}
	}
	return us
}
