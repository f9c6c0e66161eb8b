package llm

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"
)

// newRun starts a run of goal: its engine, owned (see RunLocker) under
// the id of opts or a new one. A run that was awaiting approval goes on
// with its history when the approved plan is executed under its id. The
// caller calls release when the run returns.
func (p *Planner[S]) newRun(ctx context.Context, goal string, opts []RunOption) (e *Engine[S], release func(), err error) {
	var rc runConfig
	for _, o := range opts {
		o(&rc)
	}
	id := rc.id
	if id == "" {
		id = newRunID()
	} else if err := checkRunID(id); err != nil {
		return nil, nil, err
	}
	release, err = p.ownRun(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	e = p.NewEngine(id, goal)
	if p.cfg.store != nil && rc.id != "" {
		cp, err := p.cfg.store.Load(ctx, id)
		if err == nil && cp.Status == StatusAwaitingApproval && cp.Domain == p.d.Name {
			e.restore(cp)
			e.goal, e.status, e.err = goal, StatusRunning, nil
		}
	}
	return e, release, nil
}

func newRunID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return time.Now().UTC().Format("20060102T150405") + "-" + hex.EncodeToString(b[:])
}

// Run plans goal from the target's state, passes the plan through the
// gate, and runs it, replanning on failure within the limits. The error is
// nil when the run completed or awaits approval of a revised plan (see
// WithRevisionApproval); the Result is never nil.
func (p *Planner[S]) Run(ctx context.Context, goal string, t Target[S], opts ...RunOption) (*Result, error) {
	e, release, err := p.newRun(ctx, goal, opts)
	if err != nil {
		return failedResult("", err)
	}
	defer release()
	return e.Run(p.local(ctx, t))
}

// Propose is plan-only mode: it plans goal from state (validated and
// verified) and returns it awaiting approval, without the gate and without
// running a step. Approve it with Planner.Approve and run it with Execute;
// with a Store and WithRunID, Execute under the same id goes on with the
// run's history.
func (p *Planner[S]) Propose(ctx context.Context, goal string, state S, opts ...RunOption) (*Result, error) {
	e, release, err := p.newRun(ctx, goal, opts)
	if err != nil {
		return failedResult("", err)
	}
	defer release()
	d := p.local(ctx, nil)
	e.begin(d)
	plan, err := e.generate(d, state, nil)
	if err != nil {
		return e.fail(d, err)
	}
	e.setPlan(plan)
	return e.finish(d, StatusAwaitingApproval, nil)
}

// Execute runs a plan made earlier (by Propose, perhaps approved with
// Planner.Approve): it validates it again against the live domain,
// verifies it from the target's state when WithRequireVerified, passes it
// through the gate unless it is approved already, and runs it like Run.
// Revisions of a plan approved by hand, with no gate configured, end the
// run awaiting approval (unless WithRevisionApproval(false)).
func (p *Planner[S]) Execute(ctx context.Context, plan *Plan, t Target[S], opts ...RunOption) (*Result, error) {
	e, release, err := p.newRun(ctx, plan.Goal, opts)
	if err != nil {
		return failedResult("", err)
	}
	defer release()
	d := p.local(ctx, t)
	e.begin(d)
	plan = plan.Clone()
	e.setPlan(plan)
	if err := p.Validate(plan); err != nil {
		return e.fail(d, err)
	}
	// A plan adjusted in a run awaiting approval keeps the steps it did.
	e.restoreDone(plan)
	state := t.PlanState()
	e.madeFrom(state)
	if err := e.verifyPlan(plan, state); err != nil {
		return e.fail(d, err)
	}
	e.handApproved = e.handApproved || plan.Approved
	plan, res, err := e.gate(d, plan, false)
	if plan == nil {
		return res, err
	}
	return e.loop(d, plan)
}

// Resume continues a checkpointed run: steps recorded done are not run
// again (their outputs are restored), a step recorded running (the process
// died during it) runs again, a run that stopped while asking the model
// for a revision asks again (the plan that failed is not resumed), a plan
// a person approved with Decide runs (verified first from the target's
// state when WithRequireVerified), and the run goes on as Run would,
// replans included. A run that already ended
// returns its result (with an error wrapping ErrRunFinished when it failed
// or was rejected). With a Store that is a RunLocker, Resume of a run
// that another runner owns fails at once with a *RunInProgressError
// (errors.Is ErrRunInProgress) and does nothing; a run whose runner died
// is free again (at once with a FileStore), and Resume takes it over.
func (p *Planner[S]) Resume(ctx context.Context, runID string, t Target[S]) (*Result, error) {
	if p.cfg.store == nil {
		return failedResult(runID, ErrNoStore)
	}
	if err := checkRunID(runID); err != nil {
		return failedResult(runID, err)
	}
	release, err := p.ownRun(ctx, runID)
	if err != nil {
		return failedResult(runID, err)
	}
	defer release()
	cp, err := p.cfg.store.Load(ctx, runID)
	if err != nil {
		return failedResult(runID, err)
	}
	if cp.Domain != p.d.Name {
		return failedResult(runID, fmt.Errorf("llm: run %s belongs to domain %s, not %s", runID, cp.Domain, p.d.Name))
	}
	e := p.NewEngine(runID, cp.Goal)
	e.restore(cp)
	switch cp.Status {
	case StatusCompleted, StatusAwaitingApproval:
		return e.Result(), nil
	case StatusFailed, StatusRejected:
		e.err = fmt.Errorf("llm: run %s: %w: %s", runID, ErrRunFinished, cp.Error)
		return e.Result(), e.err
	}
	d := p.local(ctx, t)
	e.begin(d)
	if cp.Plan == nil {
		return e.fail(d, fmt.Errorf("llm: run %s: checkpoint has no plan", runID))
	}
	plan := cp.Plan.Clone()
	e.setPlan(plan)
	if err := p.Validate(plan); err != nil {
		return e.fail(d, err)
	}
	e.interrupted()
	e.restoreDone(plan)
	e.status, e.err = StatusRunning, nil
	if cp.Status == StatusApproved {
		// A person approved the plan (Decide), maybe hours ago: it is
		// checked against the live state as Execute checks it.
		state := t.PlanState()
		e.madeFrom(state)
		if err := e.verifyPlan(plan, state); err != nil {
			return e.fail(d, err)
		}
	}
	switch {
	case cp.Replanning != nil:
		// The process stopped while the model was asked for a revision:
		// ask again (the replan was counted when it began).
		next, res, err := e.replan(d, plan, cp.Replanning)
		if next == nil {
			return res, err
		}
		plan = next
	case !plan.Approved:
		// The run stopped before the gate decided (an approver that saw
		// the context cancelled): the plan passes the gate now.
		next, res, err := e.gate(d, plan, plan.Revision > 0)
		if next == nil {
			return res, err
		}
		plan = next
	}
	return e.loop(d, plan)
}
