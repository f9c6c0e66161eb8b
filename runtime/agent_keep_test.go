package runtime_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
	"github.com/rolegen/rolegen/runtime/internal/courier"
	"github.com/rolegen/rolegen/runtime/internal/van"
)

// vanPlanner hides what a planner is beyond a GoalPlanner.
type vanPlanner struct {
	runtime.GoalPlanner[van.VanState]
}

// A plan that would undo a goal of higher priority on its way is refused,
// but a planner that can keep that goal holding is asked for one that
// does: the van at the client with 10 fuel drives to the depot on the
// cheapest plan for its deliveries and falls below Fueled's 8; the plan
// that fills the tank first keeps it, and is what the agent runs. A
// planner that cannot keep goals leaves the goal refused, as before.
func TestAgentPlansKeepingAGoalOfHigherPriority(t *testing.T) {
	for name, newPlanner := range map[string]func() runtime.GoalPlanner[van.VanState]{
		"backward": func() runtime.GoalPlanner[van.VanState] { return runtime.NewBackwardChainer(van.VanDomain) },
		"astar":    func() runtime.GoalPlanner[van.VanState] { return runtime.NewAStar(van.VanDomain) },
	} {
		t.Run(name, func(t *testing.T) {
			ctx := t.Context()
			v := &van.Van{At: van.Client, Fuel: 10}
			rec := &recorder{}
			agent := runtime.NewAgent(newPlanner(), v, runtime.WithAgentObserver(rec.observe))
			for range 40 {
				agent.Tick(ctx)
				require.GreaterOrEqual(t, v.Fuel, 8, "Fueled stops holding: %v", v.Log)
			}
			assert.Equal(t, 3, v.Delivered, "steps: %v", v.Log)
			assert.Equal(t, []string{"to station", "refuel", "to depot", "load", "to client", "hand", "hand", "hand"}, v.Log)
			assert.Empty(t, rec.events(runtime.EventPlanFailed))

			// The same planner, hidden behind GoalPlanner alone: refused.
			v = &van.Van{At: van.Client, Fuel: 10}
			rec = &recorder{}
			agent = runtime.NewAgent(vanPlanner{newPlanner()}, v, runtime.WithAgentObserver(rec.observe))
			for range 40 {
				agent.Tick(ctx)
			}
			assert.Zero(t, v.Delivered)
			failed := rec.events(runtime.EventPlanFailed)
			require.NotEmpty(t, failed)
			var perr *runtime.PlanningError
			require.ErrorAs(t, failed[0].Err, &perr)
			assert.Equal(t, "Fueled", perr.Undoes)
			assert.Equal(t, "DriveDepot", perr.ActionName)
		})
	}
}

// A* plans keeping goals alike with and without the generated search
// loop (which prunes in Search.Add, where the loop action by action
// prunes in its own successor step).
func TestAStarKeepsGoalsWithTheGeneratedSearch(t *testing.T) {
	plain := *van.VanDomain
	plain.Search = nil
	with, without := runtime.NewAStar(van.VanDomain), runtime.NewAStar(&plain)
	keep := []runtime.GoalID{van.VanGoalFueled}
	var p, q runtime.Plan
	for at := range 3 {
		for fuel := 0; fuel <= 40; fuel += 2 {
			for parcels := range 4 {
				s := van.VanState{At: van.Place(at), Fuel: fuel, Parcels: parcels}
				err := with.PlanGoalKeepingInto(t.Context(), s, van.VanGoalBusy, keep, &p)
				errq := without.PlanGoalKeepingInto(t.Context(), s, van.VanGoalBusy, keep, &q)
				require.Equal(t, errq == nil, err == nil, "%+v", s)
				require.Equal(t, q.Steps, p.Steps, "%+v", s)
				require.Equal(t, q.Expansions, p.Expansions, "%+v", s)
				if err == nil && fuel >= 8 {
					at := s
					for _, a := range p.Steps {
						at = van.VanDomain.Apply(a, at)
						require.GreaterOrEqual(t, at.Fuel, 8, "%+v: %v", s, p.Steps)
					}
				}
			}
		}
	}
}

