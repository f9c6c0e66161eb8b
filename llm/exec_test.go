package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/runtime"
)

func TestInOrderThreadsEveryEarlierOutput(t *testing.T) {
	model := llm.ScriptedReplies(planJSON(
		step("search", "Search", searchParis),
		step("ping", "Ping", "{}"),
		step("book", "BookFlight", flightParis),
	))
	rec := newRecorder()
	rec.output = func(st llm.Step) json.RawMessage {
		if st.ID == "search" {
			return json.RawMessage(`{"flights":["AF1","SK2"]}`)
		}
		if st.ID == "ping" {
			return nil // no output: not an input of later steps
		}
		return json.RawMessage(`"booked"`)
	}
	var bookSaw map[string]json.RawMessage
	exec := func(ctx context.Context, st llm.Step, inputs map[string]json.RawMessage) (json.RawMessage, error) {
		if st.ID == "book" {
			bookSaw = inputs
		}
		return rec.exec(ctx, st, inputs)
	}
	res, err := llm.NewPlanner(trip, model).Run(context.Background(), "fly", llm.FuncTarget(trip, rich, exec))
	require.NoError(t, err)
	assert.Equal(t, []string{"search", "ping", "book"}, rec.steps())
	assert.Equal(t, map[string][]string{"search": nil, "ping": {"search"}, "book": {"search"}}, rec.inputs)
	assert.JSONEq(t, `{"flights":["AF1","SK2"]}`, string(bookSaw["search"]))
	out, ok := res.Output("book")
	require.True(t, ok)
	assert.Equal(t, `"booked"`, string(out))
}

func TestRoleTargetRunsPerformJSON(t *testing.T) {
	role := &travelRole{state: rich}
	res, err := llm.NewPlanner(trip, llm.ScriptedReplies(goodPlan)).Run(context.Background(), "Paris", llm.RoleTarget[tripState](role))
	require.NoError(t, err)
	assert.Equal(t, []string{"BookFlight " + flightParis, "BookHotel " + hotelParis}, role.calls)
	assert.Equal(t, tripState{Money: 400, HasFlight: true, HasHotel: true}, role.state)
	out, _ := res.Output("s1")
	assert.JSONEq(t, `{"confirmation":"BookFlight-1"}`, string(out))
}

// A generated role's action method gets only a context and its arguments:
// it reads earlier outputs with StepInputs, the same ones an Executor gets.
func TestRoleActionsReadEarlierOutputsFromTheirContext(t *testing.T) {
	plan := planJSON(
		step("search", "Search", searchParis),
		step("flight", "BookFlight", flightParis, "search"),
		step("ping", "Ping", "{}"),
		step("hotel", "BookHotel", hotelParis, "flight"),
	)
	for _, tc := range []struct {
		name string
		opts []llm.Option
		want map[string]string
	}{
		{"in order", nil, map[string]string{
			"Search": "", "BookFlight": "search", "Ping": "flight search", "BookHotel": "flight ping search",
		}},
		{"DAG", []llm.Option{llm.WithDAG(1)}, map[string]string{
			"Search": "", "BookFlight": "search", "Ping": "", "BookHotel": "flight",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			role := &travelRole{state: rich, saw: map[string]string{}}
			_, err := llm.NewPlanner(trip, llm.ScriptedReplies(plan), tc.opts...).Run(context.Background(), "Paris", llm.RoleTarget[tripState](role))
			require.NoError(t, err)
			assert.Equal(t, tc.want, role.saw)
		})
	}
	assert.Nil(t, llm.StepInputs(context.Background()), "outside a run")
}

// travelRole stands for a generated role: PlanState and PerformJSON.
type travelRole struct {
	state tripState
	calls []string
	// saw, when not nil, records for each action the IDs of the outputs
	// it could read with StepInputs.
	saw map[string]string
}

func (r *travelRole) PlanState() tripState { return r.state }

func (r *travelRole) PerformJSON(ctx context.Context, a runtime.ActionID, args json.RawMessage) (json.RawMessage, error) {
	if r.saw != nil {
		in := llm.StepInputs(ctx)
		ids := slices.Sorted(maps.Keys(in))
		r.saw[trip.ActionName(a)] = strings.Join(ids, " ")
	}
	r.calls = append(r.calls, trip.ActionName(a)+" "+string(args))
	r.state = trip.Apply(a, r.state)
	return json.RawMessage(fmt.Sprintf(`{"confirmation":"%s-%d"}`, trip.ActionName(a), len(r.calls))), nil
}

