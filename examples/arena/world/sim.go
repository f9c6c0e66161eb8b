// Package world is the arena's role and its world: agents that keep
// their plans across ticks on a runtime.Crowd, while the world raises
// their hunger, drains their energy and sends threats. examples/arena
// runs it; the benchmarks measure it.
package world

import (
	"context"

	"github.com/rolegen/rolegen/runtime"
)

// Sim is the arena: its agents, the crowd that runs them and the world's
// seed.
type Sim struct {
	Agents []Agent
	crowd  *runtime.Crowd[AgentState]
	tick   uint64
	seed   uint64
}

// Planners are the planners the arena can run its agents with, by name.
var Planners = map[string]func() runtime.GoalPlanner[AgentState]{
	"backward": func() runtime.GoalPlanner[AgentState] { return runtime.NewBackwardChainer(AgentDomain) },
	"astar":    func() runtime.GoalPlanner[AgentState] { return runtime.NewAStar(AgentDomain) },
	"utility": func() runtime.GoalPlanner[AgentState] {
		return runtime.NewUtilityPlanner(runtime.NewUtility(AgentDomain))
	},
}

// NewSim returns an arena of n agents, their starting state drawn from
// seed, run by a crowd whose workers plan with what newPlanner returns
// (Planners["backward"] when nil) and with opts (WithWorkers,
// WithPlanBudget, …). Close it when done.
func NewSim(n int, seed uint64, newPlanner func() runtime.GoalPlanner[AgentState], opts ...runtime.CrowdOption) *Sim {
	if newPlanner == nil {
		newPlanner = Planners["backward"]
	}
	s := &Sim{Agents: make([]Agent, n), seed: seed}
	// The world acts on each agent on the worker that ticks it.
	// (Live's body, not a call of it: too large to inline, Live would be
	// one more call an agent-tick.)
	live := runtime.WithBeforeTick(func(i int, tick uint64) { s.Agents[i].live(mix(seed, uint64(i), tick)) })
	s.crowd = runtime.NewCrowd(AgentDomain, newPlanner, append(opts, live)...)
	for i := range s.Agents {
		r := mix(seed, uint64(i), 0)
		s.Agents[i] = Agent{
			At:     Place(r % 3),
			Hunger: int(r >> 8 % 80),
			Food:   int(r >> 16 % 3),
			Energy: 20 + int(r>>24%80),
			Ammo:   int(r >> 32 % 12),
			Looted: r>>48%4 == 0,
			Walk:   3 + int(r>>40%8),
		}
		s.crowd.Add(&s.Agents[i])
	}
	return s
}

// Tick advances the world one tick: the crowd runs every agent for a
// tick, the world changing each agent's needs and threats just before
// (runtime.WithBeforeTick).
func (s *Sim) Tick(ctx context.Context) {
	s.tick++
	s.crowd.Tick(ctx)
}

// Counts returns what the agents did so far.
func (s *Sim) Counts() runtime.AgentCounts { return s.crowd.Counts() }

// Crowd returns the crowd that runs the agents.
func (s *Sim) Crowd() *runtime.Crowd[AgentState] { return s.crowd }

// Finished returns the steps the agents finished, by action (indexed by
// ActionID).
func (s *Sim) Finished() []int64 {
	out := make([]int64, len(AgentDomain.Actions))
	for i := range s.Agents {
		for a := range out {
			out[a] += int64(s.Agents[i].Done[a])
		}
	}
	return out
}

// Live is the world acting on agent i at tick: what the crowd's workers
// run for it just before its tick (runtime.WithBeforeTick). A loop that
// runs the world without the crowd calls it itself, as the benchmarks'
// floor does.
func (s *Sim) Live(i int, tick uint64) { s.Agents[i].live(mix(s.seed, uint64(i), tick)) }

// Close stops the crowd's workers.
func (s *Sim) Close() { s.crowd.Close() }

// live is the world acting on the agent for one tick: hunger grows,
// energy drains, threats come and go. r is the tick's random draw.
func (a *Agent) live(r uint64) {
	if r%2 == 0 {
		a.Hunger++
	}
	if r>>4%4 == 0 {
		a.Energy = max(a.Energy-1, 0)
	}
	switch {
	case a.Threat == 0 && r>>8%128 == 0:
		a.Threat = 1 + int(r>>16%5)
	case a.Threat > 0 && r>>24%32 == 0:
		a.Threat = 0
	}
	if r>>40%1024 == 0 {
		a.Looted = !a.Looted
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
		if st.Looted {
			cover |= 2
		}
		h = mix(h, uint64(i), mix(uint64(st.Hunger)<<8|uint64(st.At), uint64(st.Food)<<32|uint64(st.Energy), uint64(st.Ammo)<<32|uint64(st.Threat)<<2|cover))
	}
	return h
}
