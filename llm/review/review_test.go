package review_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/examples/assistant/travel"
	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/llm/review"
	"github.com/rolegen/rolegen/llm/review/internal/scribe"
	"github.com/rolegen/rolegen/llm/review/reviewtest"
)

func TestListShowsTheRunsAwaitingApproval(t *testing.T) {
	f := newFixture(t)
	f.propose("lisbon", "Fly me to Lisbon", tripPlan)
	f.propose("porto", "Fly me to Porto", bookFirst, tripPlan)
	// A run that completed awaits nothing.
	_, err := llm.NewPlanner(travel.AgentDomain, llm.ScriptedReplies(tripPlan), append(options(f.store), llm.WithApprover(llm.AutoApprove()))...).
		Run(context.Background(), "Fly me to Faro", llm.RoleTarget[travel.AgentState](&travel.Agent{Budget: 400}), llm.WithRunID("faro"))
	require.NoError(t, err)

	page, err := f.client().Get("")
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, page.Status)
	body := text(page.Body)
	assert.Contains(t, body, "Fly me to Lisbon")
	assert.Contains(t, body, "Fly me to Porto")
	assert.NotContains(t, body, "Fly me to Faro")
	assert.Contains(t, body, "4 steps")
	assert.Contains(t, page.Links, f.server.URL+"/review/runs/lisbon")
	assert.Contains(t, page.Links, f.server.URL+"/review/runs/porto")
}

func TestTheRunPageShowsThePlanAsAPersonReadsIt(t *testing.T) {
	f := newFixture(t)
	f.propose("porto", "Fly me to Porto", bookFirst, tripPlan)
	page := f.open(f.client(), "porto")
	body := text(page.Body)
	assert.Contains(t, body, "Fly me to Porto")
	// Every step: its action, description, arguments, dependencies,
	// precondition and effects.
	assert.Contains(t, body, "2 Book book guarded")
	assert.Contains(t, body, "Book books the cheapest flight found that costs at most MaxPrice")
	assert.Contains(t, body, "requires Searched &amp;&amp; Budget &gt;= 100 effects Booked = true, Budget -= 100")
	assert.Contains(t, body, "After search .")
	assert.Equal(t, "150", page.Form.Get(argField(t, page, "book", "maxPrice")))
	assert.Equal(t, "Ada Lovelace", page.Form.Get(argField(t, page, "book", "passenger")))
	assert.Contains(t, body, "guarded")
	// The verification, and the critique of the reply refused before.
	assert.Contains(t, body, "the plan goes through: every step's precondition holds")
	assert.Contains(t, body, `verification: plan fails verification: step &#34;book&#34; (Book): precondition &#34;Searched &amp;&amp; Budget &gt;= 100&#34; does not hold where Searched = false, Budget = 400`)
	// The graph: a node per step and an edge per dependency.
	assert.Equal(t, 4, strings.Count(page.Body, `<g class="node`))
	assert.Equal(t, 3, strings.Count(page.Body, `<path class="edge`))
	assert.Equal(t, []string{"search", "book", "tell-ada", "tell-bob"}, page.Form.StepOrder())
}

func argField(t *testing.T, page *reviewtest.Page, step, arg string) string {
	t.Helper()
	name, err := page.Form.ArgField(step, arg)
	require.NoError(t, err)
	return name
}

func TestApprove(t *testing.T) {
	f := newFixture(t)
	f.propose("lisbon", "Fly me to Lisbon", tripPlan)
	c := f.client()
	page := f.submit(c, f.open(c, "lisbon").Form, "approve")
	require.Equal(t, http.StatusOK, page.Status, page.Body)
	assert.Equal(t, f.server.URL+"/review/runs/lisbon", page.URL.String(), "a decision redirects to the run")
	assert.Contains(t, text(page.Body), "Approved at ")
	assert.Nil(t, page.Form, "a decided run has no form")

	cp := f.checkpoint("lisbon")
	assert.Equal(t, llm.StatusApproved, cp.Status)
	assert.True(t, cp.Plan.Approved)
	assert.Equal(t, 1, f.decisions())

	list, err := c.Get("")
	require.NoError(t, err)
	assert.NotContains(t, list.Body, "Fly me to Lisbon")

	res, inbox := f.execute("lisbon")
	assert.Equal(t, llm.StatusCompleted, res.Status)
	assert.Equal(t, []string{"search:done", "book:done", "tell-ada:done", "tell-bob:done"}, ran(res))
	assert.Len(t, inbox, 2)
}

