package review

import (
	"context"
	"crypto/rand"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rolegen/rolegen/llm"
)

//go:embed templates static
var assets embed.FS

// Handler is the review page. It is safe for concurrent use.
type Handler struct {
	dom       *domain
	runs      Runs
	authorize func(*http.Request) (string, error)
	onDecided func(context.Context, *Run)
	csrf      csrf
	origin    *http.CrossOriginProtection
	pages     *template.Template
	static    http.Handler
	mux       *http.ServeMux
	// settle bounds how long a refused decision waits for the decision
	// that won to be recorded, so that the page can show it.
	settle time.Duration
}

// Option configures a Handler.
type Option func(*Handler)

// WithAuthorize sets the function that says who may see and decide: it
// returns the reviewer's name (recorded with each decision as
// llm.Decision.By), or an error, and the request is refused with 403
// Forbidden. Without it the handler answers only requests from loopback
// addresses naming a loopback host (localhost, 127.0.0.1, [::1]), so
// that a page served on a shared machine or reached through DNS
// rebinding shows nothing. Behind a reverse proxy on the same machine
// every request comes from loopback: give an authorisation function.
func WithAuthorize(f func(r *http.Request) (reviewer string, err error)) Option {
	return func(h *Handler) { h.authorize = f }
}

// WithOnDecision calls f after each decision the page recorded, with the
// run as it stands then (StoreRuns: status llm.StatusApproved or
// llm.StatusRejected). With StoreRuns, start the approved run there
// (Planner.Resume) in a goroutine of your own: f is called before the
// reviewer's request returns.
func WithOnDecision(f func(ctx context.Context, run *Run)) Option {
	return func(h *Handler) { h.onDecided = f }
}

// WithCSRFKey sets the key the forms' tokens are signed with (default: a
// random key per Handler). Give every replica behind a load balancer the
// same key, of at least 32 random bytes.
func WithCSRFKey(key []byte) Option {
	return func(h *Handler) { h.csrf.key = slices.Clone(key) }
}

// New returns the review page of the runs of planner's domain that runs
// serves. Mount it where you like, as net/http/pprof is:
//
//	mux.Handle("/review/", http.StripPrefix("/review", review.New(planner, review.StoreRuns(planner))))
//
// Its links are relative, so that it works under any prefix.
func New[S comparable](planner *llm.Planner[S], runs Runs, opts ...Option) *Handler {
	h := &Handler{dom: domainOf(planner), runs: runs, origin: http.NewCrossOriginProtection(), settle: 3 * time.Second}
	for _, o := range opts {
		o(h)
	}
	if len(h.csrf.key) == 0 {
		h.csrf.key = make([]byte, 32)
		_, _ = rand.Read(h.csrf.key)
	}
	h.pages = template.Must(template.New("").Funcs(template.FuncMap{
		"pathEscape": url.PathEscape,
		"status":     statusText,
		"when":       when,
		"plural":     plural,
		"join":       strings.Join,
		"has":        slices.Contains[[]string],
	}).ParseFS(assets, "templates/*.html"))
	static, _ := fs.Sub(assets, "static")
	h.static = http.StripPrefix("/static/", http.FileServerFS(static))
	h.mux = http.NewServeMux()
	h.mux.HandleFunc("GET /{$}", h.list)
	h.mux.HandleFunc("GET /runs/{id}", h.showRun)
	h.mux.HandleFunc("POST /runs/{id}", h.postRun)
	h.mux.HandleFunc("GET /static/", h.serveStatic)
	return h
}

// ServeHTTP serves the pages: / lists the runs awaiting approval,
// /runs/ID shows one and takes its decision.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	secureHeaders(w.Header())
	reviewer, err := h.allowed(r)
	if err != nil {
		h.fail(w, r, http.StatusForbidden, err.Error())
		return
	}
	if r.URL.Path == "" {
		// Mounted with StripPrefix("/review") and asked for "/review":
		// the relative links need the slash.
		w.Header().Set("Location", strings.TrimSuffix(strings.SplitN(r.RequestURI, "?", 2)[0], "/")+"/")
		w.WriteHeader(http.StatusMovedPermanently)
		return
	}
	h.mux.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), reviewerKey{}, reviewer)))
}

type reviewerKey struct{}

