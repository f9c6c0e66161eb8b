package llm_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/llm"
)

func TestFileStoreRoundTrip(t *testing.T) {
	ctx := context.Background()
	store, err := llm.NewFileStore(filepath.Join(t.TempDir(), "runs"))
	require.NoError(t, err)

	_, err = store.Load(ctx, "nope")
	assert.ErrorIs(t, err, llm.ErrNoCheckpoint)
	_, err = store.Load(ctx, "../escape")
	assert.Error(t, err)

	rec := newRecorder()
	p := llm.NewPlanner(trip, llm.ScriptedReplies(goodPlan), llm.WithStore(store))
	res, err := p.Run(ctx, "Paris", rec.target(rich), llm.WithRunID("trip-1"))
	require.NoError(t, err)

	cp, err := store.Load(ctx, "trip-1")
	require.NoError(t, err)
	assert.Equal(t, llm.CheckpointVersion, cp.Version)
	assert.Equal(t, "Traveler", cp.Domain)
	assert.Equal(t, "Paris", cp.Goal)
	assert.Equal(t, llm.StatusCompleted, cp.Status)
	assert.Equal(t, []string{"s1", "s2"}, cp.Done())
	assert.Equal(t, res.Plan.WireJSON(), cp.Plan.WireJSON())
	assert.JSONEq(t, `{"step":"s1"}`, string(cp.Steps[0].Output))

	entries, err := os.ReadDir(store.Dir())
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	// The checkpoint and the run's lock file (see FileStore.LockRun); no
	// temporary file is left behind.
	assert.Equal(t, []string{"trip-1.json", "trip-1.lock"}, names)
	assert.Equal(t, store.Path("trip-1"), filepath.Join(store.Dir(), "trip-1.json"))

	// Run ids must be safe file names.
	_, err = p.Run(ctx, "Paris", rec.target(rich), llm.WithRunID("a/b"))
	assert.ErrorContains(t, err, "invalid run id")
}

func TestCheckpointAfterEveryStep(t *testing.T) {
	store := &spyStore{MemoryStore: llm.NewMemoryStore()}
	rec := newRecorder()
	_, err := llm.NewPlanner(trip, llm.ScriptedReplies(threePings), llm.WithStore(store)).Run(context.Background(), "ping", rec.target(rich), llm.WithRunID("spy"))
	require.NoError(t, err)
	// plan accepted, then start and end of each step, then the end.
	assert.Equal(t, []string{
		"running []",
		"running [] p1:running", "running [p1]",
		"running [p1] p2:running", "running [p1 p2]",
		"running [p1 p2] p3:running", "running [p1 p2 p3]",
		"completed [p1 p2 p3]",
	}, store.log)
}

// spyStore logs the status and the done steps of each save.
type spyStore struct {
	*llm.MemoryStore
	log []string
	// failAfter makes saves fail once the log has that many entries.
	failAfter int
}

func (s *spyStore) Save(ctx context.Context, cp *llm.Checkpoint) error {
	if s.failAfter > 0 && len(s.log) >= s.failAfter {
		return errors.New("disk full")
	}
	entry := fmt.Sprintf("%s %v", cp.Status, cp.Done())
	for _, r := range cp.Steps {
		if r.Status == llm.StepRunning {
			entry += " " + r.Step.ID + ":running"
		}
	}
	s.log = append(s.log, entry)
	return s.MemoryStore.Save(ctx, cp)
}

