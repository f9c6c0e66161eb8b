package runtime_test

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
	"github.com/rolegen/rolegen/runtime/internal/keeper"
	"github.com/rolegen/rolegen/runtime/internal/knight"
	"github.com/rolegen/rolegen/runtime/internal/scout"
)

// counting counts a planner's calls, by goal.
type counting struct {
	runtime.GoalPlanner[scout.ScoutState]
	calls   int
	byGoal  map[runtime.GoalID]int
	lastErr error
}

func (c *counting) PlanGoalInto(ctx context.Context, s scout.ScoutState, g runtime.GoalID, p *runtime.Plan) error {
	c.calls++
	if c.byGoal == nil {
		c.byGoal = map[runtime.GoalID]int{}
	}
	c.byGoal[g]++
	c.lastErr = c.GoalPlanner.PlanGoalInto(ctx, s, g, p)
	return c.lastErr
}

// recorder keeps the events an observer sees, with a copy of each plan.
type recorder struct{ views []runtime.AgentView }

func (r *recorder) observe(v runtime.AgentView) {
	v.Plan = append([]runtime.ActionID(nil), v.Plan...)
	r.views = append(r.views, v)
}

// events returns the views of event e.
func (r *recorder) events(e runtime.AgentEvent) []runtime.AgentView {
	var out []runtime.AgentView
	for _, v := range r.views {
		if v.Event == e {
			out = append(out, v)
		}
	}
	return out
}

func newScout(t *testing.T, s *scout.Scout, opts ...runtime.AgentOption) (*runtime.Agent[scout.ScoutState], *counting, *recorder) {
	t.Helper()
	p := &counting{GoalPlanner: runtime.NewBackwardChainer(scout.ScoutDomain)}
	rec := &recorder{}
	opts = append([]runtime.AgentOption{runtime.WithAgentObserver(rec.observe)}, opts...)
	return runtime.NewAgent(p, s, opts...), p, rec
}

func ticks(ctx context.Context, a *runtime.Agent[scout.ScoutState], n int) {
	for range n {
		a.Tick(ctx)
	}
}

func scoutNames(steps []runtime.ActionID) []string {
	var out []string
	for _, a := range steps {
		out = append(out, scout.ScoutDomain.ActionName(a))
	}
	return out
}

// A walk of many ticks keeps its plan: one planner call, and no check of
// the plan while nothing it reads changes (the walk's own position is
// replaced by its post in the replay).
func TestAgentKeepsItsPlanAcrossTicks(t *testing.T) {
	ctx := t.Context()
	s := &scout.Scout{Hunger: 60, Ammo: 1}
	stats := runtime.NewStats(scout.ScoutDomain)
	a, p, rec := newScout(t, s, runtime.WithAgentStats(stats))
	a.Tick(ctx)
	v := a.View()
	require.Equal(t, []string{"Walk", "Forage", "Eat"}, scoutNames(v.Plan))
	assert.Equal(t, scout.ScoutGoalFed, v.Goal)
	assert.Equal(t, runtime.ReplanNoPlan, v.Reason)
	assert.Equal(t, runtime.Running, v.Status)
	ticks(ctx, a, 8)
	assert.Equal(t, 9, s.Pos)
	assert.Equal(t, 1, p.calls, "one plan for the whole walk")
	assert.Zero(t, stats.Agents().Checks, "nothing the plan reads changed")

	ticks(ctx, a, 1+1+3) // arrive, forage, eat
	assert.Equal(t, []string{"walk", "forage", "eat", "ate"}, s.Log)
	assert.Equal(t, 20, s.Hunger)
	assert.Equal(t, 1, p.calls)
	assert.Equal(t, runtime.ReplanDone, a.View().Reason)
	assert.Equal(t, runtime.NoGoal, a.View().Goal)

	c := stats.Agents()
	assert.Equal(t, int64(14), c.Ticks)
	assert.Equal(t, c.Ticks, c.Acting+c.Waiting+c.Idle)
	assert.Equal(t, c.Acting, c.StepsRunning+c.StepsDone+c.StepsFailed)
	assert.Equal(t, c.PlannerCalls, c.PlansMade()+c.PlanFailures)
	assert.Equal(t, int64(3), c.StepsDone)
	assert.Equal(t, int64(1), c.Dropped[runtime.ReplanDone])
	assert.Len(t, rec.events(runtime.EventStepDone), 3)
	assert.Zero(t, c.PlanFailures)

	// Fed holds: Rich is next, and cannot be reached without a market.
	a.Tick(ctx)
	assert.Equal(t, int64(1), stats.Agents().Unreachable)
	assert.Equal(t, int64(1), stats.Agents().Waiting)
}

