package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/runtime"
)

func TestRunInOrderCompletes(t *testing.T) {
	model := llm.ScriptedReplies(goodPlan)
	rec := newRecorder()
	p := llm.NewPlanner(trip, model)
	res, err := p.Run(context.Background(), "Be in Paris with a hotel", rec.target(rich))
	require.NoError(t, err)
	assert.True(t, res.Succeeded())
	assert.Equal(t, llm.StatusCompleted, res.Status)
	assert.Equal(t, []string{"s1", "s2"}, rec.steps())
	assert.Equal(t, []string{"0/s1:done", "0/s2:done"}, statuses(res))
	assert.True(t, res.Plan.Verified)
	out, ok := res.Output("s2")
	require.True(t, ok)
	assert.JSONEq(t, `{"step":"s2"}`, string(out))
	assert.Equal(t, 0, res.Replans)
}

func TestPromptHoldsGoalStateCapabilitiesAndBudget(t *testing.T) {
	model := llm.ScriptedReplies(goodPlan)
	p := llm.NewPlanner(trip, model, llm.WithMaxSteps(6), llm.WithMaxTokens(300), llm.WithSystemPrompt("Prefer trains."))
	_, err := p.Propose(context.Background(), "Be in Paris", tripState{Money: 250, Pinged: 3})
	require.NoError(t, err)
	reqs := model.Requests()
	require.Len(t, reqs, 1)
	req := reqs[0]
	want, err := llm.PlanSchema(trip, llm.WithMaxSteps(6))
	require.NoError(t, err)
	assert.Equal(t, string(want), string(req.Schema), "the plan schema, with the planner's bounds on steps, is the response format")
	steps := stepsOf(t, req.Schema)
	assert.Equal(t, 1.0, steps["minItems"])
	assert.Equal(t, 24.0, steps["maxItems"])
	assert.Equal(t, "plan", req.SchemaName)
	assert.Zero(t, req.Temperature)
	assert.Equal(t, 300, req.MaxTokens)
	require.Len(t, req.Messages, 2)
	assert.Equal(t, llm.RoleSystem, req.Messages[0].Role)
	assert.Contains(t, req.Messages[0].Content, "Traveler")
	assert.Contains(t, req.Messages[0].Content, "Prefer trains.")
	user := req.Messages[1].Content
	for _, want := range []string{
		"Goal: Be in Paris",
		`{"Money":250,"HasFlight":false,"HasHotel":false,"Pinged":3}`,
		"- BookFlight: Books a flight.", "requires: Money >= 100", "effects: HasFlight = true, Money -= 100", "args: " + flightArgs,
		"- Ping: Pings the agency.", "args: " + emptyArgs,
		"- Wire: Wires money to the account.", "guarded",
		"at most 6 steps",
	} {
		assert.Contains(t, user, want)
	}
	for _, a := range trip.Actions {
		assert.Contains(t, user, "- "+a.Name+": "+a.Description)
	}
	assert.NotContains(t, user, "ranges", "the trip has no saturating fields")
}

// The prompt tells the model which fields saturate, since the effects'
// text (Money -= 100) does not.
func TestPromptSaysWhichFieldsSaturate(t *testing.T) {
	d := *trip
	d.Fields = slices.Clone(trip.Fields)
	d.Fields[0].Range = runtime.Range{Min: 0, HasMin: true}
	d.Fields[3].Range = runtime.Range{Min: 0, Max: 5, HasMin: true, HasMax: true}
	model := llm.ScriptedReplies(goodPlan)
	_, err := llm.NewPlanner(&d, model).Propose(context.Background(), "Be in Paris", tripState{Money: 250})
	require.NoError(t, err)
	user := model.Requests()[0].Messages[1].Content
	assert.Contains(t, user, "Effects keep these fields within their ranges (an effect past an end leaves the field at that end): Money at least 0, Pinged 0..5.\n")
}

