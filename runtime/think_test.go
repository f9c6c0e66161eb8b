package runtime_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
)

func TestThinkRunsThePlan(t *testing.T) {
	d := soldierDomain()
	s := &soldier{}
	ran, err := runtime.Think(context.Background(), runtime.NewBackwardChainer(d), s)
	require.NoError(t, err)
	assert.Equal(t, []runtime.ActionID{actFetch, actReload}, ran)
	assert.Equal(t, []string{"FetchMagazine", "Reload"}, s.performed)
	assert.Equal(t, soldierState{Ammo: 30, Magazines: 0}, s.soldierState)
}

func TestThinkStopsOnStalePrecondition(t *testing.T) {
	s := &soldier{fetchFails: true}
	ran, err := runtime.Think(context.Background(), runtime.NewBackwardChainer(soldierDomain()), s)
	var perr *runtime.PlanningError
	require.ErrorAs(t, err, &perr)
	assert.Equal(t, runtime.PreconditionStale, perr.Reason)
	assert.Equal(t, actReload, perr.Action)
	assert.Equal(t, 1, perr.Step)
	assert.ErrorIs(t, err, runtime.ErrPreconditionStale)
	assert.Equal(t, []runtime.ActionID{actFetch}, ran)
	assert.Equal(t, []string{"FetchMagazine"}, s.performed, "Reload must not run")
}

// worldHelps is a soldier that a teammate arms while it fetches.
type worldHelps struct{ soldier }

func (w *worldHelps) Perform(ctx context.Context, a runtime.ActionID) error {
	if a == actFetch {
		w.Ammo = 50
		w.performed = append(w.performed, "FetchMagazine")
		return nil // the magazine never arrives, but the goal holds
	}
	return w.soldier.Perform(ctx, a)
}

func TestThinkStopsQuietlyWhenGoalsAlreadyHold(t *testing.T) {
	w := &worldHelps{}
	ran, err := runtime.Think(context.Background(), runtime.NewBackwardChainer(soldierDomain()), w)
	require.NoError(t, err)
	assert.Equal(t, []runtime.ActionID{actFetch}, ran)
}

func TestThinkGoalUnsatisfiedAfterExecution(t *testing.T) {
	s := &soldier{reloadAmmo: 5}
	ran, err := runtime.Think(context.Background(), runtime.NewBackwardChainer(soldierDomain()), s)
	var perr *runtime.PlanningError
	require.ErrorAs(t, err, &perr)
	assert.Equal(t, runtime.GoalUnsatisfiedAfterExecution, perr.Reason)
	assert.Equal(t, goalArmed, perr.Goal)
	assert.ErrorIs(t, err, runtime.ErrGoalUnsatisfiedAfterExecution)
	assert.Len(t, ran, 2)
	assert.EqualError(t, err, "rolegen: Soldier: goal Armed: still unsatisfied after the plan ran")
}

func TestThinkReturnsPerformErrors(t *testing.T) {
	boom := errors.New("jammed")
	s := &soldier{failWith: boom}
	ran, err := runtime.Think(context.Background(), runtime.NewBackwardChainer(soldierDomain()), s)
	require.ErrorIs(t, err, boom)
	assert.Empty(t, ran)
	assert.EqualError(t, err, "rolegen: Soldier: step 0 (FetchMagazine): jammed")
}

func TestThinkReturnsPlanningErrors(t *testing.T) {
	s := &soldier{}
	_, err := runtime.Think(context.Background(), runtime.NewBackwardChainer(soldierDomain(), runtime.WithoutChaining()), s)
	require.ErrorIs(t, err, runtime.ErrUnreachable)
	assert.Empty(t, s.performed)
}

func guardedSoldier() *runtime.Domain[soldierState] {
	d := soldierDomain()
	acts := append([]runtime.Action[soldierState](nil), d.Actions...)
	acts[actReload].Guarded = true
	return runtime.NewDomain(runtime.Domain[soldierState]{Name: d.Name, Fields: d.Fields, Actions: acts, Goals: d.Goals})
}

func TestThinkRefusesGuardedWithoutApprover(t *testing.T) {
	s := &soldier{}
	ran, err := runtime.Think(context.Background(), runtime.NewBackwardChainer(guardedSoldier()), s)
	require.ErrorIs(t, err, runtime.ErrGuarded)
	assert.Contains(t, err.Error(), "Reload")
	assert.Empty(t, ran)
	assert.Empty(t, s.performed, "no step may run before the refusal")
}

