package otelrolegen_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/rolegen/rolegen/examples/assistant/travel"
	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/otelrolegen"
)

const (
	searchStep = `{"id":"search","capability":"Search","args":{"from":"ZRH","to":"LIS","date":"2026-12-18","cabin":"economy"},"dependsOn":[]}`
	notifyStep = `{"id":"tell","capability":"Notify","args":{"message":"booked"},"dependsOn":["book"]}`
)

func bookStep(maxPrice int, deps string) string {
	return fmt.Sprintf(`{"id":"book","capability":"Book","args":{"passenger":"Ada","maxPrice":%d},"dependsOn":[%s]}`, maxPrice, deps)
}

func planOf(steps ...string) string { return `{"steps":[` + strings.Join(steps, ",") + `]}` }

// travelModel answers as the travel assistant's model might: a plan that
// books before it searched (verification refuses it, the critique goes
// back), a plan whose booking fails (50 euros is too little: the run
// replans), and a revision that books for 150.
func travelModel() *llm.ScriptedModel {
	return llm.NewScriptedModel(
		llm.Reply{Text: planOf(bookStep(150, ""), searchStep, notifyStep), Usage: llm.Usage{PromptTokens: 900, CompletionTokens: 110}},
		llm.Reply{Text: planOf(searchStep, bookStep(50, `"search"`), notifyStep), Usage: llm.Usage{PromptTokens: 1100, CompletionTokens: 120}},
		llm.Reply{Text: planOf(bookStep(150, ""), notifyStep), Usage: llm.Usage{PromptTokens: 1300, CompletionTokens: 90}, FinishReason: "stop"},
	)
}

// telemetry returns providers recording into memory.
func telemetry() (*tracetest.InMemoryExporter, *sdktrace.TracerProvider, *sdkmetric.ManualReader, *sdkmetric.MeterProvider) {
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	return spans, tp, reader, mp
}

func travelPlanner(model llm.Model, opts ...llm.Option) *llm.Planner[travel.AgentState] {
	gate := llm.ApproverFunc(func(context.Context, *llm.Plan) (llm.Decision, error) { return llm.Approve(), nil })
	return llm.NewPlanner(travel.AgentDomain, model, append([]llm.Option{
		llm.WithRequireVerified(1), llm.WithGoals(travel.AgentGoalTrip), llm.WithApprover(gate),
	}, opts...)...)
}

// tree draws the spans as an indented tree, children in the order they
// started, with the attributes and events asked for.
func tree(spans tracetest.SpanStubs, show ...attribute.Key) string {
	children := map[string][]tracetest.SpanStub{}
	ids := map[string]bool{}
	for _, s := range spans {
		ids[s.SpanContext.SpanID().String()] = true
	}
	for _, s := range spans {
		parent := s.Parent.SpanID().String()
		if !ids[parent] {
			parent = ""
		}
		children[parent] = append(children[parent], s)
	}
	var b strings.Builder
	var draw func(parent string, depth int)
	draw = func(parent string, depth int) {
		kids := children[parent]
		slices.SortStableFunc(kids, func(x, y tracetest.SpanStub) int { return x.StartTime.Compare(y.StartTime) })
		for _, s := range kids {
			fmt.Fprintf(&b, "%s%s", strings.Repeat("  ", depth), s.Name)
			for _, a := range s.Attributes {
				if slices.Contains(show, a.Key) {
					fmt.Fprintf(&b, " %s=%s", a.Key, a.Value.Emit())
				}
			}
			if s.Status.Code == codes.Error {
				b.WriteString(" ERROR")
			}
			for _, e := range s.Events {
				if e.Name != "exception" {
					fmt.Fprintf(&b, " +%s", e.Name)
				}
			}
			b.WriteByte('\n')
			draw(s.SpanContext.SpanID().String(), depth+1)
		}
	}
	draw("", 0)
	return b.String()
}

