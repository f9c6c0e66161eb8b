package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/rolegen/rolegen/runtime"
)

// DefaultRepairBudget is how many states repair's A* searches may expand,
// in all, to repair one plan: a few hundred suffice for the bridges of the
// roles in bench/ (a handful of steps), and the budget keeps a repair that
// cannot succeed under a millisecond on them.
const DefaultRepairBudget = 2_000

// WithRepair sets how many states the searches that repair one plan may
// expand in all (default DefaultRepairBudget); 0 turns repair off.
//
// A plan from the model that fails verification — a step whose
// precondition does not hold where the plan puts it, or a goal of
// WithGoals that does not hold at its end — is repaired before anything
// else is asked of the model: the role's own A* (runtime.NewAStar over the
// domain, with its costs, state-dependent ones included) searches for the
// cheapest sequence of actions that makes the failing precondition hold
// from the state the plan leaves before that step (or the goals hold after
// its last step), that sequence is inserted there, and the plan is
// verified again, as often as needed. Repair inserts only actions whose
// arguments rolegen can supply — actions that take none, and actions
// given a supplier with WithArgs — and never a guarded one (a step that
// needs a person's approval is the model's to propose, not rolegen's). The
// inserted steps are marked (Step.Inserted) in the plan, its checkpoints,
// the run's records and the observer's events (EventRepair), so the
// approver sees what the model did not write. In a DAG plan the step a
// bridge was inserted for depends on the bridge's last step, whose first
// step depends on what that step depended on; a completion to the goals
// depends on the plan's last steps.
//
// Only the model's plans are repaired: a plan a person or a hook changed
// (an approval's edits, an Adjust directive, Execute of a plan proposed
// earlier) is verified as it is, so that nobody's decision is undone.
//
// A repair that finds nothing within the budget (or that would make the
// plan longer than WithMaxSteps) leaves the plan as the model wrote it: it
// is refused or run as an unverified plan is, and its critique
// (VerificationError.Repair) says what repair tried, for the model's
// next attempt.
//
// Repair is on by default: it changes only plans that would otherwise be
// refused or stop at their failing step, it adds only actions the role
// declares with their preconditions and effects, never a guarded one, it
// saves a model call (seconds and tokens) for microseconds of search, and
// it is deterministic, so a Temporal workflow replays it. Turn it off
// (WithRepair(0)) where every step must come from the model.
func WithRepair(budget int) Option { return func(c *config) { c.repairBudget = max(budget, 0) } }

// WithArgs gives repair the arguments of an action that takes typed ones
// (the generated RActionArgs names it), so that repair may insert it:
// supply returns them for the state the plan will be in when the step
// runs (a simulated state, not the live one). It must be a pure function
// of that state: repair may run it in a Temporal workflow, which replays
// it. Steps the model wrote keep the model's arguments.
//
//	llm.WithArgs(travel.AgentSearchArgs, func(s travel.AgentState) (travel.SearchArgs, error) {
//		return travel.SearchArgs{From: "ZRH", To: "LIS", Date: "2026-12-18", Cabin: travel.Economy}, nil
//	})
func WithArgs[R any, S comparable, T any](a runtime.ArgAction[R, S, T], supply func(s S) (T, error)) Option {
	f := func(s S) (json.RawMessage, error) {
		v, err := supply(s)
		if err != nil {
			return nil, err
		}
		return json.Marshal(v)
	}
	return func(c *config) { c.suppliers = append(c.suppliers, supplier{domain: a.Domain, id: a.ID, supply: f}) }
}

// supplier is a WithArgs supplier as the options keep it: for action id
// of domain (a *runtime.Domain[S]), supply a supplierFunc[S].
type supplier struct {
	domain, supply any
	id             runtime.ActionID
}

// supplierFunc is a WithArgs supplier of a planner over S.
type supplierFunc[S any] = func(s S) (json.RawMessage, error)

// Repair is what repair did to one plan: the bridges it inserted, the
// states its searches expanded, and, when it found no way to make the
// plan verify, why (Err).
type Repair struct {
	Bridges []Bridge
	// Expansions counts the states A* expanded for the plan, the failed
	// search included; Budget is the most it could.
	Expansions int
	Budget     int
	// Err is why the plan could not be repaired (nil: it verifies with the
	// bridges).
	Err *RepairError
}

