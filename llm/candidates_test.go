package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/llm"
)

// Plans of a table from {Wood: 2, Distance: 5, Money: 10}, by their cost
// on the domain from there.
var (
	// fetchedPlan costs 10: the saw is five away (FetchSaw 6).
	fetchedPlan = planJSON(step("f", "FetchSaw", "{}"), step("p1", "SawPlank", "{}"), step("p2", "SawPlank", "{}"), step("b", "Build", "{}"))
	// boughtPlan costs 7 (BuySaw 3).
	boughtPlan = planJSON(step("s", "BuySaw", "{}"), step("p1", "SawPlank", "{}"), step("p2", "SawPlank", "{}"), step("b", "Build", "{}"))
	// sawlessPlan would cost 4, but saws without a saw: it does not verify.
	sawlessPlan = planJSON(step("p1", "SawPlank", "{}"), step("p2", "SawPlank", "{}"), step("b", "Build", "{}"))
	// shortPlan builds at once: repaired, it is boughtPlan's steps.
	shortPlan = planJSON(step("b", "Build", "{}"))
)

var tableState = woodState{Wood: 2, Distance: 5, Money: 10}

// reply is a scripted reply with its usage.
func reply(text string, tokens int) llm.Reply {
	return llm.Reply{Text: text, Usage: llm.Usage{PromptTokens: tokens - 10, CompletionTokens: 10}}
}

func proposeWith(t *testing.T, model llm.Model, opts ...llm.Option) (*llm.Result, error) {
	t.Helper()
	planner := llm.NewPlanner(wood, model, append([]llm.Option{llm.WithGoals(gFurnished)}, opts...)...)
	return planner.Propose(context.Background(), "a table", tableState)
}

func TestCandidatesKeepTheCheapestVerifiedPlan(t *testing.T) {
	for range 10 {
		model := llm.NewScriptedModel(reply(fetchedPlan, 100), reply(sawlessPlan, 200), reply(boughtPlan, 300))
		res, err := proposeWith(t, model, llm.WithCandidates(3), llm.WithRepair(0))
		require.NoError(t, err)
		require.Equal(t, llm.StatusAwaitingApproval, res.Status)
		assert.Equal(t, "s", res.Plan.Steps[0].ID, "the bought saw: 7 against 10; the plan without a saw never wins")
		assert.True(t, res.Plan.Verified)
		assert.Len(t, res.Calls, 3, "one call a candidate: the model gives one reply a call")
		assert.Equal(t, 600, res.Usage.TotalTokens, "the tokens of every candidate")
		reqs := model.Requests()
		require.Len(t, reqs, 3)
		assert.Equal(t, []int{3, 2, 0}, []int{reqs[0].N, reqs[1].N, reqs[2].N}, "n asked, then the rest")
	}
}

// A model that gives several replies to one call (the API's n) answers
// the k candidates in one call.
func TestCandidatesInOneCallWhereTheModelGivesSeveral(t *testing.T) {
	model := llm.NewScriptedModel(llm.Reply{Text: fetchedPlan, Alternatives: []string{sawlessPlan, boughtPlan},
		Usage: llm.Usage{PromptTokens: 900, CompletionTokens: 300}})
	res, err := proposeWith(t, model, llm.WithCandidates(3), llm.WithRepair(0))
	require.NoError(t, err)
	assert.Equal(t, "s", res.Plan.Steps[0].ID)
	assert.Len(t, res.Calls, 1)
	assert.Equal(t, 1200, res.Usage.TotalTokens)
	assert.Equal(t, 3, model.Requests()[0].N)
}