// diamond: a and b independent, c needs both, d needs c.
var diamond = planJSON(
	step("a", "Search", searchParis),
	step("b", "Search", `{"to":"Rome"}`),
	step("c", "Ping", "{}", "a", "b"),
	step("d", "Ping", "{}", "c"),
)

func TestDAGGivesEachStepOnlyItsDependenciesOutputs(t *testing.T) {
	rec := newRecorder()
	var running, most atomic.Int32
	// a and b wait for each other: they must run at the same time.
	var barrier sync.WaitGroup
	barrier.Add(2)
	bothIn := make(chan struct{})
	go func() { barrier.Wait(); close(bothIn) }()
	rec.before = func(ctx context.Context, st llm.Step) error {
		n := running.Add(1)
		defer running.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		if st.ID == "a" || st.ID == "b" {
			barrier.Done()
			select {
			case <-bothIn:
			case <-time.After(5 * time.Second):
				return errors.New("a and b did not run at the same time")
			}
		}
		return nil
	}
	res, err := llm.NewPlanner(trip, llm.ScriptedReplies(diamond), llm.WithDAG(2)).Run(context.Background(), "go", rec.target(rich))
	require.NoError(t, err)
	assert.Equal(t, llm.StatusCompleted, res.Status)
	assert.Equal(t, map[string][]string{"a": nil, "b": nil, "c": {"a", "b"}, "d": {"c"}}, rec.inputs)
	assert.EqualValues(t, 2, most.Load())
	assert.ElementsMatch(t, []string{"a", "b"}, rec.steps()[:2])
	assert.Equal(t, []string{"c", "d"}, rec.steps()[2:])
}

func TestDAGRespectsTheConcurrencyLimit(t *testing.T) {
	for _, limit := range []int{0, 1, 3} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			steps := make([]string, 10)
			for i := range steps {
				steps[i] = step(fmt.Sprintf("p%d", i), "Ping", "{}")
			}
			var running, most atomic.Int32
			rec := newRecorder()
			rec.before = func(context.Context, llm.Step) error {
				n := running.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				time.Sleep(5 * time.Millisecond)
				running.Add(-1)
				return nil
			}
			res, err := llm.NewPlanner(trip, llm.ScriptedReplies(planJSON(steps...)), llm.WithDAG(limit)).Run(context.Background(), "go", rec.target(rich))
			require.NoError(t, err)
			assert.Len(t, rec.steps(), 10)
			want := int32(limit)
			if limit == 0 {
				want = llm.DefaultConcurrency
			}
			assert.LessOrEqual(t, most.Load(), want)
			assert.Positive(t, most.Load())
			assert.Equal(t, 0, res.Replans)
		})
	}
}

func TestDAGFailureStopsLaunchingAndReplans(t *testing.T) {
	rec := newRecorder()
	rec.fail["a"] = errors.New("no flights")
	model := llm.ScriptedReplies(diamond, planJSON(step("x", "Ping", "{}")))
	res, err := llm.NewPlanner(trip, model, llm.WithDAG(1)).Run(context.Background(), "go", rec.target(rich))
	require.NoError(t, err)
	assert.Equal(t, []string{"a!", "x"}, rec.steps())
	assert.Equal(t, []string{"0/a:failed", "0/b:skipped", "0/c:skipped", "0/d:skipped", "1/x:done"}, statuses(res))
	assert.True(t, res.Succeeded(), "success is the last plan's")
	assert.Equal(t, 1, res.Replans)
}

func TestOnStepAbort(t *testing.T) {
	for _, dag := range []bool{false, true} {
		t.Run(fmt.Sprint("dag=", dag), func(t *testing.T) {
			rec := newRecorder()
			var hooked []string
			hook := func(_ context.Context, r llm.StepRecord) llm.Directive {
				hooked = append(hooked, r.Step.ID+":"+string(r.Status))
				if r.Step.ID == "s1" {
					return llm.Abort("over budget")
				}
				return llm.Continue()
			}
			opts := []llm.Option{llm.WithOnStep(hook)}
			if dag {
				opts = append(opts, llm.WithDAG(0))
			}
			res, err := llm.NewPlanner(trip, llm.ScriptedReplies(goodPlan), opts...).Run(context.Background(), "Paris", rec.target(rich))
			var ae *llm.AbortError
			require.ErrorAs(t, err, &ae)
			assert.ErrorIs(t, err, llm.ErrAborted)
			assert.Equal(t, "s1", ae.StepID)
			assert.Equal(t, "over budget", ae.Reason)
			assert.Equal(t, llm.StatusFailed, res.Status)
			assert.Equal(t, []string{"s1"}, rec.steps())
			assert.Equal(t, []string{"s1:done"}, hooked)
			assert.Equal(t, []string{"0/s1:done", "0/s2:skipped"}, statuses(res))
		})
	}
}

