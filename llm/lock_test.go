package llm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/llm"
)

func noPause(llm.Step) time.Duration { return 0 }

// prepareResumable saves in store the crash test's run (crashRunID, eight
// pings in a chain) stopped after its first step, whose side effect goes
// to logPath: a run Resume continues with steps p2 to p8.
func prepareResumable(t *testing.T, store llm.Store, logPath string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopAfterFirst := func(context.Context, llm.StepRecord) llm.Directive {
		cancel()
		return llm.Continue()
	}
	p := llm.NewPlanner(trip, llm.ScriptedReplies(crashPlan()), llm.WithStore(store), llm.WithOnStep(stopAfterFirst))
	target := llm.FuncTarget(trip, tripState{}, appendingExecutor(logPath, noPause))
	res, err := p.Run(ctx, "ping the agency", target, llm.WithRunID(crashRunID))
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, llm.StatusCancelled, res.Status)
	cp, err := store.Load(context.Background(), crashRunID)
	require.NoError(t, err)
	require.Equal(t, []string{"p1"}, cp.Done())
}

// sideEffects counts the step ids logged in the given files (a missing
// file logged nothing).
func sideEffects(t *testing.T, paths ...string) map[string]int {
	t.Helper()
	counts := map[string]int{}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		require.NoError(t, err)
		for _, id := range strings.Fields(string(data)) {
			counts[id]++
		}
	}
	return counts
}

// loggedSteps returns the step ids a log file holds, in order.
func loggedSteps(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	require.NoError(t, err)
	return strings.Fields(string(data))
}

// onceEach is the side effects of a run of the crash plan in which every
// step ran once, but for the steps given, which ran twice.
func onceEach(twice ...string) map[string]int {
	counts := map[string]int{}
	for i := 1; i <= crashSteps; i++ {
		id := fmt.Sprintf("p%d", i)
		counts[id] = 1
		if slices.Contains(twice, id) {
			counts[id] = 2
		}
	}
	return counts
}

// helperProcess is the test binary re-run as a resuming helper (see
// resumeHelper).
type helperProcess struct {
	cmd    *exec.Cmd
	stderr bytes.Buffer
	done   chan struct{}
	err    error
}

// startResumeHelper starts a helper that resumes crashRunID from the file
// store in storeDir, logging its side effects to logPath; gate and slow
// are as in resumeHelper ("" for none).
func startResumeHelper(t *testing.T, storeDir, logPath, gate, slow string) *helperProcess {
	t.Helper()
	h := &helperProcess{done: make(chan struct{})}
	h.cmd = exec.Command(os.Args[0], "-test.run=^$")
	h.cmd.Env = append(os.Environ(), helperEnv+"=1", helperModeEnv+"=resume",
		helperStoreEnv+"="+storeDir, helperLogEnv+"="+logPath,
		helperGateEnv+"="+gate, helperSlowEnv+"="+slow)
	h.cmd.Stderr = &h.stderr
	require.NoError(t, h.cmd.Start())
	go func() {
		h.err = h.cmd.Wait()
		close(h.done)
	}()
	t.Cleanup(func() {
		_ = h.cmd.Process.Kill()
		<-h.done
	})
	return h
}

// exitCode waits for the helper to exit and returns its status.
func (h *helperProcess) exitCode(t *testing.T) int {
	t.Helper()
	select {
	case <-h.done:
	case <-time.After(30 * time.Second):
		t.Fatalf("the helper did not exit:\n%s", h.output())
	}
	return h.cmd.ProcessState.ExitCode()
}

// output kills the helper if it still runs and returns what it wrote to
// stderr.
func (h *helperProcess) output() string {
	_ = h.cmd.Process.Kill()
	<-h.done
	return h.stderr.String()
}

