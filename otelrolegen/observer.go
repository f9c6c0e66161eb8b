package otelrolegen

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/rolegen/rolegen/llm"
)

// ScopeName is the instrumentation scope of the tracer and meter.
const ScopeName = "github.com/rolegen/rolegen/otelrolegen"

// Attribute keys of rolegen's spans and metrics (the model calls' follow
// OpenTelemetry's GenAI semantic conventions).
const (
	KeyDomain           = attribute.Key("rolegen.domain")
	KeyGoal             = attribute.Key("rolegen.goal")
	KeyRunID            = attribute.Key("rolegen.run.id")
	KeyRunStatus        = attribute.Key("rolegen.run.status")
	KeyRunReplans       = attribute.Key("rolegen.run.replans")
	KeyRunResumed       = attribute.Key("rolegen.run.resumed")
	KeyPlanRevision     = attribute.Key("rolegen.plan.revision")
	KeyPlanSteps        = attribute.Key("rolegen.plan.steps")
	KeyPlanVerified     = attribute.Key("rolegen.plan.verified")
	KeyCallPurpose      = attribute.Key("rolegen.call.purpose")
	KeyApprovalAsked    = attribute.Key("rolegen.approval.asked")
	KeyApprovalDecision = attribute.Key("rolegen.approval.decision")
	KeyApprovalReason   = attribute.Key("rolegen.approval.reason")
	KeyStepID           = attribute.Key("rolegen.step.id")
	KeyAction           = attribute.Key("rolegen.action")
	KeyStepAttempt      = attribute.Key("rolegen.step.attempt")
	KeyStepStatus       = attribute.Key("rolegen.step.status")
	KeyStepNote         = attribute.Key("rolegen.step.note")
	KeyCritique         = attribute.Key("rolegen.critique")
	KeyPrecondition     = attribute.Key("rolegen.precondition")
	KeyReplanFailure    = attribute.Key("rolegen.replan.failure")
	KeyReplanCritique   = attribute.Key("rolegen.replan.critique")
	KeyLink             = attribute.Key("rolegen.link")
	// The repair span: what was inserted (one "Search before step …" a
	// bridge), the states A* expanded and could, why it found nothing.
	KeyRepairInserted   = attribute.Key("rolegen.repair.inserted")
	KeyRepairExpansions = attribute.Key("rolegen.repair.expansions")
	KeyRepairBudget     = attribute.Key("rolegen.repair.budget")
	// The candidate spans (llm.WithCandidates): which of how many, its
	// cost and verification, whether it was chosen and why it lost.
	KeyCandidateIndex    = attribute.Key("rolegen.candidate.index")
	KeyCandidateOf       = attribute.Key("rolegen.candidate.of")
	KeyCandidateVerified = attribute.Key("rolegen.candidate.verified")
	KeyCandidateCost     = attribute.Key("rolegen.candidate.cost")
	KeyCandidateChosen   = attribute.Key("rolegen.candidate.chosen")
	KeyCandidateWhy      = attribute.Key("rolegen.candidate.why")
)

// Option configures an Observer (and RegisterStats).
type Option func(*config)

type config struct {
	tp trace.TracerProvider
	mp metric.MeterProvider
}

// WithTracerProvider records spans with tp instead of the global tracer
// provider.
func WithTracerProvider(tp trace.TracerProvider) Option { return func(c *config) { c.tp = tp } }

// WithMeterProvider records metrics with mp instead of the global meter
// provider.
func WithMeterProvider(mp metric.MeterProvider) Option { return func(c *config) { c.mp = mp } }

// Observer is an llm.Observer that records the runs of a planner as
// OpenTelemetry spans and metrics (see the package documentation). It is
// safe for concurrent use by any number of runs.
type Observer struct {
	tracer trace.Tracer
	// global: the tracer is the global provider's, which records nothing
	// while no provider is set; off: it never records (a no-op provider).
	global, off bool

	runs          metric.Int64Counter
	steps         metric.Int64Counter
	stepDuration  metric.Float64Histogram
	replans       metric.Int64Counter
	tokens        metric.Int64Histogram
	modelDuration metric.Float64Histogram
}

var (
	_ llm.Observer       = (*Observer)(nil)
	_ llm.ContextCarrier = (*Observer)(nil)
)

