package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/runtime"
)

// threePings is a plan of three independent pings.
var threePings = planJSON(step("p1", "Ping", "{}"), step("p2", "Ping", "{}"), step("p3", "Ping", "{}"))

// decide is a gate that answers with d and counts the plans it saw.
func decide(d llm.Decision, seen *atomic.Int32) llm.Approver {
	return llm.ApproverFunc(func(_ context.Context, plan *llm.Plan) (llm.Decision, error) {
		seen.Add(1)
		return d, nil
	})
}

func TestApprovalGate(t *testing.T) {
	for _, tc := range []struct {
		name     string
		reply    string
		decision llm.Decision
		opts     []llm.Option
		ran      []string
		status   llm.Status
		err      error
	}{
		{name: "approve", reply: threePings, decision: llm.Approve(), ran: []string{"p1", "p2", "p3"}, status: llm.StatusCompleted},
		{name: "reject", reply: threePings, decision: llm.Reject("too many pings"), status: llm.StatusRejected, err: llm.ErrRejected},
		{name: "remove", reply: threePings, decision: llm.RemoveSteps("p2"), ran: []string{"p1", "p3"}, status: llm.StatusCompleted},
		{name: "reorder", reply: threePings, decision: llm.ReorderSteps("p3", "p1"), ran: []string{"p3", "p1", "p2"}, status: llm.StatusCompleted},
		{name: "modify", reply: threePings, decision: llm.Modify([]string{"p2"}, []string{"p3"}), ran: []string{"p3", "p1"}, status: llm.StatusCompleted},
		{name: "reorder respects dependsOn", reply: goodPlan, decision: llm.ReorderSteps("s2", "s1"), ran: []string{"s1", "s2"}, status: llm.StatusCompleted},
		{name: "remove a step another needs", reply: goodPlan, decision: llm.RemoveSteps("s1"), status: llm.StatusFailed, err: llm.ErrUnknownDependency},
		{name: "remove every step", reply: threePings, decision: llm.RemoveSteps("p1", "p2", "p3"), status: llm.StatusFailed, err: llm.ErrEmptyPlan},
		{name: "remove every step, empty allowed", reply: threePings, decision: llm.RemoveSteps("p1", "p2", "p3"), opts: []llm.Option{llm.WithAllowEmptyPlan()}, status: llm.StatusCompleted},
		{name: "remove an unknown step", reply: threePings, decision: llm.RemoveSteps("p9"), status: llm.StatusFailed, err: llm.ErrInvalidDecision},
		{name: "reorder an unknown step", reply: threePings, decision: llm.ReorderSteps("p9"), status: llm.StatusFailed, err: llm.ErrInvalidDecision},
		{name: "reorder twice", reply: threePings, decision: llm.ReorderSteps("p1", "p1"), status: llm.StatusFailed, err: llm.ErrInvalidDecision},
		{name: "edit arguments", reply: goodPlan, decision: llm.EditArgs("s1", json.RawMessage(`{"from":"Bergen","to":"Paris","seats":2}`)), ran: []string{"s1", "s2"}, status: llm.StatusCompleted},
		{name: "edit arguments the action refuses", reply: goodPlan, decision: llm.EditArgs("s1", json.RawMessage(`{"from":"Bergen","to":"Paris","seats":"two"}`)), status: llm.StatusFailed, err: llm.ErrInvalidArgs},
		{name: "edit the arguments of an unknown step", reply: goodPlan, decision: llm.EditArgs("s9", json.RawMessage(`{}`)), status: llm.StatusFailed, err: llm.ErrInvalidDecision},
		{name: "reorder breaks verification", reply: planJSON(step("f", "BookFlight", flightParis), step("h", "BookHotel", hotelParis)), decision: llm.ReorderSteps("h"), opts: []llm.Option{llm.WithRequireVerified(0)}, status: llm.StatusFailed, err: llm.ErrUnverified},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var seen atomic.Int32
			rec := newRecorder()
			opts := append([]llm.Option{llm.WithApprover(decide(tc.decision, &seen))}, tc.opts...)
			res, err := llm.NewPlanner(trip, llm.ScriptedReplies(tc.reply), opts...).Run(context.Background(), "go", rec.target(rich))
			if tc.err != nil {
				assert.ErrorIs(t, err, tc.err)
			} else {
				require.NoError(t, err)
				assert.True(t, res.Plan.Approved)
			}
			assert.Equal(t, tc.status, res.Status)
			assert.Equal(t, tc.ran, rec.steps())
			assert.EqualValues(t, 1, seen.Load())
		})
	}
}

