package bench

import (
	"context"
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/bench/internal/replanarena"
	world "github.com/rolegen/rolegen/examples/arena/world"
	"github.com/rolegen/rolegen/runtime"
)

// arenaAgents and arenaTicks are the size of BenchmarkArena's runs.
const (
	arenaAgents = 10_000
	arenaTicks  = 1_000
	// arenaWarmup ticks are left out of the allocation count: the agents'
	// plans and the planners' scratch grow to their size first.
	arenaWarmup = 100
	// arenaBlock is how many ticks each arena runs before the next takes
	// its turn: enough for its memory to be in the caches as in a game,
	// where it runs alone; few enough that the load of a shared machine
	// falls on all alike.
	arenaBlock = 20
)

// BenchmarkArena runs, in one op, examples/arena's world with its
// multi-tick actions for arenaTicks ticks of arenaAgents agents on a
// runtime.Crowd (the backward chainer, GOMAXPROCS workers), beside two
// baselines: the same world on a crowd that replans every agent every
// tick (WithReplanInterval(1)), and the arena as it was before
// (bench/internal/replanarena: every agent replans every tick and
// performs its plan's first step at once, across as many workers). The
// three advance in turn, arenaBlock ticks at a time, each block timed, so
// that the load of a shared machine falls on all three alike; and beside
// them the floor under any agent runtime on this world (worldOnly: the
// world's changes and a read of each agent's live state, nothing else).
// It reports:
//
//	calls/agent-tick      planner calls per agent-tick on the crowd (the old arena: 1)
//	ns/agent-tick         the crowd's wall time per agent-tick, the world's changes included
//	old-ns/agent-tick     the old arena's
//	ratio                 ns/agent-tick ÷ old-ns/agent-tick
//	every-tick-ratio      the crowd's time ÷ that of the crowd replanning every tick
//	floor-ns/agent-tick   worldOnly's wall time per agent-tick
//	floor-ratio           floor-ns/agent-tick ÷ old-ns/agent-tick: the least ratio of a runtime that reads every agent every tick
//	allocs/tick           heap allocations per tick on the crowd after arenaWarmup ticks
//
// Run it once: go test -run '^$' -bench BenchmarkArena -benchtime 1x.
func BenchmarkArena(b *testing.B) {
	ctx := context.Background()
	workers := goruntime.GOMAXPROCS(0)
	for b.Loop() {
		crowd := world.NewSim(arenaAgents, 1, nil, runtime.WithWorkers(workers))
		every := world.NewSim(arenaAgents, 1, nil, runtime.WithWorkers(workers), runtime.WithReplanInterval(1))
		old := replanarena.NewSim(arenaAgents, 1, workers)
		floor := newWorldOnly(arenaAgents, 1, workers)
		var tCrowd, tEvery, tOld, tFloor time.Duration
		var mallocs uint64
		var ms goruntime.MemStats
		for tick := 0; tick < arenaTicks; tick += arenaBlock {
			tEvery += timed(func() { ticks(arenaBlock, func() { every.Tick(ctx) }) })
			tOld += timed(func() { ticks(arenaBlock, old.Tick) })
			tFloor += timed(func() { ticks(arenaBlock, floor.Tick) })
			if tick >= arenaWarmup {
				goruntime.ReadMemStats(&ms)
				mallocs -= ms.Mallocs
			}
			tCrowd += timed(func() { ticks(arenaBlock, func() { crowd.Tick(ctx) }) })
			if tick >= arenaWarmup {
				goruntime.ReadMemStats(&ms)
				mallocs += ms.Mallocs
			}
		}
		calls := crowd.Counts().PlannerCalls
		crowd.Close()
		every.Close()
		old.Close()
		floor.Close()
		perAgentTick := float64(arenaAgents * arenaTicks)
		b.ReportMetric(float64(calls)/perAgentTick, "calls/agent-tick")
		b.ReportMetric(float64(tCrowd.Nanoseconds())/perAgentTick, "ns/agent-tick")
		b.ReportMetric(float64(tOld.Nanoseconds())/perAgentTick, "old-ns/agent-tick")
		b.ReportMetric(float64(tCrowd)/float64(tOld), "ratio")
		b.ReportMetric(float64(tCrowd)/float64(tEvery), "every-tick-ratio")
		b.ReportMetric(float64(tFloor.Nanoseconds())/perAgentTick, "floor-ns/agent-tick")
		b.ReportMetric(float64(tFloor)/float64(tOld), "floor-ratio")
		b.ReportMetric(float64(mallocs)/float64(arenaTicks-arenaWarmup), "allocs/tick")
	}
}

