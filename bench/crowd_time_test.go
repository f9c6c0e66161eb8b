package bench

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/rolegen/rolegen/bench/internal/armorer"
	"github.com/rolegen/rolegen/bench/internal/prospector"
	"github.com/rolegen/rolegen/runtime"
)

// simActor performs a role's actions on a state of its own, each whole in
// one tick, with the domain's effects (the written roles' methods do
// nothing).
type simActor[S comparable] struct {
	d *runtime.Domain[S]
	s S
}

func (z *simActor[S]) PlanState() S { return z.s }

func (z *simActor[S]) PerformStep(_ context.Context, a runtime.ActionID, t runtime.Step) (runtime.Status, error) {
	if !t.Interrupted {
		z.s = z.d.Apply(a, z.s)
	}
	return runtime.Done, nil
}

// crowdTimeAgents and crowdTimeTicks size BenchmarkCrowdTimeBudget, and
// crowdTimeBudget is its frame's planning time.
const (
	crowdTimeAgents = 400
	crowdTimeTicks  = 200
	crowdTimeBudget = time.Millisecond
)

// BenchmarkCrowdTimeBudget runs a crowd of written roles whose slowest
// planner calls take tens of milliseconds (the armorer, the prospector:
// "The backward chainer on roles nobody designed" in BENCHMARKS.md), 400
// agents from the role's starts, on two workers, with
// WithPlanTimeBudget(1 ms) and chainers given WithTimeBudget(1 ms), as
// the README advises, for 200 ticks. It reports the ticks' wall time in
// milliseconds (p50, p90, p99, max) and the plans made a tick:
//
//	go test -run '^$' -bench 'BenchmarkCrowdTimeBudget' -benchtime 1x .
func BenchmarkCrowdTimeBudget(b *testing.B) {
	b.Run("armorer", func(b *testing.B) { crowdTime(b, armorer.ArmorerDomain, armorerStarts()) })
	b.Run("prospector", func(b *testing.B) { crowdTime(b, prospector.ProspectorDomain, prospectorStarts()) })
}

func crowdTime[S comparable](b *testing.B, d *runtime.Domain[S], starts []S) {
	ctx := context.Background()
	for b.Loop() {
		c := runtime.NewCrowd(d, func() runtime.GoalPlanner[S] {
			return runtime.NewBackwardChainer(d, runtime.WithTimeBudget(crowdTimeBudget))
		}, runtime.WithWorkers(2), runtime.WithPlanTimeBudget(crowdTimeBudget))
		for i := range crowdTimeAgents {
			c.Add(&simActor[S]{d: d, s: starts[i*7919%len(starts)]})
		}
		ticks := make([]time.Duration, 0, crowdTimeTicks)
		for range crowdTimeTicks {
			t0 := time.Now()
			c.Tick(ctx)
			ticks = append(ticks, time.Since(t0))
		}
		made := c.Counts().PlansMade()
		c.Close()
		slices.Sort(ticks)
		ms := func(q float64) float64 {
			return float64(ticks[min(int(q*float64(len(ticks))), len(ticks)-1)]) / float64(time.Millisecond)
		}
		b.ReportMetric(ms(0.5), "p50-ms/tick")
		b.ReportMetric(ms(0.9), "p90-ms/tick")
		b.ReportMetric(ms(0.99), "p99-ms/tick")
		b.ReportMetric(ms(1), "max-ms/tick")
		b.ReportMetric(float64(made)/crowdTimeTicks, "plans/tick")
	}
}