// The span tree of a run that fails verification, replans, is approved
// and completes, with its attributes and events; the metrics count the
// run, its steps, its replan and its tokens, which equal the run's Usage.
func TestSpanTreeAndMetricsOfARun(t *testing.T) {
	spans, tp, reader, mp := telemetry()
	planner := travelPlanner(travelModel(), otelrolegen.Telemetry(
		otelrolegen.WithTracerProvider(tp), otelrolegen.WithMeterProvider(mp)))
	agent := &travel.Agent{Budget: 400}
	res, err := planner.Run(context.Background(), "Fly me to Lisbon", llm.RoleTarget[travel.AgentState](agent), llm.WithRunID("lisbon"))
	require.NoError(t, err)
	require.Equal(t, llm.StatusCompleted, res.Status)
	require.Equal(t, 1, res.Replans)

	got := spans.GetSpans()
	assert.Equal(t, `run Agent rolegen.run.status=completed rolegen.run.replans=1 +replan
  plan rolegen.plan.revision=0 rolegen.plan.verified=true
    chat rolegen.call.purpose=plan
    validate rolegen.plan.revision=0
    verify rolegen.plan.revision=0 rolegen.plan.verified=false ERROR +critique
    repair rolegen.plan.revision=0 ERROR
    chat rolegen.call.purpose=retry
    validate rolegen.plan.revision=0
    verify rolegen.plan.revision=0 rolegen.plan.verified=true
  approve rolegen.approval.decision=approved
  step Search rolegen.step.id=search rolegen.plan.revision=0 rolegen.step.status=done
  step Book rolegen.step.id=book rolegen.plan.revision=0 rolegen.step.status=failed ERROR
  plan rolegen.plan.revision=1 rolegen.plan.verified=true
    chat rolegen.call.purpose=replan
    validate rolegen.plan.revision=1
    verify rolegen.plan.revision=1 rolegen.plan.verified=true
  approve rolegen.approval.decision=approved
  step Book rolegen.step.id=book rolegen.plan.revision=1 rolegen.step.status=done
  step Notify rolegen.step.id=tell rolegen.plan.revision=1 rolegen.step.status=done
`, tree(got, otelrolegen.KeyRunStatus, otelrolegen.KeyRunReplans, otelrolegen.KeyPlanRevision, otelrolegen.KeyCallPurpose,
		otelrolegen.KeyPlanVerified, otelrolegen.KeyApprovalDecision, otelrolegen.KeyStepID, otelrolegen.KeyStepStatus))

	// One trace; the attributes a reader needs.
	for _, s := range got {
		assert.Equal(t, got[0].SpanContext.TraceID(), s.SpanContext.TraceID(), s.Name)
	}
	run := find(t, got, "run Agent", 0)
	assert.Equal(t, "lisbon", attr(run, otelrolegen.KeyRunID).AsString())
	assert.Equal(t, "Agent", attr(run, otelrolegen.KeyDomain).AsString())
	assert.Equal(t, "Fly me to Lisbon", attr(run, otelrolegen.KeyGoal).AsString())
	assert.Equal(t, int64(res.Usage.PromptTokens), attr(run, "gen_ai.usage.input_tokens").AsInt64())
	assert.Equal(t, int64(res.Usage.CompletionTokens), attr(run, "gen_ai.usage.output_tokens").AsInt64())
	replan := run.Events[0]
	assert.Equal(t, "replan", replan.Name)
	assert.Contains(t, eventAttr(replan, otelrolegen.KeyReplanFailure).AsString(), "no offer at most 50 euros")

	chat := find(t, got, "chat", 2)
	assert.Equal(t, "chat", attr(chat, "gen_ai.operation.name").AsString())
	assert.Equal(t, int64(1300), attr(chat, "gen_ai.usage.input_tokens").AsInt64())
	assert.Equal(t, int64(90), attr(chat, "gen_ai.usage.output_tokens").AsInt64())
	assert.Equal(t, []string{"stop"}, attr(chat, "gen_ai.response.finish_reasons").AsStringSlice())

	verify := find(t, got, "verify", 0)
	critique := verify.Events[0]
	assert.Equal(t, "critique", critique.Name)
	assert.Equal(t, "book", eventAttr(critique, otelrolegen.KeyStepID).AsString())
	assert.Equal(t, "Book", eventAttr(critique, otelrolegen.KeyAction).AsString())
	assert.Equal(t, "Searched && Budget >= 100", eventAttr(critique, otelrolegen.KeyPrecondition).AsString())
	assert.Contains(t, eventAttr(critique, otelrolegen.KeyCritique).AsString(), `step "book" (Book): precondition "Searched && Budget >= 100" does not hold`)

	failed := find(t, got, "step Book", 0)
	assert.Equal(t, "Book", attr(failed, otelrolegen.KeyAction).AsString())
	assert.Equal(t, int64(1), attr(failed, otelrolegen.KeyStepAttempt).AsInt64())
	assert.Equal(t, "no offer at most 50 euros", failed.Status.Description)
	again := find(t, got, "step Book", 1)
	assert.Equal(t, int64(2), attr(again, otelrolegen.KeyStepAttempt).AsInt64(), "the same step id, started a second time in the run")
	assert.Equal(t, int64(1), attr(again, otelrolegen.KeyPlanRevision).AsInt64())

	// Metrics.
	var rm metricdata.ResourceMetrics
	require.NoError(t, reader.Collect(context.Background(), &rm))
	m := metricsByName(rm)

	tokens := m["gen_ai.client.token.usage"].Data.(metricdata.Histogram[int64])
	sums := map[string]int64{}
	var calls uint64
	for _, dp := range tokens.DataPoints {
		kind, _ := dp.Attributes.Value("gen_ai.token.type")
		sums[kind.AsString()] += dp.Sum
		calls += dp.Count
	}
	assert.Equal(t, map[string]int64{"input": int64(res.Usage.PromptTokens), "output": int64(res.Usage.CompletionTokens)}, sums)
	assert.Equal(t, uint64(2*len(res.Calls)), calls, "an input and an output count per call")
	assert.Equal(t, 3300, res.Usage.PromptTokens)

	assert.Equal(t, map[string]int64{"Agent/completed": 1}, counts(m["rolegen.llm.runs"], otelrolegen.KeyDomain, otelrolegen.KeyRunStatus))
	assert.Equal(t, map[string]int64{"Search/done": 1, "Book/failed": 1, "Book/done": 1, "Notify/done": 1},
		counts(m["rolegen.llm.steps"], otelrolegen.KeyAction, otelrolegen.KeyStepStatus))
	assert.Equal(t, map[string]int64{"Agent": 1}, counts(m["rolegen.llm.replans"], otelrolegen.KeyDomain))
	durations := m["rolegen.llm.step.duration"].Data.(metricdata.Histogram[float64])
	var stepCount uint64
	for _, dp := range durations.DataPoints {
		stepCount += dp.Count
	}
	assert.Equal(t, uint64(4), stepCount)
	calls = 0
	for _, dp := range m["gen_ai.client.operation.duration"].Data.(metricdata.Histogram[float64]).DataPoints {
		calls += dp.Count
	}
	assert.Equal(t, uint64(3), calls)
}