func TestOnStepReplanFeedsTheFeedbackBack(t *testing.T) {
	rec := newRecorder()
	hook := func(_ context.Context, r llm.StepRecord) llm.Directive {
		if r.Revision == 0 && r.Step.ID == "s1" {
			return llm.Replan("the hotel must be near the station")
		}
		return llm.Continue()
	}
	model := llm.ScriptedReplies(goodPlan, planJSON(step("h", "BookHotel", `{"city":"Paris","nights":3}`)))
	res, err := llm.NewPlanner(trip, model, llm.WithOnStep(hook)).Run(context.Background(), "Paris", rec.target(rich))
	require.NoError(t, err)
	assert.Equal(t, []string{"s1", "h"}, rec.steps())
	assert.Equal(t, 1, res.Replans)
	assert.Equal(t, []string{"0/s1:done", "0/s2:skipped", "1/h:done"}, statuses(res))

	prompt := model.Requests()[1].Messages[1].Content
	assert.Contains(t, prompt, "Critique: the hotel must be near the station")
	assert.Contains(t, prompt, `- s1 BookFlight `+flightParis+` -> {"step":"s1"}`)
	assert.Contains(t, prompt, `"HasFlight":true`, "the replan starts from the state after s1")
	assert.NotContains(t, prompt, "Failure:")
	assert.Equal(t, []string{llm.CallPlan, llm.CallReplan}, purposes(res))
}

func purposes(res *llm.Result) []string {
	var out []string
	for _, c := range res.Calls {
		out = append(out, c.Purpose)
	}
	return out
}

func TestOnStepAdjustReplacesThePendingSteps(t *testing.T) {
	rec := newRecorder()
	hook := func(_ context.Context, r llm.StepRecord) llm.Directive {
		if r.Step.ID == "p1" {
			return llm.Adjust("fewer pings", llm.Step{ID: "q", Capability: "Ping", DependsOn: []string{"p1"}})
		}
		return llm.Continue()
	}
	res, err := llm.NewPlanner(trip, llm.ScriptedReplies(threePings), llm.WithOnStep(hook)).Run(context.Background(), "ping", rec.target(rich))
	require.NoError(t, err)
	assert.Equal(t, []string{"p1", "q"}, rec.steps())
	assert.Equal(t, []string{"0/p1:done", "0/p2:skipped", "0/p3:skipped", "0/q:done"}, statuses(res))
	assert.Equal(t, 0, res.Replans)
}

func TestReplanExhaustionEndsWithTheLastFailure(t *testing.T) {
	boom := errors.New("agency closed")
	rec := newRecorder()
	rec.fail["s1"] = boom
	model := llm.ScriptedReplies(goodPlan, goodPlan, goodPlan)
	res, err := llm.NewPlanner(trip, model, llm.WithMaxReplans(2)).Run(context.Background(), "Paris", rec.target(rich))
	assert.ErrorIs(t, err, llm.ErrReplansExhausted)
	assert.ErrorIs(t, err, boom)
	var se *llm.StepError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "s1", se.StepID)
	assert.Equal(t, llm.StatusFailed, res.Status)
	assert.False(t, res.Succeeded())
	assert.Equal(t, 2, res.Replans)
	assert.Len(t, model.Requests(), 3)
	assert.Equal(t, []string{"s1!", "s1!", "s1!"}, rec.steps())
	assert.Equal(t, 2, res.Plan.Revision)
	assert.Contains(t, model.Requests()[2].Messages[1].Content, "This is replan 2")
	assert.Contains(t, model.Requests()[2].Messages[1].Content, "agency closed")

	// Without replanning the failure is returned as it is.
	rec = newRecorder()
	rec.fail["s1"] = boom
	_, err = llm.NewPlanner(trip, llm.ScriptedReplies(goodPlan), llm.WithMaxReplans(0)).Run(context.Background(), "Paris", rec.target(rich))
	assert.ErrorIs(t, err, boom)
	assert.NotErrorIs(t, err, llm.ErrReplansExhausted)
}