// A threat that appears while the scout walks interrupts the walk within
// the tick: the walk is told, and the fight happens in that tick.
func TestThreatInterruptsAWalkWithinOneTick(t *testing.T) {
	ctx := t.Context()
	s := &scout.Scout{Hunger: 60, Ammo: 1}
	a, _, rec := newScout(t, s)
	ticks(ctx, a, 3)
	require.Equal(t, scout.ScoutWalk, a.View().Action)
	require.Equal(t, runtime.Running, a.View().Status)

	s.Threat = 2
	a.Tick(ctx)
	assert.Zero(t, s.Threat, "the scout fought in the tick the threat came")
	assert.Equal(t, []string{"walk", "walk interrupted", "fight"}, s.Log)
	interrupted := rec.events(runtime.EventInterrupted)
	require.Len(t, interrupted, 1)
	assert.Equal(t, scout.ScoutWalk, interrupted[0].Action)
	assert.Equal(t, 3, interrupted[0].Ticks)
	planned := rec.events(runtime.EventPlanned)
	require.Len(t, planned, 2)
	assert.Equal(t, runtime.ReplanInterrupted, planned[1].Reason)
	assert.Equal(t, scout.ScoutGoalSafe, planned[1].Goal)
	assert.Equal(t, uint64(4), planned[1].Tick)

	// Safe holds again: the scout goes back to its walk.
	a.Tick(ctx)
	assert.Equal(t, scout.ScoutGoalFed, a.View().Goal)
	assert.Equal(t, runtime.ReplanDone, a.View().Reason)
	assert.Equal(t, scout.ScoutWalk, a.View().Action)
}

// An uninterruptible step finishes before the threat is fought, and an
// interruptible one is told it is abandoned.
func TestUninterruptibleFinishesFirstAndTheInterruptedIsTold(t *testing.T) {
	ctx := t.Context()
	s := &scout.Scout{Pos: scout.Forest, Food: 1, Hunger: 60, Ammo: 2, EatTicks: 4}
	a, _, rec := newScout(t, s)
	a.Tick(ctx)
	require.Equal(t, []string{"Eat"}, scoutNames(a.View().Plan))
	s.Threat = 1
	ticks(ctx, a, 3)
	assert.Equal(t, []string{"eat", "ate"}, s.Log, "eating went on with a threat near")
	assert.Equal(t, 1, s.Threat)
	assert.Empty(t, rec.events(runtime.EventInterrupted))
	a.Tick(ctx)
	assert.Equal(t, []string{"eat", "ate", "fight"}, s.Log)
	assert.Zero(t, s.Threat)

	// Hungry again, away from the forest: the walk there is interrupted
	// by the next threat, and told.
	s.Hunger, s.Pos = 90, 0
	ticks(ctx, a, 2)
	require.Equal(t, scout.ScoutWalk, a.View().Action)
	s.Threat = 1
	a.Tick(ctx)
	assert.Equal(t, []string{"eat", "ate", "fight", "walk", "walk interrupted", "fight"}, s.Log)
	require.Len(t, rec.events(runtime.EventInterrupted), 1)
}

// The next step's precondition stops holding before it begins: the agent
// drops the plan and replans, with reason ReplanStale.
func TestStaleNextStepReplans(t *testing.T) {
	ctx := t.Context()
	s := &scout.Scout{Pos: 8, Hunger: 60}
	a, p, rec := newScout(t, s)
	ticks(ctx, a, 2) // walk 8 → 10
	require.Equal(t, scout.ScoutForage, a.View().Action)
	require.Equal(t, runtime.Done, a.View().Status)
	calls := p.calls

	s.Food = 5 // too much to forage: Forage's precondition fails
	a.Tick(ctx)
	dropped := rec.events(runtime.EventDropped)
	require.Len(t, dropped, 1)
	assert.Equal(t, runtime.ReplanStale, dropped[0].Reason)
	planned := rec.events(runtime.EventPlanned)
	require.Len(t, planned, 2)
	assert.Equal(t, runtime.ReplanStale, planned[1].Reason)
	assert.Equal(t, []string{"Eat"}, scoutNames(planned[1].Plan))
	assert.Equal(t, calls+1, p.calls)
	assert.Equal(t, []string{"walk", "eat"}, s.Log, "forage never ran")
}

