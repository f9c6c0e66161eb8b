package otelrolegen

import (
	"context"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/rolegen/rolegen/runtime"
)

// Attribute keys of the planner statistics.
const (
	KeyPlanner        = attribute.Key("rolegen.planner")
	KeyPlannerOutcome = attribute.Key("rolegen.planner.outcome")
)

// RegisterStats reports the statistics of symbolic planners (a
// runtime.Stats given to them with runtime.WithStats or
// runtime.WithThinkStats) as OpenTelemetry metrics, read from s each
// time a reader of the meter provider collects — a periodic reader at
// its interval, a manual one when the program says — and never in the
// planners' calls:
//
//	rolegen.planner.calls       {call}       calls, by rolegen.domain, rolegen.planner (backward, astar,
//	                                         think), rolegen.goal and rolegen.planner.outcome (planned, or
//	                                         the reason of the failure: unreachable, search budget exceeded, …)
//	rolegen.planner.duration    s            their summed durations, by the same
//	rolegen.planner.expansions  {expansion}  the work they did (runtime.Plan.Expansions), by the same
//
// All three are cumulative counters: a backend divides the duration by
// the calls for the mean. Register one Stats per domain; Unregister the
// registration returned to stop reporting.
func RegisterStats(s *runtime.Stats, opts ...Option) (metric.Registration, error) {
	var c config
	for _, opt := range opts {
		opt(&c)
	}
	mp := c.mp
	if mp == nil {
		mp = otel.GetMeterProvider()
	}
	m := mp.Meter(ScopeName)
	calls, err := m.Int64ObservableCounter("rolegen.planner.calls", metric.WithUnit("{call}"),
		metric.WithDescription("Calls of symbolic planners, by planner, goal and outcome."))
	if err != nil {
		return nil, err
	}
	duration, err := m.Float64ObservableCounter("rolegen.planner.duration", metric.WithUnit("s"),
		metric.WithDescription("Time spent in symbolic planners' calls, by planner, goal and outcome."))
	if err != nil {
		return nil, err
	}
	expansions, err := m.Int64ObservableCounter("rolegen.planner.expansions", metric.WithUnit("{expansion}"),
		metric.WithDescription("Search work of symbolic planners' calls, by planner, goal and outcome."))
	if err != nil {
		return nil, err
	}
	domain := KeyDomain.String(s.Domain())
	return m.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		s.Each(func(r runtime.StatsRow) {
			attrs := []attribute.KeyValue{domain, KeyPlanner.String(r.Planner.String()), KeyPlannerOutcome.String(r.Outcome())}
			if r.Goal != runtime.NoGoal {
				attrs = append(attrs, KeyGoal.String(r.GoalName))
			}
			set := metric.WithAttributeSet(attribute.NewSet(attrs...))
			o.ObserveInt64(calls, r.Calls, set)
			o.ObserveFloat64(duration, r.Duration.Seconds(), set)
			o.ObserveInt64(expansions, r.Expansions, set)
		})
		return nil
	}, calls, duration, expansions)
}