// Bridge is a sequence of steps repair inserted together, and why.
type Bridge struct {
	Insertion
	// Steps are the ids of the inserted steps, Capabilities their actions.
	Steps        []string
	Capabilities []string
	// Cost is the bridge's cost on the domain, from the state it starts in.
	Cost float64
}

// String describes the bridge, as in `Search before step "book"
// (Searched && Budget >= 100)`.
func (b *Bridge) String() string {
	return strings.Join(b.Capabilities, ", ") + " " + b.Insertion.String()
}

// Inserted lists what repair inserted: `Search before step "book" (…)`,
// one a bridge.
func (r *Repair) Inserted() []string {
	out := make([]string, len(r.Bridges))
	for i := range r.Bridges {
		out[i] = r.Bridges[i].String()
	}
	return out
}

// RepairError says why repair could not make a plan verify: the step
// whose precondition no sequence of actions it may insert makes hold (or,
// with StepID empty, the goals the end of the plan misses), within its
// budget and the step budget.
type RepairError struct {
	StepID, Capability, Precondition string
	Goals                            []string
	// Inserted are the bridges found before this one failed: none of them
	// is kept.
	Inserted []string
	// Budget and Expansions: the states the searches could expand and did.
	Budget, Expansions int
	// Excluded names the actions that could help but that repair may not
	// insert, and why: "Search (takes arguments: no llm.WithArgs supplier)",
	// "Wire (guarded)".
	Excluded []string
	// Err is the search's failure (a *runtime.PlanningError), a
	// supplier's error, or the step budget's.
	Err error
}

func (e *RepairError) Error() string {
	var b strings.Builder
	b.WriteString("repair found no sequence of actions it may insert that ")
	if e.StepID != "" {
		fmt.Fprintf(&b, "makes precondition %q of step %q (%s) hold", e.Precondition, e.StepID, e.Capability)
	} else {
		fmt.Fprintf(&b, "makes %s hold after the last step", strings.Join(e.Goals, " and "))
	}
	fmt.Fprintf(&b, " (%s; %d of %d states searched)", e.reason(), e.Expansions, e.Budget)
	if len(e.Inserted) > 0 {
		fmt.Fprintf(&b, ", after inserting %s", strings.Join(e.Inserted, "; "))
	}
	if len(e.Excluded) > 0 {
		fmt.Fprintf(&b, "; it may not insert %s", strings.Join(e.Excluded, ", "))
	}
	return b.String()
}

// reason says why the search failed, in a few words.
func (e *RepairError) reason() string {
	perr, ok := e.Err.(*runtime.PlanningError)
	if !ok {
		return e.Err.Error()
	}
	switch perr.Reason {
	case runtime.Unreachable:
		return "no sequence reaches it"
	case runtime.SearchBudgetExceeded:
		return "the search budget ran out"
	case runtime.TimeBudgetExceeded:
		return "the time budget ran out"
	case runtime.MaxStepsExceeded:
		return "every sequence found is too long for the step budget"
	}
	return perr.Reason.String()
}

func (e *RepairError) Unwrap() error { return e.Err }

// repairer holds what repair needs of a planner's domain, built once: the
// bridge domain (the domain's actions, those repair may not insert made
// inert, and one goal per precondition) and the goal of each action's
// precondition in it.
type repairer[S comparable] struct {
	once sync.Once
	d    *runtime.Domain[S]
	// pre[a] is the goal of the bridge domain that is action a's
	// precondition (NoGoal for an action without one).
	pre []runtime.GoalID
	// insertable[a]: repair may insert action a; why[a] says why not.
	insertable []bool
	why        []string
	// pool holds A* planners over d with the whole budget and the step
	// budget as depth limit (an A* keeps its search space between calls).
	pool   sync.Pool
	budget int
}

// repairer returns the planner's repairer, building it on first use.
func (p *Planner[S]) repairer() *repairer[S] {
	r := p.repairs
	r.once.Do(func() { r.build(p) })
	return r
}