func TestWithoutStateLeavesTheStateOut(t *testing.T) {
	model := llm.ScriptedReplies(goodPlan)
	p := llm.NewPlanner(trip, model, llm.WithoutState(), llm.WithTemperature(0.7))
	_, err := p.Propose(context.Background(), "Be in Paris", rich)
	require.NoError(t, err)
	req := model.Requests()[0]
	assert.NotContains(t, req.Messages[1].Content, "Current state")
	assert.Equal(t, 0.7, req.Temperature)
}

func TestParsePlan(t *testing.T) {
	for _, tc := range []struct {
		name, reply string
		steps       int
		wantErr     string
	}{
		{"raw", goodPlan, 2, ""},
		{"raw with spaces", "\n  " + goodPlan + "\n", 2, ""},
		{"fenced json", "Here is the plan:\n```json\n" + goodPlan + "\n```\nGood luck.", 2, ""},
		{"fenced JSON after other block", "```text\nnotes\n```\n```JSON\n" + goodPlan + "\n```", 2, ""},
		{"unlabelled fence", "```\n" + goodPlan + "\n```", 2, ""},
		{"missing args and deps", `{"steps":[{"id":"a","capability":"Ping"}]}`, 1, ""},
		{"prose", "Book a flight, then a hotel.", 0, "no JSON object"},
		{"empty", "  ", 0, "empty reply"},
		{"truncated", `{"steps":[{"id":"a"`, 0, "unexpected EOF"},
		{"no steps", `{"plan":[]}`, 0, "unknown field"},
		{"null steps", `{}`, 0, `no "steps" array`},
		{"unknown step key", `{"steps":[{"id":"a","capability":"Ping","args":{},"dependsOn":[],"why":"x"}]}`, 0, "unknown field"},
		{"trailing", goodPlan + ` {"more":1}`, 0, "data after"},
		{"unterminated fence", "```json\n" + goodPlan, 0, "unterminated"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan, err := llm.ParsePlan(tc.reply)
			if tc.wantErr == "" {
				require.NoError(t, err)
				assert.Len(t, plan.Steps, tc.steps)
				for _, s := range plan.Steps {
					assert.NotNil(t, s.DependsOn)
					assert.NotEmpty(t, s.Args)
				}
				return
			}
			var pe *llm.ParseError
			require.ErrorAs(t, err, &pe)
			assert.ErrorIs(t, err, llm.ErrUnreadableReply)
			assert.Equal(t, tc.reply, pe.Raw, "the raw reply is kept")
			assert.Contains(t, err.Error(), tc.wantErr)
		})
	}
}

func TestUnreadableReplyIsRetriedWithTheParseError(t *testing.T) {
	const garbage = "Sure! First book a flight, then a hotel."
	model := llm.NewScriptedModel(
		llm.Reply{Text: garbage, Usage: llm.Usage{PromptTokens: 10, CompletionTokens: 5}},
		llm.Reply{Text: "```json\n" + goodPlan + "\n```", Usage: llm.Usage{PromptTokens: 20, CompletionTokens: 7}},
	)
	rec := newRecorder()
	res, err := llm.NewPlanner(trip, model).Run(context.Background(), "Paris", rec.target(rich))
	require.NoError(t, err)
	assert.Equal(t, []string{"s1", "s2"}, rec.steps())

	reqs := model.Requests()
	require.Len(t, reqs, 2)
	retry := reqs[1].Messages
	require.Len(t, retry, 4)
	assert.Equal(t, llm.Message{Role: llm.RoleAssistant, Content: garbage}, retry[2])
	assert.Equal(t, llm.RoleUser, retry[3].Role)
	assert.Contains(t, retry[3].Content, "could not be read as a plan")
	assert.Contains(t, retry[3].Content, "no JSON object")

	assert.Equal(t, []llm.Call{
		{Purpose: llm.CallPlan, Usage: llm.Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15}},
		{Purpose: llm.CallRetry, Usage: llm.Usage{PromptTokens: 20, CompletionTokens: 7, TotalTokens: 27}},
	}, res.Calls)
	assert.Equal(t, llm.Usage{PromptTokens: 30, CompletionTokens: 12, TotalTokens: 42}, res.Usage)
}