func TestResumeAfterCancellationDoesNotRedoSteps(t *testing.T) {
	store := llm.NewMemoryStore()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rec := newRecorder()
	rec.before = func(ctx context.Context, st llm.Step) error {
		if st.ID == "p3" {
			cancel()
			return ctx.Err()
		}
		return nil
	}
	model := llm.ScriptedReplies(fourPings)
	p := llm.NewPlanner(trip, model, llm.WithStore(store))
	res, err := p.Run(ctx, "ping", rec.target(rich), llm.WithRunID("r1"))
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, llm.StatusCancelled, res.Status)
	assert.Equal(t, []string{"p1", "p2"}, rec.steps())

	rec2 := newRecorder()
	res, err = p.Resume(context.Background(), "r1", rec2.target(rich))
	require.NoError(t, err)
	assert.Equal(t, llm.StatusCompleted, res.Status)
	assert.Equal(t, []string{"p3", "p4"}, rec2.steps(), "done steps are not redone")
	assert.Equal(t, map[string][]string{"p3": {"p1", "p2"}, "p4": {"p1", "p2", "p3"}}, rec2.inputs,
		"the outputs of the steps done before are restored")
	assert.Len(t, model.Requests(), 1, "resuming needs no new plan")
	assert.Equal(t, []string{"0/p1:done", "0/p2:done", "0/p3:cancelled", "0/p4:skipped", "0/p3:done", "0/p4:done"}, statuses(res))

	// A finished run resumes to its result.
	rec3 := newRecorder()
	res, err = p.Resume(context.Background(), "r1", rec3.target(rich))
	require.NoError(t, err)
	assert.Equal(t, llm.StatusCompleted, res.Status)
	assert.Empty(t, rec3.steps())
}

func TestResumeRestoresOutputsForLaterSteps(t *testing.T) {
	store := llm.NewMemoryStore()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rec := newRecorder()
	rec.before = func(ctx context.Context, st llm.Step) error {
		if st.ID == "p2" {
			cancel()
			return ctx.Err()
		}
		return nil
	}
	p := llm.NewPlanner(trip, llm.ScriptedReplies(fourPings), llm.WithStore(store), llm.WithDAG(2))
	_, err := p.Run(ctx, "ping", rec.target(rich), llm.WithRunID("dag"))
	require.ErrorIs(t, err, context.Canceled)

	rec2 := newRecorder()
	res, err := p.Resume(context.Background(), "dag", rec2.target(rich))
	require.NoError(t, err)
	assert.Equal(t, []string{"p2", "p3", "p4"}, rec2.steps())
	assert.Equal(t, []string{"p1"}, rec2.inputs["p2"], "p2 sees p1's output, restored from the checkpoint")
	assert.True(t, res.Succeeded())
}

func TestResumeRunsAgainAStepWhoseCompletionWasNotRecorded(t *testing.T) {
	// The store fails right after recording p2 as running: as if the
	// process died during p2.
	store := &spyStore{MemoryStore: llm.NewMemoryStore(), failAfter: 4}
	rec := newRecorder()
	p := llm.NewPlanner(trip, llm.ScriptedReplies(threePings), llm.WithStore(store))
	_, err := p.Run(context.Background(), "ping", rec.target(rich), llm.WithRunID("torn"))
	require.ErrorContains(t, err, "disk full")
	assert.Equal(t, []string{"p1", "p2"}, rec.steps())

	cp, err := store.Load(context.Background(), "torn")
	require.NoError(t, err)
	assert.Equal(t, llm.StatusRunning, cp.Status)
	assert.Equal(t, []string{"p1"}, cp.Done())

	store.failAfter = 0
	rec2 := newRecorder()
	res, err := p.Resume(context.Background(), "torn", rec2.target(rich))
	require.NoError(t, err)
	assert.Equal(t, []string{"p2", "p3"}, rec2.steps(), "p2 runs again: at least once")
	assert.Equal(t, []string{"0/p1:done", "0/p2:interrupted", "0/p2:done", "0/p3:done"}, statuses(res))
	assert.Contains(t, res.Steps[1].Note, "runs again")
}

func TestResumeErrors(t *testing.T) {
	ctx := context.Background()
	_, err := llm.NewPlanner(trip, nil).Resume(ctx, "x", newRecorder().target(rich))
	assert.ErrorIs(t, err, llm.ErrNoStore)

	store := llm.NewMemoryStore()
	p := llm.NewPlanner(trip, llm.ScriptedReplies(planJSON()), llm.WithStore(store))
	_, err = p.Resume(ctx, "missing", newRecorder().target(rich))
	assert.ErrorIs(t, err, llm.ErrNoCheckpoint)

	_, err = p.Run(ctx, "nothing", newRecorder().target(rich), llm.WithRunID("bad"))
	require.ErrorIs(t, err, llm.ErrEmptyPlan)
	res, err := p.Resume(ctx, "bad", newRecorder().target(rich))
	assert.ErrorIs(t, err, llm.ErrRunFinished)
	assert.Contains(t, err.Error(), "empty plan")
	assert.Equal(t, llm.StatusFailed, res.Status)
}

