package bench

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/bench/internal/goapdeep"
	"github.com/rolegen/rolegen/bench/internal/goapmaze"
	"github.com/rolegen/rolegen/bench/internal/plancase"
	"github.com/rolegen/rolegen/runtime"
)

// The anchors are public planners rolegen is measured against, on their
// own problems (BENCHMARKS.md, "Anchors", tells how to run them beside
// BenchmarkAnchors). kelindar/goap's BenchmarkPlan plans "deep" and "maze";
// goapdeep and goapmaze are the same problems as rolegen roles.

// goapDeepCase is kelindar/goap's "deep": from hunger 80 with nothing,
// more than 80 food, in 12 steps.
func goapDeepCase() plancase.Case[goapdeep.ForagerState] {
	a := runtime.NewAStar(goapdeep.ForagerDomain)
	return plancase.Case[goapdeep.ForagerState]{
		Name: "goap-deep/astar", Domain: goapdeep.ForagerDomain, Start: goapdeep.Start,
		Plan: func(ctx context.Context, s goapdeep.ForagerState, p *runtime.Plan) error {
			return a.PlanGoalInto(ctx, s, goapdeep.ForagerGoalStocked, p)
		},
		MinLen: 12, MaxLen: 12,
	}
}

// goapMazeCase is kelindar/goap's "maze": from A to Z in 25 moves.
func goapMazeCase() plancase.Case[goapmaze.WalkerState] {
	a := runtime.NewAStar(goapmaze.WalkerDomain)
	return plancase.Case[goapmaze.WalkerState]{
		Name: "goap-maze/astar", Domain: goapmaze.WalkerDomain, Start: goapmaze.Start,
		Plan: func(ctx context.Context, s goapmaze.WalkerState, p *runtime.Plan) error {
			return a.PlanGoalInto(ctx, s, goapmaze.WalkerGoalOut, p)
		},
		MinLen: 25, MaxLen: 25,
	}
}

// benchAnchor plans c's problem once per op with a reused planner and
// plan (plancase.Loop), and reports the plan's length, the states
// expanded and generated per plan, and the time per expansion.
func benchAnchor[S comparable](b *testing.B, c plancase.Case[S]) {
	b.Run(c.Name, func(b *testing.B) {
		p, expansions := plancase.Loop(b, c)
		b.ReportMetric(float64(len(p.Steps)), "steps")
		b.ReportMetric(float64(p.Expansions), "expansions/op")
		b.ReportMetric(float64(p.Generated), "generated/op")
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(expansions), "ns/expansion")
	})
}

// BenchmarkAnchors plans the anchors' own problems with rolegen's A*
// (default options, a reused planner and plan), to be run in the same
// session as the anchors' benchmarks: kelindar/goap's
// `go test -run '^$' -bench BenchmarkPlan -benchmem .`, whose deep and
// maze are goap-deep and goap-maze here. Fast Downward's blocksworld
// instance is BenchmarkPlan/blocksworld8.
func BenchmarkAnchors(b *testing.B) {
	benchAnchor(b, goapDeepCase())
	benchAnchor(b, goapMazeCase())
}

// fewestSteps is breadth-first search over d from start: the fewest
// steps to a state where goal holds, -1 when none is reachable within
// limit states. It is the optimal reference for domains whose actions all
// cost the same, and shares no code with the planners.
func fewestSteps[S comparable](d *runtime.Domain[S], start S, goal func(S) bool, limit int) int {
	seen := map[S]bool{start: true}
	layer := []S{start}
	for steps := 0; len(layer) > 0; steps++ {
		var next []S
		for _, s := range layer {
			if goal(s) {
				return steps
			}
			for _, act := range d.Actions {
				if !act.Pre(s) {
					continue
				}
				t := act.Effect(s)
				if !seen[t] {
					if len(seen) == limit {
						return -1
					}
					seen[t] = true
					next = append(next, t)
				}
			}
		}
		layer = next
	}
	return -1
}