func TestUnreadableReplyFailsAfterTheRetries(t *testing.T) {
	for _, retries := range []int{0, 1, 2} {
		t.Run(fmt.Sprint(retries), func(t *testing.T) {
			replies := make([]string, retries+1)
			for i := range replies {
				replies[i] = fmt.Sprintf("garbage %d", i)
			}
			model := llm.ScriptedReplies(replies...)
			rec := newRecorder()
			res, err := llm.NewPlanner(trip, model, llm.WithParseRetries(retries)).Run(context.Background(), "Paris", rec.target(rich))
			var pe *llm.ParseError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, replies[retries], pe.Raw)
			assert.Equal(t, llm.StatusFailed, res.Status)
			assert.Len(t, model.Requests(), retries+1)
			assert.Empty(t, rec.steps())
		})
	}
}

func TestModelErrorsFailTheRun(t *testing.T) {
	boom := errors.New("server on fire")
	model := llm.NewScriptedModel(llm.ReplyError(boom))
	res, err := llm.NewPlanner(trip, model).Run(context.Background(), "Paris", newRecorder().target(rich))
	assert.ErrorIs(t, err, boom)
	assert.Equal(t, llm.StatusFailed, res.Status)

	_, err = llm.NewPlanner(trip, llm.NewScriptedModel()).Propose(context.Background(), "Paris", rich)
	assert.ErrorIs(t, err, llm.ErrScriptExhausted)
}

func TestValidationErrors(t *testing.T) {
	tooMany := make([]string, 9)
	for i := range tooMany {
		tooMany[i] = step(fmt.Sprintf("p%d", i), "Ping", "{}")
	}
	for _, tc := range []struct {
		name     string
		reply    string
		kind     llm.ValidationKind
		sentinel error
		stepID   string
		detail   string
	}{
		{"empty plan", planJSON(), llm.EmptyPlan, llm.ErrEmptyPlan, "", "no steps"},
		{"too many steps", planJSON(tooMany...), llm.TooManySteps, llm.ErrTooManySteps, "", "9 steps, at most 8"},
		{"unknown capability", planJSON(step("s1", "BookFlite", flightParis)), llm.UnknownCapability, llm.ErrUnknownCapability, "s1", `did you mean "BookFlight"`},
		{"unknown capability far off", planJSON(step("s1", "Teleport", "{}")), llm.UnknownCapability, llm.ErrUnknownCapability, "s1", "Search, BookFlight, BookHotel, Ping, Wire"},
		{"args of the wrong type", planJSON(step("s1", "BookFlight", `{"from":"Oslo","to":"Paris","seats":"one"}`)), llm.InvalidArgs, llm.ErrInvalidArgs, "s1", "/seats"},
		{"missing argument", planJSON(step("s1", "BookHotel", `{"city":"Paris"}`)), llm.InvalidArgs, llm.ErrInvalidArgs, "s1", "nights"},
		{"extra argument", planJSON(step("s1", "Search", `{"to":"Paris","class":"first"}`)), llm.InvalidArgs, llm.ErrInvalidArgs, "s1", "class"},
		{"arguments to a no-arg action", planJSON(step("s1", "Ping", `{"loud":true}`)), llm.InvalidArgs, llm.ErrInvalidArgs, "s1", "loud"},
		{"args not an object", planJSON(step("s1", "Search", `"Paris"`)), llm.InvalidArgs, llm.ErrInvalidArgs, "s1", "want object"},
		{"unknown dependency", planJSON(step("s1", "Ping", "{}", "s0")), llm.UnknownDependency, llm.ErrUnknownDependency, "s1", `"s0"`},
		{"cycle", planJSON(step("s1", "Ping", "{}", "s3"), step("s2", "Ping", "{}", "s1"), step("s3", "Ping", "{}", "s2")), llm.CyclicDependency, llm.ErrCyclicDependency, "s1", "s1 → s3 → s2 → s1"},
		{"self dependency", planJSON(step("s1", "Ping", "{}", "s1")), llm.CyclicDependency, llm.ErrCyclicDependency, "s1", "s1 → s1"},
		{"duplicate ids", planJSON(step("s1", "Ping", "{}"), step("s1", "Search", searchParis)), llm.DuplicateStepID, llm.ErrDuplicateStepID, "s1", "steps 1 and 2"},
		{"missing id", planJSON(step("", "Ping", "{}")), llm.MissingStepID, llm.ErrMissingStepID, "", "step 1 has no id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := newRecorder()
			model := llm.ScriptedReplies(tc.reply)
			res, err := llm.NewPlanner(trip, model, llm.WithMaxSteps(2)).Run(context.Background(), "Paris", rec.target(rich))
			require.Error(t, err)
			assert.ErrorIs(t, err, llm.ErrInvalidPlan)
			assert.ErrorIs(t, err, tc.sentinel)
			var ve *llm.ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, tc.kind, ve.Kind)
			assert.Equal(t, tc.stepID, ve.StepID)
			assert.Contains(t, ve.Detail, tc.detail)
			assert.Equal(t, llm.StatusFailed, res.Status)
			assert.Empty(t, rec.steps(), "no step runs before validation passes")
		})
	}
}