func TestReject(t *testing.T) {
	f := newFixture(t)
	f.propose("lisbon", "Fly me to Lisbon", tripPlan)
	c := f.client()
	form := f.open(c, "lisbon").Form

	// A rejection needs a reason.
	page := f.submit(c, form, "reject")
	assert.Equal(t, http.StatusUnprocessableEntity, page.Status)
	assert.Contains(t, text(page.Body), "Say why you reject the plan")
	assert.Equal(t, llm.StatusAwaitingApproval, f.checkpoint("lisbon").Status)

	require.NoError(t, page.Form.Set("reason", "Ada flies on Saturday, not Friday."))
	page = f.submit(c, page.Form, "reject")
	require.Equal(t, http.StatusOK, page.Status, page.Body)
	assert.Contains(t, text(page.Body), "Rejected at ")
	assert.Contains(t, text(page.Body), "Ada flies on Saturday, not Friday.")
	cp := f.checkpoint("lisbon")
	assert.Equal(t, llm.StatusRejected, cp.Status)
	assert.Equal(t, "Ada flies on Saturday, not Friday.", cp.Decided.Decision.Reason)
	_, err := f.planner.Resume(context.Background(), "lisbon", llm.RoleTarget[travel.AgentState](&travel.Agent{Budget: 400}))
	assert.ErrorIs(t, err, llm.ErrRunFinished)
}

func TestRemoveAStep(t *testing.T) {
	f := newFixture(t)
	f.propose("lisbon", "Fly me to Lisbon", tripPlan)
	c := f.client()
	form := f.open(c, "lisbon").Form
	require.NoError(t, form.Remove("tell-bob"))
	page := f.submit(c, form, "approve")
	require.Equal(t, http.StatusOK, page.Status, page.Body)
	assert.Contains(t, text(page.Body), "Approved at ")
	assert.Contains(t, text(page.Body), "1 step removed")
	res, inbox := f.execute("lisbon")
	assert.Equal(t, []string{"search:done", "book:done", "tell-ada:done"}, ran(res))
	assert.Len(t, inbox, 1)
}

func TestReorderSteps(t *testing.T) {
	f := newFixture(t)
	f.propose("lisbon", "Fly me to Lisbon", tripPlan)
	c := f.client()
	form := f.open(c, "lisbon").Form
	require.NoError(t, form.Order("search", "book", "tell-bob", "tell-ada"))
	page := f.submit(c, form, "approve")
	require.Equal(t, http.StatusOK, page.Status, page.Body)
	assert.Contains(t, text(page.Body), "(reordered)")
	res, inbox := f.execute("lisbon")
	assert.Equal(t, []string{"search:done", "book:done", "tell-bob:done", "tell-ada:done"}, ran(res))
	require.Len(t, inbox, 2)
	assert.True(t, strings.HasPrefix(inbox[0], "Bob:"), inbox[0])
}

// Without script, the page's ↑ and ↓ buttons ask the server to move the
// step; nothing is decided.
func TestMoveWithoutScript(t *testing.T) {
	f := newFixture(t)
	f.propose("lisbon", "Fly me to Lisbon", tripPlan)
	c := f.client()
	page := f.open(c, "lisbon")
	require.NoError(t, page.Form.SetArg("tell-bob", "message", "Bob, first."))
	page = f.submit(c, page.Form, "up:3")
	require.Equal(t, http.StatusOK, page.Status, page.Body)
	assert.Equal(t, []string{"search", "book", "tell-bob", "tell-ada"}, page.Form.StepOrder())
	assert.Equal(t, "Bob, first.", page.Form.Get(argField(t, page, "tell-bob", "message")), "edits survive a move")
	assert.Equal(t, llm.StatusAwaitingApproval, f.checkpoint("lisbon").Status)
}