// checkAnchor checks c's plan (it verifies, has the claimed length, and
// is as short as any: every action costs 1, so breadth-first search gives
// the optimum), and that the plan kelindar/goap's own test expects
// reaches the goal in the role too.
func checkAnchor[S comparable](t *testing.T, c plancase.Case[S], goal runtime.GoalID, theirs []string) runtime.Plan {
	t.Helper()
	for _, act := range c.Domain.Actions {
		require.InDelta(t, 1.0, act.Cost, 0, act.Name)
	}
	p := plancase.Check(t, c)
	cond := c.Domain.Goals[goal].Cond
	assert.Equal(t, fewestSteps(c.Domain, c.Start, cond, 1_000_000), len(p.Steps), "%s: shortest plan", c.Name)
	assert.InDelta(t, float64(len(p.Steps)), p.Cost, 0, c.Name)

	end, err := c.Domain.Simulate(c.Start, plancase.ActionIDs(t, c.Domain, theirs...))
	require.NoError(t, err, "kelindar/goap's plan applies in %s", c.Name)
	assert.True(t, cond(end), "kelindar/goap's plan reaches the goal in %s", c.Name)
	assert.Len(t, p.Steps, len(theirs), "as long as kelindar/goap's plan")
	return p
}

func TestAnchorPlans(t *testing.T) {
	// kelindar/goap's TestNumericPlan expects this plan for "deep".
	checkAnchor(t, goapDeepCase(), goapdeep.ForagerGoalStocked, []string{
		"Forage", "Forage", "Forage", "Sleep", "Forage", "Forage", "Sleep", "Forage", "Forage", "Forage", "Sleep", "Forage",
	})

	// kelindar/goap's TestMaze expects the spine; it is the only shortest
	// way, so rolegen's plan is exactly it.
	spine := []string{
		"AToB", "BToC", "CToD", "DToE", "EToF", "FToG", "GToH", "HToI", "IToJ", "JToK", "KToL", "LToM", "MToN",
		"NToO", "OToP", "PToQ", "QToR", "RToS", "SToT", "TToU", "UToV", "VToW", "WToX", "XToY", "YToZ",
	}
	p := checkAnchor(t, goapMazeCase(), goapmaze.WalkerGoalOut, spine)
	assert.Equal(t, plancase.ActionIDs(t, goapmaze.WalkerDomain, spine...), p.Steps)
}

// kelindarDeep is kelindar/goap's semantics of the deep actions: every
// value an integer clamped to 0..100 after each effect.
func kelindarDeep(s goapdeep.ForagerState, a runtime.ActionID) (goapdeep.ForagerState, bool) {
	clamp := func(x int) int { return min(max(x, 0), 100) }
	switch a {
	case goapdeep.ForagerEat: // requires food>0; hunger-50, food-5
		return goapdeep.ForagerState{Hunger: clamp(s.Hunger - 50), Food: clamp(s.Food - 5), Tired: s.Tired}, s.Food > 0
	case goapdeep.ForagerForage: // requires tired<50; tired+20, food+10, hunger+5
		return goapdeep.ForagerState{Hunger: clamp(s.Hunger + 5), Food: clamp(s.Food + 10), Tired: clamp(s.Tired + 20)}, s.Tired < 50
	case goapdeep.ForagerSleep: // requires tired>30; tired-50
		return goapdeep.ForagerState{Hunger: s.Hunger, Food: s.Food, Tired: clamp(s.Tired - 50)}, s.Tired > 30
	}
	panic("unknown action")
}

// TestGoapDeepMatchesClampedSemantics walks every state a search of the
// deep problem can expand (every state reachable from the start without
// passing a goal state) and checks that each action's precondition and
// effect in the role are kelindar/goap's, clamping included.
func TestGoapDeepMatchesClampedSemantics(t *testing.T) {
	d := goapdeep.ForagerDomain
	goal := d.Goals[goapdeep.ForagerGoalStocked].Cond
	seen := map[goapdeep.ForagerState]bool{goapdeep.Start: true}
	queue := []goapdeep.ForagerState{goapdeep.Start}
	expandable, clamped := 0, 0
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if goal(s) {
			continue // a search stops here, expanding nothing
		}
		expandable++
		for i, act := range d.Actions {
			want, ok := kelindarDeep(s, runtime.ActionID(i))
			require.Equal(t, ok, act.Pre(s), "%s in %+v", act.Name, s)
			if !ok {
				continue
			}
			got := act.Effect(s)
			require.Equal(t, want, got, "%s in %+v", act.Name, s)
			unclamped := s
			switch runtime.ActionID(i) {
			case goapdeep.ForagerEat:
				unclamped.Hunger -= 50
			case goapdeep.ForagerForage:
				unclamped.Hunger += 5
			case goapdeep.ForagerSleep:
				unclamped.Tired -= 50
			}
			if unclamped.Hunger != got.Hunger || unclamped.Tired != got.Tired {
				clamped++
			}
			if !seen[got] {
				seen[got] = true
				queue = append(queue, got)
			}
		}
	}
	assert.Positive(t, clamped, "the clamp matters: some effects saturate")
	t.Logf("%d states can be expanded, %d reachable, %d transitions saturate", expandable, len(seen), clamped)
}

