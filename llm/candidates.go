package llm

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// WithCandidates asks the model for k plans for every request (default
// 1): with the chat completions API's n when the server gives several
// replies to one call, else with more calls, one after another, at the
// configured temperature (give a temperature above 0, or k replies of a
// deterministic model are one plan k times). Each plan is validated,
// verified and, with repair on, repaired; the run keeps the verified plan
// of least cost on the domain from the current state, then the one with
// fewest steps, then the first. A plan that does not verify never wins
// over one that does; when none does, the run goes on as with one
// unverified plan (the critique goes back to the model with
// WithRequireVerified, else the first valid plan runs unverified). The
// tokens and calls of all k count, against WithTokenBudget too. The
// observer sees every candidate (EventCandidateStart, EventCandidateEnd)
// with why it lost.
//
// Without WithGoals, verification checks only preconditions: the cheapest
// plan that verifies may then be one that does less. Give the goals the
// plans must reach with WithGoals when you ask for candidates.
//
// k is at least 1 and at most MaxCandidates: a larger k asks for
// MaxCandidates plans.
func WithCandidates(k int) Option {
	return func(c *config) { c.candidates = min(max(k, 1), MaxCandidates) }
}

// MaxCandidates is the most plans WithCandidates asks the model for in a
// request. Each is a reply whose tokens count and a plan the run checks;
// a k meant as "as many as there are" (math.MaxInt) would otherwise make
// the run reserve room for that many replies.
const MaxCandidates = 128

// Candidate is one of the plans the model proposed for a request, as it
// wrote it (validated, before verification and repair), or why its reply
// gave none.
type Candidate struct {
	Plan  *Plan  `json:"plan,omitempty"`
	Error string `json:"error,omitempty"`
}

// CandidateOutcome is how one of the candidates of a request fared
// (EventCandidateEnd).
type CandidateOutcome struct {
	// Index is the candidate's place among the Of asked (0-based).
	Index, Of int
	// Plan is the plan that would run: repaired when repair made it
	// verify, else as the model wrote it; nil when the reply held no
	// valid plan.
	Plan *Plan
	// Verified: Plan verifies; Cost is its cost on the domain from the
	// current state and Steps its steps (when verified).
	Verified bool
	Cost     float64
	Steps    int
	// Chosen: the run keeps this plan. Why says why it was chosen or why
	// it lost ("costs 5 from the current state, candidate 2 costs 4").
	Chosen bool
	Why    string
	// Err is why it could not run: unreadable, invalid, fails
	// verification.
	Err error
}

// stage is how far a candidate got through the checks.
type stage uint8

const (
	stageUnreadable stage = iota
	stageInvalid
	stageUnverified
	stageVerified
)

// candidate is one reply of a request on its way through the checks.
type candidate struct {
	index        int
	text, finish string
	// parsed is the plan read from the reply; model the same, validated
	// (nil when it is not valid); plan what would run (repaired, or
	// model's copy).
	parsed, model, plan *Plan
	err                 error
	stage               stage
	cost                float64
	steps               int
	repair              *Repair
	why                 string
	// ctx is the candidate's observer context, started and ended the
	// times of its checks.
	ctx            context.Context
	started, ended time.Time
}

// ask makes the calls of one round of a request: k replies, n at once
// where the model gives several, metered.
func (p *Planner[S]) ask(ctx context.Context, m *meter, purpose string, msgs []Message) ([]Choice, error) {
	k := p.cfg.candidates
	out := make([]Choice, 0, k)
	for len(out) < k {
		req := Request{
			Messages:    msgs,
			Schema:      p.requestSchema,
			SchemaName:  "plan",
			Temperature: p.cfg.temperature,
			MaxTokens:   p.cfg.maxTokens,
			purpose:     purpose,
		}
		if want := k - len(out); want > 1 {
			req.N = want
		}
		resp, err := p.complete(ctx, m, purpose, req)
		if err != nil {
			return nil, err
		}
		out = append(out, Choice{Text: resp.Text, FinishReason: resp.FinishReason})
		for _, alt := range resp.Alternatives {
			if len(out) < k {
				out = append(out, alt)
			}
		}
	}
	return out, nil
}