// The rest of the plan no longer reaches the goal from the live state
// (hunger grew past what one meal cures) while the first step runs: the
// agent replans at once, with reason ReplanBroken. The new plan begins
// with the walk that runs: the walk goes on, neither told it is
// interrupted nor begun again.
func TestPlanThatNoLongerReachesItsGoalReplans(t *testing.T) {
	ctx := t.Context()
	s := &scout.Scout{Hunger: 60}
	a, p, rec := newScout(t, s)
	ticks(ctx, a, 3)
	require.Equal(t, []string{"Walk", "Forage", "Eat"}, scoutNames(a.View().Plan))
	require.Equal(t, 3, a.View().Ticks)
	fed := p.byGoal[scout.ScoutGoalFed]

	s.Hunger = 120
	a.Tick(ctx)
	planned := rec.events(runtime.EventPlanned)
	require.Len(t, planned, 2)
	assert.Equal(t, runtime.ReplanBroken, planned[1].Reason)
	assert.Equal(t, fed+1, p.byGoal[scout.ScoutGoalFed])
	// The new plan reaches the goal from the live state.
	end, err := scout.ScoutDomain.Simulate(scout.ScoutState{Pos: 3, Hunger: 120}, planned[1].Plan)
	require.NoError(t, err)
	assert.True(t, scout.ScoutDomain.Holds(scout.ScoutGoalFed, end))

	assert.Empty(t, rec.events(runtime.EventDropped), "the plan was replaced, not dropped")
	assert.Empty(t, rec.events(runtime.EventInterrupted))
	v := a.View()
	assert.Equal(t, scout.ScoutWalk, v.Action)
	assert.Equal(t, 4, v.Ticks, "the walk went on")
	assert.Equal(t, []string{"walk"}, s.Log)
}

// A goal that cannot be planned is tried a number of times that grows
// with the logarithm of the ticks, and at once when a condition its
// planning depends on changes. Without a market, Trade cannot run and no
// action can open one: Rich is proven out of reach, and no planner is
// called at all.
func TestHopelessGoalBacksOff(t *testing.T) {
	ctx := t.Context()
	s := &scout.Scout{Pos: scout.Forest, Food: 1}
	a, p, rec := newScout(t, s)
	tries := map[int]int{}
	for tick := 1; tick <= 1000; tick++ {
		a.Tick(ctx)
		if tick == 10 || tick == 100 || tick == 1000 {
			tries[tick] = len(rec.events(runtime.EventPlanFailed))
		}
	}
	assertLogarithmic(t, tries)
	assert.Zero(t, p.calls, "proven out of reach: no planner call")
	failed := rec.events(runtime.EventPlanFailed)
	last := failed[len(failed)-1]
	assert.Equal(t, scout.ScoutGoalRich, last.Goal)
	assert.ErrorIs(t, last.Err, runtime.ErrUnreachable)
	assert.Greater(t, last.RetryAt, uint64(1000), "the next try is far off")

	s.Market = true
	a.Tick(ctx)
	assert.Equal(t, 1, p.byGoal[scout.ScoutGoalRich], "planned in the tick the market opened")
	v := a.View()
	assert.Equal(t, scout.ScoutGoalRich, v.Goal)
	assert.Equal(t, runtime.ReplanWoken, v.Reason, "before its backoff ended")
	assert.Equal(t, []string{"trade"}, s.Log)
}

// The same with a goal only the planner finds it cannot plan (its search
// budget is too small for any plan): the planner calls grow with the
// logarithm of the ticks. It is planned again at once when a condition
// its planning depends on says something else (here the precondition of
// Trade, then of Forage, as food comes), not for a change no condition
// notices.
func TestGoalThePlannerCannotPlanBacksOff(t *testing.T) {
	ctx := t.Context()
	s := &scout.Scout{Pos: scout.Forest, Market: true}
	p := &counting{GoalPlanner: runtime.NewBackwardChainer(scout.ScoutDomain, runtime.WithSearchBudget(1))}
	a := runtime.NewAgent(p, s)
	calls := map[int]int{}
	for tick := 1; tick <= 1000; tick++ {
		a.Tick(ctx)
		if tick == 10 || tick == 100 || tick == 1000 {
			calls[tick] = p.calls
		}
	}
	assertLogarithmic(t, calls)
	require.ErrorIs(t, p.lastErr, runtime.ErrSearchBudgetExceeded)
	assert.Equal(t, runtime.NoGoal, a.View().Goal)

	n := calls[1000]
	s.Gold = 1 // Rich reads it, but no condition says anything else
	a.Tick(ctx)
	assert.Equal(t, n, p.calls, "waits for the backoff")
	s.Food = 1 // Trade's precondition holds now: planned at once
	a.Tick(ctx)
	assert.Equal(t, n+1, p.calls)
	s.Food = 3 // Forage's fails now: at once again, the wait is no shorter
	a.Tick(ctx)
	assert.Equal(t, n+2, p.calls)
	a.Tick(ctx)
	assert.Equal(t, n+2, p.calls, "nothing changed: it waits")
}

