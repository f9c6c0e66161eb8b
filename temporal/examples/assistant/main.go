// Assistant runs the travel assistant (rolegen's examples/assistant) on
// Temporal: the model's plan is made in an activity, checked in the
// workflow, waits for a person's approval (an update; here a rule sends
// it), and each step runs as an activity calling the role's generated
// PerformJSON on a worker.
//
// From the adapter module's directory:
//
//	go run ./examples/assistant
//
// starts a Temporal dev server of its own (built on first use: minutes on
// a cold cache), a worker, and the run. With -address it uses your
// cluster instead (temporal server start-dev listens on localhost:7233):
//
//	go run ./examples/assistant -address localhost:7233
//
// The model is scripted (offline) unless -base-url names an
// OpenAI-compatible server.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os"
	"strings"
	"time"

	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"

	"github.com/rolegen/rolegen/examples/assistant/travel"
	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/llm/openai"
	"github.com/rolegen/rolegen/temporal"
	"github.com/rolegen/rolegen/temporal/internal/testserver"
)

func main() {
	address := flag.String("address", "", "Temporal frontend host:port (default: start a dev server)")
	baseURL := flag.String("base-url", "", "OpenAI-compatible server (default: a scripted model, offline)")
	modelName := flag.String("model", "gpt-4o-mini", "model name on the server")
	flag.Parse()
	log.SetFlags(0)

	ctx := context.Background()
	if *address == "" {
		fmt.Println("starting a Temporal dev server (the first time builds it: minutes)")
		srv, err := testserver.Start(ctx)
		if err != nil {
			log.Fatal(err)
		}
		defer srv.Stop()
		*address = srv.Address
	}
	m := scriptedModel()
	if *baseURL != "" {
		m = openai.New(*modelName, openai.WithBaseURL(*baseURL))
	}
	if err := run(ctx, os.Stdout, *address, m); err != nil {
		log.Fatal(err)
	}
}

// run starts a worker and one run of the assistant on the server at
// address, approves its plan as a person would, and tells what happens.
func run(ctx context.Context, w io.Writer, address string, m llm.Model) error {
	c, err := client.Dial(client.Options{HostPort: address, Logger: sdklog.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))})
	if err != nil {
		return err
	}
	defer c.Close()

	planner := llm.NewPlanner(travel.AgentDomain, m,
		llm.WithMaxSteps(6),
		llm.WithRequireVerified(2),
		llm.WithGoals(travel.AgentGoalTrip),
		llm.WithTemperature(0),
	)
	plans := temporal.New(planner,
		// Each step gets an agent of its own: what a step needs of an
		// earlier one comes in the steps' outputs (llm.StepInputs).
		temporal.WithPerformer(func(context.Context, string) (llm.Performer, error) {
			return &travel.Agent{Budget: 400}, nil
		}),
		temporal.WithApproval(temporal.Approval{Required: true, Timeout: time.Hour}),
	)
	const queue = "travel"
	wk := worker.New(c, queue, worker.Options{})
	plans.Register(wk)
	if err := wk.Start(); err != nil {
		return err
	}
	defer wk.Stop()

	goal := "Fly me from Zurich to Lisbon on 2026-12-18, economy, for at most 150 euros, and tell me the booking."
	id := fmt.Sprintf("travel-%d", time.Now().UnixNano())
	start := (&travel.Agent{Budget: 400}).PlanState()
	if _, err := plans.Start(ctx, c, queue, goal, start, temporal.StartOptions{ID: id}); err != nil {
		return err
	}
	fmt.Fprintf(w, "run %s started\n", id)

	// A person looks at the plan awaiting approval and decides; a rule
	// stands in for them here.
	var plan *llm.Plan
	for plan == nil {
		if plan, err = plans.Awaiting(ctx, c, id); err != nil {
			return err
		}
		if plan == nil {
			time.Sleep(100 * time.Millisecond)
		}
	}
	fmt.Fprintln(w, "awaiting approval:")
	for _, s := range plan.Steps {
		fmt.Fprintf(w, "  %s %s %s\n", s.ID, s.Capability, s.Args)
	}
	decision := llm.Approve()
	for _, s := range plan.Steps {
		if s.Capability == "Book" && !strings.Contains(string(s.Args), `"maxPrice":150`) {
			decision = llm.Reject("the traveller said at most 150 euros")
		}
	}
	if err := plans.Approve(ctx, c, id, decision); err != nil {
		return err
	}
	fmt.Fprintln(w, "approved")

	res, err := plans.Result(ctx, c, id)
	if res != nil {
		for _, rec := range res.Steps {
			line := fmt.Sprintf("step %s %s: %s", rec.Step.ID, rec.Step.Capability, rec.Status)
			switch {
			case rec.Error != "":
				line += " " + rec.Error
			case len(rec.Output) > 0:
				line += " " + string(rec.Output)
			}
			fmt.Fprintln(w, line)
		}
		fmt.Fprintf(w, "status: %s after %d replans; %d tokens in %d calls\n", res.Status, res.Replans, res.Usage.TotalTokens, len(res.Calls))
	}
	return err
}

// scriptedModel answers as a model might: first a plan that books before
// it has searched, which verification refuses; then, given the critique,
// a plan that works.
func scriptedModel() llm.Model {
	wrong := `{"steps":[
		{"id":"book","capability":"Book","args":{"passenger":"Ada Lovelace","maxPrice":150},"dependsOn":[]},
		{"id":"search","capability":"Search","args":{"from":"ZRH","to":"LIS","date":"2026-12-18","cabin":"economy"},"dependsOn":[]},
		{"id":"tell","capability":"Notify","args":{"message":"Your flight to Lisbon is booked."},"dependsOn":["book"]}]}`
	right := `{"steps":[
		{"id":"search","capability":"Search","args":{"from":"ZRH","to":"LIS","date":"2026-12-18","cabin":"economy"},"dependsOn":[]},
		{"id":"book","capability":"Book","args":{"passenger":"Ada Lovelace","maxPrice":150},"dependsOn":["search"]},
		{"id":"tell","capability":"Notify","args":{"message":"Your flight to Lisbon is booked."},"dependsOn":["book"]}]}`
	return llm.NewScriptedModel(
		llm.Reply{Text: wrong, Usage: llm.Usage{PromptTokens: 912, CompletionTokens: 118, TotalTokens: 1030}},
		llm.Reply{Text: right, Usage: llm.Usage{PromptTokens: 1104, CompletionTokens: 121, TotalTokens: 1225}},
	)
}