// build makes the bridge domain: a copy of the planner's domain whose
// actions repair may not insert have no effect (so A* never takes them,
// and its estimates ignore them), with one more goal per precondition.
func (r *repairer[S]) build(p *Planner[S]) {
	d := p.d
	actions := slices.Clone(d.Actions)
	goals := slices.Clone(d.Goals)
	r.pre = make([]runtime.GoalID, len(actions))
	r.insertable = make([]bool, len(actions))
	r.why = make([]string, len(actions))
	for i := range actions {
		a := &actions[i]
		switch _, supplied := p.suppliers[runtime.ActionID(i)]; {
		case a.Guarded:
			r.why[i] = "guarded"
		case a.Args != "" && !supplied:
			r.why[i] = "takes arguments: no llm.WithArgs supplier"
		default:
			r.insertable[i] = true
		}
		if !r.insertable[i] {
			a.Effect, a.Writes, a.Changes, a.Fulfills = nil, nil, nil, nil
		}
		r.pre[i] = runtime.NoGoal
		if a.Pre != nil {
			r.pre[i] = runtime.GoalID(len(goals))
			goals = append(goals, runtime.Goal[S]{
				Name:     "precondition of " + a.Name,
				Priority: runtime.Low,
				Cond:     a.Pre, CondText: a.PreText,
				Reads: a.PreReads, Parts: a.PreParts, Unmet: a.PreUnmet,
			})
		}
	}
	r.d = runtime.NewDomain(runtime.Domain[S]{
		Name: d.Name, Fields: d.Fields, Actions: actions, Goals: goals,
		Enabled: d.Enabled, Number: d.Number, Hash: d.Hash, Key: d.Key,
	})
	r.budget = p.cfg.repairBudget
	maxSteps := p.cfg.maxSteps
	r.pool.New = func() any {
		return runtime.NewAStar(r.d, runtime.WithSearchBudget(r.budget), runtime.WithMaxSteps(maxSteps))
	}
}

// excluded names the actions repair may not insert that could serve the
// target: make a conjunct of action a's precondition hold, or serve goals.
func (r *repairer[S]) excluded(p *Planner[S], a runtime.ActionID, goals []runtime.GoalID) []string {
	var helpers []runtime.ActionID
	if a != runtime.NoAction {
		helpers = p.d.Helpers(a)
	}
	for _, g := range goals {
		for _, h := range p.d.Serves(g) {
			if !slices.Contains(helpers, h) {
				helpers = append(helpers, h)
			}
		}
	}
	slices.Sort(helpers)
	var out []string
	for _, h := range helpers {
		if !r.insertable[h] {
			out = append(out, fmt.Sprintf("%s (%s)", p.d.Actions[h].Name, r.why[h]))
		}
	}
	return out
}

// failure is where the simulation of a plan first fails: the step (its
// index in Plan.Steps) whose precondition does not hold in state, or, with
// index -1, the goal that does not hold in state after the last step.
type failure[S any] struct {
	index int
	goal  runtime.GoalID
	state S
}

// simulate runs plan from s, in dependency order, skipped steps and the
// steps in done left out, and returns its first failure, if any.
func (p *Planner[S]) simulate(plan *Plan, s S, done map[string]bool) (failure[S], bool) {
	d := p.d
	for _, i := range order(plan) {
		st := &plan.Steps[i]
		if done[st.ID] {
			continue
		}
		if !d.Applicable(st.Action, s) {
			return failure[S]{index: i, goal: runtime.NoGoal, state: s}, true
		}
		s = d.Apply(st.Action, s)
	}
	if g := d.FirstUnsatisfied(p.cfg.goals, s); g != runtime.NoGoal {
		return failure[S]{index: -1, goal: g, state: s}, true
	}
	return failure[S]{}, false
}

