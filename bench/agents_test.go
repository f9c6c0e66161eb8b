package bench

import (
	goruntime "runtime"
	"testing"

	world "github.com/rolegen/rolegen/examples/arena/world"
)

// BenchmarkAgents runs one tick of the arena per op: every agent lives,
// replans with the backward chainer and performs its first step, the
// agents shared among GOMAXPROCS workers. ns/agent is the tick's wall
// time divided by the number of agents. The world goes on from tick to
// tick, so the measure is an average over b.N consecutive ticks (after 20
// ticks of warm-up).
func BenchmarkAgents(b *testing.B) {
	for _, c := range []struct {
		name string
		n    int
	}{{"1k", 1_000}, {"10k", 10_000}} {
		b.Run(c.name, func(b *testing.B) {
			sim := world.NewSim(c.n, 1, goruntime.GOMAXPROCS(0))
			defer sim.Close()
			for range 20 {
				sim.Tick()
			}
			b.ReportAllocs()
			for b.Loop() {
				sim.Tick()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*c.n), "ns/agent")
		})
	}
}