// failingFirst fails its first n calls (a planner out of budget), then
// plans with its GoalPlanner.
type failingFirst struct {
	runtime.GoalPlanner[scout.ScoutState]
	n int
}

func (f *failingFirst) PlanGoalInto(ctx context.Context, s scout.ScoutState, g runtime.GoalID, p *runtime.Plan) error {
	if f.n > 0 {
		f.n--
		return &runtime.PlanningError{Reason: runtime.SearchBudgetExceeded, Goal: g, Action: runtime.NoAction}
	}
	return f.GoalPlanner.PlanGoalInto(ctx, s, g, p)
}

// An agent says why it planned a goal that had failed: ReplanRetry when
// its backoff ended, ReplanWoken when a condition its planning depends
// on changed before that (both were ReplanRetry, and a log could not
// tell a goal tried again on time from one a change woke).
func TestRetriedAndWokenGoalsSayWhich(t *testing.T) {
	ctx := t.Context()
	s := &scout.Scout{Hunger: 60, Food: 1, Gold: 10} // only Fed fails
	rec := &recorder{}
	a := runtime.NewAgent(&failingFirst{runtime.NewBackwardChainer(scout.ScoutDomain), 2}, s, runtime.WithAgentObserver(rec.observe))
	a.Tick(ctx) // Fed fails: retried at tick 2
	a.Tick(ctx) // fails again: retried at tick 4
	failed := rec.events(runtime.EventPlanFailed)
	require.Len(t, failed, 2)
	assert.Equal(t, uint64(4), failed[1].RetryAt)
	a.Tick(ctx)
	assert.Empty(t, rec.events(runtime.EventPlanned), "backing off")
	a.Tick(ctx)
	planned := rec.events(runtime.EventPlanned)
	require.Len(t, planned, 1, "planned when the backoff ended")
	assert.Equal(t, runtime.ReplanRetry, planned[0].Reason)

	// The same, but the food runs out in the third tick: Eat's
	// precondition fails now, and Fed is planned at once.
	s = &scout.Scout{Hunger: 60, Food: 1, Gold: 10}
	rec = &recorder{}
	a = runtime.NewAgent(&failingFirst{runtime.NewBackwardChainer(scout.ScoutDomain), 2}, s, runtime.WithAgentObserver(rec.observe))
	a.Tick(ctx)
	a.Tick(ctx)
	s.Food = 0
	a.Tick(ctx)
	planned = rec.events(runtime.EventPlanned)
	require.Len(t, planned, 1, "planned in the tick the food ran out")
	assert.Equal(t, runtime.ReplanWoken, planned[0].Reason)
	assert.Contains(t, scout.ScoutDomain.FormatView(planned[0]), "(woken)")
}

// assertLogarithmic checks counts taken after n ticks: about log2(n).
func assertLogarithmic(t *testing.T, counts map[int]int) {
	t.Helper()
	for n, c := range counts {
		bound := int(math.Log2(float64(n))) + 2
		assert.LessOrEqual(t, c, bound, "after %d ticks", n)
		assert.GreaterOrEqual(t, c, bound-2, "after %d ticks", n)
	}
}

// The utility planner drives an agent one decision at a time: the best
// action for the goal, or a helper of it.
func TestUtilityDrivenAgent(t *testing.T) {
	ctx := t.Context()
	s := &scout.Scout{Hunger: 60, Ammo: 1}
	u := runtime.NewUtilityPlanner(runtime.NewUtility(scout.ScoutDomain))
	rec := &recorder{}
	a := runtime.NewAgent(u, s, runtime.WithAgentObserver(rec.observe))
	for range 20 {
		a.Tick(ctx)
	}
	assert.Equal(t, []string{"walk", "forage", "eat", "ate"}, s.Log)
	assert.Equal(t, 20, s.Hunger)
	for _, v := range rec.events(runtime.EventPlanned) {
		assert.Len(t, v.Plan, 1, "one decision at a time")
	}
}