func TestRejectionIsTyped(t *testing.T) {
	var seen atomic.Int32
	p := llm.NewPlanner(trip, llm.ScriptedReplies(threePings), llm.WithApprover(decide(llm.Reject("no"), &seen)))
	_, err := p.Run(context.Background(), "go", newRecorder().target(rich))
	var re *llm.RejectedError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, "no", re.Reason)
	assert.ErrorIs(t, err, runtime.ErrRejected)
}

func TestApproverErrorFailsTheRun(t *testing.T) {
	boom := errors.New("approver offline")
	gate := llm.ApproverFunc(func(context.Context, *llm.Plan) (llm.Decision, error) { return llm.Decision{}, boom })
	rec := newRecorder()
	res, err := llm.NewPlanner(trip, llm.ScriptedReplies(threePings), llm.WithApprover(gate)).Run(context.Background(), "go", rec.target(rich))
	assert.ErrorIs(t, err, boom)
	assert.Equal(t, llm.StatusFailed, res.Status)
	assert.Empty(t, rec.steps())
}

// wirePlan pings, then wires money: Wire is guarded.
var wirePlan = planJSON(step("p", "Ping", "{}"), step("w", "Wire", `{"amount":100}`, "p"))

func TestGuardedActionsNeedAnApprovedPlan(t *testing.T) {
	rec := newRecorder()
	res, err := llm.NewPlanner(trip, llm.ScriptedReplies(wirePlan)).Run(context.Background(), "money", rec.target(rich))
	var ge *llm.GuardedError
	require.ErrorAs(t, err, &ge)
	assert.Equal(t, "w", ge.StepID)
	assert.Equal(t, "Wire", ge.Capability)
	assert.ErrorIs(t, err, runtime.ErrGuarded)
	assert.Equal(t, llm.StatusFailed, res.Status)
	assert.Empty(t, rec.steps(), "not even the unguarded first step runs")
	assert.Equal(t, []string{"0/p:skipped", "0/w:skipped"}, statuses(res))

	rec = newRecorder()
	res, err = llm.NewPlanner(trip, llm.ScriptedReplies(wirePlan), llm.WithApprover(llm.AutoApprove())).Run(context.Background(), "money", rec.target(rich))
	require.NoError(t, err)
	assert.Equal(t, []string{"p", "w"}, rec.steps())
	assert.True(t, res.Plan.Approved)
}

func TestRevisedPlansPassTheGateAgain(t *testing.T) {
	boom := errors.New("agency closed")
	for _, tc := range []struct {
		name      string
		opts      []llm.Option
		gateCalls int32
	}{
		{"by default", nil, 2},
		{"unless configured otherwise", []llm.Option{llm.WithRevisionApproval(false)}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var seen atomic.Int32
			rec := newRecorder()
			rec.fail["p2"] = boom
			model := llm.ScriptedReplies(threePings, planJSON(step("q1", "Ping", "{}")))
			opts := append([]llm.Option{llm.WithApprover(decide(llm.Approve(), &seen))}, tc.opts...)
			res, err := llm.NewPlanner(trip, model, opts...).Run(context.Background(), "go", rec.target(rich))
			require.NoError(t, err)
			assert.Equal(t, []string{"p1", "p2!", "q1"}, rec.steps())
			assert.Equal(t, tc.gateCalls, seen.Load())
			assert.True(t, res.Plan.Approved)
			assert.Equal(t, 1, res.Plan.Revision)
		})
	}
}

