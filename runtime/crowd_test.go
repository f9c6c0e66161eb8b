package runtime_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
	"github.com/rolegen/rolegen/runtime/internal/scout"
)

// mix hashes three words into one (splitmix64's finalizer): the test
// world's only randomness.
func mix(a, b, c uint64) uint64 {
	x := a*0x9e3779b97f4a7c15 ^ (b+0x632be59bd9b4e019)*0xbf58476d1ce4e5b9 ^ (c+0x1b873593)*0x94d049bb133111eb
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// world is a crowd of scouts and what happens to them between ticks.
type world struct {
	scouts []scout.Scout
	crowd  *runtime.Crowd[scout.ScoutState]
	seed   uint64
	tick   uint64
	// calls counts the planner calls of the current tick, over workers.
	calls atomic.Int64
}

// callCounter counts a worker planner's calls into the world.
type callCounter struct {
	runtime.GoalPlanner[scout.ScoutState]
	w *world
}

func (c callCounter) PlanGoalInto(ctx context.Context, s scout.ScoutState, g runtime.GoalID, p *runtime.Plan) error {
	c.w.calls.Add(1)
	return c.GoalPlanner.PlanGoalInto(ctx, s, g, p)
}

func newWorld(n int, seed uint64, opts ...runtime.CrowdOption) *world {
	w := &world{scouts: make([]scout.Scout, n), seed: seed}
	w.crowd = runtime.NewCrowd(scout.ScoutDomain, func() runtime.GoalPlanner[scout.ScoutState] {
		return callCounter{GoalPlanner: runtime.NewBackwardChainer(scout.ScoutDomain), w: w}
	}, opts...)
	for i := range w.scouts {
		r := mix(seed, uint64(i), 0)
		w.scouts[i] = scout.Scout{
			Pos: int(r % 20), Food: int(r >> 8 % 3), Hunger: int(r >> 16 % 90),
			Ammo: int(r >> 24 % 3), Market: r>>32%4 == 0, EatTicks: 2 + int(r>>40%3),
		}
		w.crowd.Add(&w.scouts[i])
	}
	return w
}

// step changes the world, then ticks the crowd.
func (w *world) step(ctx context.Context) int64 {
	w.tick++
	for i := range w.scouts {
		s := &w.scouts[i]
		r := mix(w.seed, uint64(i), w.tick)
		if r%4 == 0 {
			s.Hunger++
		}
		switch {
		case s.Threat == 0 && r>>8%64 == 0:
			s.Threat = 1 + int(r>>16%3)
		case s.Threat > 0 && r>>24%16 == 0:
			s.Threat = 0
		}
		if r>>32%128 == 0 {
			s.Ammo++
		}
		if r>>40%512 == 0 {
			s.Market = !s.Market
		}
		s.Log = s.Log[:0]
	}
	w.calls.Store(0)
	w.crowd.Tick(ctx)
	return w.calls.Load()
}

// checksum hashes every scout's state, in order.
func (w *world) checksum() uint64 {
	var h uint64
	for i := range w.scouts {
		s := w.scouts[i].PlanState()
		m := uint64(0)
		if s.Market {
			m = 1
		}
		h = mix(h, uint64(i), mix(uint64(s.Pos)<<32|uint64(s.Food), uint64(s.Hunger)<<32|uint64(s.Threat), uint64(s.Ammo)<<32|uint64(s.Gold)<<1|m))
	}
	return h
}

// The crowd never makes more planner calls in a tick than its budget, and
// still serves everyone over the ticks.
func TestCrowdBudgetIsNeverExceeded(t *testing.T) {
	ctx := t.Context()
	const budget = 3
	var served [400]atomic.Int32
	w := newWorld(400, 3, runtime.WithPlanBudget(budget), runtime.WithWorkers(2),
		runtime.WithAgentObserver(func(v runtime.AgentView) {
			if v.Event == runtime.EventPlanned || v.Event == runtime.EventPlanFailed {
				served[v.ID].Add(1)
			}
		}))
	defer w.crowd.Close()
	full := 0
	for range 300 {
		calls := w.step(ctx)
		require.LessOrEqual(t, calls, int64(budget), "tick %d", w.tick)
		if calls == budget {
			full++
		}
	}
	assert.Greater(t, full, 10, "the budget was the limit in many ticks")
	c := w.crowd.Counts()
	assert.Equal(t, c.PlannerCalls, c.PlansMade()+c.PlanFailures)
	assert.Equal(t, c.Ticks, c.Acting+c.Waiting+c.Idle)
	assert.Equal(t, c.Ticks, int64(400*300))
	for i := range served {
		assert.Positive(t, served[i].Load(), "agent %d was served: the oldest requests go first", i)
	}
}

// The same seed gives the same world with 1, 2 and 8 workers, with or
// without a budget: the checksum of every state and every count.
func TestCrowdIsDeterministicAcrossWorkers(t *testing.T) {
	ctx := t.Context()
	for _, budget := range []int{0, 20} {
		var sums []uint64
		var counts []runtime.AgentCounts
		for _, workers := range []int{1, 2, 8} {
			w := newWorld(1000, 11, runtime.WithWorkers(workers), runtime.WithPlanBudget(budget))
			for range 200 {
				w.step(ctx)
			}
			w.crowd.Close()
			sums = append(sums, w.checksum())
			counts = append(counts, w.crowd.Counts())
		}
		assert.Equal(t, sums[0], sums[1], "budget %d: 1 and 2 workers", budget)
		assert.Equal(t, sums[0], sums[2], "budget %d: 1 and 8 workers", budget)
		assert.Equal(t, counts[0], counts[1])
		assert.Equal(t, counts[0], counts[2])
		other := newWorld(1000, 12, runtime.WithPlanBudget(budget))
		for range 200 {
			other.step(ctx)
		}
		assert.NotEqual(t, sums[0], other.checksum(), "another seed, another world")
	}
}

// Once warm, a crowd's ticks allocate nothing, with one worker or more.
func TestCrowdTicksDoNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	ctx := context.Background()
	for _, workers := range []int{1, 2} {
		w := newWorld(500, 5, runtime.WithWorkers(workers), runtime.WithPlanBudget(50))
		for range 300 {
			w.step(ctx)
		}
		allocs := testing.AllocsPerRun(100, func() { w.step(ctx) })
		w.crowd.Close()
		assert.Zero(t, allocs, "%d workers", workers)
	}
}

