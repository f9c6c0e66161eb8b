package runtime_test

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	goruntime "runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
)

// The property test compares A* with a brute-force Dijkstra over the
// explicitly enumerated states of many small random domains.

const maxRandFields = 6

// randState is the state of a random domain: small bounded integers
// (fields beyond the domain's count stay 0).
type randState struct{ V [maxRandFields]int8 }

// randLit is a literal "V[f] op k".
type randLit struct {
	f  int
	op int // 0: ==, 1: >=, 2: <=, 3: !=
	k  int8
}

func (l randLit) holds(s randState) bool {
	v := s.V[l.f]
	switch l.op {
	case 0:
		return v == l.k
	case 1:
		return v >= l.k
	case 2:
		return v <= l.k
	}
	return v != l.k
}

func (l randLit) String() string {
	return fmt.Sprintf("V%d%s%d", l.f, [...]string{"==", ">=", "<=", "!="}[l.op], l.k)
}

// randEffect sets V[f] to k, or adds k to it, clamped to the field's range.
type randEffect struct {
	f   int
	add bool
	k   int8
}

// randAction is the plain description both the runtime domain and the
// brute force are built from.
type randAction struct {
	pre  []randLit
	eff  []randEffect
	cost float64
}

type randGoal struct {
	lits     []randLit
	priority runtime.Priority
}

type randProblem struct {
	nf      int
	hi      [maxRandFields]int8 // field i ranges over 0..hi[i]
	actions []randAction
	goals   []randGoal
	start   randState
	d       *runtime.Domain[randState]
}

func (p *randProblem) holdsAll(lits []randLit, s randState) bool {
	for _, l := range lits {
		if !l.holds(s) {
			return false
		}
	}
	return true
}

func (p *randProblem) apply(a *randAction, s randState) randState {
	next := s
	for _, e := range a.eff {
		v := e.k
		if e.add {
			v = s.V[e.f] + e.k
		}
		next.V[e.f] = min(max(v, 0), p.hi[e.f])
	}
	return next
}

func newRandProblem(r *rand.Rand) *randProblem {
	p := &randProblem{nf: 4 + r.IntN(3)}
	size := 1
	for i := range p.nf {
		p.hi[i] = []int8{1, 2, 3, 3}[r.IntN(4)]
		size *= int(p.hi[i]) + 1
	}
	for size > 512 { // keep the brute force quick: shrink the widest field
		w := 0
		for i := range p.nf {
			if p.hi[i] > p.hi[w] {
				w = i
			}
		}
		size = size / (int(p.hi[w]) + 1) * int(p.hi[w])
		p.hi[w]--
	}
	for i := range p.nf {
		if r.IntN(4) == 0 {
			p.start.V[i] = int8(r.IntN(int(p.hi[i]) + 1))
		}
	}
	lit := func() randLit {
		f := r.IntN(p.nf)
		op := []int{0, 1, 1, 1, 1, 2, 3}[r.IntN(7)] // mostly >=
		return randLit{f: f, op: op, k: int8(r.IntN(int(p.hi[f]) + 1))}
	}
	for range 3 + r.IntN(6) {
		var a randAction
		for range r.IntN(3) {
			a.pre = append(a.pre, lit())
		}
		for _, f := range r.Perm(p.nf)[:1+r.IntN(2)] {
			e := randEffect{f: f}
			switch r.IntN(8) {
			case 0, 1: // set
				e.k = int8(r.IntN(int(p.hi[f]) + 1))
			case 2: // decrement
				e.add, e.k = true, -1
			default: // increment
				e.add, e.k = true, 1
			}
			a.eff = append(a.eff, e)
		}
		a.cost = []float64{0.25, 0.5, 1, 1, 1, 1.5, 2, 3}[r.IntN(8)]
		p.actions = append(p.actions, a)
	}
	for range 1 + r.IntN(3) {
		var g randGoal
		for _, f := range r.Perm(p.nf)[:1+r.IntN(2)] {
			// Mostly "at least the maximum", rarely holding at the start.
			l := randLit{f: f, op: 1, k: p.hi[f]}
			if r.IntN(3) == 0 {
				l = randLit{f: f, op: []int{0, 1, 2, 3}[r.IntN(4)], k: int8(r.IntN(int(p.hi[f]) + 1))}
			}
			g.lits = append(g.lits, l)
		}
		g.priority = runtime.Priority(r.IntN(3))
		p.goals = append(p.goals, g)
	}
	p.d = p.domain()
	return p
}

