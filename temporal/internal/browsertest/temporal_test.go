package browsertest

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"

	"github.com/rolegen/rolegen/examples/assistant/travel"
	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/llm/review"
	rb "github.com/rolegen/rolegen/llm/review/browsertest"
	"github.com/rolegen/rolegen/temporal"
	"github.com/rolegen/rolegen/temporal/internal/testserver"
)

// The travel assistant's plans: the first books before it searched,
// which verification refuses; the retry searches, books and tells two
// people.
const (
	searchStep = `{"id":"search","capability":"Search","args":{"from":"ZRH","to":"LIS","date":"2026-12-18","cabin":"economy"},"dependsOn":[]}`
	tripPlan   = `{"steps":[` + searchStep + `,` +
		`{"id":"book","capability":"Book","args":{"passenger":"Ada Lovelace","maxPrice":150},"dependsOn":["search"]},` +
		`{"id":"tell-ada","capability":"Notify","args":{"message":"Ada: you fly on Friday."},"dependsOn":["book"]},` +
		`{"id":"tell-bob","capability":"Notify","args":{"message":"Bob: Ada is booked."},"dependsOn":["book"]}]}`
	bookFirst = `{"steps":[{"id":"book","capability":"Book","args":{"passenger":"Ada Lovelace","maxPrice":150},"dependsOn":[]},` + searchStep + `]}`
)

// model answers a first request with the plan that books first and the
// retry with the one that works; it keeps no state.
func model() llm.Model {
	return llm.ModelFunc(func(_ context.Context, req llm.Request) (llm.Response, error) {
		text := bookFirst
		if len(req.Messages) > 2 {
			text = tripPlan
		}
		return llm.Response{Text: text, Usage: llm.Usage{PromptTokens: 100, CompletionTokens: 10}}, nil
	})
}

// team keeps one travel agent per run, in this process (one worker).
type team struct {
	mu   sync.Mutex
	runs map[string]*travel.Agent
}

func (tm *team) of(runID string) *travel.Agent {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	if tm.runs == nil {
		tm.runs = map[string]*travel.Agent{}
	}
	if tm.runs[runID] == nil {
		tm.runs[runID] = &travel.Agent{Budget: 400}
	}
	return tm.runs[runID]
}

