package bench

import (
	"context"
	"runtime"
	"testing"

	"github.com/rolegen/rolegen/bench/internal/armorer"
	"github.com/rolegen/rolegen/examples/arena/world"
	rt "github.com/rolegen/rolegen/runtime"
)

// BenchmarkPlannerRetains reports the memory a planner keeps between
// calls (its scratch, which is what lets it allocate nothing): for
// each case, 200 planners make one call each and stay alive, and the
// live heap's growth is divided among them. A crowd has one planner a
// worker; an agent made with runtime.NewAgent has one of its own.
//
//	cd bench && go test -run '^$' -bench BenchmarkPlannerRetains -benchtime 1x .
func BenchmarkPlannerRetains(b *testing.B) {
	ws := world.AgentState{At: world.Camp, Hunger: 70, Energy: 10}
	as := armorer.ArmorerState{At: armorer.Market, Energy: 8, Ore: 2, Coal: 2, Iron: 1, Coins: 6}
	b.Run("arena/chainer/made", retains(ws, world.AgentGoalFed, false, func() rt.GoalPlanner[world.AgentState] { return rt.NewBackwardChainer(world.AgentDomain) }))
	b.Run("arena/chainer", retains(ws, world.AgentGoalFed, true, func() rt.GoalPlanner[world.AgentState] { return rt.NewBackwardChainer(world.AgentDomain) }))
	b.Run("arena/astar", retains(ws, world.AgentGoalFed, true, func() rt.GoalPlanner[world.AgentState] { return rt.NewAStar(world.AgentDomain) }))
	// The armorer's rich goal from the market is a forward search for
	// the chainer and 10,000 states for A*.
	b.Run("armorer/chainer", retains(as, armorer.ArmorerGoalRich, true, func() rt.GoalPlanner[armorer.ArmorerState] { return rt.NewBackwardChainer(armorer.ArmorerDomain) }))
	b.Run("armorer/astar", retains(as, armorer.ArmorerGoalRich, true, func() rt.GoalPlanner[armorer.ArmorerState] { return rt.NewAStar(armorer.ArmorerDomain) }))
}

func retains[S comparable](s S, g rt.GoalID, call bool, newPlanner func() rt.GoalPlanner[S]) func(*testing.B) {
	return func(b *testing.B) {
		const n = 200
		var per float64
		for range b.N {
			planners := make([]rt.GoalPlanner[S], 0, n)
			before := liveHeap()
			for range n {
				p := newPlanner()
				if call {
					var plan rt.Plan
					_ = p.PlanGoalInto(context.Background(), s, g, &plan)
				}
				planners = append(planners, p)
			}
			per = float64(int64(liveHeap()-before)) / n
			runtime.KeepAlive(planners)
		}
		b.ReportMetric(per, "retained-B/planner")
	}
}

// liveHeap is the bytes of the heap's live objects, after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