// TestResumeAfterKill runs a plan in a child process (the test binary
// itself, see TestMain), kills it with SIGKILL during a step once the
// file-store checkpoint records a few completed steps, and resumes the run
// here: no step recorded done runs twice, and the step in flight at the
// kill runs again.
func TestResumeAfterKill(t *testing.T) {
	dir := t.TempDir()
	storeDir := filepath.Join(dir, "store")
	logPath := filepath.Join(dir, "effects.log")

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"=1", helperStoreEnv+"="+storeDir, helperLogEnv+"="+logPath)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())

	store, err := llm.NewFileStore(storeDir)
	require.NoError(t, err)
	ctx := context.Background()
	// Kill during a step: once at least 3 steps are recorded done and the
	// step recorded running has had its side effect (it then sleeps long).
	deadline := time.Now().Add(20 * time.Second)
	inFlight := ""
	for inFlight == "" {
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("the helper made no progress:\n%s", stderr.String())
		}
		time.Sleep(2 * time.Millisecond)
		cp, err := store.Load(ctx, crashRunID)
		if err != nil || len(cp.Done()) < 3 {
			continue
		}
		running := runningStep(cp)
		if running == "" {
			continue
		}
		if log, _ := os.ReadFile(logPath); slices.Contains(strings.Fields(string(log)), running) {
			inFlight = running
		}
	}
	require.NoError(t, cmd.Process.Kill()) // SIGKILL: no cleanup of any kind
	err = cmd.Wait()
	require.Error(t, err, "the helper must not have finished on its own")

	cp, err := store.Load(ctx, crashRunID)
	require.NoError(t, err)
	require.Equal(t, llm.StatusRunning, cp.Status)
	doneBefore := cp.Done()
	require.GreaterOrEqual(t, len(doneBefore), 3)
	require.Less(t, len(doneBefore), crashSteps)
	require.Equal(t, inFlight, runningStep(cp), "the kill came during the step")

	model := llm.NewScriptedModel() // resuming must not ask for a plan
	p := llm.NewPlanner(trip, model, llm.WithStore(store))
	res, err := p.Resume(ctx, crashRunID, llm.FuncTarget(trip, tripState{}, appendingExecutor(logPath, func(llm.Step) time.Duration { return 0 })))
	require.NoError(t, err)
	assert.Equal(t, llm.StatusCompleted, res.Status)
	assert.Empty(t, model.Requests())

	data, err := os.ReadFile(logPath)
	require.NoError(t, err)
	counts := map[string]int{}
	for _, line := range strings.Fields(string(data)) {
		counts[line]++
	}
	for i := 1; i <= crashSteps; i++ {
		id := fmt.Sprintf("p%d", i)
		want := 1
		if id == inFlight {
			want = 2 // started, completion not recorded: at least once
		}
		assert.Equal(t, want, counts[id], "side effects of step %s", id)
	}
	t.Logf("done before the kill: %v, in flight: %s; side effects: %v", doneBefore, inFlight, counts)
	var interrupted []string
	for _, r := range res.Steps {
		if r.Status == llm.StepInterrupted {
			interrupted = append(interrupted, r.Step.ID)
		}
	}
	assert.Equal(t, []string{inFlight}, interrupted)
	final, err := store.Load(ctx, crashRunID)
	require.NoError(t, err)
	assert.Equal(t, llm.StatusCompleted, final.Status)
	assert.Len(t, final.Done(), crashSteps)
}