// fieldSet returns the sorted distinct fields of lits and effects.
func fieldSet(lits []randLit, effs []randEffect, onlyAdd bool) []runtime.FieldID {
	var fs []runtime.FieldID
	for _, l := range lits {
		fs = append(fs, runtime.FieldID(l.f))
	}
	for _, e := range effs {
		if e.add || !onlyAdd {
			fs = append(fs, runtime.FieldID(e.f))
		}
	}
	slices.Sort(fs)
	return slices.Compact(fs)
}

// domain builds the runtime domain, with accurate read and write sets.
func (p *randProblem) domain() *runtime.Domain[randState] {
	d := runtime.Domain[randState]{Name: "Random"}
	for i := range p.nf {
		d.Fields = append(d.Fields, runtime.Field{Name: fmt.Sprintf("V%d", i), Type: "int8", Kind: runtime.KindInt})
	}
	for i := range p.actions {
		a := &p.actions[i]
		act := runtime.Action[randState]{
			Name:     fmt.Sprintf("A%d", i),
			Cost:     a.cost,
			Weight:   1,
			Effect:   func(s randState) randState { return p.apply(a, s) },
			PreReads: fieldSet(a.pre, nil, true),
			Reads:    fieldSet(a.pre, a.eff, true),
			Writes:   fieldSet(nil, a.eff, false),
		}
		if len(a.pre) > 0 {
			act.Pre = func(s randState) bool { return p.holdsAll(a.pre, s) }
		}
		d.Actions = append(d.Actions, act)
	}
	for i := range p.goals {
		g := &p.goals[i]
		var text []string
		for _, l := range g.lits {
			text = append(text, l.String())
		}
		d.Goals = append(d.Goals, runtime.Goal[randState]{
			Name:     fmt.Sprintf("G%d", i),
			Priority: g.priority,
			Cond:     func(s randState) bool { return p.holdsAll(g.lits, s) },
			CondText: strings.Join(text, " && "),
			Reads:    fieldSet(g.lits, nil, true),
		})
	}
	return runtime.NewDomain(d)
}

// randGraph is the explicit state graph of a random problem.
type randGraph struct {
	states []randState
	index  map[randState]int
	edges  [][]randEdge // edges[i]: the transitions out of states[i]
}

type randEdge struct {
	to   int
	cost float64
}

// graph enumerates every state in the fields' ranges and the transitions
// the actions make between them.
func (p *randProblem) graph() *randGraph {
	g := &randGraph{index: map[randState]int{}}
	var enumerate func(i int, s randState)
	enumerate = func(i int, s randState) {
		if i == p.nf {
			g.index[s] = len(g.states)
			g.states = append(g.states, s)
			return
		}
		for v := int8(0); v <= p.hi[i]; v++ {
			s.V[i] = v
			enumerate(i+1, s)
		}
	}
	enumerate(0, randState{})
	g.edges = make([][]randEdge, len(g.states))
	for i, s := range g.states {
		for j := range p.actions {
			a := &p.actions[j]
			if p.holdsAll(a.pre, s) {
				g.edges[i] = append(g.edges[i], randEdge{to: g.index[p.apply(a, s)], cost: a.cost})
			}
		}
	}
	return g
}

// reversed returns the graph's edges reversed.
func (g *randGraph) reversed() [][]randEdge {
	rev := make([][]randEdge, len(g.edges))
	for from, es := range g.edges {
		for _, e := range es {
			rev[e.to] = append(rev[e.to], randEdge{to: from, cost: e.cost})
		}
	}
	return rev
}

// shortest is Dijkstra's algorithm in its plainest form: the next state
// is found by a linear scan. It returns the cheapest cost from any of the
// sources to every state (+Inf when unreachable).
func shortest(edges [][]randEdge, sources []int) []float64 {
	dist := make([]float64, len(edges))
	done := make([]bool, len(edges))
	for i := range dist {
		dist[i] = math.Inf(1)
	}
	for _, s := range sources {
		dist[s] = 0
	}
	for {
		u := -1
		for i := range dist {
			if !done[i] && !math.IsInf(dist[i], 1) && (u < 0 || dist[i] < dist[u]) {
				u = i
			}
		}
		if u < 0 {
			return dist
		}
		done[u] = true
		for _, e := range edges[u] {
			dist[e.to] = min(dist[e.to], dist[u]+e.cost)
		}
	}
}