// goapMoves are the moves of kelindar/goap's maze, in its order.
var goapMoves = []string{
	"A->B", "B->C", "C->D", "D->E", "E->F", "F->G", "G->H", "H->I", "I->J", "C->X1", "E->X2", "G->X3",
	"X1->D", "X2->F", "X3->H", "B->Y1", "D->Y2", "F->Y3", "Y1->C", "Y2->E", "Y3->G", "J->K", "K->L", "L->M",
	"M->N", "N->O", "O->P", "P->Q", "Q->R", "R->S", "S->T", "T->U", "U->V", "V->W", "W->X", "X->Y",
	"Y->Z", "U->Z1", "W->Z2", "Z1->V", "Z2->X", "A->Z3",
}

// reachable returns every state reachable from start in d, start first.
func reachable[S comparable](d *runtime.Domain[S], start S) []S {
	seen := map[S]bool{start: true}
	out := []S{start}
	for i := 0; i < len(out); i++ {
		for _, act := range d.Actions {
			if act.Pre(out[i]) {
				if t := act.Effect(out[i]); !seen[t] {
					seen[t] = true
					out = append(out, t)
				}
			}
		}
	}
	return out
}

// TestGoapMazeIsKelindarsMaze checks that the maze role has kelindar/goap's
// moves, in its order, and that in every reachable state each needs the
// walker at its source and changes its source to Gone and its target to
// Here and nothing else; and that the states are kelindar/goap's: one per
// walk from A (where the walker is and where it has been), as many as the
// move graph has walks.
func TestGoapMazeIsKelindarsMaze(t *testing.T) {
	d := goapmaze.WalkerDomain
	require.Len(t, d.Actions, len(goapMoves))
	require.Len(t, d.Fields, 35)
	field := map[string]runtime.FieldID{}
	for i, f := range d.Fields {
		field[f.Name] = runtime.FieldID(i)
	}
	// marks reads every place of s through the domain's field accessor.
	marks := func(s goapmaze.WalkerState) []goapmaze.Mark {
		out := make([]goapmaze.Mark, len(d.Fields))
		for i := range out {
			out[i] = goapmaze.Mark(d.Number(&s, runtime.FieldID(i)))
		}
		return out
	}
	states := reachable(d, goapmaze.Start)
	next := map[string][]string{}
	for i, m := range goapMoves {
		from, to, _ := strings.Cut(m, "->")
		next[from] = append(next[from], to)
		act := d.Actions[i]
		require.Equal(t, from+"To"+to, act.Name)
		for _, s := range states {
			before := marks(s)
			require.Equal(t, before[field[from]] == goapmaze.Here, act.Pre(s), "%s in %v", act.Name, before)
			if !act.Pre(s) {
				continue
			}
			want := slices.Clone(before)
			want[field[from]], want[field[to]] = goapmaze.Gone, goapmaze.Here
			require.Equal(t, want, marks(act.Effect(s)), "%s in %v", act.Name, before)
		}
	}

	// Walks from A in the move graph (a DAG): the empty walk and, for
	// each move from A, the walks that start with it.
	var walks func(string) int
	walks = func(p string) int {
		n := 1
		for _, q := range next[p] {
			n += walks(q)
		}
		return n
	}
	assert.Equal(t, walks("A"), len(states))
	t.Logf("%d states", len(states))
}
