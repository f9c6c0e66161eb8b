package runtime_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
	"github.com/rolegen/rolegen/runtime/internal/porter"
	"github.com/rolegen/rolegen/runtime/internal/rover"
)

// newPorter returns an agent running p with the backward chainer, the
// events it saw and its counts.
func newPorter(p *porter.Porter) (*runtime.Agent[porter.PorterState], *recorder, *runtime.Stats) {
	rec, st := &recorder{}, &runtime.Stats{}
	a := runtime.NewAgent(runtime.NewBackwardChainer(porter.PorterDomain), p,
		runtime.WithAgentObserver(rec.observe), runtime.WithAgentStats(st))
	return a, rec, st
}

// plannedFor counts the plans made for goal g.
func plannedFor(rec *recorder, g runtime.GoalID) int {
	n := 0
	for _, v := range rec.events(runtime.EventPlanned) {
		if v.Goal == g {
			n++
		}
	}
	return n
}

// A step that fails every time is not tried every tick: the goal is
// planned again at once after the first failure (another way may go
// round it), then backs off, a number of plans that grows with the
// logarithm of the ticks; and it is planned at once when a condition its
// planning depends on changes.
func TestAStepThatKeepsFailingBacksOff(t *testing.T) {
	ctx := t.Context()
	p := &porter.Porter{At: porter.Door, Keys: 2, Jammed: true}
	a, rec, _ := newPorter(p)
	plans := map[int]int{}
	for tick := 1; tick <= 1000; tick++ {
		a.Tick(ctx)
		if tick == 10 || tick == 100 || tick == 1000 {
			plans[tick] = plannedFor(rec, porter.PorterGoalIn)
		}
	}
	assertLogarithmic(t, plans)
	failed := rec.events(runtime.EventStepFailed)
	require.Len(t, failed, plans[1000], "each plan's first step failed")
	assert.Zero(t, failed[0].RetryAt, "the first failure is planned again at once")
	assert.Equal(t, uint64(3), failed[1].RetryAt, "the second backs off a tick")
	last := failed[len(failed)-1]
	assert.Greater(t, last.RetryAt, uint64(1000), "the next try is far off")
	assert.Contains(t, porter.PorterDomain.FormatView(last), "Unlock failed after 1 tick: [*Unlock Enter], retried at tick")

	// The door opened by someone else: Enter's precondition holds now,
	// and In is planned in that tick.
	p.Jammed, p.Open = false, true
	a.Tick(ctx)
	planned := rec.events(runtime.EventPlanned)
	assert.Equal(t, runtime.ReplanWoken, planned[len(planned)-1].Reason)
	assert.Equal(t, []runtime.ActionID{porter.PorterEnter}, planned[len(planned)-1].Plan)
	assert.True(t, p.Inside)
}

// A step whose method says it is done without doing what its post says
// fails, naming the action and its post, and its goal backs off as
// above. Once the goal holds, a failure is planned again at once.
func TestAStepWithoutItsPostFails(t *testing.T) {
	ctx := t.Context()
	p := &porter.Porter{Inside: true, Forgets: true}
	a, rec, st := newPorter(p)
	for range 100 {
		a.Tick(ctx)
	}
	failed := rec.events(runtime.EventStepFailed)
	require.NotEmpty(t, failed)
	assert.LessOrEqual(t, len(failed), 8, "backs off")
	err := failed[0].Err
	require.ErrorIs(t, err, runtime.ErrPostMissed)
	var pm *runtime.PostMissedError
	require.ErrorAs(t, err, &pm)
	assert.Equal(t, "Cut", pm.Action)
	assert.Equal(t, `rolegen: Porter.Cut said done, but the live state does not show its post "Keys += 1"`, err.Error())
	assert.Equal(t, int64(len(failed)), st.Agents().StepsFailed)
	assert.Zero(t, st.Agents().StepsDone)

	// Mended, it cuts its keys at the next try.
	p.Forgets = false
	for range 100 {
		a.Tick(ctx)
	}
	assert.Equal(t, 2, p.Keys)
	n := len(rec.events(runtime.EventStepFailed))

	// The goal held: its count of failures starts again.
	p.Keys, p.Forgets = 0, true
	a.Tick(ctx)
	a.Tick(ctx)
	failed = rec.events(runtime.EventStepFailed)[n:]
	require.Len(t, failed, 2)
	assert.Zero(t, failed[0].RetryAt)
	assert.Equal(t, failed[1].Tick+1, failed[1].RetryAt)
}

