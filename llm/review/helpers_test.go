package review_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/examples/assistant/travel"
	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/llm/review"
	"github.com/rolegen/rolegen/llm/review/reviewtest"
)

// Plans of the travel assistant's role as a model writes them.
const (
	searchStep = `{"id":"search","capability":"Search","args":{"from":"ZRH","to":"LIS","date":"2026-12-18","cabin":"economy"},"dependsOn":[]}`
	bookStep   = `{"id":"book","capability":"Book","args":{"passenger":"Ada Lovelace","maxPrice":150},"dependsOn":["search"]}`
	adaStep    = `{"id":"tell-ada","capability":"Notify","args":{"message":"Ada: booked."},"dependsOn":["book"]}`
	bobStep    = `{"id":"tell-bob","capability":"Notify","args":{"message":"Bob: Ada is booked."},"dependsOn":["book"]}`
	// tripPlan searches, books, and tells two people, in that order.
	tripPlan = `{"steps":[` + searchStep + `,` + bookStep + `,` + adaStep + `,` + bobStep + `]}`
	// bookFirst books before it searched: verification refuses it.
	bookFirst = `{"steps":[{"id":"book","capability":"Book","args":{"passenger":"Ada Lovelace","maxPrice":150},"dependsOn":[]},` + searchStep + `]}`
)

// options are the planner's, the same for the proposals and the page.
func options(store llm.Store) []llm.Option {
	return []llm.Option{
		llm.WithStore(store),
		llm.WithMaxSteps(6),
		llm.WithRequireVerified(1),
		llm.WithGoals(travel.AgentGoalTrip),
	}
}

// fixture is a store of travel runs and a review page over it.
type fixture struct {
	t       *testing.T
	store   *llm.FileStore
	planner *llm.Planner[travel.AgentState]
	server  *httptest.Server
	mu      sync.Mutex
	decided []*review.Run
}

func newFixture(t *testing.T, opts ...review.Option) *fixture {
	t.Helper()
	store, err := llm.NewFileStore(t.TempDir())
	require.NoError(t, err)
	f := &fixture{t: t, store: store}
	f.planner = llm.NewPlanner(travel.AgentDomain, llm.ScriptedReplies(), options(store)...)
	opts = append([]review.Option{review.WithOnDecision(func(_ context.Context, run *review.Run) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.decided = append(f.decided, run)
	})}, opts...)
	mux := http.NewServeMux()
	mux.Handle("/review/", http.StripPrefix("/review", review.New(f.planner, review.StoreRuns(f.planner), opts...)))
	f.server = httptest.NewServer(mux)
	t.Cleanup(f.server.Close)
	return f
}

// propose makes the model's replies a run awaiting approval.
func (f *fixture) propose(runID, goal string, replies ...string) {
	f.t.Helper()
	p := llm.NewPlanner(travel.AgentDomain, llm.ScriptedReplies(replies...), options(f.store)...)
	res, err := p.Propose(context.Background(), goal, (&travel.Agent{Budget: 400}).PlanState(), llm.WithRunID(runID))
	require.NoError(f.t, err)
	require.Equal(f.t, llm.StatusAwaitingApproval, res.Status)
}

// client is a reviewer's browser.
func (f *fixture) client() *reviewtest.Client {
	f.t.Helper()
	c, err := reviewtest.NewClient(f.server.URL + "/review/")
	require.NoError(f.t, err)
	return c
}

// open gets a run's page with c and checks it has a form.
func (f *fixture) open(c *reviewtest.Client, runID string) *reviewtest.Page {
	f.t.Helper()
	page, err := c.Get("runs/" + runID)
	require.NoError(f.t, err)
	require.Equal(f.t, http.StatusOK, page.Status, page.Body)
	require.NotNil(f.t, page.Form, "the run's page has no form")
	return page
}

func (f *fixture) submit(c *reviewtest.Client, form *reviewtest.Form, do string) *reviewtest.Page {
	f.t.Helper()
	page, err := c.Submit(form, do)
	require.NoError(f.t, err)
	return page
}

func (f *fixture) checkpoint(runID string) *llm.Checkpoint {
	f.t.Helper()
	cp, err := f.store.Load(context.Background(), runID)
	require.NoError(f.t, err)
	return cp
}

// execute resumes an approved run on a new agent and returns what the
// agent's traveller was told, in order.
func (f *fixture) execute(runID string) (*llm.Result, []string) {
	f.t.Helper()
	agent := &travel.Agent{Budget: 400}
	res, err := f.planner.Resume(context.Background(), runID, llm.RoleTarget[travel.AgentState](agent))
	require.NoError(f.t, err)
	return res, agent.Inbox()
}

// ran returns "id:status" of every step record of res.
func ran(res *llm.Result) []string {
	var out []string
	for _, rec := range res.Steps {
		out = append(out, fmt.Sprintf("%s:%s", rec.Step.ID, rec.Status))
	}
	return out
}

func (f *fixture) decisions() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.decided)
}

// text returns the page's body with its tags and spacing collapsed, for
// looking for sentences in it.
func text(body string) string {
	var b strings.Builder
	in := false
	for _, r := range body {
		switch {
		case r == '<':
			in = true
			b.WriteRune(' ')
		case r == '>':
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}
