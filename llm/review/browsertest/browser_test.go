package browsertest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/network"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/examples/assistant/travel"
	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/llm/review"
)

// Plans of the travel assistant's role as a model writes them: search,
// book, and tell two people.
const (
	searchStep = `{"id":"search","capability":"Search","args":{"from":"ZRH","to":"LIS","date":"2026-12-18","cabin":"economy"},"dependsOn":[]}`
	bookStep   = `{"id":"book","capability":"Book","args":{"passenger":"Ada Lovelace","maxPrice":150},"dependsOn":["search"]}`
	adaStep    = `{"id":"tell-ada","capability":"Notify","args":{"message":"Ada: you fly on Friday."},"dependsOn":["book"]}`
	bobStep    = `{"id":"tell-bob","capability":"Notify","args":{"message":"Bob: Ada is booked."},"dependsOn":["book"]}`
	tripPlan   = `{"steps":[` + searchStep + `,` + bookStep + `,` + adaStep + `,` + bobStep + `]}`
	bookFirst  = `{"steps":[{"id":"book","capability":"Book","args":{"passenger":"Ada Lovelace","maxPrice":150},"dependsOn":[]},` + searchStep + `]}`
)

func options(store llm.Store) []llm.Option {
	return []llm.Option{llm.WithStore(store), llm.WithMaxSteps(6), llm.WithRequireVerified(1), llm.WithGoals(travel.AgentGoalTrip)}
}

// executed is a run the page approved, run to its end.
type executed struct {
	res   *llm.Result
	inbox []string
	err   error
}

// site is a store of runs awaiting approval and the review page over
// it, which runs each approved plan as a program using it would.
type site struct {
	t       *testing.T
	store   *llm.FileStore
	planner *llm.Planner[travel.AgentState]
	server  *httptest.Server
	mu      sync.Mutex
	ran     map[string]chan executed
}

func newSite(t *testing.T) *site {
	store, err := llm.NewFileStore(t.TempDir())
	require.NoError(t, err)
	s := &site{t: t, store: store, ran: map[string]chan executed{}}
	s.planner = llm.NewPlanner(travel.AgentDomain, llm.ScriptedReplies(), options(store)...)
	page := review.New(s.planner, review.StoreRuns(s.planner), review.WithOnDecision(func(_ context.Context, run *review.Run) {
		if run.Status != llm.StatusApproved {
			return
		}
		done := s.done(run.ID)
		go func() {
			agent := &travel.Agent{Budget: 400}
			res, err := s.planner.Resume(context.Background(), run.ID, llm.RoleTarget[travel.AgentState](agent))
			done <- executed{res: res, inbox: agent.Inbox(), err: err}
		}()
	}))
	mux := http.NewServeMux()
	mux.Handle("/review/", http.StripPrefix("/review", page))
	s.server = httptest.NewServer(mux)
	t.Cleanup(s.server.Close)
	return s
}

func (s *site) done(runID string) chan executed {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ran[runID] == nil {
		s.ran[runID] = make(chan executed, 1)
	}
	return s.ran[runID]
}

func (s *site) propose(runID, goal string, replies ...string) {
	s.t.Helper()
	p := llm.NewPlanner(travel.AgentDomain, llm.ScriptedReplies(replies...), options(s.store)...)
	_, err := p.Propose(context.Background(), goal, (&travel.Agent{Budget: 400}).PlanState(), llm.WithRunID(runID))
	require.NoError(s.t, err)
}

func (s *site) status(runID string) llm.Status {
	cp, err := s.store.Load(context.Background(), runID)
	require.NoError(s.t, err)
	return cp.Status
}