// A utility decision allocates nothing: the relaxed reachability it
// tries first reads the state from the planner's scratch (its address
// taken from the call's argument made every call allocate the state).
func TestUtilityDecisionDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	ctx := t.Context()
	u := runtime.NewUtilityPlanner(runtime.NewUtility(scout.ScoutDomain))
	s := scout.ScoutState{Hunger: 60, Ammo: 1}
	var p runtime.Plan
	require.NoError(t, u.PlanGoalInto(ctx, s, scout.ScoutGoalFed, &p))
	require.Len(t, p.Steps, 1)
	allocs := testing.AllocsPerRun(100, func() { _ = u.PlanGoalInto(ctx, s, scout.ScoutGoalFed, &p) })
	assert.Zero(t, allocs)
}

// A* serves the same agent.
func TestAStarDrivenAgent(t *testing.T) {
	ctx := t.Context()
	s := &scout.Scout{Hunger: 60, Ammo: 1}
	a := runtime.NewAgent(runtime.NewAStar(scout.ScoutDomain), s)
	for range 20 {
		a.Tick(ctx)
	}
	assert.Equal(t, []string{"walk", "forage", "eat", "ate"}, s.Log)
}

// FormatView says in one line, with the role's names, what each view of
// a walk interrupted by a threat tells.
func TestFormatView(t *testing.T) {
	ctx := t.Context()
	s := &scout.Scout{Hunger: 60, Ammo: 1}
	a, _, rec := newScout(t, s)
	d := scout.ScoutDomain
	ticks(ctx, a, 3)
	assert.Equal(t, "agent 0 tick 3: goal Fed, step 1/3 Walk running for 3 ticks: [*Walk Forage Eat] (planned for no plan)", d.FormatView(a.View()))
	s.Threat = 2
	a.Tick(ctx)
	var lines []string
	for _, v := range rec.views {
		lines = append(lines, d.FormatView(v))
	}
	assert.Equal(t, []string{
		"agent 0 tick 1: planned (no plan): goal Fed, step 1/3 Walk: [*Walk Forage Eat]",
		"agent 0 tick 4: interrupted: goal Fed, step 1/3 Walk after 3 ticks: [*Walk Forage Eat]",
		"agent 0 tick 4: planned (interrupted): goal Safe, step 1/1 Fight: [*Fight]",
		"agent 0 tick 4: step done: goal Safe, step 1/1 Fight done after 1 tick: [*Fight]",
		"agent 0 tick 4: dropped (plan done): goal Safe: [Fight]",
	}, lines)
	// Without a plan, the view names the goal the agent serves next, read
	// from the live state: Safe holds since Fight, Fed does not.
	v := a.View()
	assert.Equal(t, scout.ScoutGoalFed, v.Waiting)
	assert.Equal(t, "agent 0 tick 4: no plan (last: plan done): goal Fed to plan", d.FormatView(v))
	assert.Equal(t, "none", runtime.AgentEvent(0).String())

	// Fed, then Rich, which no action serves without a market.
	a, _, rec = newScout(t, &scout.Scout{Hunger: 60, Ammo: 1})
	ticks(ctx, a, 15)
	last := rec.views[len(rec.views)-1]
	assert.Equal(t, "agent 0 tick 15: plan failed: goal Rich: rolegen: Scout: goal Rich: unreachable: "+
		"every action that could serve it waits for a condition on Market that no action can make hold, retried at tick 16", d.FormatView(last))
	// The agent now waits for Rich: its view says until when, and why.
	v = a.View()
	assert.Equal(t, runtime.NoGoal, v.Goal)
	assert.Equal(t, scout.ScoutGoalRich, v.Waiting)
	assert.Equal(t, uint64(16), v.RetryAt)
	var pe *runtime.PlanningError
	require.ErrorAs(t, v.Err, &pe)
	assert.True(t, pe.Blocked)
	assert.Equal(t, "Market", pe.Fields)
	assert.Equal(t, "agent 0 tick 15: no plan (last: plan done): goal Rich backs off until tick 16: rolegen: Scout: goal Rich: "+
		"unreachable: every action that could serve it waits for a condition on Market that no action can make hold", d.FormatView(v))
	ticks(ctx, a, 2)
	assert.Equal(t, uint64(18), a.View().RetryAt, "failed again at tick 16: it waits twice as long")
	// Rich held: the agent has nothing to wait for.
	a.Role().(*scout.Scout).Gold = 100
	a.Tick(ctx)
	assert.Equal(t, "agent 0 tick 18: no plan (last: plan done)", d.FormatView(a.View()))
}