// worldOnly is examples/arena's world without an agent runtime: each
// tick, on as many workers as the crowd has, claiming agents in chunks of
// 64 as the crowd's workers do, the world's change to each agent
// (Sim.Live) and a read of its live state into a state of its own
// (UpdatePlanState, as an agent reads it), and nothing else. No agent
// acts, so the world drifts from the crowd's; what it measures is the
// floor under any runtime that reads its agents every tick: the world's
// own cost and the read.
type worldOnly struct {
	sim     *world.Sim
	states  []world.AgentState
	workers int
	tick    uint64
	// changed folds what each worker's reads found, 64 bytes apart, so
	// that the reads are not dead code and the workers share no line.
	changed []uint64
}

func newWorldOnly(n int, seed uint64, workers int) *worldOnly {
	return &worldOnly{sim: world.NewSim(n, seed, nil), states: make([]world.AgentState, n), workers: workers,
		changed: make([]uint64, 8*workers)}
}

// Tick runs one tick of the world and the reads.
func (w *worldOnly) Tick() {
	w.tick++
	var next atomic.Int64
	var wg sync.WaitGroup
	for k := range w.workers {
		wg.Go(func() {
			var c uint64
			for {
				lo := int(next.Add(64)) - 64
				if lo >= len(w.states) {
					break
				}
				for i := lo; i < min(lo+64, len(w.states)); i++ {
					w.sim.Live(i, w.tick)
					c |= w.sim.Agents[i].UpdatePlanState(&w.states[i])
				}
			}
			w.changed[8*k] |= c
		})
	}
	wg.Wait()
}

// Close closes the world's (unused) crowd.
func (w *worldOnly) Close() { w.sim.Close() }

// ticks calls tick n times.
func ticks(n int, tick func()) {
	for range n {
		tick()
	}
}

// timed returns how long f took.
func timed(f func()) time.Duration {
	begin := time.Now()
	f()
	return time.Since(begin)
}

// BenchmarkArenaTick runs one tick of each of BenchmarkArena's arenas per
// op, arenaAgents agents on GOMAXPROCS workers after arenaWarmup ticks:
// *crowd* (examples/arena on a runtime.Crowd), *every-tick* (the same on a
// crowd replanning every tick), *old* (bench/internal/replanarena),
// *world-only* (worldOnly: the world's changes and the reads alone).
// ns/agent is the tick's wall time over the agents. With -cpu 1 it is
// what tools/instructions.sh counts, the figure a loaded machine does not
// change:
//
//	tools/instructions.sh 'BenchmarkArenaTick/crowd$' 20
func BenchmarkArenaTick(b *testing.B) {
	ctx := context.Background()
	workers := goruntime.GOMAXPROCS(0)
	for _, c := range []struct {
		name string
		sim  func() (tick func(), done func())
	}{
		{"crowd", func() (func(), func()) {
			s := world.NewSim(arenaAgents, 1, nil, runtime.WithWorkers(workers))
			return func() { s.Tick(ctx) }, s.Close
		}},
		{"every-tick", func() (func(), func()) {
			s := world.NewSim(arenaAgents, 1, nil, runtime.WithWorkers(workers), runtime.WithReplanInterval(1))
			return func() { s.Tick(ctx) }, s.Close
		}},
		{"old", func() (func(), func()) {
			s := replanarena.NewSim(arenaAgents, 1, workers)
			return s.Tick, s.Close
		}},
		{"world-only", func() (func(), func()) {
			w := newWorldOnly(arenaAgents, 1, workers)
			return w.Tick, w.Close
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			tick, done := c.sim()
			defer done()
			ticks(arenaWarmup, tick)
			b.ReportAllocs()
			for b.Loop() {
				tick()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*arenaAgents), "ns/agent")
		})
	}
}

// The arena's agents do what the benchmark claims: they act, are
// interrupted, back off; and the counts add up.
func TestArenaBenchmarkWorld(t *testing.T) {
	sim := world.NewSim(2000, 1, nil)
	defer sim.Close()
	for range 300 {
		sim.Tick(t.Context())
	}
	c := sim.Counts()
	require.Equal(t, c.Ticks, c.Acting+c.Waiting+c.Idle)
	require.Equal(t, c.PlannerCalls, c.PlansMade()+c.PlanFailures)
	require.Positive(t, c.Interrupted)
	require.Positive(t, c.Plans[runtime.ReplanInterrupted])
	require.Positive(t, c.Unreachable+c.PlanFailures)
	require.Less(t, float64(c.PlannerCalls)/float64(c.Ticks), 0.1)
}
