package runtime

import "context"

// ProvedUnreachable reports whether the relaxed reachability (reach.go)
// proves that goal g cannot hold from s, for the external tests.
func ProvedUnreachable[S comparable](d *Domain[S], g GoalID, s S) bool {
	r := newReach(d)
	return d.unreachable(g, &s, &r)
}

// ProvedUnreachableByIntervals is ProvedUnreachable without the integers'
// lattices.
func ProvedUnreachableByIntervals[S comparable](d *Domain[S], g GoalID, s S) bool {
	r := newReach(d)
	r.noLattice = true
	return d.unreachable(g, &s, &r)
}

// ProvedUnreachableWithoutFirings is ProvedUnreachable without the bounds
// on the actions' firings.
func ProvedUnreachableWithoutFirings[S comparable](d *Domain[S], g GoalID, s S) bool {
	r := newReach(d)
	r.noFirings = true
	return d.unreachable(g, &s, &r)
}

// WithoutSupplies makes d's estimate forget its supplies (heuristic_supply.go),
// for the external tests to measure what they add.
func WithoutSupplies[S comparable](d *Domain[S]) {
	for gi := range d.goals {
		for i := range d.goals[gi].bounds {
			d.goals[gi].bounds[i].supply = nil
		}
	}
}

// WithoutFlow makes d's estimate forget the flows of its goals
// (heuristic_flow.go), for the external tests to measure what they add.
func WithoutFlow[S comparable](d *Domain[S]) {
	for gi := range d.goals {
		if fl := d.goals[gi].flow; fl != nil {
			d.goals[gi].flow = nil
			if d.goals[gi].anyOf == nil {
				d.goals[gi].flat = fl.flat
			}
		}
	}
}

// WithoutAny makes d's estimate forget the comparisons of its goals'
// disjunctions (Part.Any), for the external tests to measure what they
// add.
func WithoutAny[S comparable](d *Domain[S]) {
	for gi := range d.goals {
		if d.goals[gi].anyOf != nil {
			d.goals[gi].anyOf = nil
			d.boundParts(&d.goals[gi]) // the flat bound, as without them
		}
	}
}

// Wants is how many planner calls agent a asks its crowd for.
func Wants[S comparable](a *Agent[S]) int { return a.wants() }

// WithoutPlaces makes d's estimate forget its places (heuristic_place.go),
// for the external tests to measure what they add.
func WithoutPlaces[S comparable](d *Domain[S]) {
	for gi := range d.goals {
		d.goals[gi].places, d.goals[gi].placed = nil, 0
		d.goals[gi].joint = nil
	}
}

// KeepDominatedSupplies gives d's goals back the supplies the domain
// dropped as bounding nothing their consumption does not
// (Domain.dropDominated), and returns how many, for the tests to compare.
func KeepDominatedSupplies[S comparable](d *Domain[S]) (kept int) {
	supplied := func(c *condition[S]) (n int) {
		for i := range c.bounds {
			if c.bounds[i].supply != nil {
				n++
			}
		}
		return n
	}
	for gi := range d.goals {
		c := &d.goals[gi]
		before := supplied(c)
		d.boundSupplies(c)
		kept += supplied(c) - before
	}
	return kept
}

// WithOnePlace makes each of d's goal conditions keep its first place
// only (heuristic_place.go), for the external tests to measure what the
// others add.
func WithOnePlace[S comparable](d *Domain[S]) {
	for gi := range d.goals {
		if c := &d.goals[gi]; len(c.places) > 1 {
			c.places, c.placed = c.places[:1], 1<<c.places[0].part
		}
	}
}

// OneFieldEstimate reports whether A*'s search for goal g alone reads
// its estimate from the fields the generated search hands it
// (Search.start), the fast way.
func OneFieldEstimate[S comparable](d *Domain[S], g GoalID) bool {
	a := NewAStar(d)
	a.prepare([]GoalID{g})
	a.x.start(context.Background())
	return a.x.bound != nil
}

// PlanGoalInParts is a's PlanGoalInto run as the chainer's rescue runs
// its forward search: begun, then resumed turn expansions at a time. It
// returns how many parts the search took.
func PlanGoalInParts[S comparable](a *AStar[S], s S, g GoalID, turn int, p *Plan) (parts int, err error) {
	ctx := context.Background()
	p.Reset()
	goal, err := int32(-1), a.begin(ctx, s, []GoalID{g}, p)
	for err == nil {
		parts++
		if goal, err = a.resume(ctx, turn); err != errPaused {
			break
		}
		err = nil
	}
	return parts, a.conclude(s, goal, err, p)
}