func TestGoalsAreCheckedAfterTheLastStep(t *testing.T) {
	// The world does not follow the model: the hotel is never booked.
	target := &lyingRole{travelRole{state: rich}}
	model := llm.ScriptedReplies(goodPlan, planJSON(step("h", "BookHotel", hotelParis)))
	res, err := llm.NewPlanner(trip, model, llm.WithGoals(gTravelling), llm.WithMaxReplans(1)).Run(context.Background(), "Paris", llm.RoleTarget[tripState](target))
	assert.ErrorIs(t, err, llm.ErrReplansExhausted)
	assert.Contains(t, err.Error(), "goal Travelling")
	assert.Equal(t, 1, res.Replans)
}

// lyingRole never books hotels, whatever it says.
type lyingRole struct{ travelRole }

func (r *lyingRole) PerformJSON(ctx context.Context, a runtime.ActionID, args json.RawMessage) (json.RawMessage, error) {
	if trip.ActionName(a) == "BookHotel" {
		return nil, nil
	}
	return r.travelRole.PerformJSON(ctx, a, args)
}

func TestCancellationInOrder(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rec := newRecorder()
	rec.before = func(ctx context.Context, st llm.Step) error {
		if st.ID == "p2" {
			cancel()
			return ctx.Err()
		}
		return nil
	}
	res, err := llm.NewPlanner(trip, llm.ScriptedReplies(threePings)).Run(ctx, "ping", rec.target(rich))
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, llm.StatusCancelled, res.Status)
	assert.Equal(t, []string{"p1"}, rec.steps())
	assert.Equal(t, []string{"0/p1:done", "0/p2:cancelled", "0/p3:skipped"}, statuses(res))
}

func TestCancellationInTheDAGLeavesNoGoroutine(t *testing.T) {
	defer goleak.VerifyNone(t)
	steps := make([]string, 8)
	for i := range steps {
		steps[i] = step(fmt.Sprintf("p%d", i), "Ping", "{}")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var started atomic.Int32
	rec := newRecorder()
	rec.before = func(ctx context.Context, st llm.Step) error {
		if started.Add(1) == 3 {
			cancel()
		}
		<-ctx.Done() // every step blocks until cancelled
		return ctx.Err()
	}
	res, err := llm.NewPlanner(trip, llm.ScriptedReplies(planJSON(steps...)), llm.WithDAG(3)).Run(ctx, "ping", rec.target(rich))
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, llm.StatusCancelled, res.Status)
	assert.EqualValues(t, 3, started.Load(), "nothing starts after the cancellation")
	var cancelled, skipped int
	for _, r := range res.Steps {
		switch r.Status {
		case llm.StepCancelled:
			cancelled++
		case llm.StepSkipped:
			skipped++
		}
	}
	assert.Equal(t, 3, cancelled)
	assert.Equal(t, 5, skipped)
}

func TestCancellationWhilePlanning(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	model := llm.ModelFunc(func(ctx context.Context, _ llm.Request) (llm.Response, error) {
		cancel()
		<-ctx.Done()
		return llm.Response{}, ctx.Err()
	})
	res, err := llm.NewPlanner(trip, model).Run(ctx, "Paris", newRecorder().target(rich))
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, llm.StatusCancelled, res.Status)
}

func TestTokenBudgetStopsTheRun(t *testing.T) {
	usage := llm.Usage{PromptTokens: 50, CompletionTokens: 10}
	model := llm.NewScriptedModel(
		llm.Reply{Text: goodPlan, Usage: usage},
		llm.Reply{Text: goodPlan, Usage: usage},
	)
	rec := newRecorder()
	rec.fail["s1"] = errors.New("sold out")
	res, err := llm.NewPlanner(trip, model, llm.WithTokenBudget(100)).Run(context.Background(), "Paris", rec.target(rich))
	var be *llm.BudgetError
	require.ErrorAs(t, err, &be)
	assert.ErrorIs(t, err, llm.ErrTokenBudget)
	assert.Equal(t, 100, be.Limit)
	assert.Equal(t, 120, be.Used)
	assert.Equal(t, llm.StatusFailed, res.Status)
	assert.Equal(t, llm.Usage{PromptTokens: 100, CompletionTokens: 20, TotalTokens: 120}, res.Usage)
	assert.Len(t, res.Calls, 2)
	assert.Equal(t, llm.Usage{PromptTokens: 50, CompletionTokens: 10, TotalTokens: 60}, res.Calls[1].Usage)
	assert.Equal(t, []string{"s1!"}, rec.steps(), "the over-budget plan does not run")

	// A spent budget stops the run before the next call.
	model = llm.NewScriptedModel(llm.Reply{Text: goodPlan, Usage: llm.Usage{TotalTokens: 100}})
	rec = newRecorder()
	rec.fail["s1"] = errors.New("sold out")
	_, err = llm.NewPlanner(trip, model, llm.WithTokenBudget(100)).Run(context.Background(), "Paris", rec.target(rich))
	require.ErrorAs(t, err, &be)
	assert.Equal(t, 100, be.Used)
	assert.Len(t, model.Requests(), 1)
}

