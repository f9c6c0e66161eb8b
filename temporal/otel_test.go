package temporal_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.temporal.io/sdk/client"
	sdkotel "go.temporal.io/sdk/contrib/opentelemetry"
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/worker"

	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/otelrolegen"
	"github.com/rolegen/rolegen/temporal"
)

// tracedSide is one side of a traced run: its own tracer provider and
// exporter, a client with Temporal's OpenTelemetry interceptor, and the
// planner's telemetry on the same provider.
type tracedSide struct {
	spans *tracetest.InMemoryExporter
	tp    *sdktrace.TracerProvider
	c     client.Client
	plans *temporal.Plans[courierState]
}

func newTracedSide(t *testing.T, role *courierRole) *tracedSide {
	t.Helper()
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	tracing, err := sdkotel.NewTracingInterceptor(sdkotel.TracerOptions{Tracer: tp.Tracer("temporal")})
	require.NoError(t, err)
	c, err := client.Dial(client.Options{HostPort: server.Address, Namespace: "default", Logger: quietLogger(),
		Interceptors: []interceptor.ClientInterceptor{tracing}})
	require.NoError(t, err)
	t.Cleanup(c.Close)
	planner := llm.NewPlanner(courier, replies(orderPlan1, orderPlan2), llm.WithMaxReplans(2),
		otelrolegen.Telemetry(otelrolegen.WithTracerProvider(tp)))
	plans := temporal.New(planner, temporal.WithPerformer(func(context.Context, string) (llm.Performer, error) { return role, nil }),
		fastSteps(), failOnce())
	return &tracedSide{spans: spans, tp: tp, c: c, plans: plans}
}

// A run whose workflow runs on one worker and whose model calls and
// steps run on another is one trace: Temporal's OpenTelemetry interceptor
// carries the context from the client to the workflow and from the
// workflow to each activity, the run's spans hang under the workflow's,
// and the plan's and the steps' under their activities'.
func TestRunAcrossWorkersIsOneTrace(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	role := &courierRole{fail: map[string]bool{"Fail": true}}
	caller := newTracedSide(t, role)
	flows := newTracedSide(t, role) // runs the workflow only
	acts := newTracedSide(t, role)  // runs the activities only

	wf := worker.New(flows.c, "traced", worker.Options{LocalActivityWorkerOnly: true})
	flows.plans.RegisterWorkflow(wf)
	require.NoError(t, wf.Start())
	defer wf.Stop()
	wa := worker.New(acts.c, "traced", worker.Options{DisableWorkflowWorker: true})
	acts.plans.RegisterActivities(wa)
	require.NoError(t, wa.Start())
	defer wa.Stop()

	startCtx, root := caller.tp.Tracer("test").Start(ctx, "deliver")
	run, err := caller.plans.Start(startCtx, caller.c, "traced", "deliver the parcel", courierState{}, temporal.StartOptions{ID: "traced"})
	require.NoError(t, err)
	res, err := caller.plans.Result(ctx, caller.c, run.GetID())
	root.End()
	require.NoError(t, err)
	require.Equal(t, llm.StatusCompleted, res.Status)
	require.Equal(t, 1, res.Replans)

	all := map[string]tracetest.SpanStub{}
	var callerSpans, flowSpans, actSpans tracetest.SpanStubs
	callerSpans, flowSpans, actSpans = caller.spans.GetSpans(), flows.spans.GetSpans(), acts.spans.GetSpans()
	for _, group := range []tracetest.SpanStubs{callerSpans, flowSpans, actSpans} {
		for _, s := range group {
			all[s.SpanContext.SpanID().String()] = s
			assert.Equal(t, root.SpanContext().TraceID(), s.SpanContext.TraceID(), "%s is in the caller's trace", s.Name)
		}
	}
	ancestor := func(s tracetest.SpanStub, name string) bool {
		for p, ok := all[s.Parent.SpanID().String()]; ok; p, ok = all[p.Parent.SpanID().String()] {
			if p.Name == name {
				return true
			}
		}
		return false
	}
	names := func(spans tracetest.SpanStubs) map[string]int {
		n := map[string]int{}
		for _, s := range spans {
			n[s.Name]++
		}
		return n
	}

	// The workflow's worker: the run, its approvals and steps (one span
	// each), under the workflow's span.
	fw := names(flowSpans)
	assert.Equal(t, 1, fw["run Courier"])
	assert.Equal(t, 4, fw["step Pack"]+fw["step Fail"]+fw["step Ship"]+fw["step Work"], "pack, fail; ship, work")
	run0 := find(t, flowSpans, "run Courier")
	assert.True(t, ancestor(run0, "RunWorkflow:rolegen.Run.Courier"))
	assert.Equal(t, "traced", attr(run0, otelrolegen.KeyRunID).AsString())
	assert.Equal(t, "completed", attr(run0, otelrolegen.KeyRunStatus).AsString())
	require.NotEmpty(t, run0.Events)
	assert.Equal(t, "replan", run0.Events[0].Name)
	for _, s := range flowSpans {
		if s.Name == "step Ship" {
			assert.True(t, ancestor(s, "run Courier"))
		}
	}

	// The activities' worker: both plans with their model calls, and
	// every step's activity, each under the workflow's StartActivity.
	aw := names(actSpans)
	assert.Equal(t, 2, aw["plan"])
	assert.Equal(t, 2, aw["chat"])
	assert.Equal(t, 2, aw["verify"])
	assert.Equal(t, 2, aw["RunActivity:rolegen.Plan.Courier"])
	assert.Equal(t, 4, aw["RunActivity:rolegen.Perform.Courier"])
	for _, s := range actSpans {
		switch s.Name {
		case "chat":
			assert.True(t, ancestor(s, "RunActivity:rolegen.Plan.Courier"))
		case "RunActivity:rolegen.Perform.Courier", "RunActivity:rolegen.Plan.Courier":
			assert.True(t, ancestor(s, "RunWorkflow:rolegen.Run.Courier"), "through StartActivity on the workflow's worker")
		}
		if s.Name == "RunActivity:rolegen.Perform.Courier" {
			assert.Equal(t, "traced", attr(s, otelrolegen.KeyRunID).AsString())
			assert.NotEmpty(t, attr(s, otelrolegen.KeyStepID).AsString())
			assert.Equal(t, int64(1), attr(s, otelrolegen.KeyStepAttempt).AsInt64())
		}
	}

	// The history replays, with the planner's telemetry and without: the
	// observer decides nothing.
	h := history(t, caller.c, run.GetID())
	for _, plans := range []*temporal.Plans[courierState]{flows.plans, scenario("order", role)} {
		replayer := worker.NewWorkflowReplayer()
		plans.RegisterWorkflow(replayer)
		require.NoError(t, replayer.ReplayWorkflowHistory(quietLogger(), h))
	}
}

func find(t *testing.T, spans tracetest.SpanStubs, name string) tracetest.SpanStub {
	t.Helper()
	for _, s := range spans {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no span %q", name)
	return tracetest.SpanStub{}
}

func attr(s tracetest.SpanStub, k attribute.Key) attribute.Value {
	for _, a := range s.Attributes {
		if a.Key == k {
			return a.Value
		}
	}
	return attribute.Value{}
}
