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
	// Of the agents' statistics: what an agent-tick was spent on
	// (acting, waiting, idle), what a step's call returned (running,
	// done, failed, or interrupted for a step abandoned), why a plan was
	// made (runtime.Replan's names), how a goal failed to be planned
	// (planner: a planner call found no plan; proven: the annotations'
	// relaxed reachability proved it out of reach).
	KeyAgentActivity   = attribute.Key("rolegen.agent.activity")
	KeyAgentStepStatus = attribute.Key("rolegen.agent.step.status")
	KeyReplanReason    = attribute.Key("rolegen.agent.reason")
	KeyFailure         = attribute.Key("rolegen.agent.failure")
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
// and, once agents counted in s (runtime.WithAgentStats) have ticked:
//
//	rolegen.agent.ticks     {tick}   agent-ticks, by rolegen.domain and rolegen.agent.activity
//	                                 (acting, waiting, idle)
//	rolegen.agent.steps     {call}   calls of step methods, by rolegen.agent.step.status (running,
//	                                 done, failed), and steps abandoned (interrupted)
//	rolegen.agent.plans     {plan}   plans made, by rolegen.agent.reason (no plan, plan done, step
//	                                 failed, precondition stale, plan broken, interrupted, retry, interval,
//	                                 woken)
//	rolegen.agent.failures  {goal}   goals that could not be planned, by rolegen.agent.failure
//	                                 (planner, proven)
//	rolegen.agent.checks    {check}  plans checked against the live state
//	rolegen.agent.calls_cut {call}   planner calls a crowd's time budget cut short
//	                                 (runtime.WithPlanTimeBudget; the agent plans again later)
//
// All are cumulative counters: a backend divides the duration by the
// calls for the mean. Register one Stats per domain; Unregister the
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
	agents, err := newAgentInstruments(m)
	if err != nil {
		return nil, err
	}
	domain := KeyDomain.String(s.Domain())
	return m.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		agents.observe(o, domain, s.Agents())
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
	}, calls, duration, expansions, agents.ticks, agents.steps, agents.plans, agents.failures, agents.checks, agents.cut)
}

// agentInstruments are the counters of the agents' statistics.
type agentInstruments struct {
	ticks, steps, plans, failures, checks, cut metric.Int64ObservableCounter
}

func newAgentInstruments(m metric.Meter) (*agentInstruments, error) {
	var a agentInstruments
	for _, c := range []struct {
		into              *metric.Int64ObservableCounter
		name, unit, descr string
	}{
		{&a.ticks, "rolegen.agent.ticks", "{tick}", "Agent-ticks, by what the agent did: acting, waiting for a plan, idle."},
		{&a.steps, "rolegen.agent.steps", "{call}", "Calls of agents' step methods by what they returned, and steps interrupted."},
		{&a.plans, "rolegen.agent.plans", "{plan}", "Plans agents made, by the reason they replanned."},
		{&a.failures, "rolegen.agent.failures", "{goal}", "Goals agents could not plan: by a planner call, or proven out of reach."},
		{&a.checks, "rolegen.agent.checks", "{check}", "Agents' plans checked against the live state."},
		{&a.cut, "rolegen.agent.calls_cut", "{call}", "Agents' planner calls a crowd's time budget cut short; the agent planned again later."},
	} {
		inst, err := m.Int64ObservableCounter(c.name, metric.WithUnit(c.unit), metric.WithDescription(c.descr))
		if err != nil {
			return nil, err
		}
		*c.into = inst
	}
	return &a, nil
}

// observe reports the agents' counts, when agents ticked.
func (a *agentInstruments) observe(o metric.Observer, domain attribute.KeyValue, c runtime.AgentCounts) {
	if c.Ticks == 0 {
		return
	}
	with := func(kv attribute.KeyValue) metric.ObserveOption {
		return metric.WithAttributeSet(attribute.NewSet(domain, kv))
	}
	o.ObserveInt64(a.ticks, c.Acting, with(KeyAgentActivity.String("acting")))
	o.ObserveInt64(a.ticks, c.Waiting, with(KeyAgentActivity.String("waiting")))
	o.ObserveInt64(a.ticks, c.Idle, with(KeyAgentActivity.String("idle")))
	o.ObserveInt64(a.steps, c.StepsRunning, with(KeyAgentStepStatus.String(runtime.Running.String())))
	o.ObserveInt64(a.steps, c.StepsDone, with(KeyAgentStepStatus.String(runtime.Done.String())))
	o.ObserveInt64(a.steps, c.StepsFailed, with(KeyAgentStepStatus.String(runtime.Failed.String())))
	o.ObserveInt64(a.steps, c.Interrupted, with(KeyAgentStepStatus.String("interrupted")))
	for _, r := range runtime.Replans() {
		o.ObserveInt64(a.plans, c.Plans[r], with(KeyReplanReason.String(r.String())))
	}
	o.ObserveInt64(a.failures, c.PlanFailures, with(KeyFailure.String("planner")))
	o.ObserveInt64(a.failures, c.Unreachable, with(KeyFailure.String("proven")))
	o.ObserveInt64(a.checks, c.Checks, metric.WithAttributeSet(attribute.NewSet(domain)))
	o.ObserveInt64(a.cut, c.CallsCut, metric.WithAttributeSet(attribute.NewSet(domain)))
}