func TestValidationCollectsEveryProblem(t *testing.T) {
	p := llm.NewPlanner(trip, nil)
	plan, err := llm.ParsePlan(planJSON(
		step("s1", "Teleport", "{}"),
		step("s2", "Search", `{}`, "s9"),
	))
	require.NoError(t, err)
	err = p.Validate(plan)
	assert.ErrorIs(t, err, llm.ErrUnknownCapability)
	assert.ErrorIs(t, err, llm.ErrInvalidArgs)
	assert.ErrorIs(t, err, llm.ErrUnknownDependency)
	var jsErr interface{ Unwrap() []error }
	require.ErrorAs(t, err, &jsErr)
	assert.Len(t, jsErr.Unwrap(), 3)
}

func TestInvalidArgsUnwrapToTheSchemaError(t *testing.T) {
	p := llm.NewPlanner(trip, nil)
	plan, err := llm.ParsePlan(planJSON(step("s1", "BookFlight", `{"from":"Oslo","to":"Paris","seats":"x"}`)))
	require.NoError(t, err)
	var ve *llm.ValidationError
	require.ErrorAs(t, p.Validate(plan), &ve)
	require.Error(t, ve.Err)
	assert.Contains(t, ve.Detail, "at '/seats'")
	assert.NotContains(t, ve.Detail, "\n", "the detail is one line for the model")
}

func TestStepsBeyondTheBudgetAreSkipped(t *testing.T) {
	model := llm.ScriptedReplies(planJSON(
		step("p1", "Ping", "{}"),
		step("p2", "Ping", "{}", "p4"), // depends on a skipped step
		step("p3", "Ping", "{}"),
		step("p4", "Ping", "{}"),
		step("p5", "Ping", "{}"),
	))
	rec := newRecorder()
	res, err := llm.NewPlanner(trip, model, llm.WithMaxSteps(3)).Run(context.Background(), "ping", rec.target(rich))
	require.NoError(t, err)
	assert.Equal(t, []string{"p1", "p3"}, rec.steps())
	var skipped []string
	for _, s := range res.Plan.Steps {
		if s.Skipped {
			skipped = append(skipped, s.ID)
		}
	}
	assert.Equal(t, []string{"p2", "p4", "p5"}, skipped)
	assert.Equal(t, []string{"0/p1:done", "0/p3:done", "0/p2:skipped", "0/p4:skipped", "0/p5:skipped"}, statuses(res))
	assert.Contains(t, res.Steps[2].Note, "step budget of 3")
}

func TestInvalidPlanIsFedBackWithValidationRetries(t *testing.T) {
	model := llm.ScriptedReplies(
		planJSON(step("s1", "BookFlight", `{"from":"Oslo","to":"Paris"}`)),
		goodPlan,
	)
	rec := newRecorder()
	res, err := llm.NewPlanner(trip, model, llm.WithValidationRetries(1)).Run(context.Background(), "Paris", rec.target(rich))
	require.NoError(t, err)
	assert.Equal(t, []string{"s1", "s2"}, rec.steps())
	feedback := model.Requests()[1].Messages[3].Content
	assert.Contains(t, feedback, "The plan is invalid")
	assert.Contains(t, feedback, "seats")
	assert.Len(t, res.Calls, 2)
}

