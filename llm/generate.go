package llm

import (
	"context"
	"fmt"
	"time"
)

// Revision is what a replanning prompt tells the model: which replan this
// is, the plan that did not reach the goal, the steps done in the run, and
// why (the failure, the critique of a hook or reflector).
type Revision struct {
	Number   int
	Previous *Plan
	Done     []StepRecord
	Failure  string
	Critique string
}

// PlanRequest asks for a plan of Goal from State: the first plan of a run
// (Revision nil) or a revision. Used is what the run's model calls used
// so far, counted against the token budget.
type PlanRequest[S comparable] struct {
	Goal     string
	State    S
	Revision *Revision
	Used     Usage
}

// PlanReply is a plan the model made, validated, verified, repaired and
// chosen among candidates as the planner is configured, with every model
// call made for it (parse, validation and verification retries and every
// candidate included), failed or not.
type PlanReply struct {
	Plan  *Plan
	Calls []Call
	// Candidates are the plans the model proposed in the round Plan was
	// chosen from, as they were written: where the reply crossed a
	// process boundary (a workflow's activity result) the engine chooses
	// among them again (Planner.Choose), so that a workflow decides from
	// the model's replies with its own deterministic code. A reply
	// without them (recorded before candidates existed) has its Plan taken
	// as it is.
	Candidates []Candidate `json:",omitempty"`
	// chosen: Plan was chosen among Candidates in this process, by the
	// planner's own code (MakePlan); a reply that crossed the wire (a
	// workflow's activity result) has it false, and the engine chooses
	// again.
	chosen bool
}

// MakePlan asks the model for the plan of req, feeding parse errors,
// validation errors and verification critiques back as configured. It is
// the model half of a run, for a Driver (the Temporal adapter runs it as an
// activity). The calls of the reply are returned with the error too; the
// error is the one a run would end with: a *ParseError, *ValidationError,
// *VerificationError, *BudgetError, the context's error, or the model's
// failure.
func (p *Planner[S]) MakePlan(ctx context.Context, req PlanRequest[S]) (PlanReply, error) {
	m := meter{budget: p.cfg.tokenBudget, usage: req.Used}
	if p.cfg.observer == nil {
		plan, cands, err := p.generate(ctx, &m, req.Goal, req.State, req.Revision)
		return PlanReply{Plan: plan, Candidates: cands, Calls: m.calls, chosen: true}, err
	}
	return p.observedPlan(ctx, &m, req)
}

// observedPlan is MakePlan reporting the plan's start and end to the
// planner's observer, with the context the start returned for what
// happens between.
func (p *Planner[S]) observedPlan(ctx context.Context, m *meter, req PlanRequest[S]) (PlanReply, error) {
	o := p.cfg.observer
	rev := 0
	if req.Revision != nil {
		rev = req.Revision.Number
	}
	start := time.Now()
	ctx = o.Observe(ctx, Event{Kind: EventPlanStart, Time: start, Domain: p.d.Name, Goal: req.Goal, Revision: rev})
	plan, cands, err := p.generate(ctx, m, req.Goal, req.State, req.Revision)
	var used Usage
	for _, c := range m.calls {
		used = used.Add(c.Usage)
	}
	o.Observe(ctx, Event{Kind: EventPlanEnd, Time: time.Now(), Started: start, Domain: p.d.Name, Goal: req.Goal,
		Revision: rev, Plan: plan, Usage: used, Err: err})
	return PlanReply{Plan: plan, Candidates: cands, Calls: m.calls, chosen: true}, err
}

// checkStart is the time a check starts, when the planner has an
// observer to tell.
func (p *Planner[S]) checkStart() time.Time {
	if p.cfg.observer == nil {
		return time.Time{}
	}
	return time.Now()
}

// observeCheck reports a validation or verification of plan, begun at
// start.
func (p *Planner[S]) observeCheck(ctx context.Context, kind EventKind, start time.Time, goal string, plan *Plan, err error) {
	if o := p.cfg.observer; o != nil {
		o.Observe(ctx, Event{Kind: kind, Time: time.Now(), Started: start, Domain: p.d.Name, Goal: goal,
			Revision: plan.Revision, Plan: plan, Err: err})
	}
}