func TestPlanOnlyThenApproveThenExecute(t *testing.T) {
	ctx := context.Background()
	store := llm.NewMemoryStore()
	model := llm.ScriptedReplies(planJSON(
		step("p", "Ping", "{}"),
		step("w", "Wire", `{"amount":100}`, "p"),
		step("s", "Search", searchParis),
	))
	p := llm.NewPlanner(trip, model, llm.WithStore(store))
	proposed, err := p.Propose(ctx, "money", rich, llm.WithRunID("plan-only"))
	require.NoError(t, err)
	assert.Equal(t, llm.StatusAwaitingApproval, proposed.Status)
	assert.False(t, proposed.Plan.Approved)
	cp, err := store.Load(ctx, "plan-only")
	require.NoError(t, err)
	assert.Equal(t, llm.StatusAwaitingApproval, cp.Status, "the plan awaiting approval is checkpointed")

	// Running it unapproved is refused: it holds a guarded action.
	rec := newRecorder()
	_, err = p.Execute(ctx, proposed.Plan, rec.target(rich))
	assert.ErrorIs(t, err, llm.ErrGuarded)
	assert.Empty(t, rec.steps())

	_, err = p.Approve(proposed.Plan, llm.Reject("no"))
	assert.ErrorIs(t, err, llm.ErrRejected)

	approved, err := p.Approve(proposed.Plan, llm.Modify([]string{"s"}, []string{"p"}))
	require.NoError(t, err)
	assert.True(t, approved.Approved)
	assert.False(t, proposed.Plan.Approved, "Approve returns a copy")
	assert.Len(t, approved.Steps, 2)

	var statusDuringRun []llm.Status
	rec.before = func(ctx context.Context, _ llm.Step) error {
		cp, err := store.Load(ctx, "plan-only")
		require.NoError(t, err)
		statusDuringRun = append(statusDuringRun, cp.Status)
		return nil
	}
	res, err := p.Execute(ctx, approved, rec.target(rich), llm.WithRunID("plan-only"))
	require.NoError(t, err)
	assert.Equal(t, []llm.Status{llm.StatusRunning, llm.StatusRunning}, statusDuringRun)
	assert.Equal(t, []string{"p", "w"}, rec.steps())
	assert.Equal(t, llm.StatusCompleted, res.Status)
	assert.Len(t, model.Requests(), 1, "executing needs no model call")
	assert.Len(t, res.Calls, 1, "the run's history goes on under its id")
}

func TestExecuteValidatesAgainstTheLiveDomain(t *testing.T) {
	p := llm.NewPlanner(trip, llm.ScriptedReplies(goodPlan))
	proposed, err := p.Propose(context.Background(), "Paris", rich)
	require.NoError(t, err)
	approved, err := p.Approve(proposed.Plan, llm.Approve())
	require.NoError(t, err)

	// The plan was edited (or the domain changed) after approval.
	approved.Steps[1].Capability = "BookMotel"
	rec := newRecorder()
	res, err := p.Execute(context.Background(), approved, rec.target(rich))
	assert.ErrorIs(t, err, llm.ErrUnknownCapability)
	assert.Equal(t, llm.StatusFailed, res.Status)
	assert.Empty(t, rec.steps())

	// A plan approved for another state is verified against the live one.
	approved.Steps[1].Capability = "BookHotel"
	strict := llm.NewPlanner(trip, nil, llm.WithRequireVerified(0))
	_, err = strict.Execute(context.Background(), approved, rec.target(tripState{Money: 10}))
	assert.ErrorIs(t, err, llm.ErrUnverified)
	assert.Empty(t, rec.steps())
}

