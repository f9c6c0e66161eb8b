package runtime

import (
	"math"
	"slices"
)

// flowPlaces adds to a goal's flow the walks its columns need: where every
// action that can raise a row the goal's numbers need runs at one value
// of a field, a place (Smelt needs At == 'smelter'), the plan goes there.
// The flow's program bounds what the columns cost and counts nothing of
// the actions that set the place (none is a column, and they raise no
// row): the least tour of the places the plan must go to, by those
// actions, adds to it.
//
// A place is one the plan must go to where the program has no solution
// without the columns that run there: a ray r of the dual without them
// has b·r > 0. That stays so after any step but one of those columns,
// which runs there (the runs that would serve the state after the step,
// with the step's own added, would serve the state before it). So the
// tour falls by no more than the cost of a step that sets the place (an
// edge of the graph it is the shortest path in), and the sum stays
// consistent: each step's cost is counted by one of the two at most.
type flowPlaces[S any] struct {
	pl *place[S] // its targets, the columns' places, and the movers' costs
	// rays[t] are the extreme rays of the dual without the columns that
	// run at pl.targets[t], len(rows) numbers each.
	rays [maxPlaces][]float64
}

// flowPlacesOf returns the places of fl's columns, or nil: no column
// needs a place, or more than maxPlaces, or an action writes the place
// field but by setting it to a constant, or one that sets it is a column.
func (d *Domain[S]) flowPlacesOf(fl *flow[S]) *flowPlaces[S] {
	// The place field: the first that a column's precondition compares
	// by == with a constant.
	f := FieldID(-1)
	for _, a := range fl.acts {
		for _, q := range d.pres[a].parts {
			if q.Cmp == CmpEq && q.Any == nil && (f < 0 || q.Field < f) {
				f = q.Field
			}
		}
	}
	if f < 0 {
		return nil
	}
	str := d.Fields[f].Kind == KindString
	if str && d.Text == nil {
		return nil
	}
	pl := &place[S]{field: f, str: str, number: d.Number, text: d.Text}
	at := make([]int, len(fl.acts)) // the target of each column, -1: none
	for j, a := range fl.acts {
		at[j] = -1
		for _, q := range d.pres[a].parts {
			if q.Field != f || q.Cmp != CmpEq {
				continue
			}
			t := 0
			for t < len(pl.targets) && (pl.targets[t].Num != q.Num || pl.targets[t].Str != q.Str) {
				t++
			}
			if t == len(pl.targets) {
				if t == maxPlaces {
					return nil
				}
				pl.targets = append(pl.targets, q)
			}
			at[j] = t
		}
	}
	edges, ok := d.placeEdges(f, nil, func(a ActionID) bool { return !slices.Contains(fl.acts, a) })
	if !ok {
		return nil
	}
	pl.edges = edges
	pl.measure()
	fp := &flowPlaces[S]{pl: pl}
	for t := range pl.targets {
		fp.rays[t], _ = fl.raysWithout(func(j int) bool { return at[j] == t })
	}
	return fp
}

// raysWithout returns the extreme rays of fl's dual without the columns
// j for which drop(j) holds, and false where their enumeration gave up
// (past maxPlaceBases). Rays only: the walk's vertices are one a basis
// at most, fewer than enumerate's limit on them, so leaving them out
// changes nothing of when it gives up.
func (fl *flow[S]) raysWithout(drop func(j int) bool) ([]float64, bool) {
	m := len(fl.rows)
	without := &flow[S]{rows: fl.rows}
	for j, a := range fl.acts {
		if !drop(j) {
			without.acts = append(without.acts, a)
			without.cost = append(without.cost, fl.cost[j])
			without.coef = append(without.coef, fl.coef[j*m:(j+1)*m]...)
		}
	}
	if !without.enumerate(maxPlaceBases, true) {
		return nil, false
	}
	return without.rays, true
}

// maxPlaceBases is how many feasible bases the enumeration of a place's
// rays visits at most: past it, the place is one the plan need not go to.
const maxPlaceBases = 256

// A place's walk, rays only, relies on visiting fewer bases than
// enumerate keeps vertices: this fails to compile otherwise.
const _ = uint(maxFlowVerts - maxPlaceBases)

// must is the set of the places (bit t: pl.targets[t]) the plan must go
// to where the rows' right-hand sides are b (m of them).
func (fp *flowPlaces[S]) must(b *[maxFlowRows]float64, m int) uint8 {
	const eps = 1e-9
	var must uint8
	for t := range fp.pl.targets {
		rays := fp.rays[t]
		for k := 0; k+m <= len(rays); k += m {
			if dot(b, rays[k:k+m]) > eps {
				must |= 1 << t
				break
			}
		}
	}
	return must
}

// walk is the least cost of going from the place in *s to every place
// of must.
func (fp *flowPlaces[S]) walk(s *S, must uint8) float64 {
	if must == 0 {
		return 0
	}
	var scratch placeCosts
	cost, _ := fp.pl.visitAll(&fp.pl.costs(s, &scratch).dx, must)
	return cost
}

// most is the dearest tour of every place from any value of the field
// (+Inf where the place's costs are not known by class of value): no
// tour costs more.
func (fp *flowPlaces[S]) most() float64 {
	pl := fp.pl
	if pl.classes == nil {
		return math.Inf(1)
	}
	all := uint8(1)<<len(pl.targets) - 1
	most := 0.0
	for c := range pl.classes {
		best := math.Inf(1)
		for t := range pl.targets {
			best = min(best, pl.classes[c].dx[t]+pl.visits[t][all&^(1<<t)])
		}
		most = max(most, best)
	}
	return most
}
