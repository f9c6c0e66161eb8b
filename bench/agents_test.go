package bench

import (
	goruntime "runtime"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rolegen/rolegen/bench/internal/agents"
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
			sim := agents.NewSim(c.n, 1, goruntime.GOMAXPROCS(0))
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

// The benchmark's copy of the arena gives the same totals as the example
// (examples/arena, seed 1, 200 agents, 20 ticks), with any number of
// workers.
func TestAgentsMatchArena(t *testing.T) {
	for _, workers := range []int{1, 2, 3} {
		sim := agents.NewSim(200, 1, workers)
		for range 20 {
			sim.Tick()
		}
		st := sim.Stats()
		st.Checksum += sim.StateChecksum()
		sim.Close()
		assert.Equal(t, int64(4000), st.Plans)
		assert.Equal(t, []int64{78, 314, 68, 170, 318, 37, 10}, st.Performed)
		assert.Equal(t, uint64(0x76954185ff8c74e0), st.Checksum)
	}
}