// hotelFirst books the hotel before the flight: its precondition fails.
var hotelFirst = planJSON(
	step("h", "BookHotel", hotelParis),
	step("f", "BookFlight", flightParis),
)

func TestVerifyReportsTheFirstFailingPrecondition(t *testing.T) {
	p := llm.NewPlanner(trip, nil)
	plan, err := llm.ParsePlan(hotelFirst)
	require.NoError(t, err)
	require.NoError(t, p.Validate(plan))
	err = p.Verify(plan, rich)
	var ve *llm.VerificationError
	require.ErrorAs(t, err, &ve)
	assert.ErrorIs(t, err, llm.ErrUnverified)
	assert.ErrorIs(t, err, runtime.ErrPreconditionStale)
	assert.Equal(t, "h", ve.StepID)
	assert.Equal(t, "BookHotel", ve.Capability)
	assert.Equal(t, 0, ve.Index)
	assert.Equal(t, "HasFlight", ve.Precondition)
	assert.Equal(t, []llm.FieldValue{{Name: "HasFlight", Value: json.RawMessage("false")}}, ve.Fields)
	assert.Equal(t, `llm: plan fails verification: step "h" (BookHotel): precondition "HasFlight" does not hold where HasFlight = false`, err.Error())

	// The simulated state carries the effects of the earlier steps.
	plan, err = llm.ParsePlan(planJSON(step("f1", "BookFlight", flightParis), step("f2", "BookFlight", flightParis)))
	require.NoError(t, err)
	require.NoError(t, p.Validate(plan))
	require.ErrorAs(t, p.Verify(plan, tripState{Money: 150}), &ve)
	assert.Equal(t, "f2", ve.StepID)
	assert.Equal(t, []llm.FieldValue{{Name: "Money", Value: json.RawMessage("50")}}, ve.Fields)
}

func TestVerifySimulatesInDependencyOrder(t *testing.T) {
	p := llm.NewPlanner(trip, nil)
	// Listed hotel first, but it depends on the flight.
	plan, err := llm.ParsePlan(planJSON(
		step("h", "BookHotel", hotelParis, "f"),
		step("f", "BookFlight", flightParis),
	))
	require.NoError(t, err)
	require.NoError(t, p.Validate(plan))
	assert.NoError(t, p.Verify(plan, rich))
}

func TestVerifyChecksGoals(t *testing.T) {
	p := llm.NewPlanner(trip, nil, llm.WithGoals(gTravelling))
	plan, err := llm.ParsePlan(planJSON(step("f", "BookFlight", flightParis)))
	require.NoError(t, err)
	require.NoError(t, p.Validate(plan))
	var ve *llm.VerificationError
	require.ErrorAs(t, p.Verify(plan, rich), &ve)
	assert.Equal(t, "Travelling", ve.Goal)
	assert.Equal(t, -1, ve.Index)
	assert.ErrorIs(t, ve, runtime.ErrGoalUnsatisfiedAfterExecution)
	assert.Contains(t, ve.Error(), "HasHotel = false")
}

func TestRequireVerifiedFeedsTheCritiqueBack(t *testing.T) {
	model := llm.ScriptedReplies(hotelFirst, goodPlan)
	rec := newRecorder()
	res, err := llm.NewPlanner(trip, model, llm.WithRequireVerified(1)).Run(context.Background(), "Paris", rec.target(rich))
	require.NoError(t, err)
	assert.Equal(t, []string{"s1", "s2"}, rec.steps())
	assert.True(t, res.Plan.Verified)
	reqs := model.Requests()
	require.Len(t, reqs, 2)
	critique := reqs[1].Messages[3].Content
	assert.Contains(t, critique, `step "h" (BookHotel): precondition "HasFlight" does not hold where HasFlight = false`)
	assert.Equal(t, hotelFirst, reqs[1].Messages[2].Content)
}