// TestResumeAfterKillWhileReplanning kills a run while it asks the model
// for a revision after a failed step: Resume asks again, with the failure,
// and runs the revision; the plan that failed is not resumed, no step is
// run twice, and the replan is counted once.
func TestResumeAfterKillWhileReplanning(t *testing.T) {
	dir := t.TempDir()
	storeDir := filepath.Join(dir, "store")
	logPath := filepath.Join(dir, "effects.log")

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"=1", helperModeEnv+"=replan",
		helperStoreEnv+"="+storeDir, helperLogEnv+"="+logPath)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())

	store, err := llm.NewFileStore(storeDir)
	require.NoError(t, err)
	ctx := context.Background()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("the helper never replanned:\n%s", stderr.String())
		}
		time.Sleep(2 * time.Millisecond)
		if cp, err := store.Load(ctx, crashRunID); err == nil && cp.Replanning != nil {
			break
		}
	}
	require.NoError(t, cmd.Process.Kill())
	require.Error(t, cmd.Wait(), "the helper must not have finished on its own")

	cp, err := store.Load(ctx, crashRunID)
	require.NoError(t, err)
	assert.Equal(t, llm.StatusRunning, cp.Status)
	assert.Equal(t, 1, cp.Replans)
	assert.Contains(t, cp.Replanning.Failure, "the agency is closed")

	revised := planJSON(step("q2", "Ping", "{}")) // what is left to do
	model := llm.NewScriptedModel(llm.Reply{Text: revised})
	p := llm.NewPlanner(trip, model, llm.WithStore(store))
	res, err := p.Resume(ctx, crashRunID, llm.FuncTarget(trip, tripState{}, appendingExecutor(logPath, func(llm.Step) time.Duration { return 0 })))
	require.NoError(t, err)
	assert.Equal(t, llm.StatusCompleted, res.Status)
	assert.Equal(t, 1, res.Replans)
	require.Len(t, model.Requests(), 1, "Resume asks for the revision again")
	prompt := model.Requests()[0].Messages[1].Content
	assert.Contains(t, prompt, "the agency is closed")

	data, err := os.ReadFile(logPath)
	require.NoError(t, err)
	// p1 ran and p2 failed before the kill; after it only the revision's
	// q2 runs: neither p2 nor p3 of the failed plan.
	assert.Equal(t, []string{"p1", "p2", "q2"}, strings.Fields(string(data)))
	final, err := store.Load(ctx, crashRunID)
	require.NoError(t, err)
	assert.Nil(t, final.Replanning)
	assert.Equal(t, llm.StatusCompleted, final.Status)
}

// runningStep returns the id of the step a checkpoint records as running.
func runningStep(cp *llm.Checkpoint) string {
	for _, r := range cp.Steps {
		if r.Status == llm.StepRunning {
			return r.Step.ID
		}
	}
	return ""
}

// A run cancelled while the model is asked for a revision resumes by
// asking again: the failed plan does not run again, and the replan is
// counted once.
func TestResumeAfterCancellationWhileReplanning(t *testing.T) {
	store := llm.NewMemoryStore()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rec := newRecorder()
	rec.fail["s2"] = errors.New("no rooms")
	rec.failOnce = true
	cancelOnFailure := func(_ context.Context, r llm.StepRecord) llm.Directive {
		if r.Status == llm.StepFailed {
			cancel() // the replanning call then sees a cancelled context
		}
		return llm.Continue()
	}
	model := llm.ScriptedReplies(goodPlan, planJSON(step("n1", "Ping", `{}`)))
	p := llm.NewPlanner(trip, model, llm.WithStore(store), llm.WithOnStep(cancelOnFailure))
	res, err := p.Run(ctx, "trip", rec.target(rich), llm.WithRunID("c1"))
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, llm.StatusCancelled, res.Status)
	cp, err := store.Load(context.Background(), "c1")
	require.NoError(t, err)
	require.NotNil(t, cp.Replanning, "the checkpoint says the run was replanning")

	res, err = p.Resume(context.Background(), "c1", rec.target(rich))
	require.NoError(t, err)
	assert.Equal(t, llm.StatusCompleted, res.Status)
	assert.Equal(t, 1, res.Replans)
	assert.Equal(t, []string{"s1", "s2!", "n1"}, rec.steps(), "s2 is not run again")
}