// apiDefault is the global tracer provider the API has before a program
// sets one: it records nothing. (Found by its type's name once: were the
// name to change, the observer would start spans that record nothing,
// which costs allocations but is still right.)
var apiDefault = func() trace.TracerProvider {
	tp := otel.GetTracerProvider()
	if fmt.Sprintf("%T", tp) == "*global.tracerProvider" {
		return tp
	}
	return nil
}()

// Telemetry is the planner option that records every run as traces and
// metrics: llm.WithObserver(NewObserver(opts...)).
func Telemetry(opts ...Option) llm.Option { return llm.WithObserver(NewObserver(opts...)) }

// NewObserver returns an observer recording with the providers of opts,
// by default the global ones (set before or after: the global providers
// delegate to the ones set later).
func NewObserver(opts ...Option) *Observer {
	var c config
	for _, opt := range opts {
		opt(&c)
	}
	o := &Observer{}
	tp := c.tp
	if tp == nil {
		tp = otel.GetTracerProvider()
		o.global = tp == apiDefault
	}
	if _, ok := tp.(noop.TracerProvider); ok {
		o.off = true
	}
	o.tracer = tp.Tracer(ScopeName)
	mp := c.mp
	if mp == nil {
		mp = otel.GetMeterProvider()
	}
	m := mp.Meter(ScopeName)
	// Instrument errors are reported to the global error handler by the
	// SDK, and the instrument returned works regardless.
	o.runs, _ = m.Int64Counter("rolegen.llm.runs", metric.WithUnit("{run}"),
		metric.WithDescription("Runs of LLM plans ended, by final status."))
	o.steps, _ = m.Int64Counter("rolegen.llm.steps", metric.WithUnit("{step}"),
		metric.WithDescription("Steps of LLM plans ended, by action and status."))
	o.stepDuration, _ = m.Float64Histogram("rolegen.llm.step.duration", metric.WithUnit("s"),
		metric.WithDescription("Duration of the steps of LLM plans, by action and status."),
		metric.WithExplicitBucketBoundaries(0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 1800, 3600))
	o.replans, _ = m.Int64Counter("rolegen.llm.replans", metric.WithUnit("{replan}"),
		metric.WithDescription("Replans of LLM runs."))
	o.tokens, _ = m.Int64Histogram("gen_ai.client.token.usage", metric.WithUnit("{token}"),
		metric.WithDescription("Number of input and output tokens used."),
		metric.WithExplicitBucketBoundaries(1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864))
	o.modelDuration, _ = m.Float64Histogram("gen_ai.client.operation.duration", metric.WithUnit("s"),
		metric.WithDescription("GenAI operation duration."),
		metric.WithExplicitBucketBoundaries(0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92))
	return o
}

// tracing reports whether spans are recorded now.
func (o *Observer) tracing() bool {
	return !o.off && !(o.global && otel.GetTracerProvider() == apiDefault)
}

// Observe records ev (llm.Observer).
func (o *Observer) Observe(ctx context.Context, ev llm.Event) context.Context {
	// ev is handed on by value, so that it stays on the stack when
	// nothing is recorded.
	if o.metered(ctx, ev.Kind) {
		o.measure(ctx, ev)
	}
	if !o.tracing() {
		return ctx
	}
	return o.trace(ctx, ev)
}

