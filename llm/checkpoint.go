package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// CheckpointVersion is the version of the checkpoint format written.
const CheckpointVersion = 1

// Checkpoint is the saved state of a run: its current plan and every step
// record. A run is saved when its plan is accepted, when each step starts
// (status running) and ends, before it asks the model for a revision, and
// when the run ends.
//
// The guarantee Resume gives follows: a step whose completion was recorded
// (status done) is never run again — exactly once; a step that started but
// whose completion was not recorded (the process died during the step, or
// between the step's return and the save) runs again — at least once. Make
// such steps idempotent, or check their effect in the world before acting.
type Checkpoint struct {
	Version int    `json:"version"`
	RunID   string `json:"runId"`
	Domain  string `json:"domain"`
	Goal    string `json:"goal"`
	Status  Status `json:"status"`
	// Error is the text of the error the run ended with.
	Error   string       `json:"error,omitempty"`
	Plan    *Plan        `json:"plan,omitempty"`
	Replans int          `json:"replans"`
	Steps   []StepRecord `json:"steps"`
	Usage   Usage        `json:"usage"`
	Calls   []Call       `json:"calls"`
	// ApprovedOnce and HandApproved carry the approval state of the run
	// for revisions (see WithRevisionApproval).
	ApprovedOnce bool `json:"approvedOnce,omitempty"`
	HandApproved bool `json:"handApproved,omitempty"`
	// Replanning is set while the run asks the model for a revision of
	// Plan (the replan is already counted in Replans).
	Replanning *Replanning `json:"replanning,omitempty"`
	// State is the state Plan was made and verified from, as JSON: a
	// decision that changes the plan is verified from it (Decide, the
	// review page).
	State json.RawMessage `json:"state,omitempty"`
	// Decided is the last decision Planner.Decide recorded on the run.
	Decided *DecisionRecord `json:"decided,omitempty"`
	// Trace is what the run's observer keeps of its last runner's context
	// (see ContextCarrier): with package otelrolegen, the W3C trace
	// context of the run's span, which a resumed run links to.
	Trace map[string]string `json:"trace,omitempty"`
	Saved time.Time         `json:"saved"`
}

// Replanning is why a run asks the model for a revision: the failure of
// the plan, the critique of a hook or reflector, or both.
type Replanning struct {
	Failure  string `json:"failure,omitempty"`
	Critique string `json:"critique,omitempty"`
}

// Done returns the ids of the steps of the current plan recorded done.
func (c *Checkpoint) Done() []string {
	if c.Plan == nil {
		return nil
	}
	var ids []string
	for _, rec := range c.Steps {
		if rec.Revision == c.Plan.Revision && rec.Status == StepDone {
			ids = append(ids, rec.Step.ID)
		}
	}
	return ids
}

// Store keeps checkpoints beyond the process. Save must replace the
// previous checkpoint of the run atomically: after a crash Load returns
// the old or the new one, never a mix. Load returns an error wrapping
// ErrNoCheckpoint for an unknown run. The checkpoint passed to Save is
// only valid during the call.
//
// A run must have one runner at a time. A Store that also implements
// RunLocker (FileStore and MemoryStore do) guarantees it: Run, Propose,
// Execute and Resume own the run from before they read its checkpoint
// until after their last Save, and a second runner of the run — another
// process, another machine, another goroutine — fails at once with
// ErrRunInProgress, having performed nothing. RunLocker says what an
// implementation must guarantee (a database row or advisory lock held by
// the runner's session, a lease with expiry and a fencing token).
//
// With a Store that does not implement RunLocker nothing stops two
// runners of one run: two processes resuming it both load the same
// checkpoint and both perform its pending steps, and each overwrites the
// other's checkpoints. Then make sure yourself that a run has one runner
// (one process per run, a lock of your own around Resume).
type Store interface {
	Save(ctx context.Context, cp *Checkpoint) error
	Load(ctx context.Context, runID string) (*Checkpoint, error)
}