// TestTwoProcessesResumeOneRun starts two processes that resume the same
// run at once: one owns it and runs every pending step once; the other
// fails at once with ErrRunInProgress, having performed nothing. The owner
// waits at a gate before its first step, which opens only once the other
// process has exited, so the two overlap whichever starts first.
func TestTwoProcessesResumeOneRun(t *testing.T) {
	dir := t.TempDir()
	storeDir := filepath.Join(dir, "store")
	store, err := llm.NewFileStore(storeDir)
	require.NoError(t, err)
	parentLog := filepath.Join(dir, "parent.log")
	prepareResumable(t, store, parentLog)

	gate := filepath.Join(dir, "gate")
	logs := []string{filepath.Join(dir, "helper0.log"), filepath.Join(dir, "helper1.log")}
	helpers := []*helperProcess{
		startResumeHelper(t, storeDir, logs[0], gate, ""),
		startResumeHelper(t, storeDir, logs[1], gate, ""),
	}
	loser := -1
	select {
	case <-helpers[0].done:
		loser = 0
	case <-helpers[1].done:
		loser = 1
	case <-time.After(30 * time.Second):
		t.Fatalf("neither helper gave up:\n%s\n%s", helpers[0].output(), helpers[1].output())
	}
	owner := 1 - loser
	require.Equal(t, exitRunInProgress, helpers[loser].exitCode(t), "the helper that exited first: %s", helpers[loser].output())
	assert.Contains(t, helpers[loser].output(), "run in progress")
	assert.Empty(t, loggedSteps(t, logs[loser]), "the process that lost performed nothing")

	require.NoError(t, os.WriteFile(gate, nil, 0o644))
	require.Equal(t, 0, helpers[owner].exitCode(t), helpers[owner].output())
	assert.Equal(t, []string{"p2", "p3", "p4", "p5", "p6", "p7", "p8"}, loggedSteps(t, logs[owner]))
	assert.Equal(t, onceEach(), sideEffects(t, parentLog, logs[0], logs[1]))
	final, err := store.Load(context.Background(), crashRunID)
	require.NoError(t, err)
	assert.Equal(t, llm.StatusCompleted, final.Status)
	assert.Len(t, final.Done(), crashSteps)
}

// TestResumeTakesOverAfterOwnerKilled kills the process that owns a run
// (SIGKILL) during a step. While it lives, a second process's Resume fails
// with ErrRunInProgress and changes nothing; once it is dead its lock is
// gone at once, and the next process takes the run over: the step in
// flight at the kill runs again (at least once), every other step once.
func TestResumeTakesOverAfterOwnerKilled(t *testing.T) {
	dir := t.TempDir()
	storeDir := filepath.Join(dir, "store")
	store, err := llm.NewFileStore(storeDir)
	require.NoError(t, err)
	ctx := context.Background()
	parentLog := filepath.Join(dir, "parent.log")
	prepareResumable(t, store, parentLog)

	ownerLog := filepath.Join(dir, "owner.log")
	owner := startResumeHelper(t, storeDir, ownerLog, "", "p4") // p4 takes 10s
	deadline := time.Now().Add(30 * time.Second)
	for !slices.Contains(loggedSteps(t, ownerLog), "p4") {
		select {
		case <-owner.done:
			t.Fatalf("the owner exited: %v\n%s", owner.err, owner.output())
		case <-time.After(2 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("the owner never reached p4:\n%s", owner.output())
		}
	}
	cp, err := store.Load(ctx, crashRunID)
	require.NoError(t, err)
	require.Equal(t, "p4", runningStep(cp))

	// While the owner lives, the run is its own: in this process and in
	// another.
	_, err = store.LockRun(ctx, crashRunID)
	require.ErrorIs(t, err, llm.ErrRunInProgress)
	before, err := os.ReadFile(store.Path(crashRunID))
	require.NoError(t, err)
	otherLog := filepath.Join(dir, "other.log")
	other := startResumeHelper(t, storeDir, otherLog, "", "")
	require.Equal(t, exitRunInProgress, other.exitCode(t), other.output())
	assert.Empty(t, loggedSteps(t, otherLog))
	after, err := os.ReadFile(store.Path(crashRunID))
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after), "the refused resume saved nothing")

	require.NoError(t, owner.cmd.Process.Kill()) // SIGKILL: no cleanup of any kind
	<-owner.done
	require.Error(t, owner.err, "the owner must not have finished on its own")

	// The lock did not outlive its holder: no wait, no cleanup.
	release, err := store.LockRun(ctx, crashRunID)
	require.NoError(t, err)
	release()

	takeover := startResumeHelper(t, storeDir, otherLog, "", "")
	require.Equal(t, 0, takeover.exitCode(t), takeover.output())
	assert.Equal(t, []string{"p2", "p3", "p4"}, loggedSteps(t, ownerLog))
	assert.Equal(t, []string{"p4", "p5", "p6", "p7", "p8"}, loggedSteps(t, otherLog))
	assert.Equal(t, onceEach("p4"), sideEffects(t, parentLog, ownerLog, otherLog))

	final, err := store.Load(ctx, crashRunID)
	require.NoError(t, err)
	assert.Equal(t, llm.StatusCompleted, final.Status)
	assert.Len(t, final.Done(), crashSteps)
	var interrupted []string
	for _, r := range final.Steps {
		if r.Status == llm.StepInterrupted {
			interrupted = append(interrupted, r.Step.ID)
		}
	}
	assert.Equal(t, []string{"p4"}, interrupted)
}

