package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/rolegen/rolegen/llm"
)

// Runs is where the page finds the runs awaiting approval and sends the
// decisions people make. StoreRuns serves the runs of a planner's
// llm.Store (Propose, then Decide and Resume); the Temporal adapter's
// Plans.ReviewRuns serves workflows waiting for their approval update.
// Implement it for anything else that holds runs awaiting a person.
//
// Decide must record at most one decision per plan awaiting approval,
// whoever sends decisions at once: when two arrive together, one is
// recorded and the other fails, with an error matching
// llm.ErrNotAwaiting (once the first is recorded) or llm.ErrRunInProgress
// (while it is being recorded). It must refuse a decision whose
// PlanDigest is not the Digest of the plan awaiting approval with an error
// matching llm.ErrPlanChanged, and one that does not pass the checks of
// llm.Planner.CheckDecision with that error (the page checks decisions
// before it sends them, with the same planner, so this is the guard of
// decisions sent by other means). Run returns an error matching
// ErrUnknownRun for a run it does not know.
type Runs interface {
	// Awaiting returns the ids of the runs whose plan awaits approval.
	Awaiting(ctx context.Context) ([]string, error)
	// Run returns a run as it stands.
	Run(ctx context.Context, runID string) (*Run, error)
	// Decide records a decision about the plan of a run awaiting
	// approval.
	Decide(ctx context.Context, runID string, d llm.Decision) error
}

// Run is a run as the page shows it.
type Run struct {
	ID     string
	Goal   string
	Status llm.Status
	// Plan is the plan awaiting approval, or the run's last plan.
	Plan *llm.Plan
	// State is the state Plan was made from, as JSON: edits are verified
	// from it. Without it a changed plan is not verified.
	State json.RawMessage
	// Since is when the plan began to await approval (or the run last
	// changed), zero when unknown.
	Since time.Time
	// Decided is the decision recorded about the run, if any.
	Decided *llm.DecisionRecord
	// Error is the error the run ended with.
	Error string
}

// ErrUnknownRun is matched by the error of Runs.Run for a run it does
// not know.
var ErrUnknownRun = errors.New("no such run")

// StoreRuns serves the runs of the planner's Store (llm.WithStore) that
// belong to its domain: the store must list runs (llm.RunLister;
// llm.FileStore and llm.MemoryStore do), and should be an llm.RunLocker,
// which makes two decisions at once yield one. Plans come to await
// approval through Planner.Propose (with llm.WithRunID to choose the id),
// or as revisions of runs approved by hand. A decision is recorded with
// Planner.Decide; an approved run has status llm.StatusApproved until
// Planner.Resume runs it (see WithOnDecision to start it at once).
func StoreRuns[S comparable](p *llm.Planner[S]) Runs { return storeRuns[S]{p} }

type storeRuns[S comparable] struct{ p *llm.Planner[S] }

func (s storeRuns[S]) Awaiting(ctx context.Context) ([]string, error) {
	return s.p.Runs(ctx, llm.StatusAwaitingApproval)
}

func (s storeRuns[S]) Run(ctx context.Context, runID string) (*Run, error) {
	store := s.p.Store()
	if store == nil {
		return nil, llm.ErrNoStore
	}
	cp, err := store.Load(ctx, runID)
	if errors.Is(err, llm.ErrNoCheckpoint) {
		return nil, fmt.Errorf("review: run %s: %w", runID, ErrUnknownRun)
	}
	if err != nil {
		return nil, err
	}
	if cp.Domain != s.p.Domain().Name {
		return nil, fmt.Errorf("review: run %s is of domain %s: %w", runID, cp.Domain, ErrUnknownRun)
	}
	return &Run{
		ID:      cp.RunID,
		Goal:    cp.Goal,
		Status:  cp.Status,
		Plan:    cp.Plan,
		State:   cp.State,
		Since:   cp.Saved,
		Decided: cp.Decided,
		Error:   cp.Error,
	}, nil
}

func (s storeRuns[S]) Decide(ctx context.Context, runID string, d llm.Decision) error {
	_, err := s.p.Decide(ctx, runID, d)
	return err
}
