package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/bench/internal/corrupt"
	"github.com/rolegen/rolegen/bench/internal/depot"
	"github.com/rolegen/rolegen/bench/internal/kitchen"
	"github.com/rolegen/rolegen/examples/assistant/travel"
	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/runtime"
)

// The repair benchmark (issue 23). Optimal plans of three roles (the
// assistant's travel agent, the twelve-action cook, the six-action depot
// keeper), from many start states, are corrupted the four ways a model
// gets plans wrong (corrupt.All, sampled); a test model answers each
// corrupted plan, and the planner, with the default repair, proposes the
// plan it would run. A corrupted plan counts as repaired when it became a
// verified plan in that one model call. It is held to the reference: the
// cheapest plan that keeps the corrupted plan's steps in order and only
// inserts actions repair may insert, found by exhaustive search within
// the same step budget (corrupt.CheapestInsertion) — the most any repair
// by insertion can do.

// repairRole is a role of the benchmark.
type repairRole[S comparable] struct {
	name     string
	d        *runtime.Domain[S]
	goals    []runtime.GoalID
	starts   []S
	maxSteps int
	// opts give repair the suppliers of the actions it may insert that
	// take arguments (supplied); args is what the test model writes for
	// an action's arguments ({} when not listed).
	opts     []llm.Option
	supplied []runtime.ActionID
	args     map[runtime.ActionID]string
	// per is how many corruptions of each kind are sampled a start.
	per int
}

// repairOutcome is what became of one corrupted plan.
type repairOutcome struct {
	role string
	kind corrupt.Kind
	// asWritten: the corrupted plan verifies as it is (a harmless
	// repetition, two independent steps swapped): there is nothing to
	// repair.
	asWritten bool
	ref       corrupt.Reference
	// repaired: verified in the one model call; calls made; the plan's
	// cost from the start, the optimal plan's, the reference's.
	repaired   bool
	calls      int
	cost       float64
	optimal    float64
	inserted   int
	took, cpu  time.Duration
	expansions int
	// problem is what a check of the repaired plan found wrong.
	problem string
}

// repairCase is a corrupted plan ready to be handed to the planner.
type repairCase[S comparable] struct {
	start      S
	good, text string
	steps      []runtime.ActionID
	outcome    repairOutcome
}

// insertable returns the actions repair may insert: those that take no
// arguments or have a supplier, and are not guarded.
func (r *repairRole[S]) insertable() []bool {
	out := make([]bool, len(r.d.Actions))
	for i, a := range r.d.Actions {
		out[i] = !a.Guarded && (a.Args == "" || slices.Contains(r.supplied, runtime.ActionID(i)))
	}
	return out
}

// planText is steps as the test model writes them, one after another.
func (r *repairRole[S]) planText(steps []runtime.ActionID) string {
	var b strings.Builder
	b.WriteString(`{"steps":[`)
	for i, a := range steps {
		if i > 0 {
			b.WriteByte(',')
		}
		args, ok := r.args[a]
		if !ok {
			args = "{}"
		}
		fmt.Fprintf(&b, `{"id":"s%d","capability":%q,"args":%s,"dependsOn":[]}`, i+1, r.d.Actions[a].Name, args)
	}
	b.WriteString(`]}`)
	return b.String()
}