// trace records ev in spans.
func (o *Observer) trace(ctx context.Context, ev llm.Event) context.Context {
	switch ev.Kind {
	case llm.EventRunStart:
		return o.start(ctx, spanRun, "run "+ev.Domain, trace.SpanKindInternal, ev.Time, runAttrs(&ev), resumes(&ev)...)
	case llm.EventPlanStart:
		return o.start(ctx, spanPlan, "plan", trace.SpanKindInternal, ev.Time, planAttrs(&ev))
	case llm.EventModelCallStart:
		return o.start(ctx, spanCall, callName(&ev.Call), trace.SpanKindClient, ev.Time, callAttrs(&ev.Call))
	case llm.EventStepStart:
		return o.start(ctx, spanStep, "step "+ev.Record.Step.Capability, trace.SpanKindInternal, ev.Time, stepAttrs(&ev))
	case llm.EventCandidateStart:
		return o.start(ctx, spanCandidate, "candidate", trace.SpanKindInternal, ev.Time, candidateAttrs(&ev))
	case llm.EventCandidateEnd:
		o.end(ctx, spanCandidate, &ev, "candidate", trace.SpanKindInternal, ev.Started, candidateAttrs)
	case llm.EventRepair:
		o.repair(ctx, &ev)
	case llm.EventRunEnd:
		o.end(ctx, spanRun, &ev, "run "+ev.Domain, trace.SpanKindInternal, ev.Started, runAttrs)
	case llm.EventPlanEnd:
		o.end(ctx, spanPlan, &ev, "plan", trace.SpanKindInternal, ev.Started, planAttrs)
	case llm.EventModelCallEnd:
		o.end(ctx, spanCall, &ev, callName(&ev.Call), trace.SpanKindClient, ev.Started,
			func(ev *llm.Event) []attribute.KeyValue { return callAttrs(&ev.Call) })
	case llm.EventStepEnd:
		o.end(ctx, spanStep, &ev, "step "+ev.Record.Step.Capability, trace.SpanKindInternal, ev.Record.Started, stepAttrs)
	case llm.EventValidation, llm.EventVerification, llm.EventApproval:
		o.check(ctx, &ev)
	case llm.EventReplan:
		o.replan(ctx, &ev)
	}
	return ctx
}

// Carry returns the W3C trace context of the run's span in ctx, which a
// run resumed from the run's checkpoint links to (llm.ContextCarrier).
func (o *Observer) Carry(ctx context.Context) map[string]string {
	s, ok := own(ctx, spanRun)
	if !ok || !s.SpanContext().IsValid() {
		return nil
	}
	carrier := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(trace.ContextWithSpan(context.Background(), s), carrier)
	return carrier
}

// spanKind is the kind of work a span of the observer covers.
type spanKind uint8

const (
	spanRun spanKind = iota + 1
	spanPlan
	spanCall
	spanStep
	spanCandidate
)

// ownKey is the context key of the span the observer started for a kind
// of work: the span that the work's end ends (the context's current span
// may be another's, Temporal's workflow span).
type ownKey struct{ kind spanKind }

func own(ctx context.Context, k spanKind) (trace.Span, bool) {
	s, ok := ctx.Value(ownKey{k}).(trace.Span)
	return s, ok
}

// start starts a span for work of kind k and returns the work's context.
func (o *Observer) start(ctx context.Context, k spanKind, name string, kind trace.SpanKind, at time.Time, attrs []attribute.KeyValue, links ...trace.Link) context.Context {
	opts := []trace.SpanStartOption{trace.WithSpanKind(kind), trace.WithAttributes(attrs...)}
	if !at.IsZero() {
		opts = append(opts, trace.WithTimestamp(at))
	}
	if len(links) > 0 {
		opts = append(opts, trace.WithLinks(links...))
	}
	ctx, span := o.tracer.Start(ctx, name, opts...)
	return context.WithValue(ctx, ownKey{k}, span)
}