// TestReviewInABrowser is the review page as a person uses it: the list,
// an approval, a rejection with its reason, two steps reordered with the
// keyboard, an argument edited to a value the action refuses and then
// fixed, and the run executing in the order decided.
func TestReviewInABrowser(t *testing.T) {
	s := newSite(t)
	s.propose("approve-me", "Fly Ada to Lisbon on Friday", tripPlan)
	s.propose("reject-me", "Fly Ada to Lisbon on Saturday", tripPlan)
	s.propose("edit-me", "Fly Ada to Lisbon, and tell Bob first", bookFirst, tripPlan)
	ctx := Browser(t)

	// Nothing the page asks for comes from elsewhere, and no script
	// fails.
	var mu sync.Mutex
	var requests, exceptions []string
	require.NoError(t, chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			requests = append(requests, ev.Request.URL)
		case *cdpruntime.EventExceptionThrown:
			exceptions = append(exceptions, ev.ExceptionDetails.Text)
		}
	}))

	base := s.server.URL + "/review/"
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base), chromedp.WaitVisible(chromedp.CSS(".runs"))))
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll(".runs > li").length`))
	require.NoError(t, err)
	assert.Equal(t, 3, n)
	Shoot(t, ctx, "review-list.png")

	// Approve one run as it is.
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`a[href="runs/approve-me"]`)),
		chromedp.WaitVisible(chromedp.CSS("#decision")),
		chromedp.Click(chromedp.CSS(`button[value="approve"]`)),
		chromedp.WaitVisible(chromedp.CSS(".decided")),
	))
	assert.Contains(t, Text(t, ctx, ".decided"), "Approved at ")
	done := <-s.done("approve-me")
	require.NoError(t, done.err)
	assert.Equal(t, llm.StatusCompleted, done.res.Status)

	// Reject another with a reason: first without one, which the page
	// asks for.
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(base+"runs/reject-me"),
		chromedp.WaitVisible(chromedp.CSS("#decision")),
		chromedp.Click(chromedp.CSS(`button[value="reject"]`)),
	))
	focused, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.id`))
	require.NoError(t, err)
	assert.Equal(t, "reason", focused, "a rejection without a reason asks for one")
	assert.Equal(t, llm.StatusAwaitingApproval, s.status("reject-me"))
	require.NoError(t, chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS("#reason"), "Ada flies on Friday, not Saturday."),
		chromedp.Click(chromedp.CSS(`button[value="reject"]`)),
		chromedp.WaitVisible(chromedp.CSS(".decided")),
	))
	assert.Contains(t, Text(t, ctx, ".decided"), "Rejected at ")
	assert.Contains(t, Text(t, ctx, ".decided"), "Ada flies on Friday, not Saturday.")
	assert.Equal(t, llm.StatusRejected, s.status("reject-me"))

	// The third: the model's first reply was refused, and the page says
	// why. Move tell-bob above tell-ada from the keyboard.
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(base+"runs/edit-me"),
		chromedp.WaitVisible(chromedp.CSS("#decision")),
	))
	assert.Contains(t, Text(t, ctx, ".refused"), `precondition "Searched && Budget >= 100" does not hold where Searched = false, Budget = 400`)
	Shoot(t, ctx, "review-run.png")
	bobMessage := `li[data-step="tell-bob"] input[name^="a-"]`
	MoveWithKeyboard(t, ctx, bobMessage, true)
	assert.Equal(t, []string{"search", "book", "tell-bob", "tell-ada"}, StepOrder(t, ctx))
	focused, err = chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.closest("li").dataset.step`))
	require.NoError(t, err)
	assert.Equal(t, "tell-bob", focused, "the focus stays in the step moved")
	assert.Contains(t, Text(t, ctx, "#live"), "Step tell-bob moved to position 3 of 4.")
	// And the move-down button of tell-ada, by Tab and Enter, moves it
	// no further: it is last.
	disabled, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('li[data-step="tell-ada"] button[data-move="down"]').disabled`))
	require.NoError(t, err)
	assert.True(t, disabled)

	// An argument the action refuses: shown at its field, nothing decided.
	price := `li[data-step="book"] input[name$="-1"]`
	Retype(t, ctx, price, "1.5")
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`button[value="approve"]`)),
		chromedp.WaitVisible(chromedp.CSS(".field-error")),
	))
	assert.Contains(t, Text(t, ctx, `li[data-step="book"] .field-error`), "invalid arguments: at '/maxPrice'")
	invalid, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('`+price+`').getAttribute("aria-invalid")`))
	require.NoError(t, err)
	assert.Equal(t, "true", invalid)
	assert.Equal(t, []string{"search", "book", "tell-bob", "tell-ada"}, StepOrder(t, ctx), "the order survives the round trip")
	assert.Equal(t, llm.StatusAwaitingApproval, s.status("edit-me"))
	Shoot(t, ctx, "review-refused-edit.png")
	ShootTop(t, ctx, "review-readme.png", 1800)

	// Fixed, approved: the run executes in the order decided.
	Retype(t, ctx, price, "120")
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`button[value="approve"]`)),
		chromedp.WaitVisible(chromedp.CSS(".decided")),
	))
	assert.Contains(t, Text(t, ctx, ".decided"), "Approved at ")
	assert.Contains(t, Text(t, ctx, ".decided"), "reordered, arguments of 1 step edited")
	done = <-s.done("edit-me")
	require.NoError(t, done.err)
	var order []string
	for _, rec := range done.res.Steps {
		order = append(order, rec.Step.ID+":"+string(rec.Status))
	}
	assert.Equal(t, []string{"search:done", "book:done", "tell-bob:done", "tell-ada:done"}, order)
	require.Len(t, done.inbox, 2)
	assert.True(t, strings.HasPrefix(done.inbox[0], "Bob:"), done.inbox[0])
	out, ok := done.res.Output("book")
	require.True(t, ok)
	var booking travel.Booking
	require.NoError(t, json.Unmarshal(out, &booking))
	assert.Equal(t, 95, booking.Price)

	// The list is empty now.
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base), chromedp.WaitVisible(chromedp.CSS(".empty"))))

	mu.Lock()
	defer mu.Unlock()
	assert.Empty(t, exceptions)
	for _, u := range requests {
		assert.True(t, strings.HasPrefix(u, s.server.URL+"/") || u == "about:blank", "a request elsewhere: %s", u)
	}
}

// TestReviewOnAPhone: at a phone's width the page fits the screen, with
// nothing to scroll sideways.
func TestReviewOnAPhone(t *testing.T) {
	s := newSite(t)
	s.propose("phone", "Fly Ada to Lisbon on Friday, and tell Bob", bookFirst, tripPlan)
	ctx := Browser(t)
	require.NoError(t, chromedp.Do(ctx,
		chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile),
		chromedp.Navigate(s.server.URL+"/review/runs/phone"),
		chromedp.WaitVisible(chromedp.CSS("#decision")),
	))
	width, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`[document.documentElement.scrollWidth, window.innerWidth]`))
	require.NoError(t, err)
	assert.LessOrEqual(t, width[0], width[1], "the page is wider than the phone")
	Shoot(t, ctx, "review-phone.png")
}
