package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/rolegen/rolegen/examples/assistant/travel"
	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/llm/review"
)

// runReviewed plans goal with model m and puts the plan to a person on a
// review page served at addr (package llm/review): it proposes the plan
// (plan-only mode, checkpointed in a file store), serves the page, waits
// for the decision taken there, and runs the plan as approved, or stops
// when it was rejected. ready, when set, is told the page's address once
// it serves.
func runReviewed(ctx context.Context, w io.Writer, m llm.Model, goal, addr string, ready func(url string), opts ...llm.Option) error {
	dir, err := os.MkdirTemp("", "rolegen-assistant-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	store, err := llm.NewFileStore(dir)
	if err != nil {
		return err
	}
	step := func(_ context.Context, rec llm.StepRecord) llm.Directive {
		line := fmt.Sprintf("step %s %s: %s", rec.Step.ID, rec.Step.Capability, rec.Status)
		switch {
		case rec.Error != "":
			line += " " + rec.Error
		case len(rec.Output) > 0:
			line += " " + string(rec.Output)
		}
		fmt.Fprintln(w, line)
		return llm.Continue()
	}
	planner := llm.NewPlanner(travel.AgentDomain, m, append([]llm.Option{
		llm.WithMaxSteps(6),
		llm.WithRequireVerified(2),
		llm.WithGoals(travel.AgentGoalTrip),
		searchRoute,
		llm.WithStore(store),
		llm.WithOnStep(step),
	}, opts...)...)
	agent := &travel.Agent{Budget: 400}
	runID := "trip-" + strconv.FormatInt(time.Now().Unix(), 10)
	res, err := planner.Propose(ctx, goal, agent.PlanState(), llm.WithRunID(runID))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "proposed in %s:\n", plural(len(res.Calls), "model call"))
	printPlan(w, res.Plan)

	decided := make(chan *review.Run, 1)
	page := review.New(planner, review.StoreRuns(planner), review.WithOnDecision(func(_ context.Context, run *review.Run) {
		select {
		case decided <- run:
		default:
		}
	}))
	mux := http.NewServeMux()
	mux.Handle("/review/", http.StripPrefix("/review", page))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	defer srv.Close()
	url := fmt.Sprintf("http://localhost:%d/review/runs/%s", ln.Addr().(*net.TCPAddr).Port, runID)
	fmt.Fprintf(w, "decide on the page: %s\n(it answers this machine only; Ctrl-C stops waiting)\n", url)
	if ready != nil {
		ready(url)
	}

	var run *review.Run
	select {
	case run = <-decided:
	case err := <-served:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
	if run.Status == llm.StatusRejected {
		fmt.Fprintf(w, "rejected: %s\n", run.Decided.Decision.Reason)
		return nil
	}
	fmt.Fprintln(w, "approved on the page; running")
	res, err = planner.Resume(ctx, runID, llm.RoleTarget[travel.AgentState](agent))
	fmt.Fprintf(w, "status: %s\n", res.Status)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "state: %+v\n", agent.PlanState())
	fmt.Fprintf(w, "inbox: %q\n", agent.Inbox())
	if err := srv.Shutdown(context.WithoutCancel(ctx)); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