// Repair and candidates have spans of their own: a span a candidate,
// holding its checks and its repair, with what repair inserted and why
// the candidate lost.
func TestRepairAndCandidateSpans(t *testing.T) {
	spans, tp, _, mp := telemetry()
	search := llm.WithArgs(travel.AgentSearchArgs, func(travel.AgentState) (travel.SearchArgs, error) {
		return travel.SearchArgs{From: "ZRH", To: "LIS", Date: "2026-12-18", Cabin: travel.Economy}, nil
	})
	model := llm.NewScriptedModel(
		llm.Reply{Text: planOf(bookStep(150, ""), notifyStep), Usage: llm.Usage{PromptTokens: 900, CompletionTokens: 80}},
		llm.Reply{Text: planOf(searchStep, strings.Replace(searchStep, `"search"`, `"again"`, 1), bookStep(150, `"search"`), notifyStep),
			Usage: llm.Usage{PromptTokens: 900, CompletionTokens: 140}},
	)
	planner := travelPlanner(model, search, llm.WithCandidates(2),
		otelrolegen.Telemetry(otelrolegen.WithTracerProvider(tp), otelrolegen.WithMeterProvider(mp)))
	res, err := planner.Run(context.Background(), "Fly me to Lisbon", llm.RoleTarget[travel.AgentState](&travel.Agent{Budget: 400}))
	require.NoError(t, err)
	require.Len(t, res.Calls, 2)

	got := spans.GetSpans()
	assert.Equal(t, `run Agent rolegen.run.status=completed
  plan rolegen.plan.verified=true
    chat rolegen.call.purpose=plan
    chat rolegen.call.purpose=plan
    candidate rolegen.candidate.index=0 rolegen.candidate.verified=true rolegen.candidate.chosen=true
      validate
      verify rolegen.plan.verified=false ERROR +critique
      repair rolegen.repair.inserted=["Search before step \"book\" (Searched \u0026\u0026 Budget \u003e= 100)"]
      verify rolegen.plan.verified=true
    candidate rolegen.candidate.index=1 rolegen.candidate.verified=true rolegen.candidate.chosen=false
      validate
      verify rolegen.plan.verified=true
  approve rolegen.approval.decision=approved
  step Search rolegen.step.id=repair-1 rolegen.step.status=done
  step Book rolegen.step.id=book rolegen.step.status=done
  step Notify rolegen.step.id=tell rolegen.step.status=done
`, tree(got, otelrolegen.KeyRunStatus, otelrolegen.KeyCallPurpose, otelrolegen.KeyPlanVerified, otelrolegen.KeyCandidateIndex,
		otelrolegen.KeyCandidateVerified, otelrolegen.KeyCandidateChosen, otelrolegen.KeyRepairInserted,
		otelrolegen.KeyApprovalDecision, otelrolegen.KeyStepID, otelrolegen.KeyStepStatus))

	lost := find(t, got, "candidate", 1)
	assert.Equal(t, "lost: costs 6 from the current state, candidate 1 costs 5", attr(lost, otelrolegen.KeyCandidateWhy).AsString())
	assert.Equal(t, 6.0, attr(lost, otelrolegen.KeyCandidateCost).AsFloat64())
	assert.Equal(t, int64(2), attr(lost, otelrolegen.KeyCandidateOf).AsInt64())
	repair := find(t, got, "repair", 0)
	assert.Equal(t, int64(2000), attr(repair, otelrolegen.KeyRepairBudget).AsInt64())
	assert.Positive(t, attr(repair, otelrolegen.KeyRepairExpansions).AsInt64())
}