func TestEditAnArgument(t *testing.T) {
	f := newFixture(t)
	f.propose("lisbon", "Fly me to Lisbon", tripPlan)
	c := f.client()
	page := f.open(c, "lisbon")
	require.NoError(t, page.Form.SetArg("book", "maxPrice", "99"))
	require.NoError(t, page.Form.SetArg("search", "cabin", "business"))

	checked := f.submit(c, page.Form, "check")
	require.Equal(t, http.StatusOK, checked.Status, checked.Body)
	assert.Contains(t, text(checked.Body), "The plan as edited passes every check")
	assert.Equal(t, llm.StatusAwaitingApproval, f.checkpoint("lisbon").Status, "a check decides nothing")

	page = f.submit(c, checked.Form, "approve")
	require.Equal(t, http.StatusOK, page.Status, page.Body)
	assert.Contains(t, text(page.Body), "arguments of 2 steps edited")
	cp := f.checkpoint("lisbon")
	book, _ := cp.Plan.Step("book")
	assert.JSONEq(t, `{"passenger":"Ada Lovelace","maxPrice":99}`, string(book.Args))
	search, _ := cp.Plan.Step("search")
	assert.JSONEq(t, `{"from":"ZRH","to":"LIS","date":"2026-12-18","cabin":"business"}`, string(search.Args))
	res, _ := f.execute("lisbon")
	assert.Equal(t, llm.StatusCompleted, res.Status)
	out, ok := res.Output("book")
	require.True(t, ok)
	var booking travel.Booking
	require.NoError(t, json.Unmarshal(out, &booking))
	assert.Equal(t, 95, booking.Price, "the cheaper flight: at most 99 euros")
}

// An argument the action would not take is refused as the model's would
// be, with its JSON Pointer, at its field; nothing is decided or run.
func TestABadEditIsRefusedAtItsPointer(t *testing.T) {
	f := newFixture(t)
	f.propose("lisbon", "Fly me to Lisbon", tripPlan)
	c := f.client()
	for _, bad := range []string{"1.5", "lots", ""} {
		page := f.open(c, "lisbon")
		require.NoError(t, page.Form.SetArg("book", "maxPrice", bad))
		page = f.submit(c, page.Form, "approve")
		require.Equal(t, http.StatusUnprocessableEntity, page.Status, page.Body)
		body := text(page.Body)
		assert.Contains(t, body, "Not approved: the plan as edited does not pass")
		assert.Contains(t, body, "invalid arguments: at &#39;/maxPrice&#39;:", bad)
		field := argField(t, page, "book", "maxPrice")
		assert.Contains(t, page.Body, `id="`+field+`" name="`+field+`" value="`+bad+`" class="json"`, "the edit is kept")
		assert.Contains(t, page.Body, `aria-invalid="true" aria-describedby="`+field+`-e"`)
		assert.Contains(t, page.Body, `<p class="field-error" id="`+field+`-e">invalid arguments: at &#39;/maxPrice&#39;`)
	}
	assert.Equal(t, llm.StatusAwaitingApproval, f.checkpoint("lisbon").Status)
	assert.Nil(t, f.checkpoint("lisbon").Decided)
	assert.Zero(t, f.decisions())
}

// A changed plan is verified again from the state it was made for: the
// failing step is marked with the values of the fields its precondition
// reads.
func TestAnEditThatFailsVerificationIsRefusedAtItsStep(t *testing.T) {
	f := newFixture(t)
	f.propose("lisbon", "Fly me to Lisbon", `{"steps":[`+searchStep+`,{"id":"book","capability":"Book","args":{"passenger":"Ada Lovelace","maxPrice":150},"dependsOn":[]},`+adaStep+`]}`)
	c := f.client()
	form := f.open(c, "lisbon").Form
	require.NoError(t, form.Order("book", "search", "tell-ada"))
	page := f.submit(c, form, "approve")
	require.Equal(t, http.StatusUnprocessableEntity, page.Status, page.Body)
	assert.Contains(t, text(page.Body), "fails verification: precondition Searched &amp;&amp; Budget &gt;= 100 does not hold where Searched = false, Budget = 400")
	assert.Contains(t, page.Body, `<li class="step failing" id="step-1" data-step="book">`)
	assert.Equal(t, llm.StatusAwaitingApproval, f.checkpoint("lisbon").Status)
}