// cases corrupts the optimal plan of every start and finds each
// reference.
func (r *repairRole[S]) cases(t testing.TB) []*repairCase[S] {
	ctx := context.Background()
	astar := runtime.NewAStar(r.d)
	insertable := r.insertable()
	var out []*repairCase[S]
	for si, start := range r.starts {
		good, err := astar.PlanGoals(ctx, start, r.goals...)
		if err != nil || len(good.Steps) == 0 {
			continue
		}
		for _, c := range corrupt.Sample(corrupt.All(good.Steps, len(r.d.Actions)), r.per, uint64(si)) {
			rc := &repairCase[S]{start: start, good: r.planText(good.Steps), text: r.planText(c.Steps), steps: c.Steps,
				outcome: repairOutcome{role: r.name, kind: c.Kind, optimal: good.Cost}}
			rc.outcome.asWritten = corrupt.Verifies(r.d, start, c.Steps, r.goals)
			if !rc.outcome.asWritten {
				rc.outcome.ref = corrupt.CheapestInsertion(r.d, start, c.Steps, r.goals, insertable, r.maxSteps, 200_000)
			}
			out = append(out, rc)
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s: no plan to corrupt", r.name)
	}
	return out
}

// propose hands each case's corrupted plan to a planner with the default
// repair, as a model's reply (a retry gets the good plan), and records
// what became of it.
func (r *repairRole[S]) propose(cases []*repairCase[S]) []repairOutcome {
	var current *repairCase[S]
	model := llm.ModelFunc(func(_ context.Context, req llm.Request) (llm.Response, error) {
		text := current.text
		if len(req.Messages) > 2 {
			text = current.good
		}
		return llm.Response{Text: text, Usage: llm.Usage{PromptTokens: 100, CompletionTokens: 50}}, nil
	})
	// The repair's wall time is EventRepair's; its CPU time the thread's
	// between the failed verification that precedes it and the event (the
	// goroutine is locked to its thread for the run).
	var took, cpu, cpuAt time.Duration
	var expansions int
	obs := llm.ObserverFunc(func(ctx context.Context, ev llm.Event) context.Context {
		switch {
		case ev.Kind == llm.EventVerification && ev.Err != nil:
			cpuAt = threadCPU()
		case ev.Kind == llm.EventRepair:
			cpu = threadCPU() - cpuAt
			took, expansions = ev.Time.Sub(ev.Started), ev.Repair.Expansions
		}
		return ctx
	})
	goruntime.LockOSThread()
	defer goruntime.UnlockOSThread()
	planner := llm.NewPlanner(r.d, model, append(slices.Clone(r.opts),
		llm.WithGoals(r.goals...), llm.WithMaxSteps(r.maxSteps), llm.WithRequireVerified(1), llm.WithObserver(obs))...)
	out := make([]repairOutcome, len(cases))
	for i, c := range cases {
		current, took, cpu, expansions = c, 0, 0, 0
		o := c.outcome
		res, err := planner.Propose(context.Background(), "the role's goals", c.start)
		o.calls, o.took, o.cpu, o.expansions = len(res.Calls), took, cpu, expansions
		if err == nil && res.Plan.Verified && o.calls == 1 && !o.asWritten {
			o.repaired = true
			o.cost, o.inserted, o.problem = r.check(c, res.Plan)
		}
		out[i] = o
	}
	return out
}

// check checks a repaired plan: it verifies from the start, keeps the
// corrupted plan's steps in order, and marks exactly the other steps as
// inserted. It returns the plan's cost, the steps inserted, and what is
// wrong.
func (r *repairRole[S]) check(c *repairCase[S], plan *llm.Plan) (float64, int, string) {
	var steps, kept []runtime.ActionID
	inserted := 0
	for _, st := range plan.Steps {
		steps = append(steps, st.Action)
		if st.Inserted != nil {
			inserted++
		} else {
			kept = append(kept, st.Action)
		}
	}
	cost, err := r.d.PathCost(c.start, steps)
	switch {
	case err != nil:
		return 0, inserted, err.Error()
	case !corrupt.Verifies(r.d, c.start, steps, r.goals):
		return cost, inserted, "the repaired plan does not verify in plan order"
	case !slices.Equal(kept, c.steps):
		return cost, inserted, "the steps not marked inserted are not the model's"
	}
	return cost, inserted, ""
}

func travelRole() *repairRole[travel.AgentState] {
	var starts []travel.AgentState
	for _, budget := range []int{100, 150, 250, 400, 1000} {
		for _, searched := range []bool{false, true} {
			for _, booked := range []bool{false, true} {
				starts = append(starts, travel.AgentState{Budget: budget, Searched: searched, Booked: booked})
			}
		}
	}
	route := travel.SearchArgs{From: "ZRH", To: "LIS", Date: "2026-12-18", Cabin: travel.Economy}
	return &repairRole[travel.AgentState]{
		name: "assistant", d: travel.AgentDomain, goals: []runtime.GoalID{travel.AgentGoalTrip},
		starts: starts, maxSteps: 8, per: 100,
		opts: []llm.Option{
			llm.WithArgs(travel.AgentSearchArgs, func(travel.AgentState) (travel.SearchArgs, error) { return route, nil }),
			llm.WithArgs(travel.AgentNotifyArgs, func(travel.AgentState) (travel.NotifyArgs, error) {
				return travel.NotifyArgs{Message: "booked"}, nil
			}),
		},
		supplied: []runtime.ActionID{travel.AgentSearch, travel.AgentNotify},
		args: map[runtime.ActionID]string{
			travel.AgentSearch: `{"from":"ZRH","to":"LIS","date":"2026-12-18","cabin":"economy"}`,
			travel.AgentBook:   `{"passenger":"Ada Lovelace","maxPrice":150}`,
			travel.AgentNotify: `{"message":"booked"}`,
		},
	}
}

func kitchenRole() *repairRole[kitchen.CookState] {
	var starts []kitchen.CookState
	for i, at := range []kitchen.Place{kitchen.Pantry, kitchen.Stove, kitchen.Sink, kitchen.Market} {
		for _, money := range []int{0, 3, 6} {
			for bowls := 1; bowls <= 2; bowls++ {
				starts = append(starts, kitchen.CookState{At: at, Money: money, Bowls: bowls, Veg: (i + money) % 2,
					Water: money == 3, Fire: at == kitchen.Stove && bowls == 2})
			}
		}
	}
	return &repairRole[kitchen.CookState]{
		name: "kitchen", d: kitchen.CookDomain, goals: []runtime.GoalID{kitchen.CookGoalFed, kitchen.CookGoalTidy},
		starts: starts, maxSteps: 24, per: 6,
	}
}

func depotRole() *repairRole[depot.KeeperState] {
	var starts []depot.KeeperState
	for _, distance := range []int{0, 10, 40} {
		for _, truck := range []bool{false, true} {
			for i := range 3 {
				starts = append(starts, depot.KeeperState{Distance: distance, Truck: truck, Crates: i % 2, Orders: i / 2, Shelved: i % 2})
			}
		}
	}
	return &repairRole[depot.KeeperState]{
		name: "depot", d: depot.KeeperDomain, goals: []runtime.GoalID{depot.KeeperGoalDelivered},
		starts: starts, maxSteps: 20, per: 12,
		opts: []llm.Option{
			llm.WithArgs(depot.KeeperUnloadArgs, func(depot.KeeperState) (depot.Bay, error) { return depot.Bay{Number: 1}, nil }),
			llm.WithArgs(depot.KeeperTakeOrderArgs, func(depot.KeeperState) (depot.Order, error) { return depot.Order{Customer: "c1"}, nil }),
		},
		supplied: []runtime.ActionID{depot.KeeperUnload, depot.KeeperTakeOrder},
		args: map[runtime.ActionID]string{
			depot.KeeperUnload:    `{"number":1}`,
			depot.KeeperTakeOrder: `{"customer":"c1"}`,
		},
	}
}

// repairCorpus is the benchmark's corrupted plans, made once: a function
// a role that proposes them all and returns the outcomes.
type repairCorpus struct {
	roles []string
	runs  []func() []repairOutcome
	n     int
}

var (
	corpusOnce sync.Once
	corpus     repairCorpus
)

func addRole[S comparable](t testing.TB, c *repairCorpus, r *repairRole[S]) {
	cases := r.cases(t)
	c.roles = append(c.roles, r.name)
	c.runs = append(c.runs, func() []repairOutcome { return r.propose(cases) })
	c.n += len(cases)
}

func theCorpus(t testing.TB) *repairCorpus {
	corpusOnce.Do(func() {
		addRole(t, &corpus, travelRole())
		addRole(t, &corpus, kitchenRole())
		addRole(t, &corpus, depotRole())
	})
	return &corpus
}

// proposeAll runs every role's cases once.
func (c *repairCorpus) proposeAll() []repairOutcome {
	var out []repairOutcome
	for _, run := range c.runs {
		out = append(out, run()...)
	}
	return out
}

// repairStats sums the outcomes.
type repairStats struct {
	corruptions, asWritten, failing        int
	bridgeable, unbridgeable, unknown      int
	repaired, repairedBridgeable, problems int
	costRatio, refRatio                    []float64
	took, cpu                              []time.Duration
	tookAll, cpuAll                        []time.Duration
	expansions                             []float64
}

func statsOf(outs []repairOutcome) repairStats {
	var s repairStats
	for _, o := range outs {
		s.corruptions++
		if o.asWritten {
			s.asWritten++
			continue
		}
		s.failing++
		switch {
		case o.ref.Found:
			s.bridgeable++
		case o.ref.Exhausted:
			s.unknown++
		default:
			s.unbridgeable++
		}
		if o.took > 0 {
			s.tookAll = append(s.tookAll, o.took)
			s.cpuAll = append(s.cpuAll, o.cpu)
		}
		if !o.repaired {
			continue
		}
		s.repaired++
		if o.ref.Found {
			s.repairedBridgeable++
		}
		if o.problem != "" {
			s.problems++
		}
		s.costRatio = append(s.costRatio, o.cost/o.optimal)
		if o.ref.Found {
			s.refRatio = append(s.refRatio, o.cost/o.ref.Cost)
		}
		s.took = append(s.took, o.took)
		s.cpu = append(s.cpu, o.cpu)
		s.expansions = append(s.expansions, float64(o.expansions))
	}
	return s
}

// nearestRank returns the q-quantile of xs (nearest rank).
func nearestRank[T int | float64 | time.Duration](xs []T, q float64) T {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func (s repairStats) share() float64 {
	if s.bridgeable == 0 {
		return 0
	}
	return 100 * float64(s.repairedBridgeable) / float64(s.bridgeable)
}

func (s repairStats) String() string {
	return fmt.Sprintf("%d corruptions: %d verify as written, %d fail; of those %d bridgeable, %d not (%d unknown); "+
		"repaired in one call %d (%d of the bridgeable: %.1f%%); cost / optimal median %.3f p90 %.3f, / reference median %.3f p90 %.3f; "+
		"repair time median %v p99 %v (every attempt: p99 %v), CPU time median %v p99 %v (every attempt: p99 %v); expansions median %.0f p99 %.0f",
		s.corruptions, s.asWritten, s.failing, s.bridgeable, s.unbridgeable, s.unknown,
		s.repaired, s.repairedBridgeable, s.share(),
		nearestRank(s.costRatio, 0.5), nearestRank(s.costRatio, 0.9), nearestRank(s.refRatio, 0.5), nearestRank(s.refRatio, 0.9),
		nearestRank(s.took, 0.5), nearestRank(s.took, 0.99), nearestRank(s.tookAll, 0.99),
		nearestRank(s.cpu, 0.5), nearestRank(s.cpu, 0.99), nearestRank(s.cpuAll, 0.99),
		nearestRank(s.expansions, 0.5), nearestRank(s.expansions, 0.99))
}

// report logs the figures, in all and by role and by kind.
func report(tb testing.TB, outs []repairOutcome) {
	tb.Logf("all: %v", statsOf(outs))
	groups := map[string][]repairOutcome{}
	var keys []string
	for _, o := range outs {
		for _, k := range []string{o.role, "kind " + o.kind.String()} {
			if _, ok := groups[k]; !ok {
				keys = append(keys, k)
			}
			groups[k] = append(groups[k], o)
		}
	}
	for _, k := range keys {
		tb.Logf("%s: %v", k, statsOf(groups[k]))
	}
}

// The judge of repair: at least a thousand corruptions; at least 90% of
// the corrupted plans an insertion can repair are repaired with no
// second model call; no plan is repaired that the reference says cannot
// be; every repaired plan verifies, keeps the model's steps in order and
// marks exactly the others inserted; none costs less than the optimal
// plan, which would mean a wrong cost.
func TestRepairOfCorruptedPlans(t *testing.T) {
	c := theCorpus(t)
	outs := c.proposeAll()
	report(t, outs)
	s := statsOf(outs)
	assert.GreaterOrEqual(t, s.corruptions, 1000)
	assert.GreaterOrEqual(t, s.share(), 90.0)
	assert.Equal(t, s.repaired, s.repairedBridgeable, "repaired what no insertion can repair")
	assert.Zero(t, s.unknown, "the reference ran out of states")
	for _, o := range outs {
		if o.repaired {
			require.Empty(t, o.problem, "%s %s", o.role, o.kind)
			require.GreaterOrEqual(t, o.cost, o.optimal-1e-9)
			require.GreaterOrEqual(t, o.cost, o.ref.Cost-1e-9)
		}
		if o.asWritten {
			require.Equal(t, 1, o.calls)
		}
	}
	for _, role := range c.roles {
		var n int
		for _, o := range outs {
			if o.role == role && o.repaired {
				n++
			}
		}
		assert.Positive(t, n, "%s: nothing repaired", role)
	}
}

// BenchmarkRepair proposes every corrupted plan of the corpus once an
// iteration and reports, from the last: the share of the bridgeable
// corruptions repaired in one model call (%repaired), those no insertion
// can repair (unbridgeable), the cost of the repaired plans over the
// optimal plan's (median, p90) and the time of a repair (median, p99, in
// µs: wall time from EventRepair's Started to Time, and the thread's CPU
// time, which the other processes of a loaded machine do not inflate).
//
//	cd bench && go test -run '^$' -bench BenchmarkRepair -benchtime 1x .
func BenchmarkRepair(b *testing.B) {
	c := theCorpus(b)
	var outs []repairOutcome
	for b.Loop() {
		outs = c.proposeAll()
	}
	s := statsOf(outs)
	b.ReportMetric(float64(s.corruptions), "corruptions")
	b.ReportMetric(float64(s.bridgeable), "bridgeable")
	b.ReportMetric(float64(s.unbridgeable), "unbridgeable")
	b.ReportMetric(s.share(), "%repaired")
	b.ReportMetric(nearestRank(s.costRatio, 0.5), "cost/opt-median")
	b.ReportMetric(nearestRank(s.costRatio, 0.9), "cost/opt-p90")
	b.ReportMetric(float64(nearestRank(s.took, 0.5))/1e3, "µs-median")
	b.ReportMetric(float64(nearestRank(s.took, 0.99))/1e3, "µs-p99")
	b.ReportMetric(float64(nearestRank(s.cpu, 0.5))/1e3, "cpu-µs-median")
	b.ReportMetric(float64(nearestRank(s.cpu, 0.99))/1e3, "cpu-µs-p99")
	b.ReportMetric(0, "ns/op")
	report(b, outs)
}

// A guard on the test model: the good plans it corrupts verify.
func TestRepairCorpusPlansAreGood(t *testing.T) {
	r := kitchenRole()
	ctx := context.Background()
	for _, s := range r.starts {
		p, err := runtime.NewAStar(r.d).PlanGoals(ctx, s, r.goals...)
		require.NoError(t, err)
		require.True(t, corrupt.Verifies(r.d, s, p.Steps, r.goals))
		var plan struct{ Steps []json.RawMessage }
		require.NoError(t, json.Unmarshal([]byte(r.planText(p.Steps)), &plan))
		require.Len(t, plan.Steps, len(p.Steps))
	}
}

// BenchmarkRepairHopeless is the worst case the default budget allows: a
// plan of one step to two served bowls, from an empty kitchen, with a
// step budget of 10 (the plan needs 15 steps), which the annotations' bound
// does not prove too short, so A* searches until the budget is spent.
//
//	cd bench && go test -run '^$' -bench BenchmarkRepairHopeless .
func BenchmarkRepairHopeless(b *testing.B) {
	r := kitchenRole()
	var expansions int
	obs := llm.ObserverFunc(func(ctx context.Context, ev llm.Event) context.Context {
		if ev.Kind == llm.EventRepair {
			expansions = ev.Repair.Expansions
		}
		return ctx
	})
	model := llm.ModelFunc(func(context.Context, llm.Request) (llm.Response, error) {
		return llm.Response{Text: r.planText([]runtime.ActionID{kitchen.CookGoSink})}, nil
	})
	planner := llm.NewPlanner(r.d, model, llm.WithGoals(r.goals...), llm.WithMaxSteps(14), llm.WithObserver(obs))
	start := kitchen.CookState{At: kitchen.Pantry, Bowls: 2}
	for b.Loop() {
		res, err := planner.Propose(context.Background(), "serve", start)
		if err != nil || res.Plan.Verified {
			b.Fatalf("the plan was repaired: %v", err)
		}
	}
	b.ReportMetric(float64(expansions), "expansions")
}