// A candidate that repair makes verify competes at its repaired cost, and
// ties go to the first: the repaired plan equals the bought one, which
// came first.
func TestCandidatesAreRepairedBeforeTheyAreRanked(t *testing.T) {
	model := llm.NewScriptedModel(reply(fetchedPlan, 100), reply(shortPlan, 100))
	res, err := proposeWith(t, model, llm.WithCandidates(2))
	require.NoError(t, err)
	assert.Len(t, res.Plan.Inserted(), 3, "BuySaw, SawPlank, SawPlank inserted before Build: 7 against 10")
	assert.Equal(t, "BuySaw", res.Plan.Steps[0].Capability)

	model = llm.NewScriptedModel(reply(boughtPlan, 100), reply(shortPlan, 100))
	res, err = proposeWith(t, model, llm.WithCandidates(2))
	require.NoError(t, err)
	assert.Empty(t, res.Plan.Inserted(), "the same cost and steps: the first wins")
}

func TestCandidatesThatAllFailGoBackToTheModel(t *testing.T) {
	model := llm.NewScriptedModel(reply(sawlessPlan, 100), reply("not a plan", 100), reply(boughtPlan, 100), reply(fetchedPlan, 100))
	res, err := proposeWith(t, model, llm.WithCandidates(2), llm.WithRepair(0), llm.WithRequireVerified(1))
	require.NoError(t, err)
	assert.Equal(t, "s", res.Plan.Steps[0].ID)
	assert.Len(t, res.Calls, 4)
	retry := model.Requests()[2].Messages
	require.Len(t, retry, 4)
	assert.Equal(t, sawlessPlan, retry[2].Content, "the candidate that got furthest is the one criticised")
	assert.Contains(t, retry[3].Content, `step "p1" (SawPlank): precondition "Wood >= 1 && Saw" does not hold`)

	// Without a verified plan required, the first valid one runs.
	model = llm.NewScriptedModel(reply("not a plan", 100), reply(sawlessPlan, 100))
	res, err = proposeWith(t, model, llm.WithCandidates(2), llm.WithRepair(0))
	require.NoError(t, err)
	assert.False(t, res.Plan.Verified)
	assert.Equal(t, "p1", res.Plan.Steps[0].ID)
}

// A k beyond MaxCandidates asks for MaxCandidates plans: with
// math.MaxInt, the run reserved room for that many replies and panicked.
func TestCandidatesAtMost(t *testing.T) {
	alts := make([]string, llm.MaxCandidates-1)
	for i := range alts {
		alts[i] = fetchedPlan
	}
	alts[len(alts)-1] = boughtPlan
	for _, k := range []int{llm.MaxCandidates, llm.MaxCandidates + 1, math.MaxInt} {
		model := llm.NewScriptedModel(llm.Reply{Text: sawlessPlan, Alternatives: alts,
			Usage: llm.Usage{PromptTokens: 900, CompletionTokens: 300}})
		res, err := proposeWith(t, model, llm.WithCandidates(k), llm.WithRepair(0))
		require.NoError(t, err, "k %d", k)
		assert.Equal(t, "s", res.Plan.Steps[0].ID, "k %d: the last of the %d, the cheapest", k, llm.MaxCandidates)
		assert.Len(t, res.Calls, 1, "k %d", k)
		assert.Equal(t, llm.MaxCandidates, model.Requests()[0].N, "k %d", k)
	}
}

func TestCandidatesHoldTheTokenBudget(t *testing.T) {
	model := llm.NewScriptedModel(reply(fetchedPlan, 100), reply(boughtPlan, 100), reply(sawlessPlan, 100))
	res, err := proposeWith(t, model, llm.WithCandidates(3), llm.WithTokenBudget(150))
	require.ErrorIs(t, err, llm.ErrTokenBudget)
	assert.Len(t, res.Calls, 2, "the call that went over the budget is the last")
	assert.Equal(t, 200, res.Usage.TotalTokens)
}

