package temporal_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/worker"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/temporal"
)

// comparable strips what differs by nature between two runs of the same
// plan: the run's id, the times of records and the error values (their
// texts stay).
func comparableResult(res *llm.Result) *llm.Result {
	c := *res
	c.RunID, c.Err = "", nil
	c.Steps = slices.Clone(res.Steps)
	for i := range c.Steps {
		c.Steps[i].Started, c.Steps[i].Finished, c.Steps[i].Err = time.Time{}, time.Time{}, nil
	}
	c.Plan = res.Plan.Clone()
	return &c
}

// The same plans and the same step outcomes give the same run in process
// and on Temporal: the same records (statuses, outputs, errors, notes),
// the same plans, replans, model calls and usage, the same error. The
// first plan fails at its second step and is replanned.
func TestSameRunInProcessAndOnTemporal(t *testing.T) {
	c := newClient(t)
	for _, name := range []string{"order", "dag"} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			role := &courierRole{fail: map[string]bool{"Fail": true}}

			local, localErr := planner(name).Run(ctx, "deliver the parcel",
				llm.FuncTarget(courier, courierState{}, llm.PerformerExecutor(role)))

			queue := "same-" + name
			plans := scenario(name, role)
			startWorker(t, c, queue, plans)
			run, err := plans.Start(ctx, c, queue, "deliver the parcel", courierState{}, temporal.StartOptions{ID: "same-" + name})
			require.NoError(t, err)
			durable, durableErr := plans.Result(ctx, c, run.GetID())

			require.NoError(t, localErr)
			require.NoError(t, durableErr)
			assert.Equal(t, llm.StatusCompleted, durable.Status)
			assert.Equal(t, 1, durable.Replans)
			assert.Equal(t, "same-"+name, durable.RunID)
			assert.Equal(t, []string{"0/pack:done", "0/fail:failed", "0/ship:skipped", "1/ship:done", "1/work:done"}, statuses(durable))
			assert.Equal(t, comparableResult(local), comparableResult(durable))
			checkHistory(t, c, name, run.GetID())
		})
	}
}

func statuses(res *llm.Result) []string {
	var out []string
	for _, rec := range res.Steps {
		out = append(out, fmt.Sprintf("%d/%s:%s", rec.Revision, rec.Step.ID, rec.Status))
	}
	return out
}

// A failing step is replanned through the model, within WithMaxReplans:
// after the one replan allowed fails too, the run fails with
// ErrReplansExhausted wrapping the last failure, as in process.
func TestReplanAfterFailingStepIsBounded(t *testing.T) {
	c := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	role := &courierRole{fail: map[string]bool{"Fail": true}}
	plans := scenario("bounded", role)
	startWorker(t, c, "bounded", plans)
	run, err := plans.Start(ctx, c, "bounded", "deliver", courierState{}, temporal.StartOptions{ID: "bounded"})
	require.NoError(t, err)
	res, err := plans.Result(ctx, c, run.GetID())

	require.Error(t, err)
	assert.ErrorIs(t, err, llm.ErrReplansExhausted)
	assert.Equal(t, "llm: replanning exhausted after 1 replans: llm: step \"f\" (Fail): Fail is out of order", err.Error())
	assert.Equal(t, llm.StatusFailed, res.Status)
	assert.Equal(t, 1, res.Replans)
	assert.Equal(t, []string{"0/p:done", "0/f:failed", "1/f:failed"}, statuses(res))
	require.Len(t, res.Calls, 2)
	assert.Equal(t, llm.CallPlan, res.Calls[0].Purpose)
	assert.Equal(t, llm.CallReplan, res.Calls[1].Purpose)
	checkHistory(t, c, "bounded", run.GetID())
}

