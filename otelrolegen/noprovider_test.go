package otelrolegen_test

import (
	"context"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/trace"

	"github.com/rolegen/rolegen/examples/assistant/travel"
	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/otelrolegen"
)

// With no provider set (the global ones untouched, as in a program that
// never wires an SDK), the option records nothing: no span in the
// contexts the run hands out, nothing kept in checkpoints; and a run
// allocates no more than a run without the option.
func TestNoProviderRecordsNothingAndAllocatesNothingExtra(t *testing.T) {
	o := otelrolegen.NewObserver()
	ctx := context.Background()
	got := o.Observe(ctx, llm.Event{Kind: llm.EventRunStart, RunID: "r", Domain: "Agent"})
	assert.Equal(t, ctx, got)
	assert.False(t, trace.SpanFromContext(got).SpanContext().IsValid())
	assert.Nil(t, o.Carry(got))

	store := llm.NewMemoryStore()
	run := func(opts ...llm.Option) *llm.Result {
		planner := travelPlanner(travelModel(), opts...)
		res, err := planner.Run(context.Background(), "Fly me to Lisbon", llm.RoleTarget[travel.AgentState](&travel.Agent{Budget: 400}))
		require.NoError(t, err)
		require.Equal(t, 1, res.Replans)
		return res
	}
	res := run(llm.WithStore(store), otelrolegen.Telemetry())
	cp, err := store.Load(context.Background(), res.RunID)
	require.NoError(t, err)
	assert.Nil(t, cp.Trace)

	if raceEnabled {
		t.Skip("allocation counts are the race detector's too")
	}
	// The collector off: a collection during the measurement empties the
	// sync.Pools the run draws on (encoding/json's), and the counts then
	// vary by a fraction of an allocation a run.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	option := otelrolegen.Telemetry()
	// The same number of options: llm.WithObserver(nil) is none.
	none := llm.WithObserver(nil)
	without := testing.AllocsPerRun(50, func() { run(none) })
	with := testing.AllocsPerRun(50, func() { run(option) })
	// One more for the wrapper that reports the model's calls, made by
	// NewPlanner (once a planner), not by the run.
	assert.Equal(t, without+1, with, "allocations of a planner and its run, without and with the option")
}