// TaggedPlaces counts the places of d's goals that go where the givers of
// a part's supplies are (place.tags), and those of them that go where
// the givers of the shares boundSupplies left out are (place.cutAt).
func TaggedPlaces[S comparable](d *Domain[S]) (tagged, cut int) {
	for g := range d.goals {
		for _, pl := range d.goals[g].places {
			if pl.tags != nil {
				tagged++
				if pl.cutAt != 0 {
					cut++
				}
			}
		}
	}
	return tagged, cut
}

// StagedPlaces counts the places of d's goals that count a second field
// (place.also) and a way back between runs (place.ret > 0, its own or
// its second field's).
func StagedPlaces[S comparable](d *Domain[S]) (also, back int) {
	for g := range d.goals {
		for _, pl := range d.goals[g].places {
			if pl.also != nil {
				also++
			}
			if pl.ret > 0 || pl.also != nil && pl.also.ret > 0 {
				back++
			}
		}
	}
	return also, back
}

// Reweigh is a stage of PlanGoalReweighedInto: past After expansions,
// the estimate weighs Weight.
type Reweigh struct {
	After  int
	Weight float64
}

// PlanGoalReweighedInto plans goal g from s with a's A*, as A* proper up
// to the first stage's expansions and with its estimate weighed each
// stage's weight past its expansions (as the chainer's forward search
// does past forwardExact states), for the external tests. It also
// returns how many entries of the open list, just reweighed, were
// stale, keyed with another weight, or out of the heap's order.
func PlanGoalReweighedInto[S comparable](ctx context.Context, a *AStar[S], s S, g GoalID, p *Plan, stages ...Reweigh) (wrong int, err error) {
	p.Reset()
	a.stepBuf[0] = g
	if err := a.begin(ctx, s, a.stepBuf[:], p); err != nil {
		return 0, a.conclude(s, -1, err, p)
	}
	goal := int32(-1)
	for _, st := range stages {
		if goal, err = a.resume(ctx, st.After-a.expansions); err != errPaused {
			break
		}
		a.reweigh(st.Weight)
		h := &a.open.heap
		for i, e := range h.l[:h.n] {
			nd := &a.nodes[e.node]
			if !nd.open || !e.hasG(nd.g) || fromBits(e.f) != nd.g+st.Weight*nd.h || i > 0 && e.before(&h.l[(i-1)/2]) {
				wrong++
			}
		}
		if a.open.hasHot {
			wrong++
		}
	}
	if err == nil && goal < 0 || err == errPaused {
		goal, err = a.resume(ctx, -1)
	}
	err = a.conclude(s, goal, err, p)
	a.weight = 1
	return wrong, err
}

// WithoutReach makes d's flows forget their reach rows (see
// Domain.reachRows), for the external tests to measure what they add.
func WithoutReach[S comparable](d *Domain[S]) {
	for gi := range d.goals {
		if fl := d.goals[gi].flow; fl != nil && fl.plain != nil {
			fl.plain.flat = fl.flat
			d.goals[gi].flow = fl.plain
		}
	}
}

// FlowMemo is a search's memo of its goals' flows (flowMemo), for the
// external tests to hold it to what the flows compute.
type FlowMemo[S any] struct{ m flowMemo[S] }

// MemoLowerBound is d.LowerBound(g, s) with what m remembers of the
// flows, as a search's estimate takes it, and the slots m has filled.
func MemoLowerBound[S comparable](d *Domain[S], g GoalID, s S, m *FlowMemo[S]) (h float64, filled int) {
	c := &d.goals[g]
	if failing := c.failing(s); failing != 0 {
		h = c.boundWith(&s, failing, d.Number, true, &m.m)
	}
	for i := range m.m.slots {
		if m.m.slots[i].fl != nil {
			filled++
		}
	}
	return h, filled
}

// SetBelow sets the bound of a's next searches (AStar.below): a state
// whose g + h is not below it is not opened.
func SetBelow[S comparable](a *AStar[S], below float64) { a.below = below }