// TestReviewOnTemporalInABrowser: two workflows wait for approval; one is
// rejected on the page with a reason, the other has two steps reordered
// from the keyboard and an argument edited (first to a value the action
// refuses, shown at its field while the workflow goes on waiting) and is
// approved; its steps then run as activities in the order decided.
func TestReviewOnTemporalInABrowser(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	srv, err := testserver.Start(ctx)
	require.NoError(t, err)
	defer srv.Stop()
	c, err := client.Dial(client.Options{HostPort: srv.Address, Namespace: "default",
		Logger: sdklog.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))})
	require.NoError(t, err)
	defer c.Close()

	var agents team
	planner := llm.NewPlanner(travel.AgentDomain, model(),
		llm.WithMaxSteps(6), llm.WithRequireVerified(1), llm.WithGoals(travel.AgentGoalTrip))
	plans := temporal.New(planner,
		temporal.WithPerformer(func(_ context.Context, runID string) (llm.Performer, error) { return agents.of(runID), nil }),
		temporal.WithApproval(temporal.Approval{Required: true, Timeout: 10 * time.Minute}),
	)
	w := worker.New(c, "review", worker.Options{})
	plans.Register(w)
	require.NoError(t, w.Start())
	defer w.Stop()
	for _, id := range []string{"lisbon", "porto"} {
		_, err := plans.Start(ctx, c, "review", "Fly Ada to "+strings.ToUpper(id[:1])+id[1:]+", and tell Bob first",
			agents.of(id).PlanState(), temporal.StartOptions{ID: id})
		require.NoError(t, err)
	}

	mux := http.NewServeMux()
	mux.Handle("/review/", http.StripPrefix("/review", review.New(planner, plans.ReviewRuns(c))))
	web := httptest.NewServer(mux)
	defer web.Close()
	base := web.URL + "/review/"

	b := rb.Browser(t)
	// Temporal's visibility lists a workflow a moment after it starts.
	deadline := time.Now().Add(time.Minute)
	for {
		require.NoError(t, chromedp.Do(b, chromedp.Navigate(base)))
		n, err := chromedp.Run(b, chromedp.Evaluate[int](`document.querySelectorAll(".runs > li").length`))
		require.NoError(t, err)
		if n == 2 {
			break
		}
		require.True(t, time.Now().Before(deadline), "the two runs are not listed as awaiting approval")
		time.Sleep(300 * time.Millisecond)
	}

	// Reject one with a reason.
	require.NoError(t, chromedp.Do(b,
		chromedp.Click(chromedp.CSS(`a[href="runs/porto"]`)),
		chromedp.WaitVisible(chromedp.CSS("#decision")),
		chromedp.SendKeys(chromedp.CSS("#reason"), "Ada goes to Lisbon."),
		chromedp.Click(chromedp.CSS(`button[value="reject"]`)),
		chromedp.WaitVisible(chromedp.CSS(".decided")),
	))
	assert.Contains(t, rb.Text(t, b, ".decided"), "Ada goes to Lisbon.")
	res, err := plans.Result(ctx, c, "porto")
	assert.ErrorIs(t, err, llm.ErrRejected)
	assert.Equal(t, llm.StatusRejected, res.Status)
	assert.Empty(t, res.Steps)

	// The other: the critique of the refused reply is on the page; tell
	// Bob first; a price the action refuses, then one it takes.
	require.NoError(t, chromedp.Do(b,
		chromedp.Navigate(base+"runs/lisbon"),
		chromedp.WaitVisible(chromedp.CSS("#decision")),
	))
	assert.Contains(t, rb.Text(t, b, ".refused"), `precondition "Searched && Budget >= 100" does not hold where Searched = false, Budget = 400`)
	rb.MoveWithKeyboard(t, b, `li[data-step="tell-bob"] input[name^="a-"]`, true)
	assert.Equal(t, []string{"search", "book", "tell-bob", "tell-ada"}, rb.StepOrder(t, b))
	price := `li[data-step="book"] input[name$="-1"]`
	rb.Retype(t, b, price, "lots")
	require.NoError(t, chromedp.Do(b,
		chromedp.Click(chromedp.CSS(`button[value="approve"]`)),
		chromedp.WaitVisible(chromedp.CSS(".field-error")),
	))
	assert.Contains(t, rb.Text(t, b, `li[data-step="book"] .field-error`), "invalid arguments: at '/maxPrice'")
	awaiting, err := plans.Awaiting(ctx, c, "lisbon")
	require.NoError(t, err)
	require.NotNil(t, awaiting, "the workflow still awaits approval")
	rb.Shoot(t, b, "temporal-refused-edit.png")

	rb.Retype(t, b, price, "120")
	require.NoError(t, chromedp.Do(b,
		chromedp.Click(chromedp.CSS(`button[value="approve"]`)),
		chromedp.WaitVisible(chromedp.CSS(".decided")),
	))
	assert.Contains(t, rb.Text(t, b, ".decided"), "Approved at ")
	rb.Shoot(t, b, "temporal-approved.png")

	res, err = plans.Result(ctx, c, "lisbon")
	require.NoError(t, err)
	assert.Equal(t, llm.StatusCompleted, res.Status)
	var ran []string
	for _, rec := range res.Steps {
		ran = append(ran, rec.Step.ID+":"+string(rec.Status))
	}
	assert.Equal(t, []string{"search:done", "book:done", "tell-bob:done", "tell-ada:done"}, ran)
	inbox := agents.of("lisbon").Inbox()
	require.Len(t, inbox, 2)
	assert.True(t, strings.HasPrefix(inbox[0], "Bob:"), inbox[0])
	assert.Contains(t, inbox[0], "95 euros")
}
