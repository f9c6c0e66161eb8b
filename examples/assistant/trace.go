package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/otelrolegen"
)

// runTraced is run with the planner's runs traced (otelrolegen.Telemetry):
// the stdout exporter writes each span to w as it ends, and the tree of
// the run's spans follows. A program that sends its spans to a collector
// sets an OTLP exporter instead (README, "See what the agents did").
func runTraced(ctx context.Context, w io.Writer, m llm.Model, goal string, opts ...llm.Option) error {
	stdout, err := stdouttrace.New(stdouttrace.WithWriter(w))
	if err != nil {
		return err
	}
	var tree spanTree
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(stdout), sdktrace.WithSpanProcessor(&tree))
	defer func() { _ = tp.Shutdown(context.WithoutCancel(ctx)) }()
	err = run(ctx, w, m, goal, otelrolegen.NewObserver(otelrolegen.WithTracerProvider(tp)), opts...)
	fmt.Fprintln(w, "\nspans:")
	tree.print(w)
	return err
}

// spanTree keeps the spans that end, to draw them as a tree.
type spanTree struct {
	mu    sync.Mutex
	spans []sdktrace.ReadOnlySpan
}

func (t *spanTree) OnStart(context.Context, sdktrace.ReadWriteSpan) {}
func (t *spanTree) OnEnd(s sdktrace.ReadOnlySpan) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.spans = append(t.spans, s)
}
func (t *spanTree) Shutdown(context.Context) error   { return nil }
func (t *spanTree) ForceFlush(context.Context) error { return nil }

// shown are the attributes the tree prints, by span.
var shown = []attribute.Key{
	otelrolegen.KeyRunStatus, otelrolegen.KeyRunReplans, otelrolegen.KeyPlanRevision, otelrolegen.KeyCallPurpose,
	"gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens", otelrolegen.KeyPlanVerified,
	otelrolegen.KeyApprovalDecision, otelrolegen.KeyStepStatus, otelrolegen.KeyRepairInserted, otelrolegen.KeyStepID,
}

// print draws the spans, each under its parent, in the order they began,
// with their durations, chosen attributes and events.
func (t *spanTree) print(w io.Writer) {
	t.mu.Lock()
	defer t.mu.Unlock()
	children := map[string][]sdktrace.ReadOnlySpan{}
	known := map[string]bool{}
	for _, s := range t.spans {
		known[s.SpanContext().SpanID().String()] = true
	}
	for _, s := range t.spans {
		parent := s.Parent().SpanID().String()
		if !known[parent] {
			parent = ""
		}
		children[parent] = append(children[parent], s)
	}
	var draw func(parent, indent string)
	draw = func(parent, indent string) {
		kids := children[parent]
		slices.SortStableFunc(kids, func(a, b sdktrace.ReadOnlySpan) int { return a.StartTime().Compare(b.StartTime()) })
		for _, s := range kids {
			var b strings.Builder
			fmt.Fprintf(&b, "%s%s (%s)", indent, s.Name(), s.EndTime().Sub(s.StartTime()).Round(time.Microsecond))
			for _, a := range s.Attributes() {
				if !slices.Contains(shown, a.Key) {
					continue
				}
				v := a.Value.Emit()
				if a.Value.Type() == attribute.STRINGSLICE {
					v = "[" + strings.Join(a.Value.AsStringSlice(), "; ") + "]"
				}
				fmt.Fprintf(&b, " %s=%s", strings.TrimPrefix(string(a.Key), "rolegen."), v)
			}
			if s.Status().Code.String() == "Error" {
				fmt.Fprintf(&b, " error=%q", s.Status().Description)
			}
			for _, e := range s.Events() {
				if e.Name != "exception" {
					fmt.Fprintf(&b, " [%s]", e.Name)
				}
			}
			fmt.Fprintln(w, b.String())
			draw(s.SpanContext().SpanID().String(), indent+"  ")
		}
	}
	draw("", "")
}