// evaluate reads, validates, verifies and repairs each reply, reporting
// the checks to the observer under each candidate's context.
func (p *Planner[S]) evaluate(ctx context.Context, replies []Choice, goal string, revision int, state S) []*candidate {
	o := p.cfg.observer
	several := len(replies) > 1 && o != nil
	cands := make([]*candidate, len(replies))
	for i, r := range replies {
		c := &candidate{index: i, text: r.Text, finish: r.FinishReason, ctx: ctx}
		cands[i] = c
		if several {
			c.started = time.Now()
			c.ctx = o.Observe(ctx, Event{Kind: EventCandidateStart, Time: c.started, Domain: p.d.Name, Goal: goal,
				Revision: revision, Candidate: &CandidateOutcome{Index: i, Of: len(replies)}})
		}
		p.read(c, goal, revision)
		if c.model != nil {
			p.settle(c, state, true)
		}
		if several {
			c.ended = time.Now()
		}
	}
	return cands
}

// read parses and validates a candidate's reply.
func (p *Planner[S]) read(c *candidate, goal string, revision int) {
	plan, err := ParsePlan(c.text)
	if err != nil {
		if pe, ok := errors.AsType[*ParseError](err); ok && c.finish == "length" {
			pe.Truncated = true
		}
		c.err, c.stage = err, stageUnreadable
		return
	}
	plan.Goal, plan.Revision = goal, revision
	c.parsed = plan
	start := p.checkStart()
	err = p.Validate(plan)
	p.observeCheck(c.ctx, EventValidation, start, goal, plan, err)
	if err != nil {
		c.err, c.stage = err, stageInvalid
		return
	}
	c.model = plan
}

// settle verifies a candidate's validated plan from state and, when it
// fails and repair is on, repairs it; it is a pure function of the plan
// and the state but for the events it reports when observed.
func (p *Planner[S]) settle(c *candidate, state S, observed bool) {
	obs := observed && p.cfg.observer != nil
	// The plan that runs is the model's, unless repair makes another
	// (which copies it).
	plan := c.model
	start := p.checkStart()
	err := p.Verify(plan, state)
	plan.Verified, plan.Critique = err == nil, errorText(err)
	if obs {
		p.observeCheck(c.ctx, EventVerification, start, plan.Goal, plan, err)
	}
	if verr, ok := errors.AsType[*VerificationError](err); ok && p.cfg.repairBudget > 0 {
		start = p.checkStart()
		fixed, rep := p.repair(plan, state)
		c.repair = rep
		if obs {
			shown, rerr := fixed, error(nil)
			if fixed == nil {
				shown, rerr = plan, rep.Err
			}
			p.cfg.observer.Observe(c.ctx, Event{Kind: EventRepair, Time: time.Now(), Started: start, Domain: p.d.Name,
				Goal: plan.Goal, Revision: plan.Revision, Plan: shown, Repair: rep, Err: rerr})
		}
		if fixed == nil {
			verr.Repair = rep.Err
			plan.Critique = verr.Error()
		} else {
			start = p.checkStart()
			err = p.Verify(fixed, state)
			fixed.Verified, fixed.Critique = err == nil, errorText(err)
			if obs {
				p.observeCheck(c.ctx, EventVerification, start, fixed.Goal, fixed, err)
			}
			if err == nil {
				plan = fixed
			} else {
				err = verr // not reached: a repaired plan verifies by construction
			}
		}
	}
	c.plan, c.err, c.stage = plan, err, stageUnverified
	if err != nil {
		return
	}
	cost, cerr := p.planCost(plan, state)
	if cerr != nil {
		c.err = fmt.Errorf("llm: the plan's cost: %w", cerr)
		return
	}
	c.stage, c.cost, c.steps = stageVerified, cost, activeSteps(plan)
}

// planCost is the cost of plan's steps, in the order they run, on the
// domain from state.
func (p *Planner[S]) planCost(plan *Plan, state S) (float64, error) {
	var total float64
	for _, i := range order(plan) {
		a := plan.Steps[i].Action
		c, err := p.d.StepCost(a, state)
		if err != nil {
			return 0, err
		}
		total += c
		state = p.d.Apply(a, state)
	}
	return total, nil
}

// activeSteps counts the steps of plan that are not skipped.
func activeSteps(plan *Plan) int {
	n := 0
	for _, st := range plan.Steps {
		if !st.Skipped {
			n++
		}
	}
	return n
}

