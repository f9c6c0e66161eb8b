// Package replanarena is examples/arena as it was before agents kept
// their plans across ticks (issue 20): every agent replans every tick
// with the backward chainer, across workers each reusing one planner and
// one plan, and performs the first step of its plan at once. It is the
// baseline BenchmarkArena measures the arena on runtime.Crowd against, in
// the same run.
package replanarena

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/rolegen/rolegen/runtime"
)

// chunk is how many agents a worker claims at a time.
const chunk = 64

// Stats sums what the agents did. Every field is a sum over agents, so the
// totals do not depend on how the agents were split among workers.
type Stats struct {
	Plans  int64 // planner calls
	Steps  int64 // steps in the plans made
	Idle   int64 // plans with no step: every goal held
	Failed int64 // plans that left some goal unplanned
	// Performed counts the first steps performed, by action.
	Performed []int64
	// Checksum sums, over agents and ticks, a hash of the agent, the tick,
	// the plan's length and its steps.
	Checksum uint64
}

func (s *Stats) add(o *Stats) {
	s.Plans += o.Plans
	s.Steps += o.Steps
	s.Idle += o.Idle
	s.Failed += o.Failed
	s.Checksum += o.Checksum
	if s.Performed == nil {
		s.Performed = make([]int64, len(o.Performed))
	}
	for i, n := range o.Performed {
		s.Performed[i] += n
	}
}

// Sim is the arena: agents and the workers that replan them every tick.
// Each worker owns a planner and a plan that it reuses for every agent it
// handles, so the loop allocates nothing of its own once the plans have
// grown (the chainer still allocates an error value for each branch of
// its search that it rejects).
type Sim struct {
	Agents []Agent

	seed    uint64
	tick    uint64
	next    atomic.Int64 // next agent to claim in the current tick
	workers []*worker
	start   []chan uint64
	done    sync.WaitGroup
}

type worker struct {
	sim     *Sim
	planner *runtime.BackwardChainer[AgentState]
	plan    runtime.Plan
	stats   Stats
	_       [64]byte // keep workers' counters off each other's cache lines
}

// NewSim returns an arena of n agents, their starting state drawn from
// seed, replanned by the given number of workers (at least 1). Close it
// when done.
func NewSim(n int, seed uint64, workers int) *Sim {
	s := &Sim{Agents: make([]Agent, n), seed: seed}
	for i := range s.Agents {
		r := mix(seed, uint64(i), 0)
		s.Agents[i] = Agent{
			Hunger: int(r % 80),
			Food:   int(r >> 8 % 4),
			Energy: int(r >> 16 % 100),
			Ammo:   int(r >> 24 % 12),
			Threat: int(r >> 32 % 3),
		}
	}
	workers = max(workers, 1)
	s.start = make([]chan uint64, workers)
	for w := range workers {
		wk := &worker{
			sim:     s,
			planner: runtime.NewBackwardChainer(AgentDomain),
			stats:   Stats{Performed: make([]int64, len(AgentDomain.Actions))},
		}
		s.workers = append(s.workers, wk)
		s.start[w] = make(chan uint64)
		go wk.run(s.start[w])
	}
	return s
}

// Tick advances the world one tick: every agent's needs and threats
// change, then every agent replans and performs its plan's first step.
func (s *Sim) Tick() {
	s.tick++
	s.next.Store(0)
	s.done.Add(len(s.workers))
	for _, c := range s.start {
		c <- s.tick
	}
	s.done.Wait()
}

// Stats returns the totals over all workers so far.
func (s *Sim) Stats() Stats {
	var t Stats
	for _, w := range s.workers {
		t.add(&w.stats)
	}
	return t
}

// Close stops the workers.
func (s *Sim) Close() {
	for _, c := range s.start {
		close(c)
	}
}

func (w *worker) run(start <-chan uint64) {
	ctx := context.Background()
	agents := w.sim.Agents
	for tick := range start {
		for {
			lo := int(w.sim.next.Add(chunk)) - chunk
			if lo >= len(agents) {
				break
			}
			for i := lo; i < min(lo+chunk, len(agents)); i++ {
				w.step(ctx, i, tick)
			}
		}
		w.sim.done.Done()
	}
}

// step runs one agent for one tick. Everything it draws comes from the
// seed, the agent's index and the tick, so the outcome does not depend on
// which worker runs it.
func (w *worker) step(ctx context.Context, i int, tick uint64) {
	a := &w.sim.Agents[i]
	a.live(mix(w.sim.seed, uint64(i), tick))

	err := w.planner.PlanInto(ctx, a.PlanState(), &w.plan)
	st := &w.stats
	st.Plans++
	st.Steps += int64(len(w.plan.Steps))
	h := mix(uint64(i), tick, uint64(len(w.plan.Steps)))
	for _, s := range w.plan.Steps {
		h = mix(h, uint64(s), 0)
	}
	st.Checksum += h
	if err != nil {
		st.Failed++
	}
	if len(w.plan.Steps) == 0 {
		if err == nil {
			st.Idle++
		}
		return
	}
	first := w.plan.Steps[0]
	if a.Perform(ctx, first) == nil {
		st.Performed[first]++
	}
}

// live is the world acting on the agent for one tick: hunger grows,
// energy drains, threats come and go. r is the tick's random draw.
func (a *Agent) live(r uint64) {
	a.Hunger += 1 + int(r%3)
	a.Energy = max(a.Energy-1, 0)
	switch {
	case a.Threat == 0 && r>>8%16 == 0:
		a.Threat = 1 + int(r>>16%5)
	case a.Threat > 0 && r>>24%8 == 0:
		a.Threat = 0
	}
}

// mix hashes three words into one (splitmix64 finalizer over a
// combination), the arena's only source of randomness.
func mix(a, b, c uint64) uint64 {
	x := a*0x9e3779b97f4a7c15 ^ (b+0x632be59bd9b4e019)*0xbf58476d1ce4e5b9 ^ (c+0x1b873593)*0x94d049bb133111eb
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// StateChecksum hashes the agents' current states, in agent order.
func (s *Sim) StateChecksum() uint64 {
	var h uint64
	for i := range s.Agents {
		st := s.Agents[i].PlanState()
		cover := uint64(0)
		if st.Cover {
			cover = 1
		}
		h = mix(h, uint64(i), mix(uint64(st.Hunger), uint64(st.Food)<<32|uint64(st.Energy), uint64(st.Ammo)<<32|uint64(st.Threat)<<1|cover))
	}
	return h
}