func reflection(decision, reason string, steps ...string) string {
	return fmt.Sprintf(`{"decision":%q,"reason":%q,"steps":[%s]}`, decision, reason, strings.Join(steps, ","))
}

var fourPings = planJSON(step("p1", "Ping", "{}"), step("p2", "Ping", "{}", "p1"), step("p3", "Ping", "{}", "p2"), step("p4", "Ping", "{}", "p3"))

func TestReflection(t *testing.T) {
	for _, tc := range []struct {
		name    string
		replies []string
		dag     bool
		ran     []string
		status  llm.Status
		replans int
		err     error
	}{
		{
			name:    "continue",
			replies: []string{fourPings, reflection("continue", "on track"), reflection("continue", "done")},
			ran:     []string{"p1", "p2", "p3", "p4"}, status: llm.StatusCompleted,
		},
		{
			name:    "continue in a DAG",
			replies: []string{fourPings, reflection("continue", "on track"), reflection("continue", "done")},
			dag:     true,
			ran:     []string{"p1", "p2", "p3", "p4"}, status: llm.StatusCompleted,
		},
		{
			name:    "adjust",
			replies: []string{fourPings, reflection("adjust", "one search is enough", step("q", "Search", searchParis, "p2"))},
			ran:     []string{"p1", "p2", "q"}, status: llm.StatusCompleted,
		},
		{
			name:    "invalid adjustment replans",
			replies: []string{fourPings, reflection("adjust", "", step("q", "Search", "{}", "p2")), planJSON(step("r", "Ping", "{}"))},
			ran:     []string{"p1", "p2", "r"}, status: llm.StatusCompleted, replans: 1,
		},
		{
			name:    "replan",
			replies: []string{fourPings, reflection("replan", "pinging is pointless"), planJSON(step("r", "Search", searchParis))},
			ran:     []string{"p1", "p2", "r"}, status: llm.StatusCompleted, replans: 1,
		},
		{
			name:    "abort",
			replies: []string{fourPings, reflection("abort", "the agency went bust")},
			ran:     []string{"p1", "p2"}, status: llm.StatusFailed, err: llm.ErrAborted,
		},
		{
			name:    "unreadable reflection",
			replies: []string{fourPings, "hmm"},
			ran:     []string{"p1", "p2"}, status: llm.StatusFailed, err: llm.ErrUnreadableReply,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := llm.ScriptedReplies(tc.replies...)
			opts := []llm.Option{llm.WithReflector(2, nil)}
			if tc.dag {
				opts = append(opts, llm.WithDAG(0))
			}
			rec := newRecorder()
			res, err := llm.NewPlanner(trip, model, opts...).Run(context.Background(), "ping", rec.target(rich))
			if tc.err != nil {
				assert.ErrorIs(t, err, tc.err)
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, tc.status, res.Status)
			assert.Equal(t, tc.ran, rec.steps())
			assert.Equal(t, tc.replans, res.Replans)
			assert.Equal(t, 0, model.Remaining(), "every scripted reply was used")

			reqs := model.Requests()
			require.GreaterOrEqual(t, len(reqs), 2)
			refl := reqs[1]
			assert.Equal(t, "reflection", refl.SchemaName)
			assert.Contains(t, string(refl.Schema), `"enum":["continue","adjust","replan","abort"]`)
			assert.Contains(t, string(refl.Schema), `"enum":["BookFlight"]`, "adjusted steps follow the plan schema")
			var schema map[string]any
			require.NoError(t, json.Unmarshal(refl.Schema, &schema))
			assert.Contains(t, refl.Messages[1].Content, "- p2 Ping: done")
			assert.Contains(t, purposes(res), llm.CallReflect)
		})
	}
}

