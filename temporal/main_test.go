package temporal_test

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	sdktemporal "go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/temporal"
	"github.com/rolegen/rolegen/temporal/internal/testserver"
)

var record = flag.Bool("record", false, "write the histories of the runs to testdata/history for the replay test")

// server is the real Temporal server every test talks to, started by
// TestMain (the test binary re-run as a worker process talks to it too).
var server *testserver.Server

// Environment of the test binary re-run as a worker process.
const (
	envWorker   = "ROLEGEN_TEMPORAL_WORKER" // the server's address
	envScenario = "ROLEGEN_SCENARIO"
	envQueue    = "ROLEGEN_QUEUE"
	envMarkers  = "ROLEGEN_MARKERS"
	envHang     = "ROLEGEN_HANG"
)

func TestMain(m *testing.M) {
	if addr := os.Getenv(envWorker); addr != "" {
		os.Exit(workerMain(addr))
	}
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	var err error
	server, err = testserver.Start(ctx)
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	server.Stop()
	os.Exit(code)
}

// workerMain is the test binary as a worker process: it serves the
// scenario's workflow and activities on the queue until it is killed.
func workerMain(addr string) int {
	c, err := dial(addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer c.Close()
	role := &courierRole{markers: os.Getenv(envMarkers), hang: os.Getenv(envHang)}
	w := worker.New(c, os.Getenv(envQueue), workerOptions())
	scenario(os.Getenv(envScenario), role).Register(w)
	if err := w.Run(worker.InterruptCh()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

func quietLogger() sdklog.Logger {
	return sdklog.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
}

func dial(addr string) (client.Client, error) {
	return client.Dial(client.Options{HostPort: addr, Namespace: "default", Logger: quietLogger()})
}

// workerOptions: a dead worker's sticky queue is given up after a second,
// so that the next worker takes the workflow over quickly.
func workerOptions() worker.Options {
	return worker.Options{StickyScheduleToStartTimeout: time.Second}
}

// The plans of each scenario, the same in the test process and in the
// worker processes it starts.
const (
	orderPlan1 = `{"steps":[` +
		`{"id":"pack","capability":"Pack","args":{},"dependsOn":[]},` +
		`{"id":"fail","capability":"Fail","args":{},"dependsOn":["pack"]},` +
		`{"id":"ship","capability":"Ship","args":{},"dependsOn":["fail"]}]}`
	orderPlan2 = `{"steps":[` +
		`{"id":"ship","capability":"Ship","args":{},"dependsOn":[]},` +
		`{"id":"work","capability":"Work","args":{"ms":5},"dependsOn":["ship"]}]}`
)

func fastSteps() temporal.Option {
	return temporal.WithStepOptions(workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &sdktemporal.RetryPolicy{MaximumAttempts: 2, InitialInterval: 50 * time.Millisecond},
	})
}

// failOnce: a failing action is not retried by Temporal (the run replans).
func failOnce() temporal.Option {
	return temporal.WithActionOptions(aFail, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &sdktemporal.RetryPolicy{MaximumAttempts: 1},
	})
}

// planner returns the planner of a scenario, with more options.
func planner(name string, more ...llm.Option) *llm.Planner[courierState] {
	p := scenarioPlanner(name)
	return llm.NewPlanner(courier, p.model, append(p.opts, more...)...)
}

type plannerSpec struct {
	model llm.Model
	opts  []llm.Option
}

func spec(model llm.Model, opts ...llm.Option) plannerSpec { return plannerSpec{model, opts} }

// scenarioPlanner is the model and options of a scenario's planner.
func scenarioPlanner(name string) plannerSpec {
	switch name {
	case "order":
		return spec(replies(orderPlan1, orderPlan2), llm.WithMaxReplans(2))
	case "dag":
		return spec(replies(orderPlan1, orderPlan2), llm.WithMaxReplans(2), llm.WithDAG(2))
	case "bounded":
		// Every plan fails; one replan is allowed.
		return spec(replies(planJSON(step("p", "Pack", "{}"), step("f", "Fail", "{}", "p")), planJSON(step("f", "Fail", "{}"))),
			llm.WithMaxReplans(1))
	case "limit":
		var steps []string
		for i := range 6 {
			steps = append(steps, step(fmt.Sprintf("w%d", i), "Work", `{"ms":400}`))
		}
		return spec(replies(planJSON(steps...)), llm.WithDAG(2), llm.WithMaxSteps(6))
	case "flaky", "flaky-once":
		// The model's first call fails; the plan activity's retry policy
		// decides whether the run sees it.
		return spec(flaky(replies(planJSON(step("pack", "Pack", "{}")))), llm.WithMaxReplans(0))
	case "kill", "onstep":
		return spec(replies(planJSON(step("pack", "Pack", "{}"), step("ship", "Ship", "{}", "pack"), step("work", "Work", `{"ms":5}`, "ship"))))
	case "approval", "approval-timeout", "guarded":
		return spec(replies(planJSON(step("pack", "Pack", "{}"), step("ship", "Ship", "{}", "pack"), step("tell", "Notify", "{}", "ship"))),
			llm.WithGoals(0))
	case "budget":
		return spec(replies(planJSON(step("pack", "Pack", "{}"))), llm.WithTokenBudget(50))
	case "unverified":
		// Ship before Pack: its precondition fails in simulation, and
		// without repair the run fails.
		return spec(replies(planJSON(step("ship", "Ship", "{}"), step("pack", "Pack", "{}"))), llm.WithRequireVerified(0), llm.WithRepair(0))
	case "repaired":
		// Two candidates in one call: one ships without packing (repair
		// inserts Pack: it costs 2), one packs, ships and works (3).
		return spec(candidates(planJSON(step("ship", "Ship", "{}")),
			planJSON(step("pack", "Pack", "{}"), step("ship", "Ship", "{}", "pack"), step("work", "Work", `{"ms":5}`, "ship"))),
			llm.WithCandidates(2), llm.WithRequireVerified(0))
	}
	panic("unknown scenario " + name)
}

// scenario returns the Temporal plans of a scenario with role performing
// the steps, its planner given more options.
func scenario(name string, role *courierRole, more ...llm.Option) *temporal.Plans[courierState] {
	opts := []temporal.Option{
		temporal.WithPerformer(func(context.Context, string) (llm.Performer, error) { return role, nil }),
		fastSteps(), failOnce(),
	}
	switch name {
	case "kill":
		// Ship heartbeats: a worker that dies during it is noticed within
		// two seconds and the step runs again elsewhere.
		opts = append(opts, temporal.WithTagOptions("slow", workflow.ActivityOptions{
			StartToCloseTimeout: time.Minute,
			HeartbeatTimeout:    2 * time.Second,
			RetryPolicy:         &sdktemporal.RetryPolicy{MaximumAttempts: 3, InitialInterval: 100 * time.Millisecond},
		}))
	case "flaky-once":
		opts = append(opts, temporal.WithPlanOptions(workflow.ActivityOptions{
			StartToCloseTimeout: 30 * time.Second,
			RetryPolicy:         &sdktemporal.RetryPolicy{MaximumAttempts: 1},
		}))
	case "onstep":
		// The hook, workflow code, stops the run once the parcel shipped.
		opts = append(opts, temporal.WithOnStep(func(_ workflow.Context, rec llm.StepRecord) llm.Directive {
			if rec.Step.ID == "ship" && rec.Status == llm.StepDone {
				return llm.Directive{Kind: llm.DirectiveAbort, Reason: "shipped: enough for today"}
			}
			return llm.Directive{}
		}))
	case "approval":
		opts = append(opts, temporal.WithApproval(temporal.Approval{Required: true, Timeout: 10 * time.Minute}))
	case "approval-timeout":
		opts = append(opts, temporal.WithApproval(temporal.Approval{Required: true, Timeout: time.Second}))
	}
	return temporal.New(planner(name, more...), opts...)
}

// newClient connects to the test server.
func newClient(t *testing.T) client.Client {
	t.Helper()
	c, err := dial(server.Address)
	require.NoError(t, err)
	t.Cleanup(c.Close)
	return c
}

// startWorker runs a worker of the scenario in this process.
func startWorker(t *testing.T, c client.Client, queue string, plans *temporal.Plans[courierState]) {
	t.Helper()
	w := worker.New(c, queue, workerOptions())
	plans.Register(w)
	require.NoError(t, w.Start())
	t.Cleanup(w.Stop)
}

// startWorkerProcess runs a worker of the scenario in a process of its
// own (this test binary again), which the test may kill.
func startWorkerProcess(t *testing.T, name, queue, markers, hang string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(),
		envWorker+"="+server.Address, envScenario+"="+name, envQueue+"="+queue,
		envMarkers+"="+markers, envHang+"="+hang)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	return cmd
}