// repair makes a validated plan that fails verification from state
// verify, by inserting the steps the domain's A* finds (see WithRepair).
// It returns the repaired plan, validated and verified, or nil, and what
// it did. It is a pure function of the plan, the state and the planner:
// no clock, no context, no randomness, so that a workflow replays it.
func (p *Planner[S]) repair(plan *Plan, state S) (*Plan, *Repair) {
	r := p.repairer()
	rep := &Repair{Budget: p.cfg.repairBudget}
	work := plan.Clone()
	skipped := skippedSet(work)
	next := 1
	for {
		f, failed := p.simulate(work, state, nil)
		if !failed {
			return work, rep
		}
		fail := func(err error) (*Plan, *Repair) {
			rep.Err = p.repairError(r, work, f, rep, err)
			return nil, rep
		}
		var targets []runtime.GoalID
		var target runtime.ActionID = runtime.NoAction
		if f.index >= 0 {
			target = work.Steps[f.index].Action
			targets = []runtime.GoalID{r.pre[target]}
		} else {
			targets = p.cfg.goals
		}
		room := p.cfg.maxSteps - lastActive(work) - 1
		left := rep.Budget - rep.Expansions
		switch {
		case room <= 0:
			return fail(fmt.Errorf("the plan already takes the step budget of %d", p.cfg.maxSteps))
		case left <= 0:
			return fail(fmt.Errorf("the search budget of %d states is spent", rep.Budget))
		}
		bridge, cost, expanded, err := r.search(f.state, targets, left, room)
		rep.Expansions += expanded
		if err != nil {
			return fail(err)
		}
		b, steps, err := p.bridgeSteps(work, f, bridge, &next)
		if err != nil {
			return fail(err)
		}
		b.Cost = cost
		splice(work, f.index, steps)
		if !p.reskip(work, skipped) {
			return fail(fmt.Errorf("the bridge would push steps beyond the step budget of %d", p.cfg.maxSteps))
		}
		rep.Bridges = append(rep.Bridges, b)
	}
}

// search finds the cheapest bridge of at most room steps from s to a
// state where targets hold, expanding at most left states. A search with
// the whole budget takes a pooled A* (most repairs need one bridge), whose
// depth limit is the step budget; a bridge it finds that is too long for
// the room left is searched for again within the room.
func (r *repairer[S]) search(s S, targets []runtime.GoalID, left, room int) ([]runtime.ActionID, float64, int, error) {
	ctx := context.Background() // a repair is bounded by its budget, and must not depend on a deadline
	var plan runtime.Plan
	expanded := 0
	if left == r.budget {
		a := r.pool.Get().(*runtime.AStar[S])
		err := a.PlanGoalsInto(ctx, s, targets, &plan)
		r.pool.Put(a)
		expanded, left = plan.Expansions, left-plan.Expansions
		switch {
		case err == nil && len(plan.Steps) <= room:
			return plan.Steps, plan.Cost, expanded, nil
		case err != nil && !errors.Is(err, runtime.ErrMaxStepsExceeded):
			return nil, 0, expanded, err
		case left <= 0:
			return nil, 0, expanded, fmt.Errorf("the search budget of %d states is spent", r.budget)
		}
	}
	err := runtime.NewAStar(r.d, runtime.WithSearchBudget(left), runtime.WithMaxSteps(room)).PlanGoalsInto(ctx, s, targets, &plan)
	expanded += plan.Expansions
	if err != nil {
		return nil, 0, expanded, err
	}
	return plan.Steps, plan.Cost, expanded, nil
}

// reskip marks again the steps beyond the step budget after a splice, and
// reports whether they are the ones skipped before it.
func (p *Planner[S]) reskip(plan *Plan, skipped map[string]bool) bool {
	index := make(map[string]int, len(plan.Steps))
	for i, st := range plan.Steps {
		index[st.ID] = i
	}
	markSkipped(plan, index, p.cfg.maxSteps)
	return maps.Equal(skipped, skippedSet(plan))
}

// repairError describes a failed repair at failure f.
func (p *Planner[S]) repairError(r *repairer[S], plan *Plan, f failure[S], rep *Repair, err error) *RepairError {
	e := &RepairError{Budget: rep.Budget, Expansions: rep.Expansions, Inserted: rep.Inserted(), Err: err}
	if f.index >= 0 {
		st := &plan.Steps[f.index]
		e.StepID, e.Capability, e.Precondition = st.ID, st.Capability, p.d.Actions[st.Action].PreText
		e.Excluded = r.excluded(p, st.Action, nil)
	} else {
		for _, g := range p.cfg.goals {
			if !p.d.Holds(g, f.state) {
				e.Goals = append(e.Goals, p.d.Goals[g].Name)
			}
		}
		e.Excluded = r.excluded(p, runtime.NoAction, p.cfg.goals)
	}
	return e
}