// rank chooses among the candidates: the verified plan of least cost,
// then fewest steps, then the first; with none verified and verification
// not required, the first valid plan. It returns the index chosen (-1:
// none) and sets why each candidate lost or won.
func (p *Planner[S]) rank(cands []*candidate) int {
	best := -1
	for i, c := range cands {
		if c.stage != stageVerified {
			continue
		}
		if best < 0 || c.cost < cands[best].cost || c.cost == cands[best].cost && c.steps < cands[best].steps {
			best = i
		}
	}
	fallback := false
	if best < 0 && !p.cfg.requireVerified {
		for i, c := range cands {
			if c.stage == stageUnverified {
				best, fallback = i, true
				break
			}
		}
	}
	for i, c := range cands {
		c.why = p.why(cands, i, best, fallback)
	}
	return best
}

// why says why candidate i was chosen, or lost to candidate best.
func (p *Planner[S]) why(cands []*candidate, i, best int, fallback bool) string {
	c := cands[i]
	if i == best {
		if fallback {
			return "chosen: no candidate verifies, and the first valid one runs unverified"
		}
		if len(cands) == 1 {
			return "chosen: it verifies"
		}
		return "chosen: the verified plan of least cost, then fewest steps, then first"
	}
	switch c.stage {
	case stageUnreadable:
		return "lost: unreadable: " + c.err.Error()
	case stageInvalid:
		return "lost: invalid: " + c.err.Error()
	case stageUnverified:
		return "lost: fails verification: " + c.err.Error()
	}
	b := cands[best]
	switch {
	case c.cost != b.cost:
		return fmt.Sprintf("lost: costs %g from the current state, candidate %d costs %g", c.cost, b.index+1, b.cost)
	case c.steps != b.steps:
		return fmt.Sprintf("lost: %d steps for the same cost, candidate %d has %d", c.steps, b.index+1, b.steps)
	}
	return fmt.Sprintf("lost: the same cost and steps as candidate %d, which came first", b.index+1)
}

// outcome is the observer's view of candidate c of n.
func (c *candidate) outcome(n int, chosen bool) *CandidateOutcome {
	return &CandidateOutcome{Index: c.index, Of: n, Plan: c.plan, Verified: c.stage == stageVerified,
		Cost: c.cost, Steps: c.steps, Chosen: chosen, Why: c.why, Err: c.err}
}

// observeOutcomes reports how each candidate fared, when there were
// several.
func (p *Planner[S]) observeOutcomes(cands []*candidate, best int, goal string, revision int) {
	o := p.cfg.observer
	if o == nil || len(cands) < 2 {
		return
	}
	for i, c := range cands {
		o.Observe(c.ctx, Event{Kind: EventCandidateEnd, Time: c.ended, Started: c.started, Domain: p.d.Name,
			Goal: goal, Revision: revision, Plan: c.plan, Candidate: c.outcome(len(cands), i == best), Err: c.err})
	}
}

// representative is the candidate whose problem a retry tells the model
// about: the first that got furthest through the checks.
func representative(cands []*candidate) *candidate {
	r := cands[0]
	for _, c := range cands[1:] {
		if c.stage > r.stage {
			r = c
		}
	}
	return r
}

// wireCandidates are the candidates as a PlanReply carries them: the
// plans as the model wrote them, or why there was none.
func wireCandidates(cands []*candidate) []Candidate {
	out := make([]Candidate, len(cands))
	for i, c := range cands {
		if c.model != nil {
			out[i].Plan = c.model
		} else {
			out[i].Error = errorText(c.err)
		}
	}
	return out
}

// Choose is the deciding half of a request answered with candidates (a
// PlanReply's): it validates each plan again, verifies it from state,
// repairs it as the planner is configured, and ranks them as
// WithCandidates says. It returns the plan to run, or nil when no
// candidate is acceptable. It is a pure function of its arguments and the
// planner (no clock, no I/O, nothing random), so a Temporal workflow calls
// it, and its replays give the same plan; the engine calls it for every
// reply, in every driver.
func (p *Planner[S]) Choose(state S, candidates []Candidate) *Plan {
	cands := make([]*candidate, len(candidates))
	for i, w := range candidates {
		c := &candidate{index: i, stage: stageUnreadable, err: errors.New(w.Error)}
		cands[i] = c
		if w.Plan == nil {
			continue
		}
		plan := w.Plan.Clone()
		if err := p.Validate(plan); err != nil {
			c.err, c.stage = err, stageInvalid
			continue
		}
		c.model = plan
		p.settle(c, state, false)
	}
	if best := p.rank(cands); best >= 0 {
		return cands[best].plan
	}
	return nil
}