func TestCustomReflectorUsageCountsAgainstTheBudget(t *testing.T) {
	r := llm.ReflectorFunc(func(context.Context, llm.ReflectRequest) (llm.Directive, llm.Usage, error) {
		return llm.Continue(), llm.Usage{TotalTokens: 80}, nil
	})
	model := llm.NewScriptedModel(llm.Reply{Text: fourPings, Usage: llm.Usage{TotalTokens: 30}})
	rec := newRecorder()
	res, err := llm.NewPlanner(trip, model, llm.WithReflector(1, r), llm.WithTokenBudget(100)).Run(context.Background(), "ping", rec.target(rich))
	assert.ErrorIs(t, err, llm.ErrTokenBudget)
	assert.Equal(t, []string{"p1"}, rec.steps())
	assert.Equal(t, 110, res.Usage.TotalTokens)
}

// A step that panics fails the run with a *PanicError and its stack, in
// order and in a DAG (where a panic in a step's goroutine would otherwise
// end the process); the steps in flight are waited for and nothing is
// replanned.
func TestAPanickingStepFailsTheRunAndTheProcessGoesOn(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, tc := range []struct {
		name string
		opts []llm.Option
	}{{"in order", nil}, {"DAG", []llm.Option{llm.WithDAG(2)}}} {
		t.Run(tc.name, func(t *testing.T) {
			rec := newRecorder()
			rec.before = func(_ context.Context, st llm.Step) error {
				if st.ID == "b" {
					panic("a bug in the action")
				}
				return nil
			}
			var hooked []string
			p := llm.NewPlanner(trip, llm.ScriptedReplies(diamond), append(tc.opts,
				llm.WithOnStep(func(_ context.Context, r llm.StepRecord) llm.Directive {
					hooked = append(hooked, r.Step.ID+":"+string(r.Status))
					if r.Status == llm.StepFailed {
						return llm.Replan("try again") // not followed after a panic
					}
					return llm.Continue()
				}))...)
			res, err := p.Run(context.Background(), "go", rec.target(rich))
			var pe *llm.PanicError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, "a bug in the action", pe.Value)
			assert.Contains(t, string(pe.Stack), "TestAPanickingStepFailsTheRunAndTheProcessGoesOn")
			var se *llm.StepError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, "b", se.StepID)
			assert.Equal(t, llm.StatusFailed, res.Status)
			assert.Equal(t, 0, res.Replans)
			assert.Contains(t, hooked, "b:failed")
			assert.NotContains(t, rec.steps(), "c", "nothing after the panic starts")
		})
	}
}

func TestAStepEndingItsGoroutineDoesNotHangADAG(t *testing.T) {
	exec := func(_ context.Context, st llm.Step, _ map[string]json.RawMessage) (json.RawMessage, error) {
		if st.ID == "a" {
			goruntime.Goexit()
		}
		return nil, nil
	}
	_, err := llm.NewPlanner(trip, llm.ScriptedReplies(diamond), llm.WithDAG(2)).Run(context.Background(), "go", llm.FuncTarget(trip, rich, exec))
	var pe *llm.PanicError
	require.ErrorAs(t, err, &pe)
	assert.Nil(t, pe.Value)
	assert.Contains(t, err.Error(), "runtime.Goexit")
}

// In a DAG a step that panics while another's failure already stopped the
// run still ends it with the PanicError, not with a replan.
func TestADAGPanicAfterAFailureIsNotReplanned(t *testing.T) {
	release := make(chan struct{})
	exec := func(_ context.Context, st llm.Step, _ map[string]json.RawMessage) (json.RawMessage, error) {
		switch st.ID {
		case "a":
			return nil, errors.New("a failed")
		case "b":
			<-release // returns after a's failure is recorded
			panic("a bug in b")
		}
		return nil, nil
	}
	hook := func(_ context.Context, r llm.StepRecord) llm.Directive {
		if r.Step.ID == "a" {
			close(release)
		}
		return llm.Continue()
	}
	model := llm.ScriptedReplies(planJSON(step("a", "Ping", `{}`), step("b", "Ping", `{}`)), planJSON(step("c", "Ping", `{}`)))
	res, err := llm.NewPlanner(trip, model, llm.WithDAG(2), llm.WithOnStep(hook)).
		Run(context.Background(), "x", llm.FuncTarget(trip, rich, exec))
	var pe *llm.PanicError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, llm.StatusFailed, res.Status)
	assert.Equal(t, 0, res.Replans)
}