// end ends the span of work of kind k with ev's outcome. When the work's
// span is not in ctx (its start was seen by another process: a Temporal
// worker that died), the span is made whole now, from the recorded times.
func (o *Observer) end(ctx context.Context, k spanKind, ev *llm.Event, name string, kind trace.SpanKind, started time.Time, attrs func(*llm.Event) []attribute.KeyValue) {
	span, ok := own(ctx, k)
	if !ok {
		opts := []trace.SpanStartOption{trace.WithSpanKind(kind), trace.WithAttributes(attrs(ev)...)}
		if !started.IsZero() {
			opts = append(opts, trace.WithTimestamp(started))
		}
		_, span = o.tracer.Start(ctx, name, opts...)
	}
	if !span.IsRecording() {
		return
	}
	switch ev.Kind {
	case llm.EventRunEnd:
		span.SetAttributes(KeyRunStatus.String(string(ev.Status)), KeyRunReplans.Int(ev.Replans),
			semconv.GenAIUsageInputTokensKey.Int(ev.Usage.PromptTokens),
			semconv.GenAIUsageOutputTokensKey.Int(ev.Usage.CompletionTokens))
		if ev.Status == llm.StatusFailed || ev.Status == llm.StatusCancelled {
			fail(span, ev.Err)
		}
	case llm.EventPlanEnd:
		if ev.Plan != nil {
			span.SetAttributes(KeyPlanSteps.Int(len(ev.Plan.Steps)), KeyPlanVerified.Bool(ev.Plan.Verified))
		}
		span.SetAttributes(semconv.GenAIUsageInputTokensKey.Int(ev.Usage.PromptTokens),
			semconv.GenAIUsageOutputTokensKey.Int(ev.Usage.CompletionTokens))
		fail(span, ev.Err)
	case llm.EventModelCallEnd:
		r := &ev.Call.Response
		span.SetAttributes(semconv.GenAIUsageInputTokensKey.Int(r.Usage.PromptTokens),
			semconv.GenAIUsageOutputTokensKey.Int(r.Usage.CompletionTokens))
		if r.FinishReason != "" {
			span.SetAttributes(semconv.GenAIResponseFinishReasonsKey.StringSlice([]string{r.FinishReason}))
		}
		if ev.Err != nil {
			span.SetAttributes(semconv.ErrorTypeKey.String(errorType(ev.Err)))
		}
		fail(span, ev.Err)
	case llm.EventCandidateEnd:
		c := ev.Candidate
		span.SetAttributes(KeyCandidateVerified.Bool(c.Verified), KeyCandidateChosen.Bool(c.Chosen), KeyCandidateWhy.String(c.Why))
		if c.Verified {
			span.SetAttributes(KeyCandidateCost.Float64(c.Cost), KeyPlanSteps.Int(c.Steps))
		}
	case llm.EventStepEnd:
		rec := ev.Record
		span.SetAttributes(KeyStepStatus.String(string(rec.Status)))
		if rec.Note != "" {
			span.SetAttributes(KeyStepNote.String(rec.Note))
		}
		if rec.Status == llm.StepFailed || rec.Status == llm.StepCancelled {
			err := rec.Err
			if err == nil {
				err = errors.New(rec.Error)
			}
			span.RecordError(err)
			span.SetStatus(codes.Error, rec.Error)
		}
	}
	span.End(trace.WithTimestamp(eventTime(ev)))
}

// check records a validation, verification or approval: a span from its
// start (when known) to the event.
func (o *Observer) check(ctx context.Context, ev *llm.Event) {
	var name string
	var attrs []attribute.KeyValue
	switch ev.Kind {
	case llm.EventValidation:
		name = "validate"
		attrs = []attribute.KeyValue{KeyPlanRevision.Int(ev.Revision)}
	case llm.EventVerification:
		name = "verify"
		attrs = []attribute.KeyValue{KeyPlanRevision.Int(ev.Revision), KeyPlanVerified.Bool(ev.Err == nil)}
	case llm.EventApproval:
		name = "approve"
		attrs = []attribute.KeyValue{KeyApprovalAsked.Bool(ev.Asked), KeyApprovalDecision.String(decision(ev))}
		if ev.Decision.Reason != "" {
			attrs = append(attrs, KeyApprovalReason.String(ev.Decision.Reason))
		}
		if ev.Status != llm.StatusRunning {
			attrs = append(attrs, KeyRunStatus.String(string(ev.Status)))
		}
	}
	if ev.Plan != nil {
		attrs = append(attrs, KeyPlanSteps.Int(len(ev.Plan.Steps)))
	}
	start := ev.Started
	if start.IsZero() {
		start = ev.Time
	}
	_, span := o.tracer.Start(ctx, name, trace.WithTimestamp(start), trace.WithAttributes(attrs...))
	if ev.Kind == llm.EventVerification && ev.Err != nil {
		ea := []attribute.KeyValue{KeyCritique.String(ev.Err.Error())}
		if verr, ok := errors.AsType[*llm.VerificationError](ev.Err); ok {
			if verr.StepID != "" {
				ea = append(ea, KeyStepID.String(verr.StepID), KeyAction.String(verr.Capability), KeyPrecondition.String(verr.Precondition))
			}
		}
		span.AddEvent("critique", trace.WithTimestamp(eventTime(ev)), trace.WithAttributes(ea...))
		span.SetStatus(codes.Error, "the plan fails verification")
	} else if ev.Kind != llm.EventApproval || ev.Status != llm.StatusRejected {
		fail(span, ev.Err)
	}
	span.End(trace.WithTimestamp(eventTime(ev)))
}