// generate asks the model for a plan for goal from state, metering every
// call with m: the candidates of each round (WithCandidates) are read,
// validated, verified, repaired and ranked, and when none is acceptable
// the problem of the one that got furthest goes back to the model, as
// often as the retry options allow. It returns the plan chosen and the
// candidates of the round it came from.
func (p *Planner[S]) generate(ctx context.Context, m *meter, goal string, state S, rev *Revision) (*Plan, []Candidate, error) {
	if p.schemaErr != nil {
		return nil, nil, p.schemaErr
	}
	msgs := []Message{
		{Role: RoleSystem, Content: p.systemPrompt()},
		{Role: RoleUser, Content: p.planPrompt(goal, state, rev)},
	}
	purpose := CallPlan
	number := 0
	if rev != nil {
		purpose, number = CallReplan, rev.Number
	}
	parseLeft, validLeft, verifyLeft := p.cfg.parseRetries, p.cfg.validationRetries, p.cfg.verifyRetries
	// refused keeps the replies sent back, for the plan a person approves.
	var refused []Refusal
	refuse := func(check string, err error, plan *Plan) {
		r := Refusal{Check: check, Critique: err.Error()}
		if plan != nil {
			r.Steps = cloneSteps(plan.Steps)
		}
		refused = append(refused, r)
	}
	for {
		replies, err := p.ask(ctx, m, purpose, msgs)
		if err != nil {
			return nil, nil, err
		}
		purpose = CallRetry
		cands := p.evaluate(ctx, replies, goal, number, state)
		best := p.rank(cands)
		p.observeOutcomes(cands, best, goal, number)
		if best >= 0 {
			plan := cands[best].plan
			plan.Refused = refused
			return plan, wireCandidates(cands), nil
		}
		c := representative(cands)
		retry := func(feedback string) {
			msgs = append(msgs,
				Message{Role: RoleAssistant, Content: c.text},
				Message{Role: RoleUser, Content: feedback})
		}
		switch {
		case c.stage == stageUnreadable && parseLeft > 0:
			parseLeft--
			refuse(CheckParse, c.err, nil)
			retry(parseFeedback(c.err))
		case c.stage == stageInvalid && validLeft > 0:
			validLeft--
			refuse(CheckValidation, c.err, c.parsed)
			retry(validationFeedback(c.err))
		case c.stage == stageUnverified && verifyLeft > 0:
			verifyLeft--
			refuse(CheckVerification, c.err, c.model)
			retry(verificationFeedback(c.err))
		default:
			return nil, nil, c.err
		}
	}
}

// complete makes one model call, metered.
func (p *Planner[S]) complete(ctx context.Context, m *meter, purpose string, req Request) (Response, error) {
	var resp Response
	callErr, budgetErr := m.metered(purpose, func() (Usage, error) {
		var err error
		resp, err = p.model.Complete(ctx, req)
		return resp.Usage, err
	})
	switch {
	case budgetErr != nil:
		return Response{}, budgetErr
	case callErr != nil && ctx.Err() != nil:
		return Response{}, ctx.Err()
	case callErr != nil:
		return Response{}, fmt.Errorf("llm: model: %w", callErr)
	}
	return resp, nil
}

// meter sums the usage of a run's model (and reflector) calls against the
// token budget (0: none).
type meter struct {
	budget int
	usage  Usage
	calls  []Call
}

// metered makes one call and accounts its usage against the budget: no
// call starts once the budget is used up, a call that takes the total over
// the budget ends the run, and a failed call is recorded too, with the
// usage it reports (a refusal costs its tokens).
func (m *meter) metered(purpose string, call func() (Usage, error)) (callErr, budgetErr error) {
	if err := m.budgetLeft(); err != nil {
		return nil, err
	}
	usage, err := call()
	m.record(Call{Purpose: purpose, Usage: usage})
	return err, m.overBudget()
}

// record accounts calls made.
func (m *meter) record(calls ...Call) {
	for _, c := range calls {
		c.Usage = c.Usage.normalized()
		m.usage = m.usage.Add(c.Usage)
		m.calls = append(m.calls, c)
	}
}

// budgetLeft fails when the token budget is used up.
func (m *meter) budgetLeft() error {
	if m.budget > 0 && m.usage.TotalTokens >= m.budget {
		return &BudgetError{Limit: m.budget, Used: m.usage.TotalTokens}
	}
	return nil
}

// overBudget fails when the calls used more tokens than the budget.
func (m *meter) overBudget() error {
	if m.budget > 0 && m.usage.TotalTokens > m.budget {
		return &BudgetError{Limit: m.budget, Used: m.usage.TotalTokens}
	}
	return nil
}
