package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"
)

// DecisionRecord is a decision Planner.Decide recorded on a run: the
// decision, the digest of the plan it was made on, and when.
type DecisionRecord struct {
	Decision Decision  `json:"decision"`
	Digest   string    `json:"digest"`
	At       time.Time `json:"at"`
}

// RunLister is implemented by a Store that lists its runs by status:
// Planner.Runs and the review page (package llm/review) find the runs
// awaiting approval with it. FileStore and MemoryStore implement it. A
// store of your own answers from what it keeps of each run's last
// checkpoint (a database: an indexed status column); the ids need not
// be sorted, and may be of several domains.
type RunLister interface {
	ListRuns(ctx context.Context, status Status) ([]string, error)
}

// Store returns the planner's checkpoint store (WithStore), nil when it
// has none.
func (p *Planner[S]) Store() Store { return p.cfg.store }

// Runs returns the ids of the runs of the planner's domain whose last
// checkpoint has the given status (StatusAwaitingApproval: the plans a
// person is to decide), sorted. The planner's Store must be a RunLister.
func (p *Planner[S]) Runs(ctx context.Context, status Status) ([]string, error) {
	lister, ok := p.cfg.store.(RunLister)
	if !ok {
		return nil, ErrNoRunLister
	}
	ids, err := lister.ListRuns(ctx, status)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		cp, err := p.cfg.store.Load(ctx, id)
		switch {
		case errors.Is(err, ErrNoCheckpoint):
			continue // gone since it was listed
		case err != nil:
			return nil, err
		}
		if cp.Domain == p.d.Name && cp.Status == status {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out, nil
}

// Decide records a person's decision about the plan of a run awaiting
// approval in the planner's Store (a run of Propose, or one whose revised
// plan awaits approval by hand), exactly once: it owns the run (see
// RunLocker) while it decides, so that of two decisions made at once one
// is recorded and the other fails, with a *RunInProgressError or, once
// the first is recorded, a *NotAwaitingError naming it. A decision whose
// PlanDigest is not the digest of the plan awaiting approval fails with a
// *PlanChangedError (the plan changed since the person looked).
//
// A rejection ends the run rejected. An approval is checked as the
// approval gate of a run checks it (CheckDecision: edits validated, a
// changed plan verified from Checkpoint.State); when it does not pass,
// Decide returns its error and records nothing: the run still awaits
// approval. When it passes, the approved plan is recorded with status
// StatusApproved, and Resume runs it. Decide returns the checkpoint it
// saved.
func (p *Planner[S]) Decide(ctx context.Context, runID string, d Decision) (*Checkpoint, error) {
	if p.cfg.store == nil {
		return nil, ErrNoStore
	}
	if err := checkRunID(runID); err != nil {
		return nil, err
	}
	release, err := p.ownRun(ctx, runID)
	if err != nil {
		return nil, err
	}
	defer release()
	cp, err := p.cfg.store.Load(ctx, runID)
	if err != nil {
		return nil, err
	}
	if cp.Domain != p.d.Name {
		return nil, fmt.Errorf("llm: run %s belongs to domain %s, not %s", runID, cp.Domain, p.d.Name)
	}
	if cp.Status != StatusAwaitingApproval || cp.Plan == nil {
		return nil, &NotAwaitingError{RunID: runID, Status: cp.Status, Decided: cp.Decided}
	}
	digest := cp.Plan.Digest()
	if d.PlanDigest != "" && d.PlanDigest != digest {
		return nil, &PlanChangedError{RunID: runID, Digest: digest}
	}
	e := p.NewEngine(runID, cp.Goal)
	e.restore(cp)
	plan := cp.Plan.Clone()
	if err := p.Validate(plan); err != nil {
		return nil, err
	}
	e.restoreDone(plan)
	if d.Reject {
		e.status, e.err = StatusRejected, &RejectedError{Reason: d.Reason}
	} else {
		var state S
		if d.changes() {
			if state, err = p.stateOf(cp); err != nil {
				return nil, err
			}
		}
		next, err := p.checkDecision(plan, d, state, e.done)
		if err != nil {
			return nil, err
		}
		e.setPlan(next)
		e.approvedOnce, e.handApproved = true, true
		e.status, e.err = StatusApproved, nil
	}
	e.decided = &DecisionRecord{Decision: d, Digest: digest, At: time.Now().UTC()}
	saved := e.checkpoint(time.Now().UTC())
	if err := p.cfg.store.Save(context.WithoutCancel(ctx), saved); err != nil {
		return nil, fmt.Errorf("llm: checkpoint: %w", err)
	}
	return saved, nil
}

// stateOf decodes the state a checkpoint's plan was made from.
func (p *Planner[S]) stateOf(cp *Checkpoint) (S, error) {
	var s S
	if len(cp.State) == 0 {
		return s, fmt.Errorf("llm: run %s: the checkpoint keeps no state to verify a changed plan from", cp.RunID)
	}
	if err := json.Unmarshal(cp.State, &s); err != nil {
		return s, fmt.Errorf("llm: run %s: state: %w", cp.RunID, err)
	}
	return s, nil
}

// NotAwaitingError refuses a decision about a run that awaits none (it was
// decided already, or it runs, or it ended). errors.Is matches
// ErrNotAwaiting.
type NotAwaitingError struct {
	RunID  string
	Status Status
	// Decided is the decision recorded on the run, if one was.
	Decided *DecisionRecord
}

func (e *NotAwaitingError) Error() string {
	s := fmt.Sprintf("llm: run %s: %v: it is %s", e.RunID, ErrNotAwaiting, strings.ReplaceAll(string(e.Status), "_", " "))
	if e.Decided != nil {
		verb := "approved"
		if e.Decided.Decision.Reject {
			verb = "rejected"
		}
		s += "; " + verb
		if e.Decided.Decision.By != "" {
			s += " by " + e.Decided.Decision.By
		}
		s += " at " + e.Decided.At.Format(time.RFC3339)
	}
	return s
}

// Is matches ErrNotAwaiting.
func (e *NotAwaitingError) Is(target error) bool { return target == ErrNotAwaiting }

// PlanChangedError refuses a decision made on another plan than the one
// awaiting approval (Decision.PlanDigest): the plan changed since the
// person looked. errors.Is matches ErrPlanChanged.
type PlanChangedError struct {
	RunID string
	// Digest is the digest of the plan awaiting approval now.
	Digest string
}

func (e *PlanChangedError) Error() string {
	return fmt.Sprintf("llm: run %s: %v: the plan changed since you looked", e.RunID, ErrPlanChanged)
}

// Is matches ErrPlanChanged.
func (e *PlanChangedError) Is(target error) bool { return target == ErrPlanChanged }

// ListRuns returns the ids of the runs whose checkpoint has the given
// status, sorted.
func (s *FileStore) ListRuns(_ context.Context, status Status) ([]string, error) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, fmt.Errorf("llm: file store: %w", err)
	}
	var ids []string
	for _, ent := range entries {
		id, ok := strings.CutSuffix(ent.Name(), ".json")
		if !ok || ent.IsDir() || checkRunID(id) != nil {
			continue
		}
		data, err := os.ReadFile(s.Path(id))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if st, err := statusOf(id, data); err != nil {
			return nil, err
		} else if st == status {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// ListRuns returns the ids of the runs whose checkpoint has the given
// status, sorted.
func (s *MemoryStore) ListRuns(_ context.Context, status Status) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ids []string
	for id, data := range s.runs {
		st, err := statusOf(id, data)
		if err != nil {
			return nil, err
		}
		if st == status {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// statusOf reads the status of a checkpoint without decoding the rest.
func statusOf(runID string, data []byte) (Status, error) {
	var head struct {
		Version int    `json:"version"`
		Status  Status `json:"status"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return "", fmt.Errorf("llm: run %s: corrupt checkpoint: %w", runID, err)
	}
	if head.Version != CheckpointVersion {
		return "", fmt.Errorf("llm: run %s: checkpoint version %d, want %d", runID, head.Version, CheckpointVersion)
	}
	return head.Status, nil
}
