package temporal_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/worker"

	"github.com/rolegen/rolegen/examples/assistant/travel"
	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/llm/review"
	"github.com/rolegen/rolegen/llm/review/reviewtest"
	"github.com/rolegen/rolegen/temporal"
)

// The travel assistant's plans: the first books before it searched,
// which verification refuses; the retry searches, books and tells two
// people.
const (
	travelSearch = `{"id":"search","capability":"Search","args":{"from":"ZRH","to":"LIS","date":"2026-12-18","cabin":"economy"},"dependsOn":[]}`
	travelPlan   = `{"steps":[` + travelSearch + `,` +
		`{"id":"book","capability":"Book","args":{"passenger":"Ada Lovelace","maxPrice":150},"dependsOn":["search"]},` +
		`{"id":"tell-ada","capability":"Notify","args":{"message":"Ada: you fly on Friday."},"dependsOn":["book"]},` +
		`{"id":"tell-bob","capability":"Notify","args":{"message":"Bob: Ada is booked."},"dependsOn":["book"]}]}`
	travelBookFirst = `{"steps":[{"id":"book","capability":"Book","args":{"passenger":"Ada Lovelace","maxPrice":150},"dependsOn":[]},` + travelSearch + `]}`
)

// travelModel answers a first request with the plan that books first and
// the retry with the one that works; it keeps no state.
func travelModel() llm.Model {
	return llm.ModelFunc(func(_ context.Context, req llm.Request) (llm.Response, error) {
		text := travelBookFirst
		if len(req.Messages) > 2 {
			text = travelPlan
		}
		return llm.Response{Text: text, Usage: llm.Usage{PromptTokens: 100, CompletionTokens: 10}}, nil
	})
}

// agents keeps one travel agent per run, in this process.
type agents struct {
	mu   sync.Mutex
	runs map[string]*travel.Agent
}

func (a *agents) of(runID string) *travel.Agent {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.runs == nil {
		a.runs = map[string]*travel.Agent{}
	}
	if a.runs[runID] == nil {
		a.runs[runID] = &travel.Agent{Budget: 400}
	}
	return a.runs[runID]
}

// A workflow waiting for approval is decided on the review page: the
// plan the workflow holds, an edit refused at its argument while the run
// goes on waiting, two steps reordered, the edit fixed and approved, and
// the steps run in the order decided. A second reviewer, and decisions
// the page would not send, are refused by the workflow itself.
func TestReviewPageOnTemporal(t *testing.T) {
	c := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var team agents
	planner := llm.NewPlanner(travel.AgentDomain, travelModel(),
		llm.WithMaxSteps(6), llm.WithRequireVerified(1), llm.WithGoals(travel.AgentGoalTrip))
	plans := temporal.New(planner,
		temporal.WithPerformer(func(_ context.Context, runID string) (llm.Performer, error) { return team.of(runID), nil }),
		temporal.WithApproval(temporal.Approval{Required: true, Timeout: 10 * time.Minute}),
		fastSteps(),
	)
	w := worker.New(c, "review", workerOptions())
	plans.Register(w)
	require.NoError(t, w.Start())
	defer w.Stop()
	run, err := plans.Start(ctx, c, "review", "Fly Ada to Lisbon, and tell Bob first", team.of("review-lisbon").PlanState(),
		temporal.StartOptions{ID: "review-lisbon"})
	require.NoError(t, err)

	srv := httptest.NewServer(review.New(planner, plans.ReviewRuns(c)))
	defer srv.Close()
	ada, err := reviewtest.NewClient(srv.URL + "/")
	require.NoError(t, err)
	bob, err := reviewtest.NewClient(srv.URL + "/")
	require.NoError(t, err)

	waitFor(t, "the run to be listed as awaiting approval", func() bool {
		list, err := ada.Get("")
		return err == nil && slices.Contains(list.Links, srv.URL+"/runs/review-lisbon")
	})
	page, err := ada.Get("runs/review-lisbon")
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, page.Status, page.Body)
	require.NotNil(t, page.Form)
	assert.Contains(t, page.Body, "precondition &#34;Searched &amp;&amp; Budget &gt;= 100&#34; does not hold where Searched = false, Budget = 400")
	bobsForm, err := bob.Get("runs/review-lisbon")
	require.NoError(t, err)

	// Decisions sent past the page are checked by the workflow: another
	// plan's digest, an argument the action would not take.
	runs := plans.ReviewRuns(c)
	stale := llm.Approve()
	stale.PlanDigest = "0123456789abcdef0123456789abcdef"
	assert.ErrorIs(t, runs.Decide(ctx, run.GetID(), stale), llm.ErrPlanChanged)
	bad := llm.EditArgs("book", []byte(`{"passenger":"Ada Lovelace","maxPrice":"lots"}`))
	assert.ErrorIs(t, runs.Decide(ctx, run.GetID(), bad), llm.ErrInvalidDecision)

	// On the page: tell Bob first, and a price the action refuses.
	form := page.Form
	require.NoError(t, form.Order("search", "book", "tell-bob", "tell-ada"))
	require.NoError(t, form.SetArg("book", "maxPrice", "lots"))
	page, err = ada.Submit(form, "approve")
	require.NoError(t, err)
	require.Equal(t, http.StatusUnprocessableEntity, page.Status, page.Body)
	assert.Contains(t, page.Body, "invalid arguments: at &#39;/maxPrice&#39;")
	assert.Equal(t, []string{"search", "book", "tell-bob", "tell-ada"}, page.Form.StepOrder())
	awaiting, err := plans.Awaiting(ctx, c, run.GetID())
	require.NoError(t, err)
	require.NotNil(t, awaiting, "the run still awaits approval")

	require.NoError(t, page.Form.SetArg("book", "maxPrice", "120"))
	page, err = ada.Submit(page.Form, "approve")
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, page.Status, page.Body)
	assert.Contains(t, page.Body, "Approved at ")

	// Bob decides on the page he opened before: he is shown Ada's.
	require.NoError(t, bobsForm.Form.Set("reason", "no"))
	page, err = bob.Submit(bobsForm.Form, "reject")
	require.NoError(t, err)
	assert.Equal(t, http.StatusConflict, page.Status)
	assert.Contains(t, page.Body, "Another decision about this run came first; yours was not recorded. Approved at ")

	res, err := plans.Result(ctx, c, run.GetID())
	require.NoError(t, err)
	assert.Equal(t, llm.StatusCompleted, res.Status)
	assert.Equal(t, []string{"0/search:done", "0/book:done", "0/tell-bob:done", "0/tell-ada:done"}, statuses(res))
	inbox := team.of("review-lisbon").Inbox()
	require.Len(t, inbox, 2)
	assert.True(t, strings.HasPrefix(inbox[0], "Bob:"), inbox[0])
	assert.Contains(t, inbox[0], "RG1240", "booked the flight at 95 euros, within 120")

	// The run's history replays (the update's validator and the queries
	// leave the workflow deterministic).
	replayer := worker.NewWorkflowReplayer()
	plans.RegisterWorkflow(replayer)
	require.NoError(t, replayer.ReplayWorkflowHistory(quietLogger(), history(t, c, run.GetID())))
}