// Asking for a plan that keeps a goal allocates nothing once warm: the
// van replans every tick (an interval of one), and each time the
// cheapest plan is refused and the one that fills the tank first is
// made.
func TestAgentKeepingDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	for name, p := range map[string]runtime.GoalPlanner[van.VanState]{
		"backward": runtime.NewBackwardChainer(van.VanDomain),
		"astar":    runtime.NewAStar(van.VanDomain),
	} {
		t.Run(name, func(t *testing.T) {
			ctx := t.Context()
			v := &van.Van{At: van.Client, Fuel: 10}
			stats := runtime.NewStats(van.VanDomain)
			agent := runtime.NewAgent(p, v, runtime.WithReplanInterval(1), runtime.WithAgentStats(stats))
			tick := func() {
				v.At, v.Fuel, v.Log = van.Client, 10, v.Log[:0] // never gets anywhere
				agent.Tick(ctx)
			}
			for range 10 {
				tick()
			}
			calls := stats.Agents().PlannerCalls
			allocs := testing.AllocsPerRun(100, tick)
			require.Greater(t, stats.Agents().PlannerCalls-calls, int64(150), "two calls a tick")
			assert.Equal(t, []runtime.ActionID{van.VanDriveStation, van.VanRefuel}, agent.View().Plan[:2])
			assert.Zero(t, allocs)
		})
	}
}

// The three planners are KeepingPlanners.
var (
	_ runtime.KeepingPlanner[van.VanState] = (*runtime.BackwardChainer[van.VanState])(nil)
	_ runtime.KeepingPlanner[van.VanState] = (*runtime.AStar[van.VanState])(nil)
	_ runtime.KeepingPlanner[van.VanState] = (*runtime.UtilityPlanner[van.VanState])(nil)
)

// The utility planner keeps goals one step at a time: of the steps for
// the goal, the best after which the kept goals still hold.
func TestUtilityPlannerKeepsGoals(t *testing.T) {
	u := runtime.NewUtilityPlanner(runtime.NewUtility(van.VanDomain))
	keep := []runtime.GoalID{van.VanGoalFueled}
	var p runtime.Plan
	s := van.VanState{At: van.Client, Fuel: 12}
	require.NoError(t, u.PlanGoalKeepingInto(t.Context(), s, van.VanGoalBusy, keep, &p))
	assert.Equal(t, []runtime.ActionID{van.VanDriveDepot}, p.Steps, "12 - 4 keeps Fueled")
	s.Fuel = 10
	require.NoError(t, u.PlanGoalInto(t.Context(), s, van.VanGoalBusy, &p))
	assert.Equal(t, []runtime.ActionID{van.VanDriveDepot}, p.Steps)
	assert.ErrorIs(t, u.PlanGoalKeepingInto(t.Context(), s, van.VanGoalBusy, keep, &p), runtime.ErrUnreachable, "10 - 4 does not")
}

// Where no plan keeps the goal above, the refused plan is taken when the
// interruption it leads to gets somewhere: the van at the client with
// exactly 8 fuel falls below Fueled whichever way it drives; it drives to
// the depot, is interrupted, fills up at the station and delivers from
// there. The courier in the storm is sent back to the depot by the same
// interruption, where no plan for its deliveries keeps it sheltered: it
// stays, planning about log2(ticks) times.
func TestAgentTakesAPlanWhoseInterruptionGetsSomewhere(t *testing.T) {
	for name, newPlanner := range map[string]func() runtime.GoalPlanner[van.VanState]{
		"backward": func() runtime.GoalPlanner[van.VanState] { return runtime.NewBackwardChainer(van.VanDomain) },
		"astar":    func() runtime.GoalPlanner[van.VanState] { return runtime.NewAStar(van.VanDomain) },
	} {
		t.Run(name, func(t *testing.T) {
			v := &van.Van{At: van.Client, Fuel: 8}
			rec := &recorder{}
			agent := runtime.NewAgent(newPlanner(), v, runtime.WithAgentObserver(rec.observe))
			for range 60 {
				agent.Tick(t.Context())
			}
			assert.Equal(t, 3, v.Delivered, "steps: %v", v.Log)
			assert.Equal(t, []string{"to depot", "to station", "refuel"}, v.Log[:3])
			assert.Empty(t, rec.events(runtime.EventPlanFailed))
			planned := rec.events(runtime.EventPlanned)
			require.Greater(t, len(planned), 2)
			assert.Equal(t, van.VanGoalBusy, planned[0].Goal)
			assert.Equal(t, van.VanGoalFueled, planned[1].Goal, "Fueled takes over")
			assert.Equal(t, runtime.ReplanInterrupted, planned[1].Reason)
		})
	}
	for name, newPlanner := range map[string]func() runtime.GoalPlanner[courier.CourierState]{
		"backward": func() runtime.GoalPlanner[courier.CourierState] {
			return runtime.NewBackwardChainer(courier.CourierDomain)
		},
		"astar": func() runtime.GoalPlanner[courier.CourierState] { return runtime.NewAStar(courier.CourierDomain) },
	} {
		t.Run("storm/"+name, func(t *testing.T) {
			c := &courier.Courier{Drive: 3, Storm: true}
			stats := runtime.NewStats(courier.CourierDomain)
			agent := runtime.NewAgent(newPlanner(), c, runtime.WithAgentStats(stats))
			for range 1000 {
				agent.Tick(t.Context())
			}
			assert.Empty(t, c.Log, "the courier stays at the depot in the storm")
			assert.LessOrEqual(t, stats.Agents().PlannerCalls, int64(4*12), "four calls a try, about log2(1000) tries")
		})
	}
}