func reviewerOf(r *http.Request) string {
	s, _ := r.Context().Value(reviewerKey{}).(string)
	return s
}

// secureHeaders keeps the page to itself: no script, style or image
// from elsewhere, no framing, no sniffing, nothing cached.
func secureHeaders(h http.Header) {
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
}

// errLoopbackOnly refuses a client when no authorisation function is set.
var errLoopbackOnly = errors.New("this review page answers only loopback clients (localhost); give it an authorisation function (review.WithAuthorize) to serve others")

// allowed says who the reviewer is, or why the request is refused.
func (h *Handler) allowed(r *http.Request) (string, error) {
	if h.authorize != nil {
		who, err := h.authorize(r)
		if err != nil {
			return "", fmt.Errorf("not authorised: %w", err)
		}
		return who, nil
	}
	if !loopbackClient(r.RemoteAddr) || !loopbackHost(r.Host) {
		return "", errLoopbackOnly
	}
	return "", nil
}

func loopbackClient(remote string) bool {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// loopbackHost says whether the Host header names this machine's
// loopback: a page reached under another name (DNS rebinding: an
// attacker's name resolved to 127.0.0.1) is refused.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

func (h *Handler) serveStatic(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-cache")
	h.static.ServeHTTP(w, r)
}

// list shows the runs awaiting approval, the longest waiting first.
func (h *Handler) list(w http.ResponseWriter, r *http.Request) {
	ids, err := h.runs.Awaiting(r.Context())
	if err != nil {
		h.fail(w, r, http.StatusInternalServerError, "listing the runs awaiting approval: "+err.Error())
		return
	}
	page := &listPage{frame: frame{Title: "Plans awaiting approval"}}
	for _, id := range ids {
		run, err := h.runs.Run(r.Context(), id)
		if errors.Is(err, ErrUnknownRun) {
			continue
		}
		if err != nil {
			page.Errors = append(page.Errors, err.Error())
			continue
		}
		if run.Status != llm.StatusAwaitingApproval || run.Plan == nil {
			continue // decided since it was listed
		}
		page.Runs = append(page.Runs, listEntry{
			ID: run.ID, Goal: run.Goal, Steps: len(run.Plan.Steps), Inserted: len(run.Plan.Inserted()),
			Verified: run.Plan.Verified, Critique: run.Plan.Critique, Revision: run.Plan.Revision, Since: run.Since,
		})
	}
	slices.SortStableFunc(page.Runs, func(a, b listEntry) int { return a.Since.Compare(b.Since) })
	h.render(w, r, http.StatusOK, "list.html", page)
}

// showRun shows a run: while it awaits approval, with the form of its
// decision.
func (h *Handler) showRun(w http.ResponseWriter, r *http.Request) {
	run, ok := h.loadRun(w, r)
	if !ok {
		return
	}
	h.renderRun(w, r, http.StatusOK, buildRunPage(h.dom, run, nil, nil))
}

func (h *Handler) loadRun(w http.ResponseWriter, r *http.Request) (*Run, bool) {
	run, err := h.runs.Run(r.Context(), r.PathValue("id"))
	switch {
	case errors.Is(err, ErrUnknownRun):
		h.fail(w, r, http.StatusNotFound, "There is no run "+strconv.Quote(r.PathValue("id"))+".")
		return nil, false
	case err != nil:
		h.fail(w, r, http.StatusInternalServerError, err.Error())
		return nil, false
	}
	return run, true
}

// postRun takes the form of a run's page: a move of a step (without
// script), a check of the edits, an approval or a rejection.
func (h *Handler) postRun(w http.ResponseWriter, r *http.Request) {
	if err := h.origin.Check(r); err != nil {
		h.fail(w, r, http.StatusForbidden, "refused: the form was not sent from this page ("+err.Error()+")")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
	if err := r.ParseForm(); err != nil {
		h.fail(w, r, http.StatusBadRequest, "unreadable form: "+err.Error())
		return
	}
	if !h.csrf.valid(r, reviewerOf(r), r.PostForm.Get("csrf")) {
		h.fail(w, r, http.StatusForbidden, "refused: the form's token is missing or wrong (CSRF); reload the page and decide again")
		return
	}
	run, ok := h.loadRun(w, r)
	if !ok {
		return
	}
	if run.Status != llm.StatusAwaitingApproval || run.Plan == nil {
		h.refusedAsDecided(w, r, run)
		return
	}
	if r.PostForm.Get("digest") != run.Plan.Digest() {
		h.changed(w, r, run)
		return
	}
	plan := run.Plan
	specs := make([]argSpec, len(plan.Steps))
	for i, st := range plan.Steps {
		specs[i] = specOf(st, h.dom.actions[st.Capability])
	}
	f, err := parseForm(r.PostForm, specs)
	if err != nil {
		h.fail(w, r, http.StatusBadRequest, err.Error())
		return
	}
	do := r.PostForm.Get("do")
	if dir, idx, ok := parseMove(do); ok {
		f.move(idx, dir)
		h.renderRun(w, r, http.StatusOK, buildRunPage(h.dom, run, f, nil))
		return
	}
	dec := f.decision(plan, specs)
	dec.By = reviewerOf(r)
	switch do {
	case "check":
		h.check(w, r, run, f, dec)
	case "approve":
		h.approve(w, r, run, f, dec)
	case "reject":
		if f.reason == "" {
			page := buildRunPage(h.dom, run, f, nil)
			page.ReasonError = "Say why you reject the plan: the reason is recorded with the decision."
			h.renderRun(w, r, http.StatusUnprocessableEntity, page)
			return
		}
		h.decide(w, r, run, f, llm.Decision{Reject: true, Reason: f.reason, PlanDigest: dec.PlanDigest, By: dec.By})
	default:
		h.fail(w, r, http.StatusBadRequest, "unknown action "+strconv.Quote(do))
	}
}

// parseMove reads "up:I" and "down:I".
func parseMove(do string) (dir, idx int, ok bool) {
	verb, n, found := strings.Cut(do, ":")
	if !found {
		return 0, 0, false
	}
	i, err := strconv.Atoi(n)
	if err != nil {
		return 0, 0, false
	}
	switch verb {
	case "up":
		return -1, i, true
	case "down":
		return 1, i, true
	}
	return 0, 0, false
}

// check holds the form's decision to the planner's checks and shows the
// outcome, deciding nothing.
func (h *Handler) check(w http.ResponseWriter, r *http.Request, run *Run, f *form, dec llm.Decision) {
	checked, err := h.dom.check(run.Plan, dec, run.State)
	page := buildRunPage(h.dom, run, f, err)
	switch {
	case page.hasProblems():
		page.Banner = &banner{Kind: "error", Text: "The plan as edited does not pass: see the marks below. Nothing was decided."}
		h.renderRun(w, r, http.StatusUnprocessableEntity, page)
		return
	case !changes(dec):
		page.Banner = &banner{Kind: "info", Text: "Nothing changed: this is the plan as proposed."}
	case checked != nil && !checked.Verified && checked.Critique != "":
		page.Banner = &banner{Kind: "info", Text: "The edits are valid, but the plan fails verification: " + strings.TrimPrefix(checked.Critique, "llm: ")}
	default:
		page.Banner = &banner{Kind: "ok", Text: "The plan as edited passes every check. Nothing was decided yet."}
	}
	h.renderRun(w, r, http.StatusOK, page)
}

// approve checks the form's decision, and records it when it passes.
func (h *Handler) approve(w http.ResponseWriter, r *http.Request, run *Run, f *form, dec llm.Decision) {
	if _, err := h.dom.check(run.Plan, dec, run.State); err != nil {
		page := buildRunPage(h.dom, run, f, err)
		page.Banner = &banner{Kind: "error", Text: "Not approved: the plan as edited does not pass (see the marks below). Nothing was decided and nothing ran."}
		h.renderRun(w, r, http.StatusUnprocessableEntity, page)
		return
	}
	h.decide(w, r, run, f, dec)
}

// decide records dec and shows the run as it stands then, or why the
// decision was refused.
func (h *Handler) decide(w http.ResponseWriter, r *http.Request, run *Run, f *form, dec llm.Decision) {
	err := h.runs.Decide(r.Context(), run.ID, dec)
	switch {
	case err == nil:
		if h.onDecided != nil {
			if now, err := h.runs.Run(r.Context(), run.ID); err == nil {
				h.onDecided(r.Context(), now)
			}
		}
		// A relative Location, resolved by the browser against the page's
		// own URL (http.Redirect would resolve it against the path left
		// by StripPrefix).
		w.Header().Set("Location", url.PathEscape(run.ID))
		w.WriteHeader(http.StatusSeeOther)
	case errors.Is(err, llm.ErrPlanChanged):
		h.changed(w, r, run)
	case errors.Is(err, llm.ErrNotAwaiting), errors.Is(err, llm.ErrRunInProgress):
		h.refusedAsDecided(w, r, run)
	case errors.Is(err, llm.ErrInvalidPlan), errors.Is(err, llm.ErrUnverified), errors.Is(err, llm.ErrInvalidDecision):
		page := buildRunPage(h.dom, run, f, err)
		page.Banner = &banner{Kind: "error", Text: "Not approved: the plan as edited does not pass. Nothing was decided and nothing ran."}
		h.renderRun(w, r, http.StatusUnprocessableEntity, page)
	default:
		page := buildRunPage(h.dom, run, f, nil)
		page.Banner = &banner{Kind: "error", Text: "The decision could not be recorded: " + err.Error()}
		h.renderRun(w, r, http.StatusBadGateway, page)
	}
}

// changed shows the plan awaiting approval now, in place of the one the
// reviewer decided on.
func (h *Handler) changed(w http.ResponseWriter, r *http.Request, old *Run) {
	run, err := h.runs.Run(r.Context(), old.ID)
	if err != nil {
		run = old
	}
	page := buildRunPage(h.dom, run, nil, nil)
	if page.Awaiting {
		page.Banner = &banner{Kind: "error", Text: "The plan changed since you looked: nothing was decided. This is the plan awaiting approval now."}
	} else {
		page.Banner = &banner{Kind: "error", Text: "The plan changed since you looked: nothing was decided. " + page.Decided}
	}
	h.renderRun(w, r, http.StatusConflict, page)
}

// refusedAsDecided shows the decision another reviewer made first,
// waiting a little for it to be recorded.
func (h *Handler) refusedAsDecided(w http.ResponseWriter, r *http.Request, old *Run) {
	run := old
	deadline := time.Now().Add(h.settle)
	for run.Status == llm.StatusAwaitingApproval && time.Now().Before(deadline) {
		select {
		case <-r.Context().Done():
			return
		case <-time.After(20 * time.Millisecond):
		}
		now, err := h.runs.Run(r.Context(), old.ID)
		if err != nil {
			break
		}
		run = now
	}
	page := buildRunPage(h.dom, run, nil, nil)
	text := "Another decision about this run came first; yours was not recorded."
	if page.Decided != "" {
		text += " " + page.Decided + "."
	} else if run.Status == llm.StatusAwaitingApproval {
		text = "Another reviewer is deciding this run right now; yours was not recorded. Reload in a moment."
	}
	page.Banner = &banner{Kind: "error", Text: text}
	h.renderRun(w, r, http.StatusConflict, page)
}

func (h *Handler) renderRun(w http.ResponseWriter, r *http.Request, code int, page *runPage) {
	if page.Awaiting {
		page.CSRF = h.csrf.token(w, r, reviewerOf(r))
	}
	h.render(w, r, code, "run.html", page)
}

// errorPage is a page that says only what went wrong.
type errorPage struct {
	frame
	Text string
}

func (h *Handler) fail(w http.ResponseWriter, r *http.Request, code int, text string) {
	h.render(w, r, code, "error.html", &errorPage{frame: frame{Title: http.StatusText(code)}, Text: text})
}

// page is any page's data.
type page interface{ setFrame(base, reviewer string) }

func (h *Handler) render(w http.ResponseWriter, r *http.Request, code int, name string, data page) {
	data.setFrame(baseOf(r.URL.Path), reviewerOf(r))
	var b strings.Builder
	if err := h.pages.ExecuteTemplate(&b, name, data); err != nil {
		http.Error(w, "review: rendering the page: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	_, _ = w.Write([]byte(b.String()))
}

// baseOf is the relative path from a page to the handler's root:
// "./" from "/", "../" from "/runs/ID".
func baseOf(path string) string {
	depth := strings.Count(strings.TrimPrefix(path, "/"), "/")
	if depth == 0 {
		return "./"
	}
	return strings.Repeat("../", depth)
}

// when renders a time for the page, in UTC.
func when(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}