// Many workers tick a crowd whose observer and stats are shared (go test
// -race checks that they may be).
func TestCrowdRace(t *testing.T) {
	ctx := t.Context()
	stats := runtime.NewStats(scout.ScoutDomain)
	var events atomic.Int64
	w := newWorld(300, 7, runtime.WithWorkers(4), runtime.WithPlanBudget(30),
		runtime.WithAgentStats(stats),
		runtime.WithAgentObserver(func(runtime.AgentView) { events.Add(1) }))
	defer w.crowd.Close()
	for range 100 {
		w.step(ctx)
	}
	c := stats.Agents()
	assert.Equal(t, w.crowd.Counts(), c)
	assert.Positive(t, events.Load())
	assert.Equal(t, int64(300*100), c.Ticks)
}

// Two scouts walk to the forest when hunger makes both their plans fall
// short, in a crowd of one planner call a tick. The first replans at
// once; the second goes on walking on the plan it has until the next
// tick's call replaces it. Neither walk is interrupted or begun again.
func TestCrowdBrokenPlanWaitsForItsCall(t *testing.T) {
	ctx := t.Context()
	scouts := []scout.Scout{{Hunger: 60}, {Hunger: 60}}
	var planned [2][]runtime.Replan
	var interrupted int
	c := runtime.NewCrowd(scout.ScoutDomain, func() runtime.GoalPlanner[scout.ScoutState] {
		return runtime.NewBackwardChainer(scout.ScoutDomain)
	}, runtime.WithPlanBudget(1), runtime.WithAgentObserver(func(v runtime.AgentView) {
		switch v.Event {
		case runtime.EventPlanned:
			planned[v.ID] = append(planned[v.ID], v.Reason)
		case runtime.EventInterrupted, runtime.EventDropped:
			interrupted++
		}
	}))
	defer c.Close()
	for i := range scouts {
		c.Add(&scouts[i])
	}
	for range 3 {
		c.Tick(ctx)
	}
	require.Equal(t, []runtime.Replan{runtime.ReplanNoPlan}, planned[0])
	require.Equal(t, []runtime.Replan{runtime.ReplanNoPlan}, planned[1])
	at := [2]int{scouts[0].Pos, scouts[1].Pos}

	scouts[0].Hunger, scouts[1].Hunger = 120, 120
	c.Tick(ctx)
	assert.Equal(t, []runtime.Replan{runtime.ReplanNoPlan, runtime.ReplanBroken}, planned[0])
	assert.Equal(t, []runtime.Replan{runtime.ReplanNoPlan}, planned[1], "one call a tick")
	assert.Equal(t, at[0]+1, scouts[0].Pos)
	assert.Equal(t, at[1]+1, scouts[1].Pos, "the second walks on while it waits")

	c.Tick(ctx)
	assert.Equal(t, []runtime.Replan{runtime.ReplanNoPlan, runtime.ReplanBroken}, planned[1])
	assert.Equal(t, at[1]+2, scouts[1].Pos)
	assert.Zero(t, interrupted)
	for i, a := range c.Agents() {
		v := a.View()
		assert.Equal(t, scout.ScoutWalk, v.Action, "scout %d", i)
		assert.Equal(t, scouts[i].Pos, v.Ticks, "scout %d: one walk from 0, a step a tick", i)
	}
}