// checkRunID keeps run ids safe as file names.
func checkRunID(id string) error {
	if id == "" || len(id) > 128 {
		return fmt.Errorf("llm: invalid run id %q", id)
	}
	for i, c := range id {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			i > 0 && (c == '.' || c == '_' || c == '-')
		if !ok {
			return fmt.Errorf("llm: invalid run id %q: use letters, digits, '.', '_' and '-'", id)
		}
	}
	return nil
}

// FileStore keeps each run's checkpoint as RUNID.json in a directory.
// Saves are atomic and durable: the JSON is written to a temporary file in
// the same directory, synced, renamed over the checkpoint, and the
// directory is synced. A FileStore is safe for concurrent use (by
// different runs; one run saves from one goroutine). It is a RunLocker:
// a run's runner holds an operating-system lock on RUNID.lock, which ends
// when the runner returns or its process dies (see LockRun).
type FileStore struct {
	dir string
}

// NewFileStore returns a store in dir, creating the directory if needed.
func NewFileStore(dir string) (*FileStore, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("llm: file store: %w", err)
	}
	return &FileStore{dir: dir}, nil
}

// Dir returns the store's directory.
func (s *FileStore) Dir() string { return s.dir }

// Path returns the file of a run's checkpoint.
func (s *FileStore) Path(runID string) string { return filepath.Join(s.dir, runID+".json") }

// Save writes cp atomically.
func (s *FileStore) Save(_ context.Context, cp *Checkpoint) error {
	if err := checkRunID(cp.RunID); err != nil {
		return err
	}
	data, err := json.MarshalIndent(cp, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(s.dir, cp.RunID+".json", append(data, '\n'))
}

// Load reads the checkpoint of a run.
func (s *FileStore) Load(_ context.Context, runID string) (*Checkpoint, error) {
	if err := checkRunID(runID); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(s.Path(runID))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("llm: run %s: %w", runID, ErrNoCheckpoint)
	}
	if err != nil {
		return nil, err
	}
	return decodeCheckpoint(runID, data)
}

func decodeCheckpoint(runID string, data []byte) (*Checkpoint, error) {
	var cp Checkpoint
	if err := json.Unmarshal(data, &cp); err != nil {
		return nil, fmt.Errorf("llm: run %s: corrupt checkpoint: %w", runID, err)
	}
	if cp.Version != CheckpointVersion {
		return nil, fmt.Errorf("llm: run %s: checkpoint version %d, want %d", runID, cp.Version, CheckpointVersion)
	}
	return &cp, nil
}

// writeFileAtomic replaces dir/name with data so that a crash leaves the
// old or the new content: temp file in the same directory (rename is atomic
// only within a file system), fsync of the file, rename, fsync of the
// directory (which makes the rename itself durable).
func writeFileAtomic(dir, name string, data []byte) (err error) {
	f, err := os.CreateTemp(dir, "."+name+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		return err
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// MemoryStore keeps checkpoints in memory, encoded as a FileStore would
// (so what is not saved is not restored). It is for tests, and for runs
// that need Resume only within one process. It is a RunLocker: one
// runner of a run at a time among the goroutines that use it.
type MemoryStore struct {
	mu   sync.Mutex
	runs map[string][]byte
	// saves counts Save calls.
	saves int
	locks keyLocks
}

// NewMemoryStore returns an empty store.
func NewMemoryStore() *MemoryStore { return &MemoryStore{runs: map[string][]byte{}} }

// Save keeps a copy of cp.
func (s *MemoryStore) Save(_ context.Context, cp *Checkpoint) error {
	data, err := json.Marshal(cp)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.runs[cp.RunID] = data
	s.saves++
	return nil
}

// Load returns the last checkpoint saved for runID.
func (s *MemoryStore) Load(_ context.Context, runID string) (*Checkpoint, error) {
	s.mu.Lock()
	data, ok := s.runs[runID]
	s.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("llm: run %s: %w", runID, ErrNoCheckpoint)
	}
	return decodeCheckpoint(runID, data)
}

// Runs returns the ids of the runs saved, sorted.
func (s *MemoryStore) Runs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := make([]string, 0, len(s.runs))
	for id := range s.runs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// Saves reports how many times Save was called.
func (s *MemoryStore) Saves() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.saves
}