// A run resumed from its checkpoint is a new trace whose run span says so
// and links to the span of the run it resumes.
func TestResumedRunLinksToTheRunItResumes(t *testing.T) {
	spans, tp, _, mp := telemetry()
	store := llm.NewMemoryStore()
	ctx, cancel := context.WithCancel(context.Background())
	stopAfterSearch := llm.WithOnStep(func(_ context.Context, rec llm.StepRecord) llm.Directive {
		if rec.Step.ID == "search" {
			cancel()
		}
		return llm.Continue()
	})
	model := llm.ScriptedReplies(planOf(searchStep, bookStep(150, `"search"`), notifyStep))
	planner := travelPlanner(model, llm.WithStore(store), stopAfterSearch,
		otelrolegen.Telemetry(otelrolegen.WithTracerProvider(tp), otelrolegen.WithMeterProvider(mp)))
	agent := &travel.Agent{Budget: 400}
	res, err := planner.Run(ctx, "Fly me to Lisbon", llm.RoleTarget[travel.AgentState](agent), llm.WithRunID("resumed"))
	require.Error(t, err)
	require.Equal(t, llm.StatusCancelled, res.Status)
	first := find(t, spans.GetSpans(), "run Agent", 0)
	assert.Equal(t, codes.Error, first.Status.Code)
	cp, err := store.Load(context.Background(), "resumed")
	require.NoError(t, err)
	require.Contains(t, cp.Trace, "traceparent")

	spans.Reset()
	res, err = planner.Resume(context.Background(), "resumed", llm.RoleTarget[travel.AgentState](agent))
	require.NoError(t, err)
	require.True(t, res.Succeeded())
	second := find(t, spans.GetSpans(), "run Agent", 0)
	assert.True(t, attr(second, otelrolegen.KeyRunResumed).AsBool())
	assert.NotEqual(t, first.SpanContext.TraceID(), second.SpanContext.TraceID())
	require.Len(t, second.Links, 1)
	assert.Equal(t, first.SpanContext.TraceID(), second.Links[0].SpanContext.TraceID())
	assert.Equal(t, first.SpanContext.SpanID(), second.Links[0].SpanContext.SpanID())
	assert.Equal(t, []attribute.KeyValue{otelrolegen.KeyLink.String("resumes")}, second.Links[0].Attributes)
	assert.Equal(t, "step Book\nstep Notify\n", names(spans.GetSpans(), "step "))
}