func TestAStaleRevisionIsRefused(t *testing.T) {
	f := newFixture(t)
	f.propose("lisbon", "Fly me to Lisbon", tripPlan)
	c := f.client()
	form := f.open(c, "lisbon").Form
	// Meanwhile the run was proposed again, with another plan.
	f.propose("lisbon", "Fly me to Lisbon", `{"steps":[`+searchStep+`,`+bookStep+`,`+adaStep+`]}`)

	page := f.submit(c, form, "approve")
	assert.Equal(t, http.StatusConflict, page.Status)
	assert.Contains(t, text(page.Body), "The plan changed since you looked: nothing was decided")
	assert.Equal(t, []string{"search", "book", "tell-ada"}, page.Form.StepOrder(), "the page shows the plan awaiting approval now")
	assert.Equal(t, llm.StatusAwaitingApproval, f.checkpoint("lisbon").Status)
	assert.Zero(t, f.decisions())

	// On the new page, the decision goes through.
	page = f.submit(c, page.Form, "approve")
	require.Equal(t, http.StatusOK, page.Status, page.Body)
	assert.Equal(t, llm.StatusApproved, f.checkpoint("lisbon").Status)
}

func TestCSRFRefusals(t *testing.T) {
	f := newFixture(t)
	f.propose("lisbon", "Fly me to Lisbon", tripPlan)
	c := f.client()
	form := f.open(c, "lisbon").Form
	values := form.Values()
	values.Set("do", "approve")
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	post := func(v url.Values, header map[string]string, withCookie bool) *http.Response {
		req, err := http.NewRequest(http.MethodPost, f.server.URL+"/review/runs/lisbon", strings.NewReader(v.Encode()))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for k, val := range header {
			req.Header.Set(k, val)
		}
		if withCookie {
			u, _ := url.Parse(f.server.URL)
			for _, ck := range reviewCookies(t, c, u) {
				req.AddCookie(ck)
			}
		}
		resp, err := noRedirect.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp
	}
	// No cookie: a token of another session.
	assert.Equal(t, http.StatusForbidden, post(values, nil, false).StatusCode)
	// The session's cookie but no token.
	noToken := url.Values{}
	for k, v := range values {
		if k != "csrf" {
			noToken[k] = v
		}
	}
	assert.Equal(t, http.StatusForbidden, post(noToken, nil, true).StatusCode)
	// A wrong token.
	wrong := url.Values{}
	for k, v := range values {
		wrong[k] = v
	}
	token := values.Get("csrf")
	first := "x"
	if token[0] == 'x' {
		first = "y" // a wrong token must differ from the right one
	}
	wrong.Set("csrf", first+token[1:])
	assert.Equal(t, http.StatusForbidden, post(wrong, nil, true).StatusCode)
	// A form sent from another site, token and all.
	assert.Equal(t, http.StatusForbidden, post(values, map[string]string{"Sec-Fetch-Site": "cross-site"}, true).StatusCode)
	assert.Equal(t, http.StatusForbidden, post(values, map[string]string{"Origin": "https://attacker.example"}, true).StatusCode)

	assert.Equal(t, llm.StatusAwaitingApproval, f.checkpoint("lisbon").Status)
	assert.Zero(t, f.decisions())
	// The same form, from the page, goes through.
	assert.Equal(t, http.StatusSeeOther, post(values, map[string]string{"Sec-Fetch-Site": "same-origin"}, true).StatusCode)
}

// reviewCookies returns the cookies the client holds for u.
func reviewCookies(t *testing.T, c *reviewtest.Client, u *url.URL) []*http.Cookie {
	t.Helper()
	cks := c.Cookies(u)
	require.NotEmpty(t, cks)
	return cks
}

func TestWithoutAnAuthorisationFunctionOnlyLoopbackClients(t *testing.T) {
	f := newFixture(t)
	f.propose("lisbon", "Fly me to Lisbon", tripPlan)
	h := review.New(f.planner, review.StoreRuns(f.planner))
	for _, tc := range []struct {
		remote, host string
		code         int
	}{
		{"127.0.0.1:5000", "127.0.0.1:8080", http.StatusOK},
		{"[::1]:5000", "[::1]:8080", http.StatusOK},
		{"127.0.0.1:5000", "localhost:8080", http.StatusOK},
		{"192.0.2.7:5000", "192.0.2.1:8080", http.StatusForbidden},
		// DNS rebinding: another site's name that resolves to loopback.
		{"127.0.0.1:5000", "attacker.example:8080", http.StatusForbidden},
	} {
		req := httptest.NewRequest(http.MethodGet, "/runs/lisbon", nil)
		req.RemoteAddr, req.Host = tc.remote, tc.host
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		assert.Equal(t, tc.code, rec.Code, "%s for %s", tc.remote, tc.host)
		if tc.code == http.StatusForbidden {
			assert.NotContains(t, rec.Body.String(), "Fly me to Lisbon")
			assert.Contains(t, rec.Body.String(), "answers only loopback clients")
		}
	}
}

