package synthetic

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/bench/synthetic/wide10"
	"github.com/rolegen/rolegen/bench/synthetic/wide200"
	"github.com/rolegen/rolegen/bench/synthetic/wide50"
	"github.com/rolegen/rolegen/runtime"
)

// BenchmarkPlanActions measures how planning grows with the number of a
// role's actions when the plan does not: the roles of widegen have 10, 50
// and 200 actions, of which the same five make the plan (Advance0 to
// Advance4) and the others never apply.
func BenchmarkPlanActions(b *testing.B) {
	b.Run("10", func(b *testing.B) { benchActions(b, wide10.WorkerDomain, wide10.WorkerState{}) })
	b.Run("50", func(b *testing.B) { benchActions(b, wide50.WorkerDomain, wide50.WorkerState{}) })
	b.Run("200", func(b *testing.B) { benchActions(b, wide200.WorkerDomain, wide200.WorkerState{}) })
}

func benchActions[S comparable](b *testing.B, d *runtime.Domain[S], s S) {
	ctx := context.Background()
	b.Run("backward", func(b *testing.B) {
		bc := runtime.NewBackwardChainer(d)
		var p runtime.Plan
		b.ReportAllocs()
		for b.Loop() {
			if err := bc.PlanInto(ctx, s, &p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("astar", func(b *testing.B) {
		a := runtime.NewAStar(d)
		var p runtime.Plan
		b.ReportAllocs()
		for b.Loop() {
			if err := a.PlanInto(ctx, s, &p); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*p.Expansions), "ns/expansion")
	})
	b.Run("utility", func(b *testing.B) {
		u := runtime.NewUtility(d)
		var ranked []runtime.Scored
		b.ReportAllocs()
		for b.Loop() {
			ranked = u.RankedInto(s, ranked[:0])
		}
	})
}

// Every wide role gives the same five-step plan with both planners.
func TestWidePlans(t *testing.T) {
	checkWide(t, wide10.WorkerDomain, wide10.WorkerState{}, 10)
	checkWide(t, wide50.WorkerDomain, wide50.WorkerState{}, 50)
	checkWide(t, wide200.WorkerDomain, wide200.WorkerState{}, 200)
}

func checkWide[S comparable](t *testing.T, d *runtime.Domain[S], s S, actions int) {
	t.Helper()
	want := []string{"Advance0", "Advance1", "Advance2", "Advance3", "Advance4"}
	require.Len(t, d.Actions, actions)
	ctx := context.Background()
	bc, err := runtime.NewBackwardChainer(d).Plan(ctx, s)
	require.NoError(t, err)
	require.Equal(t, want, actionNames(d, bc.Steps))
	as, err := runtime.NewAStar(d).Plan(ctx, s)
	require.NoError(t, err)
	require.Equal(t, want, actionNames(d, as.Steps))
}

func actionNames[S comparable](d *runtime.Domain[S], steps []runtime.ActionID) []string {
	out := make([]string, len(steps))
	for i, a := range steps {
		out[i] = d.Actions[a].Name
	}
	return out
}