// The check of a post that takes ticks compares only what the post sets
// to a value of its own: a walk that tires the porter a little each tick
// is done, where its post takes the whole toll at once.
func TestAStepThatTakesTicksIsCheckedOnWhatItSets(t *testing.T) {
	ctx := t.Context()
	p := &porter.Porter{Energy: 10, Keys: 2}
	a, rec, st := newPorter(p)
	for range 10 {
		a.Tick(ctx)
	}
	assert.Empty(t, rec.events(runtime.EventStepFailed))
	assert.True(t, p.Inside)
	assert.Equal(t, 8, p.Energy)
	assert.Equal(t, []string{"at door", "unlock", "enter"}, p.Log)
	assert.Equal(t, int64(3), st.Agents().StepsDone)
}

// A crowd of porters at a jammed door plans a number of times that grows
// with the logarithm of the ticks, with any number of workers.
func TestCrowdOfFailingStepsBacksOff(t *testing.T) {
	ctx := t.Context()
	for _, workers := range []int{1, 2} {
		c := runtime.NewCrowd(porter.PorterDomain, func() runtime.GoalPlanner[porter.PorterState] {
			return runtime.NewBackwardChainer(porter.PorterDomain)
		}, runtime.WithWorkers(workers), runtime.WithPlanBudget(10))
		ps := make([]porter.Porter, 100)
		for i := range ps {
			ps[i] = porter.Porter{At: porter.Door, Keys: 2, Jammed: true}
			c.Add(&ps[i])
		}
		for range 1000 {
			c.Tick(ctx)
		}
		c.Close()
		counts := c.Counts()
		assert.LessOrEqual(t, counts.PlannerCalls, int64(100*11), "workers %d", workers)
		assert.Equal(t, counts.PlannerCalls, counts.StepsFailed, "workers %d", workers)
	}
}

// A saturating field's post clamps what the method need not: a nap that
// adds 5 to a stamina of 6 (11, over the maximum of 10) did what its
// post says (10). One that adds nothing did not.
func TestAPostThatClampsIsMetByAMethodThatDoesNot(t *testing.T) {
	ctx := t.Context()
	for _, lazy := range []bool{false, true} {
		n := &porter.Napper{Stamina: 6, Lazy: lazy}
		rec := &recorder{}
		a := runtime.NewAgent(runtime.NewBackwardChainer(porter.NapperDomain), n, runtime.WithAgentObserver(rec.observe))
		a.Tick(ctx)
		if !lazy {
			assert.Equal(t, 11, n.Stamina)
			assert.Empty(t, rec.events(runtime.EventStepFailed))
			assert.Len(t, rec.events(runtime.EventStepDone), 1)
			continue
		}
		failed := rec.events(runtime.EventStepFailed)
		require.Len(t, failed, 1)
		assert.ErrorIs(t, failed[0].Err, runtime.ErrPostMissed)
	}
}

// A goal that held since its last failed step starts counting again: its
// next failed step is planned again at once, as the first was, though
// every goal held in between (the agent idle, nothing backing off).
func TestAFailedStepIsForgottenOnceTheGoalHolds(t *testing.T) {
	ctx := t.Context()
	p := &porter.Porter{At: porter.Door, Keys: 2, Jammed: true}
	a, rec, _ := newPorter(p)
	a.Tick(ctx) // Unlock fails: planned again at once
	p.Inside = true
	a.Tick(ctx) // every goal holds
	p.Inside = false
	a.Tick(ctx) // Unlock fails again: the first since In held
	failed := rec.events(runtime.EventStepFailed)
	require.Len(t, failed, 2)
	assert.Zero(t, failed[0].RetryAt)
	assert.Zero(t, failed[1].RetryAt, "In held in between")
}

// A utility-driven agent whose every step toward its goal would let a
// goal above stop holding prepares first: at the dock with a low
// battery, leaving would let Charged fail, so it charges, then leaves
// and fetches. (It waited for ever before: one step looked at, none
// kept Charged.) The chainer and A* find the same way.
func TestUtilityAgentPreparesBeforeAStepThatWouldUndoAGoalAbove(t *testing.T) {
	ctx := t.Context()
	d := rover.RoverDomain
	for name, p := range map[string]runtime.GoalPlanner[rover.RoverState]{
		"utility": runtime.NewUtilityPlanner(runtime.NewUtility(d)),
		"chainer": runtime.NewBackwardChainer(d),
		"astar":   runtime.NewAStar(d),
	} {
		r := &rover.Rover{Battery: 30, Docked: true}
		rec := &recorder{}
		a := runtime.NewAgent(p, r, runtime.WithAgentObserver(rec.observe))
		for range 20 {
			a.Tick(ctx)
		}
		assert.Equal(t, 3, r.Samples, name)
		assert.Empty(t, rec.events(runtime.EventPlanFailed), name)
		assert.Equal(t, rover.RoverCharge, rec.events(runtime.EventStepDone)[0].Action, name)
	}
}