func TestRequireVerifiedFailsAfterTheRetries(t *testing.T) {
	model := llm.ScriptedReplies(hotelFirst, hotelFirst)
	rec := newRecorder()
	res, err := llm.NewPlanner(trip, model, llm.WithRequireVerified(1)).Run(context.Background(), "Paris", rec.target(rich))
	var ve *llm.VerificationError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "h", ve.StepID)
	assert.Equal(t, llm.StatusFailed, res.Status)
	assert.Empty(t, rec.steps())
}

func TestUnverifiedPlanRunsUntilTheLivePreconditionStopsIt(t *testing.T) {
	model := llm.ScriptedReplies(hotelFirst, goodPlan)
	rec := newRecorder()
	res, err := llm.NewPlanner(trip, model).Run(context.Background(), "Paris", rec.target(rich))
	require.NoError(t, err)
	assert.Equal(t, []string{"s1", "s2"}, rec.steps(), "h never ran: its precondition failed live")
	assert.Equal(t, []string{"0/h:failed", "0/f:skipped", "1/s1:done", "1/s2:done"}, statuses(res))
	assert.ErrorIs(t, res.Steps[0].Err, runtime.ErrPreconditionStale)
	assert.Equal(t, 1, res.Replans)

	first := res.Steps[0]
	assert.Contains(t, first.Error, `precondition "HasFlight" of BookHotel does not hold`)
	replan := model.Requests()[1].Messages[1].Content
	assert.Contains(t, replan, "This is replan 1")
	assert.Contains(t, replan, "No step has been done yet.")
	assert.Contains(t, replan, "Failure: llm: step \"h\" (BookHotel)")
}

func TestProposeReturnsAPlanAwaitingApproval(t *testing.T) {
	model := llm.ScriptedReplies(hotelFirst)
	res, err := llm.NewPlanner(trip, model).Propose(context.Background(), "Paris", rich)
	require.NoError(t, err)
	assert.Equal(t, llm.StatusAwaitingApproval, res.Status)
	assert.False(t, res.Plan.Verified)
	assert.Contains(t, res.Plan.Critique, "HasFlight")
	assert.Equal(t, "Paris", res.Plan.Goal)
	assert.Equal(t, hotelFirst, res.Plan.Raw)
	assert.Empty(t, res.Steps)
	assert.True(t, strings.HasPrefix(string(res.Plan.WireJSON()), `{"steps":[{"id":"h","capability":"BookHotel"`))
}

func TestGoalText(t *testing.T) {
	p := llm.NewPlanner(trip, nil)
	assert.Equal(t, "Travelling: Flight and hotel are booked. (HasFlight && HasHotel)", p.GoalText(gTravelling))
	assert.Same(t, trip, p.Domain())
}

// In a DAG the wave of steps that starts while none runs is checked in the
// live state: no step of it starts when one's precondition fails.
func TestDAGChecksTheFirstWaveInTheLiveState(t *testing.T) {
	model := llm.ScriptedReplies(hotelFirst, goodPlan)
	rec := newRecorder()
	res, err := llm.NewPlanner(trip, model, llm.WithDAG(4)).Run(context.Background(), "Paris", rec.target(rich))
	require.NoError(t, err)
	assert.Equal(t, []string{"s1", "s2"}, rec.steps(), "neither h nor f of the first plan ran")
	assert.Equal(t, []string{"0/h:failed", "0/f:skipped", "1/s1:done", "1/s2:done"}, statuses(res))
	assert.ErrorIs(t, res.Steps[0].Err, runtime.ErrPreconditionStale)
}

// driftingWorld is a target whose steps do not always do what their
// effects declare: Search spends the money, as the plan did not foresee.
type driftingWorld struct {
	state tripState
	ran   []string
}

func (w *driftingWorld) PlanState() tripState { return w.state }

func (w *driftingWorld) Exec(_ context.Context, st llm.Step, _ map[string]json.RawMessage) (json.RawMessage, error) {
	w.ran = append(w.ran, st.ID)
	w.state = trip.Apply(st.Action, w.state)
	if st.Capability == "Search" {
		w.state.Money = 0
	}
	return nil, nil
}