// repair records a repair: a span from its start to the event, with the
// steps it inserted, or its failure (which the critique of the plan then
// repeats).
func (o *Observer) repair(ctx context.Context, ev *llm.Event) {
	attrs := []attribute.KeyValue{KeyPlanRevision.Int(ev.Revision)}
	if r := ev.Repair; r != nil {
		attrs = append(attrs, KeyRepairExpansions.Int(r.Expansions), KeyRepairBudget.Int(r.Budget))
		if r.Err == nil {
			attrs = append(attrs, KeyRepairInserted.StringSlice(r.Inserted()))
		}
	}
	if ev.Plan != nil {
		attrs = append(attrs, KeyPlanSteps.Int(len(ev.Plan.Steps)))
	}
	start := ev.Started
	if start.IsZero() {
		start = ev.Time
	}
	_, span := o.tracer.Start(ctx, "repair", trace.WithTimestamp(start), trace.WithAttributes(attrs...))
	fail(span, ev.Err)
	span.End(trace.WithTimestamp(eventTime(ev)))
}

// replan records the replan as an event of the run's span.
func (o *Observer) replan(ctx context.Context, ev *llm.Event) {
	span, ok := own(ctx, spanRun)
	if !ok {
		span = trace.SpanFromContext(ctx)
	}
	attrs := []attribute.KeyValue{KeyRunReplans.Int(ev.Replans)}
	if r := ev.Replanning; r != nil {
		if r.Failure != "" {
			attrs = append(attrs, KeyReplanFailure.String(r.Failure))
		}
		if r.Critique != "" {
			attrs = append(attrs, KeyReplanCritique.String(r.Critique))
		}
	}
	span.AddEvent("replan", trace.WithTimestamp(eventTime(ev)), trace.WithAttributes(attrs...))
}

// metered reports whether an event of kind k has an instrument to
// record it.
func (o *Observer) metered(ctx context.Context, k llm.EventKind) bool {
	switch k {
	case llm.EventRunEnd:
		return o.runs.Enabled(ctx)
	case llm.EventStepEnd:
		return o.steps.Enabled(ctx) || o.stepDuration.Enabled(ctx)
	case llm.EventReplan:
		return o.replans.Enabled(ctx)
	case llm.EventModelCallEnd:
		return o.tokens.Enabled(ctx) || o.modelDuration.Enabled(ctx)
	}
	return false
}

// measure records the metrics of ev.
func (o *Observer) measure(ctx context.Context, ev llm.Event) {
	switch ev.Kind {
	case llm.EventRunEnd:
		o.runs.Add(ctx, 1, metric.WithAttributes(KeyDomain.String(ev.Domain), KeyRunStatus.String(string(ev.Status))))
	case llm.EventStepEnd:
		rec := ev.Record
		attrs := metric.WithAttributes(KeyDomain.String(ev.Domain), KeyAction.String(rec.Step.Capability),
			KeyStepStatus.String(string(rec.Status)))
		o.steps.Add(ctx, 1, attrs)
		if !rec.Started.IsZero() && !rec.Finished.IsZero() {
			o.stepDuration.Record(ctx, rec.Finished.Sub(rec.Started).Seconds(), attrs)
		}
	case llm.EventReplan:
		o.replans.Add(ctx, 1, metric.WithAttributes(KeyDomain.String(ev.Domain)))
	case llm.EventModelCallEnd:
		if o.tokens.Enabled(ctx) {
			base := modelMetricAttrs(&ev.Call)
			u := ev.Call.Response.Usage
			o.tokens.Record(ctx, int64(u.PromptTokens), metric.WithAttributes(append(base, semconv.GenAITokenTypeInput)...))
			o.tokens.Record(ctx, int64(u.CompletionTokens), metric.WithAttributes(append(base, semconv.GenAITokenTypeOutput)...))
		}
		if o.modelDuration.Enabled(ctx) {
			attrs := modelMetricAttrs(&ev.Call)
			if ev.Err != nil {
				attrs = append(attrs, semconv.ErrorTypeKey.String(errorType(ev.Err)))
			}
			o.modelDuration.Record(ctx, ev.Time.Sub(ev.Started).Seconds(), metric.WithAttributes(attrs...))
		}
	}
}

func runAttrs(ev *llm.Event) []attribute.KeyValue {
	attrs := []attribute.KeyValue{KeyRunID.String(ev.RunID), KeyDomain.String(ev.Domain), KeyGoal.String(ev.Goal)}
	if ev.Resumed {
		attrs = append(attrs, KeyRunResumed.Bool(true))
	}
	return attrs
}

