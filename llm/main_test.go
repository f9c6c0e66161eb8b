package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/rolegen/rolegen/llm"
)

// The crash test re-executes the test binary as a helper process that runs
// a plan with a file store; these variables tell it so.
const (
	helperEnv      = "LLM_TEST_CRASH_HELPER"
	helperStoreEnv = "LLM_TEST_CRASH_STORE"
	helperLogEnv   = "LLM_TEST_CRASH_LOG"
	// helperModeEnv "replan": a step fails and the process is killed while
	// the model is asked for a revision; "resume": the helper resumes
	// crashRunID (see resumeHelper).
	helperModeEnv = "LLM_TEST_CRASH_MODE"
	// helperGateEnv names a file a resuming helper waits for before each
	// step; helperSlowEnv a step from which (in step order) each step
	// takes long enough for the parent to kill the helper during it.
	helperGateEnv = "LLM_TEST_CRASH_GATE"
	helperSlowEnv = "LLM_TEST_CRASH_SLOW"
	// exitRunInProgress is a resuming helper's exit status when another
	// runner owns the run.
	exitRunInProgress = 3
	crashRunID        = "crash-run"
	crashSteps        = 8
)

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		os.Exit(crashHelper())
	}
	goleak.VerifyTestMain(m)
}

// crashPlan is the plan of the crash test: crashSteps pings in a chain.
func crashPlan() string {
	steps := make([]string, crashSteps)
	for i := range steps {
		var deps []string
		if i > 0 {
			deps = []string{fmt.Sprintf("p%d", i)}
		}
		steps[i] = step(fmt.Sprintf("p%d", i+1), "Ping", "{}", deps...)
	}
	return planJSON(steps...)
}

// appendingExecutor appends the step's id to the log file, as the side
// effect a crash must not repeat, then takes pause(step) to finish.
func appendingExecutor(logPath string, pause func(llm.Step) time.Duration) llm.Executor {
	return func(ctx context.Context, st llm.Step, _ map[string]json.RawMessage) (json.RawMessage, error) {
		f, err := os.OpenFile(logPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return nil, err
		}
		_, err = fmt.Fprintln(f, st.ID)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, err
		}
		select {
		case <-time.After(pause(st)):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return nil, nil
	}
}

// crashHelper runs the crash test's plan until the parent kills it.
func crashHelper() int {
	store, err := llm.NewFileStore(os.Getenv(helperStoreEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	switch os.Getenv(helperModeEnv) {
	case "replan":
		return crashWhileReplanning(store)
	case "resume":
		return resumeHelper(store)
	}
	p := llm.NewPlanner(trip, llm.ScriptedReplies(crashPlan()), llm.WithStore(store))
	// The first steps are quick; from the fourth on a step takes long
	// enough for the parent to kill the process during it.
	pause := func(st llm.Step) time.Duration {
		if st.ID <= "p3" {
			return 20 * time.Millisecond
		}
		return 10 * time.Second
	}
	target := llm.FuncTarget(trip, tripState{}, appendingExecutor(os.Getenv(helperLogEnv), pause))
	if _, err := p.Run(context.Background(), "ping the agency", target, llm.WithRunID(crashRunID)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// The plan of the replanning crash test: its second step fails.
var (
	replanCrashPlan = planJSON(step("p1", "Ping", "{}"), step("p2", "Ping", "{}", "p1"), step("p3", "Ping", "{}", "p2"))
	errAgencyClosed = errors.New("the agency is closed")
)

// crashWhileReplanning runs replanCrashPlan; p2 fails, and the model,
// asked for a revision, never answers: the parent kills the process then.
func crashWhileReplanning(store llm.Store) int {
	calls := 0
	model := llm.ModelFunc(func(ctx context.Context, _ llm.Request) (llm.Response, error) {
		calls++
		if calls == 1 {
			return llm.Response{Text: replanCrashPlan}, nil
		}
		<-ctx.Done() // the parent kills the process before this returns
		return llm.Response{}, ctx.Err()
	})
	exec := appendingExecutor(os.Getenv(helperLogEnv), func(llm.Step) time.Duration { return 0 })
	failing := func(ctx context.Context, st llm.Step, in map[string]json.RawMessage) (json.RawMessage, error) {
		out, err := exec(ctx, st, in)
		if err == nil && st.ID == "p2" {
			err = errAgencyClosed
		}
		return out, err
	}
	p := llm.NewPlanner(trip, model, llm.WithStore(store))
	if _, err := p.Run(context.Background(), "ping the agency", llm.FuncTarget(trip, tripState{}, failing), llm.WithRunID(crashRunID)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// resumeHelper resumes crashRunID: exit status 0 when the run completed,
// exitRunInProgress when another runner owns it. Before each step it waits
// for the gate file (helperGateEnv), if one is named; steps from
// helperSlowEnv on take 10s.
func resumeHelper(store llm.Store) int {
	gate, slow := os.Getenv(helperGateEnv), os.Getenv(helperSlowEnv)
	exec := appendingExecutor(os.Getenv(helperLogEnv), func(st llm.Step) time.Duration {
		if slow != "" && st.ID >= slow {
			return 10 * time.Second
		}
		return 0
	})
	gated := func(ctx context.Context, st llm.Step, in map[string]json.RawMessage) (json.RawMessage, error) {
		for gate != "" {
			if _, err := os.Stat(gate); err == nil {
				break
			}
			select {
			case <-time.After(2 * time.Millisecond):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		return exec(ctx, st, in)
	}
	p := llm.NewPlanner(trip, llm.NewScriptedModel(), llm.WithStore(store))
	res, err := p.Resume(context.Background(), crashRunID, llm.FuncTarget(trip, tripState{}, gated))
	var rip *llm.RunInProgressError
	switch {
	case errors.As(err, &rip) && rip.RunID == crashRunID:
		fmt.Fprintln(os.Stderr, err)
		return exitRunInProgress
	case err != nil:
		fmt.Fprintln(os.Stderr, err)
		return 1
	case res.Status != llm.StatusCompleted:
		fmt.Fprintln(os.Stderr, "run ended", res.Status)
		return 1
	}
	return 0
}