// waitFor polls cond until it holds or a minute passed.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// markerLines returns the lines of a markers file, without the pids, and
// the pid of each.
func markerLines(t *testing.T, path string) (lines []string, pids []string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	require.NoError(t, err)
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if l == "" {
			continue
		}
		text, pid, _ := strings.Cut(l, " pid=")
		lines, pids = append(lines, text), append(pids, pid)
	}
	return lines, pids
}

// checkHistory replays the finished run's history with a fresh replayer
// (determinism of the workflow code on every run of the tests) and, with
// -record, keeps it in testdata/history for TestReplayRecordedHistories.
func checkHistory(t *testing.T, c client.Client, name, workflowID string) {
	t.Helper()
	h := history(t, c, workflowID)
	replayer := worker.NewWorkflowReplayer()
	scenario(name, &courierRole{}).RegisterWorkflow(replayer)
	require.NoError(t, replayer.ReplayWorkflowHistory(quietLogger(), h), "replaying %s", workflowID)
	if *record {
		data, err := protojson.MarshalOptions{Indent: "  "}.Marshal(h)
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Join("testdata", "history"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join("testdata", "history", name+".json"), append(data, '\n'), 0o644))
	}
}

// history returns the history of a finished run.
func history(t *testing.T, c client.Client, workflowID string) *historypb.History {
	t.Helper()
	iter := c.GetWorkflowHistory(context.Background(), workflowID, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	h := &historypb.History{}
	for iter.HasNext() {
		ev, err := iter.Next()
		require.NoError(t, err)
		h.Events = append(h.Events, ev)
	}
	return h
}
