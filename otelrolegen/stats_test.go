package otelrolegen_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/rolegen/rolegen/examples/arena/world"
	"github.com/rolegen/rolegen/examples/assistant/travel"
	"github.com/rolegen/rolegen/otelrolegen"
	"github.com/rolegen/rolegen/runtime"
)

// The planners' statistics become metrics when the reader collects: the
// calls by planner, goal and outcome, their durations and their work.
func TestPlannerStatsAsMetrics(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	stats := runtime.NewStats(travel.AgentDomain)
	reg, err := otelrolegen.RegisterStats(stats, otelrolegen.WithMeterProvider(mp))
	require.NoError(t, err)

	ctx := context.Background()
	planner := runtime.NewBackwardChainer(travel.AgentDomain, runtime.WithStats(stats))
	var p runtime.Plan
	for range 5 {
		require.NoError(t, planner.PlanInto(ctx, travel.AgentState{Budget: 400}, &p))
	}
	perCall := int64(p.Expansions)
	unchained := runtime.NewBackwardChainer(travel.AgentDomain, runtime.WithStats(stats), runtime.WithoutChaining())
	require.ErrorIs(t, unchained.PlanInto(ctx, travel.AgentState{Budget: 400}, &p), runtime.ErrUnreachable)
	// Think refuses a plan whose actions take arguments it is not given.
	_, err = runtime.Think(ctx, runtime.NewAStar(travel.AgentDomain, runtime.WithStats(stats)), &travel.Agent{Budget: 400},
		runtime.WithThinkStats(stats))
	require.ErrorIs(t, err, runtime.ErrNeedsArguments)

	var rm metricdata.ResourceMetrics
	require.NoError(t, reader.Collect(ctx, &rm))
	m := metricsByName(rm)
	keys := []attribute.Key{otelrolegen.KeyDomain, otelrolegen.KeyPlanner, otelrolegen.KeyGoal, otelrolegen.KeyPlannerOutcome}
	assert.Equal(t, map[string]int64{
		"Agent/backward/Trip/planned":     5,
		"Agent/backward/Trip/unreachable": 1,
		"Agent/astar/Trip/planned":        1,
		"Agent/think/Trip/error":          1,
	}, counts(m["rolegen.planner.calls"], keys...))
	work := counts(m["rolegen.planner.expansions"], keys...)
	assert.Equal(t, 5*perCall, work["Agent/backward/Trip/planned"])
	assert.Positive(t, work["Agent/astar/Trip/planned"])
	assert.Equal(t, work["Agent/astar/Trip/planned"], work["Agent/think/Trip/error"], "Think planned with A*")
	durations := m["rolegen.planner.duration"].Data.(metricdata.Sum[float64])
	assert.True(t, durations.IsMonotonic)
	require.Len(t, durations.DataPoints, 4)
	for _, dp := range durations.DataPoints {
		assert.Greater(t, dp.Value, 0.0)
	}

	require.NoError(t, reg.Unregister())
	rm = metricdata.ResourceMetrics{}
	require.NoError(t, reader.Collect(ctx, &rm))
	assert.Empty(t, metricsByName(rm)["rolegen.planner.calls"].Data)
}

// What agents do in a game loop becomes metrics too: agent-ticks by
// activity, step calls by status, plans by reason, failures and checks,
// the same counts as Stats.Agents.
func TestAgentStatsAsMetrics(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	stats := runtime.NewStats(world.AgentDomain)
	reg, err := otelrolegen.RegisterStats(stats, otelrolegen.WithMeterProvider(mp))
	require.NoError(t, err)
	defer func() { require.NoError(t, reg.Unregister()) }()

	ctx := context.Background()
	var rm metricdata.ResourceMetrics
	require.NoError(t, reader.Collect(ctx, &rm))
	assert.NotContains(t, metricsByName(rm), "rolegen.agent.ticks", "no agent ticked: nothing to report")

	sim := world.NewSim(200, 1, nil, runtime.WithAgentStats(stats), runtime.WithWorkers(2))
	for range 300 {
		sim.Tick(ctx)
	}
	sim.Close()
	c := stats.Agents()
	require.Equal(t, sim.Counts(), c)

	require.NoError(t, reader.Collect(ctx, &rm))
	m := metricsByName(rm)
	assert.Equal(t, map[string]int64{
		"Agent/acting": c.Acting, "Agent/waiting": c.Waiting, "Agent/idle": c.Idle,
	}, counts(m["rolegen.agent.ticks"], otelrolegen.KeyDomain, otelrolegen.KeyAgentActivity))
	assert.Equal(t, map[string]int64{
		"running": c.StepsRunning, "done": c.StepsDone, "failed": c.StepsFailed, "interrupted": c.Interrupted,
	}, counts(m["rolegen.agent.steps"], otelrolegen.KeyAgentStepStatus))
	plans := counts(m["rolegen.agent.plans"], otelrolegen.KeyReplanReason)
	assert.Equal(t, c.Plans[runtime.ReplanInterrupted], plans["interrupted"])
	assert.Equal(t, c.Plans[runtime.ReplanNoPlan], plans["no plan"])
	var total int64
	for _, n := range plans {
		total += n
	}
	assert.Equal(t, c.PlansMade(), total)
	assert.Equal(t, map[string]int64{"planner": c.PlanFailures, "proven": c.Unreachable},
		counts(m["rolegen.agent.failures"], otelrolegen.KeyFailure))
	assert.Equal(t, map[string]int64{"": c.Checks}, counts(m["rolegen.agent.checks"], otelrolegen.KeyFailure))
	assert.Equal(t, map[string]int64{"": c.CallsCut}, counts(m["rolegen.agent.calls_cut"], otelrolegen.KeyFailure))
	assert.Positive(t, c.Interrupted)
}