func TestThinkAsksTheApprover(t *testing.T) {
	var seen []runtime.ActionID
	approve := func(_ context.Context, p runtime.Plan) error {
		seen = append(seen, p.Steps...)
		return nil
	}
	s := &soldier{}
	ran, err := runtime.Think(context.Background(), runtime.NewBackwardChainer(guardedSoldier()), s, runtime.WithApprover(approve))
	require.NoError(t, err)
	assert.Equal(t, []runtime.ActionID{actFetch, actReload}, seen)
	assert.Len(t, ran, 2)

	no := errors.New("not now")
	s = &soldier{}
	_, err = runtime.Think(context.Background(), runtime.NewBackwardChainer(guardedSoldier()), s,
		runtime.WithApprover(func(context.Context, runtime.Plan) error { return no }))
	require.ErrorIs(t, err, runtime.ErrRejected)
	require.ErrorIs(t, err, no)
	assert.Empty(t, s.performed)
}

func TestThinkHonoursCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	s := &soldier{}
	ran, err := runtime.Think(ctx, runtime.NewBackwardChainer(soldierDomain()), s,
		runtime.WithOnStep(func(runtime.ActionID) { cancel() }))
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, []runtime.ActionID{actFetch}, ran)
}

// prioritizedRole performs the prioritized domain's one action.
type prioritizedRole struct {
	prioritizedState
	performed int
}

func (r *prioritizedRole) PlanState() prioritizedState { return r.prioritizedState }

func (r *prioritizedRole) Perform(_ context.Context, a runtime.ActionID) error {
	r.Other = true
	r.performed++
	return nil
}

// Every planner is treated alike: when a goal cannot be planned, Think
// performs the plan for the goals that could be, then reports that goal.
func TestThinkPerformsWhatCouldBePlanned(t *testing.T) {
	d := prioritized()
	for name, p := range map[string]runtime.Planner[prioritizedState]{
		"backward": runtime.NewBackwardChainer(d),
		"astar":    runtime.NewAStar(d),
	} {
		t.Run(name, func(t *testing.T) {
			r := &prioritizedRole{}
			ran, err := runtime.Think(context.Background(), p, r)
			assert.Equal(t, []string{"SetOther"}, names(d, ran), "the reachable goal's plan runs")
			assert.Equal(t, 1, r.performed)
			require.ErrorIs(t, err, runtime.ErrUnreachable)
			var perr *runtime.PlanningError
			require.ErrorAs(t, err, &perr)
			assert.Equal(t, "Hard", perr.GoalName, "the highest-priority goal that failed")

			// Nothing left to plan but the unreachable goals: no step runs.
			ran, err = runtime.Think(context.Background(), p, r)
			require.ErrorIs(t, err, runtime.ErrUnreachable)
			assert.Empty(t, ran)
			assert.Equal(t, 1, r.performed)
		})
	}
}

// Plan means the same for every planner: Think serves the same goals
// with the backward chainer as with A*, here every goal of the camp, the
// fire first.
func TestThinkServesTheSameGoalsWithEveryPlanner(t *testing.T) {
	d := camp()
	served := map[string][]runtime.GoalID{}
	for name, p := range map[string]runtime.Planner[campState]{
		"backward": runtime.NewBackwardChainer(d),
		"astar":    runtime.NewAStar(d),
	} {
		t.Run(name, func(t *testing.T) {
			start := campState{Hunger: 50}
			plan, err := p.Plan(context.Background(), start)
			require.NoError(t, err)
			served[name] = plan.Goals
			r := &campRole{campState: start, d: d}
			ran, err := runtime.Think(context.Background(), p, r)
			require.NoError(t, err)
			assert.Equal(t, names(d, plan.Steps), names(d, ran))
			for _, g := range []runtime.GoalID{campWarm, campFed, campStocked} {
				assert.True(t, d.Holds(g, r.campState), "%s holds after Think", d.Goals[g].Name)
			}
			assert.NotContains(t, r.performed, "Douse", "no goal's steps undo the fire")
		})
	}
	assert.Equal(t, []runtime.GoalID{campWarm, campFed, campStocked}, served["backward"])
	assert.Equal(t, served["backward"], served["astar"])
}