// bridgeSteps makes the steps of a bridge of actions found for failure f
// of plan: ids no step has, the arguments of each from its supplier in the
// state the bridge leaves before it, the marking, and the dependencies
// that keep the plan's meaning (see WithRepair).
func (p *Planner[S]) bridgeSteps(plan *Plan, f failure[S], actions []runtime.ActionID, next *int) (Bridge, []Step, error) {
	d := p.d
	var b Bridge
	var deps []string
	if f.index >= 0 {
		st := &plan.Steps[f.index]
		b.For, b.Precondition = st.ID, d.Actions[st.Action].PreText
		deps = slices.Clone(st.DependsOn)
	} else {
		for _, g := range p.cfg.goals {
			if !d.Holds(g, f.state) {
				b.Goals = append(b.Goals, d.Goals[g].Name)
			}
		}
		deps = sinks(plan)
	}
	s := f.state
	steps := make([]Step, len(actions))
	for i, a := range actions {
		args, err := p.supplyArgs(a, s)
		if err != nil {
			return b, nil, fmt.Errorf("the arguments of %s: %w", d.Actions[a].Name, err)
		}
		in := b.Insertion
		in.Goals = slices.Clone(in.Goals)
		steps[i] = Step{ID: freshID(plan, next), Capability: d.Actions[a].Name, Args: args, DependsOn: deps, Action: a, Inserted: &in}
		if d.Actions[a].Args != "" {
			// Supplied arguments are held to the model's checks.
			schemas, err := argSchemas(d)
			if err != nil {
				return b, nil, err
			}
			if verr := checkArgs(&d.Actions[a], schemas[a], &steps[i]); verr != nil {
				return b, nil, fmt.Errorf("the arguments of %s from its supplier: %w", d.Actions[a].Name, verr)
			}
		}
		deps = []string{steps[i].ID}
		b.Steps = append(b.Steps, steps[i].ID)
		b.Capabilities = append(b.Capabilities, steps[i].Capability)
		s = d.Apply(a, s)
	}
	return b, steps, nil
}

// supplyArgs returns the arguments of an inserted step of action a in
// state s: {} for an action without arguments, else its supplier's.
func (p *Planner[S]) supplyArgs(a runtime.ActionID, s S) (json.RawMessage, error) {
	if p.d.Actions[a].Args == "" {
		return json.RawMessage("{}"), nil
	}
	supply, ok := p.suppliers[a]
	if !ok {
		return nil, fmt.Errorf("no supplier") // the bridge domain never takes it
	}
	return supply(s)
}

// splice inserts steps before the step at index (or, with index -1, after
// the last step not skipped) and makes that step depend on the last of
// them.
func splice(plan *Plan, index int, steps []Step) {
	at := index
	if index < 0 {
		at = lastActive(plan) + 1
	} else {
		st := &plan.Steps[index]
		st.DependsOn = append(slices.Clone(st.DependsOn), steps[len(steps)-1].ID)
	}
	plan.Steps = slices.Insert(plan.Steps, at, steps...)
}

// lastActive returns the index of the last step not skipped, -1 when
// every step is.
func lastActive(plan *Plan) int {
	for i := len(plan.Steps) - 1; i >= 0; i-- {
		if !plan.Steps[i].Skipped {
			return i
		}
	}
	return -1
}

// sinks returns the ids of the steps not skipped that no step not skipped
// depends on, in plan order: the plan's last steps, after which a
// completion to the goals runs.
func sinks(plan *Plan) []string {
	needed := map[string]bool{}
	for _, st := range plan.Steps {
		if !st.Skipped {
			for _, dep := range st.DependsOn {
				needed[dep] = true
			}
		}
	}
	out := []string{}
	for _, st := range plan.Steps {
		if !st.Skipped && !needed[st.ID] {
			out = append(out, st.ID)
		}
	}
	return out
}

// freshID returns the next id "repair-N" that no step of plan has.
func freshID(plan *Plan, next *int) string {
	for {
		id := "repair-" + strconv.Itoa(*next)
		*next++
		if _, taken := plan.Step(id); !taken {
			return id
		}
	}
}

// skippedSet returns the ids of the skipped steps.
func skippedSet(plan *Plan) map[string]bool {
	out := map[string]bool{}
	for _, st := range plan.Steps {
		if st.Skipped {
			out[st.ID] = true
		}
	}
	return out
}