// An action method gets its step's span in its context: the spans it
// starts nest under the step.
func TestActionSpansNestUnderTheirStep(t *testing.T) {
	spans, tp, _, mp := telemetry()
	d := travel.AgentDomain
	planner := travelPlanner(llm.ScriptedReplies(planOf(searchStep, bookStep(150, `"search"`), notifyStep)),
		otelrolegen.Telemetry(otelrolegen.WithTracerProvider(tp), otelrolegen.WithMeterProvider(mp)))
	tracer := tp.Tracer("test")
	target := llm.FuncTarget(d, travel.AgentState{Budget: 400}, func(ctx context.Context, st llm.Step, _ map[string]json.RawMessage) (json.RawMessage, error) {
		_, span := tracer.Start(ctx, "inside "+st.ID)
		span.End()
		return nil, nil
	})
	_, err := planner.Run(context.Background(), "Fly me to Lisbon", target)
	require.NoError(t, err)
	got := spans.GetSpans()
	for _, id := range []string{"search", "book", "tell"} {
		inside := find(t, got, "inside "+id, 0)
		parent := byID(t, got, inside.Parent.SpanID().String())
		assert.Equal(t, id, attr(parent, otelrolegen.KeyStepID).AsString())
	}
}

func find(t *testing.T, spans tracetest.SpanStubs, name string, nth int) tracetest.SpanStub {
	t.Helper()
	for _, s := range spans {
		if s.Name == name {
			if nth == 0 {
				return s
			}
			nth--
		}
	}
	t.Fatalf("no span %q", name)
	return tracetest.SpanStub{}
}

func byID(t *testing.T, spans tracetest.SpanStubs, id string) tracetest.SpanStub {
	t.Helper()
	for _, s := range spans {
		if s.SpanContext.SpanID().String() == id {
			return s
		}
	}
	t.Fatalf("no span %s", id)
	return tracetest.SpanStub{}
}

func names(spans tracetest.SpanStubs, prefix string) string {
	var b strings.Builder
	for _, s := range spans {
		if strings.HasPrefix(s.Name, prefix) {
			b.WriteString(s.Name + "\n")
		}
	}
	return b.String()
}

func attr(s tracetest.SpanStub, k attribute.Key) attribute.Value {
	for _, a := range s.Attributes {
		if a.Key == k {
			return a.Value
		}
	}
	return attribute.Value{}
}

func eventAttr(e sdktrace.Event, k attribute.Key) attribute.Value {
	for _, a := range e.Attributes {
		if a.Key == k {
			return a.Value
		}
	}
	return attribute.Value{}
}

func metricsByName(rm metricdata.ResourceMetrics) map[string]metricdata.Metrics {
	out := map[string]metricdata.Metrics{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			out[m.Name] = m
		}
	}
	return out
}

// counts returns a counter's values by the given attributes, joined by
// "/".
func counts(m metricdata.Metrics, keys ...attribute.Key) map[string]int64 {
	out := map[string]int64{}
	for _, dp := range m.Data.(metricdata.Sum[int64]).DataPoints {
		var parts []string
		for _, k := range keys {
			v, _ := dp.Attributes.Value(k)
			parts = append(parts, v.Emit())
		}
		out[strings.Join(parts, "/")] += dp.Value
	}
	return out
}