// goalStates returns the states where all goals hold.
func (p *randProblem) goalStates(g *randGraph, goals []runtime.GoalID) []int {
	var out []int
	for i, s := range g.states {
		ok := true
		for _, id := range goals {
			ok = ok && p.holdsAll(p.goals[id].lits, s)
		}
		if ok {
			out = append(out, i)
		}
	}
	return out
}

// cheapest returns the cheapest cost of reaching a state where all goals
// hold, +Inf when none is reachable.
func (p *randProblem) cheapest(g *randGraph, dist []float64, goals []runtime.GoalID) float64 {
	best := math.Inf(1)
	for _, i := range p.goalStates(g, goals) {
		best = min(best, dist[i])
	}
	return best
}

// inconsistentHeuristic returns an admissible heuristic that is usually
// not consistent: the true cost to go in some states and 0 in others
// (and +Inf, which is exact, where no goal state can be reached).
func inconsistentHeuristic(g *randGraph, togo []float64) func(randState, []runtime.GoalID) float64 {
	return func(s randState, _ []runtime.GoalID) float64 {
		h := togo[g.index[s]]
		if math.IsInf(h, 1) {
			return h
		}
		f := int(s.V[0])*7 + int(s.V[1])*3 + int(s.V[2])*5 + int(s.V[3])
		return h * float64(f%2)
	}
}