// countingKeeper counts a keeping planner's calls, all of them.
type countingKeeper struct {
	runtime.KeepingPlanner[van.VanState]
	calls *int
}

func (c countingKeeper) PlanGoalInto(ctx context.Context, s van.VanState, g runtime.GoalID, p *runtime.Plan) error {
	*c.calls++
	return c.KeepingPlanner.PlanGoalInto(ctx, s, g, p)
}

func (c countingKeeper) PlanGoalKeepingInto(ctx context.Context, s van.VanState, g runtime.GoalID, keep []runtime.GoalID, p *runtime.Plan) error {
	*c.calls++
	return c.KeepingPlanner.PlanGoalKeepingInto(ctx, s, g, keep, p)
}

// vansAtTheClient is a crowd of n vans at the client with 8 fuel,
// budget planner calls a tick, each agent's planner A*, and the count of
// their calls.
func vansAtTheClient(t *testing.T, n, budget int) (*runtime.Crowd[van.VanState], []*van.Van, *int) {
	calls := new(int)
	crowd := runtime.NewCrowd(van.VanDomain, func() runtime.GoalPlanner[van.VanState] {
		return countingKeeper{runtime.NewAStar(van.VanDomain), calls}
	}, runtime.WithWorkers(1), runtime.WithPlanBudget(budget))
	t.Cleanup(crowd.Close)
	vans := make([]*van.Van, n)
	for i := range vans {
		vans[i] = &van.Van{At: van.Client, Fuel: 8}
		crowd.Add(vans[i])
	}
	return crowd, vans, calls
}

// In a crowd whose budget gives each agent one call a tick, an agent that
// needs more to look around a refused plan waits a tick for them instead
// of backing off, and the crowd grants them within its budget: twenty
// vans at the client with 8 fuel, five calls a tick, all deliver.
func TestCrowdGrantsTheCallsOfALookAround(t *testing.T) {
	crowd, vans, calls := vansAtTheClient(t, 20, 5)
	for tick := range 60 {
		before := *calls
		crowd.Tick(t.Context())
		require.LessOrEqual(t, *calls-before, 5, "tick %d", tick)
	}
	for i, v := range vans {
		assert.Equal(t, 3, v.Delivered, "van %d: %v", i, v.Log)
	}
}

// An agent whose look around was cut short asks its crowd for the calls
// that takes on the next tick only: once it has planned some other way
// (the world filled the tank), it asks for one call again.
func TestALookAroundAsksForItsCallsForOneTick(t *testing.T) {
	crowd := runtime.NewCrowd(van.VanDomain, func() runtime.GoalPlanner[van.VanState] {
		return runtime.NewAStar(van.VanDomain)
	}, runtime.WithWorkers(1), runtime.WithPlanBudget(1))
	defer crowd.Close()
	v := &van.Van{At: van.Client, Fuel: 8}
	ag := crowd.Add(v)
	crowd.Tick(t.Context())
	require.Equal(t, 4, runtime.Wants(ag), "a look around cut short by the budget asks for its calls")
	require.Equal(t, runtime.NoGoal, ag.View().Goal)
	v.Fuel = 40
	crowd.Tick(t.Context())
	require.NotEqual(t, runtime.NoGoal, ag.View().Goal, "with a full tank the van plans its round")
	assert.Equal(t, 1, runtime.Wants(ag), "planned some other way, it asks for one call")
	for range 5 {
		crowd.Tick(t.Context())
		assert.Equal(t, 1, runtime.Wants(ag))
	}
}

// A crowd whose budget is smaller than the calls of a look around (one
// a tick, where a look around takes four) lets the first agent it serves
// in a tick make them, as WithPlanTimeBudget lets the first plan however
// late: the vans deliver, one look around at a time.
func TestABudgetBelowALookAroundStillLooksAround(t *testing.T) {
	crowd, vans, calls := vansAtTheClient(t, 3, 1)
	most := 0
	for range 200 {
		before := *calls
		crowd.Tick(t.Context())
		most = max(most, *calls-before)
	}
	assert.Equal(t, 4, most, "the calls of one look around, at most, in a tick")
	for i, v := range vans {
		assert.Equal(t, 3, v.Delivered, "van %d: %v", i, v.Log)
	}
}