func TestAnAuthorisationFunction(t *testing.T) {
	f := newFixture(t, review.WithAuthorize(func(r *http.Request) (string, error) {
		user, _, ok := r.BasicAuth()
		if !ok || user == "mallory" {
			return "", errors.New("who are you?")
		}
		return user, nil
	}))
	f.propose("lisbon", "Fly me to Lisbon", tripPlan)
	get := func(user string) *http.Response {
		req, err := http.NewRequest(http.MethodGet, f.server.URL+"/review/runs/lisbon", nil)
		require.NoError(t, err)
		if user != "" {
			req.SetBasicAuth(user, "pw")
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp
	}
	assert.Equal(t, http.StatusForbidden, get("").StatusCode)
	assert.Equal(t, http.StatusForbidden, get("mallory").StatusCode)
	assert.Equal(t, http.StatusOK, get("ada").StatusCode)

	// The reviewer is recorded with the decision.
	c := f.client()
	c.SetBasicAuth("ada", "pw")
	page := f.submit(c, f.open(c, "lisbon").Form, "approve")
	require.Equal(t, http.StatusOK, page.Status, page.Body)
	assert.Contains(t, text(page.Body), "Approved by ada at ")
	assert.Equal(t, "ada", f.checkpoint("lisbon").Decided.Decision.By)
}

// What the model wrote reaches the page as text: its goal, step ids,
// arguments and critiques, and the role's own doc comments.
func TestEverythingTheModelWroteIsEscaped(t *testing.T) {
	store := llm.NewMemoryStore()
	script := `<script>alert("x")</script>`
	p := llm.NewPlanner(scribe.ScribeDomain, llm.ScriptedReplies(
		`{"steps":[{"id":"</textarea><script>alert(1)</script>","capability":"Write","args":{"text":"</textarea><img src=x onerror=alert(1)>"},"dependsOn":[]}]}`,
	), llm.WithStore(store))
	_, err := p.Propose(context.Background(), "Write "+script, scribe.ScribeState{}, llm.WithRunID("notes"))
	require.NoError(t, err)
	srv := httptest.NewServer(review.New(p, review.StoreRuns(p)))
	defer srv.Close()
	c, err := reviewtest.NewClient(srv.URL + "/")
	require.NoError(t, err)
	for _, path := range []string{"", "runs/notes"} {
		page, err := c.Get(path)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, page.Status)
		assert.NotContains(t, page.Body, "<script>alert", path)
		assert.NotContains(t, page.Body, "<img src=x", path)
		assert.NotContains(t, page.Body, "</textarea><", path)
		assert.Contains(t, page.Body, "Write &lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;", path)
	}
	page, err := c.Get("runs/notes")
	require.NoError(t, err)
	assert.Contains(t, page.Body, `Write writes a note. &lt;script&gt;alert(&#34;doc&#34;)&lt;/script&gt; &lt;b&gt;bold&lt;/b&gt;`)
	assert.Contains(t, page.Body, `value="&lt;/textarea&gt;&lt;img src=x onerror=alert(1)&gt;"`)
	// The page loads nothing from elsewhere, and says so to the browser.
	resp, err := http.Get(srv.URL + "/runs/notes")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Contains(t, resp.Header.Get("Content-Security-Policy"), "default-src 'none'; script-src 'self'")
	assert.NotRegexp(t, `(src|href)="(https?:)?//`, page.Body)
}