// checkRandomDomains plans on n random domains with A* (with and without
// the built-in heuristic) and compares every result with the brute force.
// It returns a description of every plan made, for determinism checks.
func checkRandomDomains(t *testing.T, seed uint64, n int) ([]string, propertyStats) {
	t.Helper()
	ctx := context.Background()
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	var out []string
	var stats propertyStats
	var plan runtime.Plan
	for i := range n {
		p := newRandProblem(r)
		d := p.d
		graph := p.graph()
		rev := graph.reversed()
		dist := shortest(graph.edges, []int{graph.index[p.start]})
		uniform := runtime.NewAStar(d, runtime.WithMaxSteps(4096))
		informed := runtime.NewAStar(d, runtime.WithMaxSteps(4096), runtime.WithUnsatisfiedGoalsHeuristic())

		var queries [][]runtime.GoalID
		var all []runtime.GoalID
		for g := range d.Goals {
			queries = append(queries, []runtime.GoalID{runtime.GoalID(g)})
			all = append(all, runtime.GoalID(g))
		}
		queries = append(queries, all)

		check := func(what string, p1 runtime.Plan, err error, want float64, goals []runtime.GoalID) {
			t.Helper()
			if math.IsInf(want, 1) {
				require.ErrorIs(t, err, runtime.ErrUnreachable, "domain %d %s: brute force finds no plan", i, what)
				require.Empty(t, p1.Steps)
				return
			}
			require.NoError(t, err, "domain %d %s", i, what)
			require.InDelta(t, want, p1.Cost, 1e-9, "domain %d %s: %v", i, what, names(d, p1.Steps))
			require.NoError(t, d.Verify(p.start, &p1), "domain %d %s", i, what)
			end, err := d.Simulate(p.start, p1.Steps)
			require.NoError(t, err)
			for _, g := range goals {
				require.True(t, d.Holds(g, end), "domain %d %s: goal %d", i, what, g)
			}
		}

		for _, goals := range queries {
			want := p.cheapest(graph, dist, goals)
			togo := shortest(rev, p.goalStates(graph, goals))
			// Costs are multiples of ¼: the sums are exact in any order.
			require.Equal(t, want, togo[graph.index[p.start]], "domain %d: forward and backward brute force agree", i)
			inconsistent := runtime.NewAStar(d, runtime.WithMaxSteps(4096),
				runtime.WithHeuristic(inconsistentHeuristic(graph, togo)))
			for j, as := range []*runtime.AStar[randState]{uniform, informed, inconsistent} {
				err := as.PlanGoalsInto(ctx, p.start, goals, &plan)
				check(fmt.Sprintf("planner %d goals %v", j, goals), plan, err, want, goals)
				if j == 0 {
					out = append(out, fmt.Sprintf("%d %v: %v %v", i, goals, plan.Steps, err))
					stats.count(plan, err)
				}
			}
		}

		// Plan: every goal by priority (ties in declaration order) that
		// does not hold, each from where the previous one's plan ends,
		// cheapest for the goal and the goals of higher priority that
		// hold there (brute force from that state), and the error of the
		// first goal that cannot be reached.
		order := slices.Clone(all)
		slices.SortStableFunc(order, func(a, b runtime.GoalID) int {
			return cmp.Compare(d.Goals[b].Priority, d.Goals[a].Priority)
		})
		var want runtime.Plan
		wantErr := runtime.NoGoal
		st := p.start
		for k, g := range order {
			if d.Holds(g, st) {
				continue
			}
			goals := []runtime.GoalID{g}
			for _, h := range order[:k] {
				if d.Holds(h, st) {
					goals = append(goals, h)
				}
			}
			cheapest := p.cheapest(graph, shortest(graph.edges, []int{graph.index[st]}), goals)
			var seg runtime.Plan
			err := uniform.PlanGoalsInto(ctx, st, goals, &seg)
			if math.IsInf(cheapest, 1) {
				require.Error(t, err, "domain %d Plan, goal %d", i, g)
				if wantErr == runtime.NoGoal {
					wantErr = g
				}
				continue
			}
			require.NoError(t, err, "domain %d Plan, goal %d", i, g)
			require.InDelta(t, cheapest, seg.Cost, 1e-9, "domain %d Plan, goal %d", i, g)
			want.Steps = append(want.Steps, seg.Steps...)
			want.Goals = append(want.Goals, g)
			want.Cost += seg.Cost
			st, err = d.Simulate(st, seg.Steps)
			require.NoError(t, err)
		}
		err := uniform.PlanInto(ctx, p.start, &plan)
		if wantErr != runtime.NoGoal {
			var perr *runtime.PlanningError
			require.ErrorAs(t, err, &perr, "domain %d Plan", i)
			require.Equal(t, wantErr, perr.Goal, "domain %d Plan: the error of the first goal by priority that failed", i)
		} else {
			require.NoError(t, err, "domain %d Plan", i)
		}
		require.Equal(t, names(d, want.Steps), names(d, plan.Steps), "domain %d Plan", i)
		require.Equal(t, fmt.Sprint(want.Goals), fmt.Sprint(plan.Goals), "domain %d Plan", i)
		require.InDelta(t, want.Cost, plan.Cost, 1e-9, "domain %d Plan", i)
		require.NoError(t, d.Verify(p.start, &plan), "domain %d Plan", i)
		out = append(out, fmt.Sprintf("%d Plan: %v %v %v", i, plan.Steps, plan.Goals, err))
	}
	return out, stats
}

// propertyStats counts the outcomes, to show the random domains exercise
// them all.
type propertyStats struct {
	empty, short, long, unreachable int
}

func (st *propertyStats) count(p runtime.Plan, err error) {
	switch {
	case err != nil:
		st.unreachable++
	case len(p.Steps) == 0:
		st.empty++
	case len(p.Steps) < 4:
		st.short++
	default:
		st.long++
	}
}

func TestAStarMatchesBruteForce(t *testing.T) {
	const seed = 20240601
	domains := 300
	if testing.Short() {
		domains = 60
	}
	first, stats := checkRandomDomains(t, seed, domains)
	t.Logf("%+v", stats)
	total := stats.empty + stats.short + stats.long + stats.unreachable
	require.Greater(t, stats.short, total/10)
	require.Greater(t, stats.long, total/20, "plans of four steps or more")
	require.Greater(t, stats.unreachable, total/20)

	// Same seed, same plans.
	again, _ := checkRandomDomains(t, seed, domains)
	require.Equal(t, first, again)

	// Independent of GOMAXPROCS.
	prev := goruntime.GOMAXPROCS(1)
	defer goruntime.GOMAXPROCS(prev)
	single, _ := checkRandomDomains(t, seed, domains)
	require.Equal(t, first, single)
}