// TestConcurrentResumeInOneProcess resumes one run from two goroutines:
// exactly one runs it, with one store value or two over the same data.
// The first step waits until the other Resume has given up, so the two
// overlap whichever locks first.
func TestConcurrentResumeInOneProcess(t *testing.T) {
	cases := []struct {
		name   string
		stores func(t *testing.T) (llm.Store, llm.Store)
	}{
		{"one FileStore", func(t *testing.T) (llm.Store, llm.Store) {
			s, err := llm.NewFileStore(t.TempDir())
			require.NoError(t, err)
			return s, s
		}},
		{"two FileStores over one directory", func(t *testing.T) (llm.Store, llm.Store) {
			dir := t.TempDir()
			a, err := llm.NewFileStore(dir)
			require.NoError(t, err)
			b, err := llm.NewFileStore(dir)
			require.NoError(t, err)
			return a, b
		}},
		{"one MemoryStore", func(*testing.T) (llm.Store, llm.Store) {
			s := llm.NewMemoryStore()
			return s, s
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a, b := tc.stores(t)
			logPath := filepath.Join(t.TempDir(), "effects.log")
			prepareResumable(t, a, logPath)

			gaveUp := make(chan struct{})
			var gaveUpOnce sync.Once
			exec := appendingExecutor(logPath, noPause)
			gated := func(ctx context.Context, st llm.Step, in map[string]json.RawMessage) (json.RawMessage, error) {
				select {
				case <-gaveUp:
				case <-time.After(10 * time.Second):
					return nil, errors.New("the other Resume never gave up")
				}
				return exec(ctx, st, in)
			}
			type outcome struct {
				res *llm.Result
				err error
			}
			outcomes := make([]outcome, 2)
			var wg sync.WaitGroup
			for i, store := range []llm.Store{a, b} {
				p := llm.NewPlanner(trip, llm.NewScriptedModel(), llm.WithStore(store))
				wg.Go(func() {
					res, err := p.Resume(context.Background(), crashRunID, llm.FuncTarget(trip, tripState{}, gated))
					outcomes[i] = outcome{res, err}
					if errors.Is(err, llm.ErrRunInProgress) {
						gaveUpOnce.Do(func() { close(gaveUp) })
					}
				})
			}
			wg.Wait()

			var refused, completed int
			for _, o := range outcomes {
				var rip *llm.RunInProgressError
				switch {
				case errors.As(o.err, &rip):
					refused++
					assert.Equal(t, crashRunID, rip.RunID)
					assert.Equal(t, crashRunID, o.res.RunID)
					assert.Empty(t, o.res.Steps, "the refused Resume read nothing")
				case o.err == nil && o.res.Status == llm.StatusCompleted:
					completed++
				default:
					t.Errorf("unexpected outcome: %v %v", o.res.Status, o.err)
				}
			}
			assert.Equal(t, 1, refused)
			assert.Equal(t, 1, completed)
			assert.Equal(t, onceEach(), sideEffects(t, logPath))

			// The owner released the run when its Resume returned.
			for _, s := range []llm.Store{a, b} {
				release, err := s.(llm.RunLocker).LockRun(context.Background(), crashRunID)
				require.NoError(t, err)
				release()
			}
		})
	}
}