// resumes links a resumed run to the run it goes on from.
func resumes(ev *llm.Event) []trace.Link {
	if len(ev.Resumes) == 0 {
		return nil
	}
	ctx := propagation.TraceContext{}.Extract(context.Background(), propagation.MapCarrier(ev.Resumes))
	sc := trace.SpanContextFromContext(ctx)
	if !sc.IsValid() {
		return nil
	}
	return []trace.Link{{SpanContext: sc, Attributes: []attribute.KeyValue{KeyLink.String("resumes")}}}
}

func planAttrs(ev *llm.Event) []attribute.KeyValue {
	return []attribute.KeyValue{KeyDomain.String(ev.Domain), KeyPlanRevision.Int(ev.Revision)}
}

func callName(c *llm.ModelCall) string {
	if c.Model == "" {
		return "chat"
	}
	return "chat " + c.Model
}

func callAttrs(c *llm.ModelCall) []attribute.KeyValue {
	attrs := []attribute.KeyValue{semconv.GenAIOperationNameChat, KeyCallPurpose.String(c.Purpose),
		semconv.GenAIRequestTemperatureKey.Float64(c.Request.Temperature)}
	if c.Provider != "" {
		attrs = append(attrs, semconv.GenAIProviderNameKey.String(c.Provider))
	}
	if c.Model != "" {
		attrs = append(attrs, semconv.GenAIRequestModelKey.String(c.Model))
	}
	if c.Request.MaxTokens > 0 {
		attrs = append(attrs, semconv.GenAIRequestMaxTokensKey.Int(c.Request.MaxTokens))
	}
	return attrs
}

func modelMetricAttrs(c *llm.ModelCall) []attribute.KeyValue {
	attrs := make([]attribute.KeyValue, 0, 5)
	attrs = append(attrs, semconv.GenAIOperationNameChat, KeyCallPurpose.String(c.Purpose))
	if c.Provider != "" {
		attrs = append(attrs, semconv.GenAIProviderNameKey.String(c.Provider))
	}
	if c.Model != "" {
		attrs = append(attrs, semconv.GenAIRequestModelKey.String(c.Model))
	}
	return attrs
}

func candidateAttrs(ev *llm.Event) []attribute.KeyValue {
	c := ev.Candidate
	return []attribute.KeyValue{KeyCandidateIndex.Int(c.Index), KeyCandidateOf.Int(c.Of), KeyPlanRevision.Int(ev.Revision)}
}

func stepAttrs(ev *llm.Event) []attribute.KeyValue {
	rec := ev.Record
	return []attribute.KeyValue{KeyStepID.String(rec.Step.ID), KeyAction.String(rec.Step.Capability),
		KeyStepAttempt.Int(ev.Attempt), KeyPlanRevision.Int(rec.Revision)}
}

// decision names an approval's outcome.
func decision(ev *llm.Event) string {
	switch {
	case ev.Status == llm.StatusAwaitingApproval:
		return "awaiting"
	case !ev.Asked:
		return "approved"
	case ev.Decision.Reject || ev.Status == llm.StatusRejected:
		return "rejected"
	case ev.Status == llm.StatusCancelled:
		return "cancelled"
	case ev.Status != llm.StatusRunning:
		return "failed"
	case len(ev.Decision.Remove) > 0 || len(ev.Decision.Order) > 0:
		return "modified"
	}
	return "approved"
}

func eventTime(ev *llm.Event) time.Time {
	if ev.Time.IsZero() {
		return time.Now()
	}
	return ev.Time
}

// fail marks span failed with err, when err is not nil.
func fail(span trace.Span, err error) {
	if err == nil {
		return
	}
	span.RecordError(err)
	span.SetStatus(codes.Error, err.Error())
}

// errorType is the error.type of a failed model call: the error's Go
// type, or "cancelled" and "deadline_exceeded" for the context's.
func errorType(err error) string {
	switch {
	case errors.Is(err, context.Canceled):
		return "cancelled"
	case errors.Is(err, context.DeadlineExceeded):
		return "deadline_exceeded"
	}
	// The first error of the chain that is not a mere wrapping.
	for {
		t := fmt.Sprintf("%T", err)
		inner := errors.Unwrap(err)
		if t != "*fmt.wrapError" || inner == nil {
			return t
		}
		err = inner
	}
}
