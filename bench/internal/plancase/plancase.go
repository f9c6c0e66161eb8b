// Package plancase is a planning problem of the benchmarks, with the
// check that a plan for it is right and the loop that measures planning
// it: shared by bench's tests and those of the synthetic families
// (../synthetic), so that every benchmark of BenchmarkPlan reports the
// same figures the same way.
package plancase

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
)

// Case is one planning problem: a planner's Into method and the state it
// plans from.
type Case[S comparable] struct {
	Name   string
	Domain *runtime.Domain[S]
	Start  S
	// Plan plans from s into p, reusing p's storage.
	Plan func(ctx context.Context, s S, p *runtime.Plan) error
	// MinLen and MaxLen bound the plan's length.
	MinLen, MaxLen int
}

// Bench plans c's problem once per op with a reused planner and plan, as
// a sub-benchmark named c.Name, and reports the plan's length and the
// expansions per second (for the backward chainer: actions considered;
// for A*: states expanded).
func Bench[S comparable](b *testing.B, c Case[S]) {
	b.Run(c.Name, func(b *testing.B) {
		p, expansions := Loop(b, c)
		b.ReportMetric(float64(len(p.Steps)), "steps")
		b.ReportMetric(float64(p.Expansions), "expansions/op")
		b.ReportMetric(float64(expansions)/b.Elapsed().Seconds(), "expansions/s")
	})
}

// Loop plans c's problem once per op with a reused planner and plan,
// after a warm-up that grows their storage, and returns the last plan and
// the expansions of all the ops.
func Loop[S comparable](b *testing.B, c Case[S]) (runtime.Plan, int) {
	ctx := context.Background()
	var p runtime.Plan
	require.NoError(b, c.Plan(ctx, c.Start, &p))
	expansions := 0
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Plan(ctx, c.Start, &p); err != nil {
			b.Fatal(err)
		}
		expansions += p.Expansions
	}
	return p, expansions
}

// Check plans c's problem twice with the same planner (the second time
// reusing the plan) and checks that the plan verifies and has the length
// the benchmark claims.
func Check[S comparable](t *testing.T, c Case[S]) runtime.Plan {
	t.Helper()
	var p runtime.Plan
	for range 2 {
		require.NoError(t, c.Plan(t.Context(), c.Start, &p), c.Name)
		require.NoError(t, c.Domain.Verify(c.Start, &p), c.Name)
		require.NotEmpty(t, p.Goals, c.Name)
		assert.GreaterOrEqual(t, len(p.Steps), c.MinLen, c.Name)
		assert.LessOrEqual(t, len(p.Steps), c.MaxLen, c.Name)
	}
	return p.Clone()
}

// ActionIDs maps action names to their IDs in d.
func ActionIDs[S comparable](t *testing.T, d *runtime.Domain[S], names ...string) []runtime.ActionID {
	t.Helper()
	ids := make([]runtime.ActionID, len(names))
	for i, name := range names {
		found := false
		for j, act := range d.Actions {
			if act.Name == name {
				ids[i], found = runtime.ActionID(j), true
			}
		}
		require.True(t, found, "no action %q", name)
	}
	return ids
}