// TestEveryEntryPointRefusesARunInProgress holds a run's lock as another
// runner would: Resume, Run, Propose and Execute under its id fail with
// ErrRunInProgress before they read or write anything (no model call, no
// step, the checkpoint untouched); released, the run resumes.
func TestEveryEntryPointRefusesARunInProgress(t *testing.T) {
	ctx := context.Background()
	store, err := llm.NewFileStore(t.TempDir())
	require.NoError(t, err)
	logPath := filepath.Join(t.TempDir(), "effects.log")
	prepareResumable(t, store, logPath)
	cp, err := store.Load(ctx, crashRunID)
	require.NoError(t, err)
	before, err := os.ReadFile(store.Path(crashRunID))
	require.NoError(t, err)

	release, err := store.LockRun(ctx, crashRunID)
	require.NoError(t, err)
	model := llm.NewScriptedModel(llm.Reply{Text: crashPlan()})
	p := llm.NewPlanner(trip, model, llm.WithStore(store))
	target := llm.FuncTarget(trip, tripState{}, appendingExecutor(logPath, noPause))
	entryPoints := map[string]func() (*llm.Result, error){
		"Resume": func() (*llm.Result, error) { return p.Resume(ctx, crashRunID, target) },
		"Run": func() (*llm.Result, error) {
			return p.Run(ctx, "ping the agency", target, llm.WithRunID(crashRunID))
		},
		"Propose": func() (*llm.Result, error) {
			return p.Propose(ctx, "ping the agency", tripState{}, llm.WithRunID(crashRunID))
		},
		"Execute": func() (*llm.Result, error) { return p.Execute(ctx, cp.Plan, target, llm.WithRunID(crashRunID)) },
	}
	for name, call := range entryPoints {
		res, err := call()
		require.ErrorIs(t, err, llm.ErrRunInProgress, name)
		var rip *llm.RunInProgressError
		require.ErrorAs(t, err, &rip, name)
		assert.Equal(t, crashRunID, rip.RunID, name)
		assert.Equal(t, llm.StatusFailed, res.Status, name)
		assert.Equal(t, "llm: run crash-run: run in progress: another runner owns it", err.Error(), name)
	}
	assert.Empty(t, model.Requests(), "no model call")
	assert.Equal(t, []string{"p1"}, loggedSteps(t, logPath), "no step")
	after, err := os.ReadFile(store.Path(crashRunID))
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after), "no save")

	release()
	release() // a second call does nothing
	res, err := p.Resume(ctx, crashRunID, target)
	require.NoError(t, err)
	assert.Equal(t, llm.StatusCompleted, res.Status)
	assert.Equal(t, onceEach(), sideEffects(t, logPath))
}

// TestFileStoreLockRun checks the file lock itself, in one process: two
// opens of a run's lock file exclude each other, through one FileStore or
// two; other runs are free; the lock file is left empty and means nothing
// by its existence.
func TestFileStoreLockRun(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a, err := llm.NewFileStore(dir)
	require.NoError(t, err)
	b, err := llm.NewFileStore(dir)
	require.NoError(t, err)

	release, err := a.LockRun(ctx, "r1")
	require.NoError(t, err)
	for _, s := range []*llm.FileStore{a, b} {
		_, err := s.LockRun(ctx, "r1")
		var rip *llm.RunInProgressError
		require.ErrorAs(t, err, &rip)
		assert.Equal(t, "r1", rip.RunID)
	}
	other, err := b.LockRun(ctx, "r2")
	require.NoError(t, err, "another run is free")
	other()
	_, err = b.Load(ctx, "r1")
	require.ErrorIs(t, err, llm.ErrNoCheckpoint, "locking saves no checkpoint")
	info, err := os.Stat(filepath.Join(dir, "r1.lock"))
	require.NoError(t, err)
	assert.Zero(t, info.Size())

	release()
	again, err := b.LockRun(ctx, "r1")
	require.NoError(t, err, "released, the run is free")
	again()

	// The lock file left behind is no lock, and one removed is made anew.
	require.NoError(t, os.Remove(filepath.Join(dir, "r1.lock")))
	again, err = a.LockRun(ctx, "r1")
	require.NoError(t, err)
	again()

	_, err = a.LockRun(ctx, "../r1")
	require.Error(t, err)
	assert.NotErrorIs(t, err, llm.ErrRunInProgress)

	// A lock that cannot be taken at all fails the run before it starts.
	require.NoError(t, os.RemoveAll(dir))
	model := llm.NewScriptedModel(llm.Reply{Text: goodPlan})
	rec := newRecorder()
	_, err = llm.NewPlanner(trip, model, llm.WithStore(a)).Run(ctx, "trip", rec.target(rich), llm.WithRunID("r3"))
	var pathErr *fs.PathError
	require.ErrorAs(t, err, &pathErr)
	assert.NotErrorIs(t, err, llm.ErrRunInProgress)
	assert.ErrorIs(t, err, fs.ErrNotExist)
	assert.Equal(t, "llm: run r3: lock: open "+filepath.Join(dir, "r3.lock"), strings.TrimSuffix(err.Error(), ": "+pathErr.Err.Error()))
	assert.Empty(t, model.Requests())
	assert.Empty(t, rec.steps())
}