// WithOnStep's hook runs in the workflow after every step and can stop
// the run: the steps after it do not run, and the history replays with
// the hook.
func TestOnStepHookAbortsTheRun(t *testing.T) {
	c := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	role := &courierRole{}
	plans := scenario("onstep", role)
	startWorker(t, c, "onstep", plans)
	run, err := plans.Start(ctx, c, "onstep", "deliver", courierState{}, temporal.StartOptions{ID: "onstep"})
	require.NoError(t, err)
	res, err := plans.Result(ctx, c, run.GetID())

	// The error crossed the wire: its message and its sentinel.
	require.ErrorIs(t, err, llm.ErrAborted)
	assert.EqualError(t, err, `llm: run aborted after step "ship": shipped: enough for today`)
	assert.Equal(t, llm.StatusFailed, res.Status)
	assert.Equal(t, []string{"0/pack:done", "0/ship:done", "0/work:skipped"}, statuses(res))
	assert.Equal(t, []string{"Pack", "Ship"}, role.ran(), "Work never ran")
	checkHistory(t, c, "onstep", run.GetID())
}

// WithPlanOptions sets the plan activity's options: by default a model
// call that fails is tried again (the run completes); with one attempt
// the run fails with the model's error.
func TestPlanOptionsSetTheModelCallsRetries(t *testing.T) {
	c := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, name := range []string{"flaky", "flaky-once"} {
		plans := scenario(name, &courierRole{})
		startWorker(t, c, name, plans)
		run, err := plans.Start(ctx, c, name, "pack", courierState{}, temporal.StartOptions{ID: name})
		require.NoError(t, err)
		res, err := plans.Result(ctx, c, run.GetID())
		if name == "flaky" {
			require.NoError(t, err)
			assert.Equal(t, llm.StatusCompleted, res.Status)
		} else {
			require.Error(t, err)
			assert.Contains(t, err.Error(), "model server: 503 busy")
		}
	}
}

// WithDAG's limit holds across workers: three workers on the queue, six
// independent steps, never more than two in flight.
func TestDAGConcurrencyLimitHoldsWithSeveralWorkers(t *testing.T) {
	c := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	role := &courierRole{}
	plans := scenario("limit", role)
	for range 3 {
		startWorker(t, c, "limit", plans)
	}
	inflight.Store(0)
	maxInflight.Store(0)
	run, err := plans.Start(ctx, c, "limit", "work", courierState{}, temporal.StartOptions{ID: "limit"})
	require.NoError(t, err)
	res, err := plans.Result(ctx, c, run.GetID())
	require.NoError(t, err)
	assert.Equal(t, llm.StatusCompleted, res.Status)
	assert.Len(t, res.Steps, 6)
	assert.Equal(t, int32(2), maxInflight.Load(), "two steps at once, never more")
	checkHistory(t, c, "limit", run.GetID())
}

// A worker process killed (SIGKILL) in the middle of a step: another
// worker process finishes the plan, the steps recorded done do not run
// again, and the killed step runs again as its retry policy's second
// attempt.
func TestWorkerKilledMidStepAnotherFinishes(t *testing.T) {
	c := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	markers := filepath.Join(t.TempDir(), "markers")
	first := startWorkerProcess(t, "kill", "kill", markers, "Ship")

	plans := scenario("kill", &courierRole{})
	run, err := plans.Start(ctx, c, "kill", "deliver", courierState{}, temporal.StartOptions{ID: "kill"})
	require.NoError(t, err)
	waitFor(t, "Ship to start on the first worker", func() bool {
		lines, _ := markerLines(t, markers)
		return slices.Contains(lines, "start Ship 1")
	})
	require.NoError(t, first.Process.Signal(syscall.SIGKILL))
	_ = first.Wait()
	second := startWorkerProcess(t, "kill", "kill", markers, "")

	res, err := plans.Result(ctx, c, run.GetID())
	require.NoError(t, err)
	assert.Equal(t, llm.StatusCompleted, res.Status)
	assert.Equal(t, []string{"0/pack:done", "0/ship:done", "0/work:done"}, statuses(res))

	lines, pids := markerLines(t, markers)
	assert.Equal(t, []string{
		"start Pack 1", "done Pack 1", // on the first worker, once
		"start Ship 1",                // killed there
		"start Ship 2", "done Ship 2", // its retry, on the second worker
		"start Work 1", "done Work 1",
	}, lines)
	firstPid, secondPid := strconv.Itoa(first.Process.Pid), strconv.Itoa(second.Process.Pid)
	assert.Equal(t, []string{firstPid, firstPid, firstPid, secondPid, secondPid, secondPid, secondPid}, pids)
	checkHistory(t, c, "kill", run.GetID())
}