func TestRevisionOfAHandApprovedPlanAwaitsApproval(t *testing.T) {
	ctx := context.Background()
	store := llm.NewMemoryStore()
	model := llm.ScriptedReplies(threePings, planJSON(step("q1", "Ping", "{}")))
	p := llm.NewPlanner(trip, model, llm.WithStore(store))
	proposed, err := p.Propose(ctx, "ping", rich, llm.WithRunID("hand"))
	require.NoError(t, err)
	approved, err := p.Approve(proposed.Plan, llm.Approve())
	require.NoError(t, err)

	rec := newRecorder()
	rec.fail["p2"] = errors.New("busy")
	res, err := p.Execute(ctx, approved, rec.target(rich), llm.WithRunID("hand"))
	require.NoError(t, err)
	assert.Equal(t, llm.StatusAwaitingApproval, res.Status)
	assert.Equal(t, 1, res.Plan.Revision)
	assert.False(t, res.Plan.Approved)
	assert.Equal(t, []string{"p1", "p2!"}, rec.steps())

	approved, err = p.Approve(res.Plan, llm.Approve())
	require.NoError(t, err)
	res, err = p.Execute(ctx, approved, rec.target(rich), llm.WithRunID("hand"))
	require.NoError(t, err)
	assert.Equal(t, llm.StatusCompleted, res.Status)
	assert.Equal(t, 1, res.Replans)
	assert.Equal(t, []string{"0/p1:done", "0/p2:failed", "0/p3:skipped", "1/q1:done"}, statuses(res))
}

func TestEmptyPlanFromTheModel(t *testing.T) {
	rec := newRecorder()
	res, err := llm.NewPlanner(trip, llm.ScriptedReplies(planJSON()), llm.WithAllowEmptyPlan()).Run(context.Background(), "nothing", rec.target(rich))
	require.NoError(t, err)
	assert.Equal(t, llm.StatusCompleted, res.Status)
	assert.Empty(t, rec.steps())
}

func TestAdjustedHandApprovedPlanKeepsItsDoneSteps(t *testing.T) {
	ctx := context.Background()
	store := llm.NewMemoryStore()
	hook := func(_ context.Context, r llm.StepRecord) llm.Directive {
		if r.Step.ID == "p1" {
			return llm.Adjust("one more search", llm.Step{ID: "q", Capability: "Search", Args: json.RawMessage(searchParis), DependsOn: []string{"p1"}})
		}
		return llm.Continue()
	}
	p := llm.NewPlanner(trip, llm.ScriptedReplies(threePings), llm.WithStore(store), llm.WithOnStep(hook))
	proposed, err := p.Propose(ctx, "ping", rich, llm.WithRunID("adj"))
	require.NoError(t, err)
	approved, err := p.Approve(proposed.Plan, llm.Approve())
	require.NoError(t, err)

	rec := newRecorder()
	res, err := p.Execute(ctx, approved, rec.target(rich), llm.WithRunID("adj"))
	require.NoError(t, err)
	assert.Equal(t, llm.StatusAwaitingApproval, res.Status, "the adjustment needs the human again")
	assert.Equal(t, []string{"p1", "q"}, stepIDs(res.Plan))

	approved, err = p.Approve(res.Plan, llm.Approve())
	require.NoError(t, err)
	res, err = p.Execute(ctx, approved, rec.target(rich), llm.WithRunID("adj"))
	require.NoError(t, err)
	assert.Equal(t, llm.StatusCompleted, res.Status)
	assert.Equal(t, []string{"p1", "q"}, rec.steps(), "p1 is not run again")
}

func stepIDs(p *llm.Plan) []string {
	var ids []string
	for _, s := range p.Steps {
		ids = append(ids, s.ID)
	}
	return ids
}

// A run cancelled while its approver decides resumes at the gate: a plan
// the approver never accepted does not run.
func TestResumeAfterCancellationAtTheGate(t *testing.T) {
	store := llm.NewMemoryStore()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	asked := 0
	gate := llm.ApproverFunc(func(ctx context.Context, _ *llm.Plan) (llm.Decision, error) {
		asked++
		if asked == 1 {
			cancel()
			return llm.Decision{}, ctx.Err()
		}
		return llm.Reject("not this trip"), nil
	})
	rec := newRecorder()
	p := llm.NewPlanner(trip, llm.ScriptedReplies(goodPlan), llm.WithStore(store), llm.WithApprover(gate))
	res, err := p.Run(ctx, "trip", rec.target(rich), llm.WithRunID("g1"))
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, llm.StatusCancelled, res.Status)

	res, err = p.Resume(context.Background(), "g1", rec.target(rich))
	require.ErrorIs(t, err, llm.ErrRejected)
	assert.Equal(t, llm.StatusRejected, res.Status)
	assert.Equal(t, 2, asked)
	assert.Empty(t, rec.steps(), "no step of an unapproved plan runs")
}