func TestMemoryStoreLockRun(t *testing.T) {
	ctx := context.Background()
	s := llm.NewMemoryStore()
	release, err := s.LockRun(ctx, "r1")
	require.NoError(t, err)
	_, err = s.LockRun(ctx, "r1")
	require.ErrorIs(t, err, llm.ErrRunInProgress)
	other, err := llm.NewMemoryStore().LockRun(ctx, "r1")
	require.NoError(t, err, "another store holds other runs")
	other()
	release()
	release()
	again, err := s.LockRun(ctx, "r1")
	require.NoError(t, err)
	again()
}

// lockingStore is a user's store whose lock answers lockErr.
type lockingStore struct {
	*llm.MemoryStore
	lockErr error
}

func (s lockingStore) LockRun(context.Context, string) (func(), error) { return nil, s.lockErr }

// A user's store may say more than ErrRunInProgress; the planner still
// returns a *RunInProgressError with the run's id, wrapping the store's
// error. Any other lock failure fails the run before anything is done.
func TestUserStoreLockErrors(t *testing.T) {
	ctx := context.Background()
	held := lockingStore{llm.NewMemoryStore(), fmt.Errorf("leased by host-7 until 12:00: %w", llm.ErrRunInProgress)}
	model := llm.NewScriptedModel(llm.Reply{Text: goodPlan})
	rec := newRecorder()
	_, err := llm.NewPlanner(trip, model, llm.WithStore(held)).Run(ctx, "trip", rec.target(rich), llm.WithRunID("r"))
	var rip *llm.RunInProgressError
	require.ErrorAs(t, err, &rip)
	assert.Equal(t, "r", rip.RunID)
	assert.ErrorIs(t, err, llm.ErrRunInProgress)
	assert.Contains(t, err.Error(), "leased by host-7 until 12:00")

	down := lockingStore{llm.NewMemoryStore(), errors.New("database unreachable")}
	_, err = llm.NewPlanner(trip, model, llm.WithStore(down)).Resume(ctx, "r", rec.target(rich))
	require.Error(t, err)
	assert.NotErrorIs(t, err, llm.ErrRunInProgress)
	assert.Equal(t, "llm: run r: lock: database unreachable", err.Error())

	assert.Empty(t, model.Requests())
	assert.Empty(t, rec.steps())
	assert.Zero(t, held.Saves()+down.Saves())
}

// plainStore is a store without RunLocker.
type plainStore struct{ s *llm.MemoryStore }

func (p plainStore) Save(ctx context.Context, cp *llm.Checkpoint) error { return p.s.Save(ctx, cp) }
func (p plainStore) Load(ctx context.Context, id string) (*llm.Checkpoint, error) {
	return p.s.Load(ctx, id)
}

// A store that cannot lock still checkpoints and resumes (nothing then
// stops a second runner: see Store).
func TestStoreWithoutRunLocker(t *testing.T) {
	ctx := context.Background()
	store := plainStore{llm.NewMemoryStore()}
	logPath := filepath.Join(t.TempDir(), "effects.log")
	prepareResumable(t, store, logPath)
	p := llm.NewPlanner(trip, llm.NewScriptedModel(), llm.WithStore(store))
	res, err := p.Resume(ctx, crashRunID, llm.FuncTarget(trip, tripState{}, appendingExecutor(logPath, noPause)))
	require.NoError(t, err)
	assert.Equal(t, llm.StatusCompleted, res.Status)
	assert.Equal(t, onceEach(), sideEffects(t, logPath))
}