// The observer sees every candidate, the checks of each under it, and
// why each lost.
func TestObserverSeesEveryCandidate(t *testing.T) {
	type key struct{}
	var seen []string
	obs := llm.ObserverFunc(func(ctx context.Context, ev llm.Event) context.Context {
		where, _ := ctx.Value(key{}).(string)
		switch ev.Kind {
		case llm.EventCandidateStart:
			return context.WithValue(ctx, key{}, fmt.Sprintf("candidate %d", ev.Candidate.Index+1))
		case llm.EventCandidateEnd:
			seen = append(seen, fmt.Sprintf("%s: %d of %d verified=%v cost=%g chosen=%v %s", where,
				ev.Candidate.Index+1, ev.Candidate.Of, ev.Candidate.Verified, ev.Candidate.Cost, ev.Candidate.Chosen, ev.Candidate.Why))
		case llm.EventValidation, llm.EventVerification, llm.EventRepair:
			seen = append(seen, fmt.Sprintf("%s: %s ok=%v", where, ev.Kind, ev.Err == nil))
		}
		return ctx
	})
	model := llm.NewScriptedModel(reply(fetchedPlan, 100), reply("{", 100), reply(boughtPlan, 100), reply(boughtPlan, 100), reply(shortPlan, 100))
	_, err := proposeWith(t, model, llm.WithCandidates(5), llm.WithObserver(obs))
	require.NoError(t, err)
	assert.Equal(t, []string{
		"candidate 1: validation ok=true",
		"candidate 1: verification ok=true",
		"candidate 3: validation ok=true",
		"candidate 3: verification ok=true",
		"candidate 4: validation ok=true",
		"candidate 4: verification ok=true",
		"candidate 5: validation ok=true",
		"candidate 5: verification ok=false",
		"candidate 5: repair ok=true",
		"candidate 5: verification ok=true",
		"candidate 1: 1 of 5 verified=true cost=10 chosen=false lost: costs 10 from the current state, candidate 3 costs 7",
		`candidate 2: 2 of 5 verified=false cost=0 chosen=false lost: unreadable: llm: unreadable model reply: unexpected EOF (reply: {)`,
		"candidate 3: 3 of 5 verified=true cost=7 chosen=true chosen: the verified plan of least cost, then fewest steps, then first",
		"candidate 4: 4 of 5 verified=true cost=7 chosen=false lost: the same cost and steps as candidate 3, which came first",
		"candidate 5: 5 of 5 verified=true cost=7 chosen=false lost: the same cost and steps as candidate 3, which came first",
	}, seen)
}

// The engine decides from the model's plans again, with the same pure
// code in every driver: Choose gives the plan MakePlan chose, every time.
func TestChooseDecidesAsMakePlan(t *testing.T) {
	model := llm.NewScriptedModel(reply(fetchedPlan, 100), reply(shortPlan, 100), reply(sawlessPlan, 100))
	planner := llm.NewPlanner(wood, model, llm.WithGoals(gFurnished), llm.WithCandidates(3))
	out, err := planner.MakePlan(context.Background(), llm.PlanRequest[woodState]{Goal: "a table", State: tableState})
	require.NoError(t, err)
	require.Len(t, out.Candidates, 3)
	assert.Nil(t, out.Candidates[1].Plan.Steps[0].Inserted, "candidates are the plans as the model wrote them")

	// Through the wire, as a workflow gets them.
	b, err := json.Marshal(out)
	require.NoError(t, err)
	var wire llm.PlanReply
	require.NoError(t, json.Unmarshal(b, &wire))
	want, err := json.Marshal(out.Plan)
	require.NoError(t, err)
	for range 5 {
		got, err := json.Marshal(planner.Choose(tableState, wire.Candidates))
		require.NoError(t, err)
		assert.JSONEq(t, string(want), string(got))
	}

	// No acceptable candidate: nil.
	strict := llm.NewPlanner(wood, model, llm.WithGoals(gFurnished), llm.WithRepair(0), llm.WithRequireVerified(0))
	assert.Nil(t, strict.Choose(tableState, []llm.Candidate{{Error: "unreadable"}, {Plan: wire.Candidates[2].Plan}}))
}

func TestAFailedCandidateCallFailsTheRequest(t *testing.T) {
	boom := errors.New("boom")
	model := llm.NewScriptedModel(reply(boughtPlan, 100), llm.ReplyError(boom))
	res, err := proposeWith(t, model, llm.WithCandidates(2))
	require.ErrorIs(t, err, boom)
	assert.Len(t, res.Calls, 2)
}