// A goal whose saturating field the live state has outside its range is no
// goal out of reach because no action serves it: the first write lands the
// field in its range. The knight's morale at 0, in 1..5: Steady (Morale >
// 0) and Charge's precondition are served by no action, as Drill takes
// morale away; but from 0 Drill leaves 1. The agent charges (Drill, Charge)
// where it used to prove both goals out of reach without a planner call.
func TestAgentLandsAFieldOutsideItsRange(t *testing.T) {
	ctx := t.Context()
	k := &knight.Knight{Health: 60, Morale: 0}
	stats := runtime.NewStats(knight.KnightDomain)
	a := runtime.NewAgent(runtime.NewBackwardChainer(knight.KnightDomain), k, runtime.WithAgentStats(stats))
	a.Tick(ctx)
	v := a.View()
	assert.Equal(t, knight.KnightGoalGlorious, v.Goal)
	assert.Equal(t, []string{"Drill", "Charge"}, names(knight.KnightDomain, v.Plan))
	a.Tick(ctx)
	assert.Equal(t, 1, k.Glory)
	assert.Equal(t, 1, k.Morale)
	assert.Zero(t, stats.Agents().Unreachable, "no goal proven out of reach")
}

// So does a utility-driven agent: Drill, which lands morale at 1, serves
// Steady, and then Charge, Glorious.
func TestUtilityAgentLandsAFieldOutsideItsRange(t *testing.T) {
	ctx := t.Context()
	k := &knight.Knight{Health: 60, Morale: 0}
	a := runtime.NewAgent(runtime.NewUtilityPlanner(runtime.NewUtility(knight.KnightDomain)), k)
	for range 4 {
		a.Tick(ctx)
	}
	assert.Equal(t, 1, k.Glory)
	assert.Equal(t, 1, k.Morale)
}

// A utility-driven agent takes helpers in the order their conjuncts need:
// the keeper at the hive with no honey harvests before it walks home to
// sell, where walking home first (the cheaper helper of selling) only
// brings it back, over and over.
func TestUtilityAgentServesConjunctsInOrder(t *testing.T) {
	ctx := t.Context()
	k := &keeper.Keeper{Stamina: 5}
	d := keeper.KeeperDomain
	var steps []string
	a := runtime.NewAgent(runtime.NewUtilityPlanner(runtime.NewUtility(d)), k,
		runtime.WithAgentObserver(func(v runtime.AgentView) {
			if v.Event == runtime.EventStepDone {
				steps = append(steps, d.ActionName(v.Action))
			}
		}))
	for range 60 {
		a.Tick(ctx)
	}
	assert.GreaterOrEqual(t, k.Coins, 12, "steps: %v", steps)
	require.GreaterOrEqual(t, len(steps), 5)
	assert.Equal(t, []string{"GoToHive", "LightSmoker", "Harvest", "GoHome", "Sell"}, steps[:5])
}

// A utility agent finds a landing action that does not apply yet through
// its helpers: from Health 0 and morale 0, Drill (which lands morale at 1)
// needs Health >= 10, so the knight heals for its highest goal, Glorious,
// drills and charges, where without the landing Glorious had no helper
// and backed off, and the knight healed for Fit instead.
func TestUtilityAgentReachesALandingThroughItsHelpers(t *testing.T) {
	ctx := t.Context()
	k := &knight.Knight{Health: 0, Morale: 0}
	d := knight.KnightDomain
	var planned []runtime.GoalID
	var steps []string
	a := runtime.NewAgent(runtime.NewUtilityPlanner(runtime.NewUtility(d)), k,
		runtime.WithAgentObserver(func(v runtime.AgentView) {
			switch v.Event {
			case runtime.EventPlanned:
				planned = append(planned, v.Goal)
			case runtime.EventStepDone:
				steps = append(steps, d.ActionName(v.Action))
			}
		}))
	for range 3 {
		a.Tick(ctx)
	}
	require.Len(t, steps, 3)
	assert.Equal(t, []string{"Drill", "Charge"}, steps[1:], "a heal first: %v", steps)
	assert.Equal(t, []runtime.GoalID{knight.KnightGoalGlorious, knight.KnightGoalGlorious, knight.KnightGoalGlorious}, planned)
	assert.Equal(t, 1, k.Glory)
}