// An approval that arrives after the worker restarted: the run waits for
// a person with its plan, the worker process is killed, another starts,
// and the approval sent then runs the plan.
func TestApprovalAfterWorkerRestart(t *testing.T) {
	c := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	first := startWorkerProcess(t, "approval", "approval", "", "")
	plans := scenario("approval", &courierRole{})
	run, err := plans.Start(ctx, c, "approval", "deliver", courierState{}, temporal.StartOptions{ID: "approval"})
	require.NoError(t, err)

	var awaiting *llm.Plan
	waitFor(t, "the plan to await approval", func() bool {
		awaiting, err = plans.Awaiting(ctx, c, run.GetID())
		return err == nil && awaiting != nil
	})
	assert.Equal(t, []string{"pack", "ship", "tell"}, stepIDs(awaiting))
	require.NoError(t, first.Process.Signal(syscall.SIGKILL))
	_ = first.Wait()
	startWorkerProcess(t, "approval", "approval", "", "")

	require.NoError(t, plans.Approve(ctx, c, run.GetID(), llm.RemoveSteps()))
	res, err := plans.Result(ctx, c, run.GetID())
	require.NoError(t, err)
	assert.Equal(t, llm.StatusCompleted, res.Status)
	assert.True(t, res.Plan.Approved)
	assert.Equal(t, []string{"0/pack:done", "0/ship:done", "0/tell:done"}, statuses(res))
	// A second decision finds no plan awaiting approval.
	assert.Error(t, plans.Approve(ctx, c, run.GetID(), llm.Approve()))
	checkHistory(t, c, "approval", run.GetID())
}

func stepIDs(p *llm.Plan) []string {
	var ids []string
	for _, s := range p.Steps {
		ids = append(ids, s.ID)
	}
	return ids
}

// The workflow code replays the histories recorded from the real server
// (go test -run . -record rewrites them): a change that makes the
// workflow decide differently from what it did fails here.
func TestReplayRecordedHistories(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "history", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			var h historypb.History
			require.NoError(t, protojson.Unmarshal(data, &h))
			replayer := worker.NewWorkflowReplayer()
			scenario(name, &courierRole{}).RegisterWorkflow(replayer)
			require.NoError(t, replayer.ReplayWorkflowHistory(quietLogger(), &h))
			// And with repair and candidates on, whatever the scenario
			// had: histories from before them replay too.
			replayer = worker.NewWorkflowReplayer()
			scenario(name, &courierRole{}, llm.WithRepair(llm.DefaultRepairBudget), llm.WithCandidates(3)).RegisterWorkflow(replayer)
			require.NoError(t, replayer.ReplayWorkflowHistory(quietLogger(), &h))
		})
	}
}

// A plan repaired and chosen among candidates runs the same in process
// and on Temporal, where the workflow repairs and ranks the model's plans
// itself (Planner.Choose in the engine): the inserted step is marked, the
// dearer candidate loses, and the history replays.
func TestRepairAndCandidatesOnTemporal(t *testing.T) {
	c := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	role := &courierRole{}
	local, localErr := planner("repaired").Run(ctx, "ship", llm.FuncTarget(courier, courierState{}, llm.PerformerExecutor(role)))
	require.NoError(t, localErr)

	plans := scenario("repaired", role)
	startWorker(t, c, "repaired", plans)
	run, err := plans.Start(ctx, c, "repaired", "ship", courierState{}, temporal.StartOptions{ID: "repaired"})
	require.NoError(t, err)
	res, err := plans.Result(ctx, c, run.GetID())
	require.NoError(t, err)

	assert.Equal(t, []string{"0/repair-1:done", "0/ship:done"}, statuses(res))
	require.Len(t, res.Plan.Inserted(), 1)
	assert.Equal(t, "ship", res.Plan.Inserted()[0].Inserted.For)
	require.Len(t, res.Calls, 1, "two candidates in one call")
	assert.Equal(t, comparableResult(local), comparableResult(res))
	checkHistory(t, c, "repaired", run.GetID())
}