// With WithDAG(1) every wave starts while none runs, so every step is
// checked live, as in order.
func TestDAGOfOneChecksEveryStepInTheLiveState(t *testing.T) {
	plan := planJSON(
		step("s", "Search", searchParis),
		step("f", "BookFlight", flightParis, "s"),
	)
	for _, opts := range [][]llm.Option{nil, {llm.WithDAG(1)}} {
		world := &driftingWorld{state: rich}
		p := llm.NewPlanner(trip, llm.ScriptedReplies(plan), append(opts, llm.WithMaxReplans(0))...)
		res, err := p.Run(context.Background(), "Paris", world)
		require.ErrorIs(t, err, runtime.ErrPreconditionStale)
		assert.Equal(t, []string{"s"}, world.ran, "f never ran: the money is gone")
		assert.Equal(t, []string{"0/s:done", "0/f:failed"}, statuses(res))
		assert.Contains(t, res.Steps[1].Error, "Money >= 100")
	}
}

// A reply the server cut at the token limit is told apart from one the
// model garbled: the error says so, and the retry asks for a shorter plan.
func TestTruncatedReplyIsReportedAsSuch(t *testing.T) {
	cut := goodPlan[:len(goodPlan)/2]
	model := llm.NewScriptedModel(
		llm.Reply{Text: cut, FinishReason: "length"},
		llm.Reply{Text: cut, FinishReason: "length"},
	)
	_, err := llm.NewPlanner(trip, model, llm.WithMaxTokens(40)).Run(context.Background(), "Paris", newRecorder().target(rich))
	assert.ErrorIs(t, err, llm.ErrUnreadableReply)
	assert.ErrorIs(t, err, llm.ErrTruncatedReply)
	assert.Contains(t, err.Error(), "cut at the token limit")
	retry := model.Requests()[1].Messages
	assert.Contains(t, retry[len(retry)-1].Content, "cut off at the token limit")

	// The same text ended by the model itself is only unreadable.
	_, err = llm.NewPlanner(trip, llm.ScriptedReplies(cut, cut)).Run(context.Background(), "Paris", newRecorder().target(rich))
	assert.ErrorIs(t, err, llm.ErrUnreadableReply)
	assert.NotErrorIs(t, err, llm.ErrTruncatedReply)
}

// A failed call that reports usage (a refusal) costs its tokens, against
// the budget too.
func TestAFailedCallCountsItsTokens(t *testing.T) {
	refusing := llm.ModelFunc(func(context.Context, llm.Request) (llm.Response, error) {
		return llm.Response{Usage: llm.Usage{PromptTokens: 900, CompletionTokens: 100, TotalTokens: 1000}}, errors.New("refused")
	})
	res, err := llm.NewPlanner(trip, refusing).Run(context.Background(), "Paris", newRecorder().target(rich))
	require.ErrorContains(t, err, "refused")
	assert.Equal(t, 1000, res.Usage.TotalTokens)
	require.Len(t, res.Calls, 1)
	assert.Equal(t, llm.CallPlan, res.Calls[0].Purpose)

	_, err = llm.NewPlanner(trip, refusing, llm.WithTokenBudget(10)).Run(context.Background(), "Paris", newRecorder().target(rich))
	var be *llm.BudgetError
	require.ErrorAs(t, err, &be)
	assert.Equal(t, 1000, be.Used)
}

// An empty plan is verified like any other: with goals that do not hold it
// is not verified, and WithRequireVerified asks the model again.
func TestAnEmptyPlanMustReachTheGoals(t *testing.T) {
	model := llm.ScriptedReplies(planJSON(), goodPlan)
	rec := newRecorder()
	res, err := llm.NewPlanner(trip, model, llm.WithAllowEmptyPlan(), llm.WithGoals(gTravelling),
		llm.WithRequireVerified(1), llm.WithMaxReplans(0)).
		Run(context.Background(), "Paris", rec.target(rich))
	require.NoError(t, err)
	assert.Len(t, model.Requests(), 2, "the empty plan's critique went back")
	assert.Equal(t, 0, res.Replans, "refused before it ran, not replanned after")
	assert.True(t, res.Plan.Verified)
	assert.Equal(t, []string{"s1", "s2"}, rec.steps())
}