// Two reviewers deciding one run at once: one decision is recorded, and
// the other reviewer is shown it.
func TestTwoDecisionsAtOnce(t *testing.T) {
	f := newFixture(t)
	f.propose("lisbon", "Fly me to Lisbon", tripPlan)
	const n = 6
	type reviewer struct {
		c    *reviewtest.Client
		form *reviewtest.Form
		do   string
	}
	rs := make([]reviewer, n)
	for i := range rs {
		c := f.client()
		rs[i] = reviewer{c: c, form: f.open(c, "lisbon").Form, do: "approve"}
		if i%2 == 1 {
			require.NoError(t, rs[i].form.Set("reason", "no"))
			rs[i].do = "reject"
		}
	}
	pages := make([]*reviewtest.Page, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range rs {
		wg.Go(func() {
			<-start
			page, err := rs[i].c.Submit(rs[i].form, rs[i].do)
			assert.NoError(t, err)
			pages[i] = page
		})
	}
	close(start)
	wg.Wait()
	won := 0
	cp := f.checkpoint("lisbon")
	require.NotNil(t, cp.Decided)
	decided := "Approved"
	if cp.Decided.Decision.Reject {
		decided = "Rejected"
	}
	for _, page := range pages {
		require.NotNil(t, page)
		switch page.Status {
		case http.StatusOK:
			won++
		case http.StatusConflict:
			body := text(page.Body)
			assert.Contains(t, body, "Another decision about this run came first; yours was not recorded. "+decided+" at ")
		default:
			t.Errorf("status %d: %s", page.Status, page.Body)
		}
	}
	assert.Equal(t, 1, won)
	assert.Equal(t, 1, f.decisions())
}

func TestMountedUnderAPrefix(t *testing.T) {
	f := newFixture(t)
	f.propose("lisbon", "Fly me to Lisbon", tripPlan)
	// Without a mux to add the slash, the handler adds it itself: its
	// links are relative.
	h := http.StripPrefix("/review", review.New(f.planner, review.StoreRuns(f.planner)))
	req := httptest.NewRequest(http.MethodGet, "/review", nil)
	req.RemoteAddr, req.Host = "127.0.0.1:5000", "localhost"
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	assert.Equal(t, http.StatusMovedPermanently, rec.Code)
	assert.Equal(t, "/review/", rec.Header().Get("Location"))
	for _, asset := range []string{"/review/static/review.css", "/review/static/review.js"} {
		resp, err := http.Get(f.server.URL + asset)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode, asset)
	}
	page := f.open(f.client(), "lisbon")
	assert.Contains(t, page.Body, `href="../static/review.css"`)
	assert.Contains(t, page.Links, f.server.URL+"/review/")
}

func TestUnknownRun(t *testing.T) {
	f := newFixture(t)
	page, err := f.client().Get("runs/nowhere")
	require.NoError(t, err)
	assert.Equal(t, http.StatusNotFound, page.Status)
	assert.Contains(t, text(page.Body), "There is no run")
}

// A step rolegen inserted (plan repair) is marked on the list, on the
// step, and in the graph, with what it was inserted for.
func TestInsertedStepsAreMarked(t *testing.T) {
	f := newFixture(t)
	f.propose("lisbon", "Fly me to Lisbon", tripPlan)
	// The model wrote book without search; repair inserted search.
	cp := f.checkpoint("lisbon")
	cp.Plan.Steps[0].Inserted = &llm.Insertion{For: "book", Precondition: "Searched && Budget >= 100"}
	require.NoError(t, f.store.Save(context.Background(), cp))

	c := f.client()
	list, err := c.Get("")
	require.NoError(t, err)
	assert.Contains(t, text(list.Body), "1 step inserted by rolegen")
	page := f.open(c, "lisbon")
	body := text(page.Body)
	assert.Contains(t, body, "rolegen inserted 1 step the model did not write")
	assert.Contains(t, body, "1 Search search inserted by rolegen")
	assert.Contains(t, body, "Inserted before step &#34;book&#34; (Searched &amp;&amp; Budget &gt;= 100).")
	assert.Contains(t, page.Body, `<li class="step inserted" id="step-0" data-step="search">`)
	assert.Contains(t, page.Body, `<g class="node inserted">`)
	assert.Equal(t, 1, strings.Count(page.Body, `class="node inserted"`))

	// The mark is part of the plan a decision names: approving keeps it.
	page = f.submit(c, page.Form, "approve")
	require.Equal(t, http.StatusOK, page.Status, page.Body)
	search, _ := f.checkpoint("lisbon").Plan.Step("search")
	assert.NotNil(t, search.Inserted)
}
