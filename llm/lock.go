package llm

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
)

// RunLocker is implemented by a Store that gives each run to one runner at
// a time. Run, Propose, Execute and Resume lock the run (LockRun) before
// they read or write its checkpoint and release it after its last Save,
// when they return; a second runner of the run then fails at once with an
// error matching ErrRunInProgress, having read, performed and saved
// nothing.
//
// An implementation must guarantee:
//
//   - Exclusion. From LockRun's return until release is called, every
//     other LockRun of the same run id fails, at once and without waiting
//     for the holder, with an error matching ErrRunInProgress — whether it
//     comes from another process, another machine sharing the store, or
//     the same process (another goroutine, another value of the store's
//     type over the same data).
//   - Release on death. The lock ends when its holder's process dies,
//     however it dies (SIGKILL, power loss), with no cleanup by anyone:
//     at once (a kernel file lock, a database session's lock) or within a
//     bounded time (a lease that expires). Then the next LockRun succeeds
//     and Resume takes the run over.
//   - No lapse unnoticed. A lock that can end while its holder lives (a
//     lease it failed to renew) must make the store refuse every later
//     Save of that run from that holder (a fencing token checked by Save):
//     the holder then stops at its next checkpoint, which is saved before
//     every step starts. Only a step in flight when the lock lapsed can
//     then overlap with the new owner's run of it.
//
// LockRun should not wait for the lock: ctx bounds only the store's own
// work (reaching a database, say). The planner calls release once.
//
// A step in flight when its runner died has no completion recorded: the
// next owner runs it again (at least once; see Checkpoint). Every other
// step runs once.
type RunLocker interface {
	LockRun(ctx context.Context, runID string) (release func(), err error)
}

// ownRun makes the caller the only runner of runID when the planner's
// store is a RunLocker, and returns the release to call after the run's
// last checkpoint; without a store, or with a store that cannot lock, it
// returns a release that does nothing. Every entry point that reads or
// writes a run's checkpoint (Run, Propose, Execute, Resume) owns the run
// through this one function before it touches the store.
func (p *Planner[S]) ownRun(ctx context.Context, runID string) (release func(), err error) {
	l, ok := p.cfg.store.(RunLocker)
	if !ok {
		return func() {}, nil
	}
	release, err = l.LockRun(ctx, runID)
	if err == nil {
		if release == nil {
			release = func() {}
		}
		return release, nil
	}
	if errors.Is(err, ErrRunInProgress) {
		var rip *RunInProgressError
		if !errors.As(err, &rip) {
			err = &RunInProgressError{RunID: runID, Err: err}
		}
		return nil, err
	}
	return nil, fmt.Errorf("llm: run %s: lock: %w", runID, err)
}

// LockRun makes the caller the only runner of runID (see RunLocker): it
// takes an exclusive advisory lock on RUNID.lock in the store's directory
// (flock(2); LockFileEx on Windows) and holds it until release. The
// operating system ends the lock when release closes the file or the
// process dies, however it dies; the file stays behind, empty, and its
// existence means nothing. Each LockRun opens the file anew, so two
// LockRun calls exclude each other within one process as between
// processes, through one FileStore or two over the same directory.
//
// The directory must be on a local file system: over NFS, Linux emulates
// flock with POSIX record locks, which do not exclude another runner in
// the same process. On systems without flock or LockFileEx (aix, plan9,
// js, wasip1) the lock excludes only runners in the same process. Do not
// delete a lock file while its run may be running.
func (s *FileStore) LockRun(_ context.Context, runID string) (release func(), err error) {
	if err := checkRunID(runID); err != nil {
		return nil, err
	}
	path := filepath.Join(s.dir, runID+".lock")
	held, err := lockFile(path)
	if errors.Is(err, errLocked) {
		return nil, &RunInProgressError{RunID: runID}
	}
	if err != nil {
		return nil, err
	}
	return sync.OnceFunc(func() { _ = held.Close() }), nil
}

// errLocked is lockFile's answer when another holder has the lock.
var errLocked = errors.New("locked")

// LockRun makes the caller the only runner of runID among the users of
// this store (see RunLocker); a MemoryStore lives in one process, so that
// is every runner the run can have.
func (s *MemoryStore) LockRun(_ context.Context, runID string) (release func(), err error) {
	if !s.locks.tryLock(runID) {
		return nil, &RunInProgressError{RunID: runID}
	}
	return sync.OnceFunc(func() { s.locks.unlock(runID) }), nil
}

// keyLocks is a set of held keys: the run locks of a MemoryStore, and of a
// FileStore on a system without file locks.
type keyLocks struct {
	mu   sync.Mutex
	held map[string]bool
}

func (l *keyLocks) tryLock(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.held[key] {
		return false
	}
	if l.held == nil {
		l.held = map[string]bool{}
	}
	l.held[key] = true
	return true
}

func (l *keyLocks) unlock(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.held, key)
}