// The replay test can fail: the history of six steps run two at a time
// does not replay on a workflow that runs them one at a time.
func TestReplayNoticesAChangedWorkflow(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "history", "limit.json"))
	require.NoError(t, err)
	var h historypb.History
	require.NoError(t, protojson.Unmarshal(data, &h))
	var steps []string
	for i := range 6 {
		steps = append(steps, step(fmt.Sprintf("w%d", i), "Work", `{"ms":400}`))
	}
	inOrder := llm.NewPlanner(courier, replies(planJSON(steps...)), llm.WithMaxSteps(6))
	replayer := worker.NewWorkflowReplayer()
	temporal.New(inOrder).RegisterWorkflow(replayer)
	assert.Error(t, replayer.ReplayWorkflowHistory(quietLogger(), &h))
}

// The workflow repairs and ranks the model's candidates itself: the
// history of the repaired run does not replay on a workflow whose planner
// does not repair (it would run the dearer candidate).
func TestReplayNoticesRepairTurnedOff(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "history", "repaired.json"))
	require.NoError(t, err)
	var h historypb.History
	require.NoError(t, protojson.Unmarshal(data, &h))
	replayer := worker.NewWorkflowReplayer()
	scenario("repaired", &courierRole{}, llm.WithRepair(0)).RegisterWorkflow(replayer)
	assert.Error(t, replayer.ReplayWorkflowHistory(quietLogger(), &h))
}

// The checks of a run in process hold on Temporal, with the same errors:
// a plan with a guarded action and no approval, an approval that does not
// come in time, the token budget, a plan that fails verification.
func TestSameChecksOnTemporal(t *testing.T) {
	c := newClient(t)
	for _, tc := range []struct {
		name     string
		sentinel error
		message  string
		status   llm.Status
	}{
		{"guarded", llm.ErrGuarded, `llm: step "tell" (Notify): plan contains a guarded action and no approver is set`, llm.StatusFailed},
		{"approval-timeout", llm.ErrRejected, "llm: plan rejected by the approver: no approval within 1s", llm.StatusRejected},
		{"budget", llm.ErrTokenBudget, "", llm.StatusFailed},
		{"unverified", llm.ErrUnverified, "", llm.StatusFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			role := &courierRole{}
			local, localErr := planner(tc.name).Run(ctx, "deliver", llm.FuncTarget(courier, courierState{}, llm.PerformerExecutor(role)))

			plans := scenario(tc.name, role)
			startWorker(t, c, "checks-"+tc.name, plans)
			run, err := plans.Start(ctx, c, "checks-"+tc.name, "deliver", courierState{}, temporal.StartOptions{ID: "checks-" + tc.name})
			require.NoError(t, err)
			res, err := plans.Result(ctx, c, run.GetID())

			require.Error(t, err)
			assert.ErrorIs(t, err, tc.sentinel)
			assert.Equal(t, tc.status, res.Status)
			if tc.message != "" {
				assert.Equal(t, tc.message, err.Error())
			}
			if tc.name != "approval-timeout" { // in process there is no approver to wait for
				require.Error(t, localErr)
				assert.Equal(t, localErr.Error(), err.Error())
				assert.Equal(t, comparableResult(local), comparableResult(res))
			}
			assert.Empty(t, role.ran(), "no step ran")
			checkHistory(t, c, tc.name, run.GetID())
		})
	}
}
