// Assistant plans a trip with a language model over a role's typed
// actions, checks the model's plan against the role's own preconditions
// and effects before anything runs, asks a person (here: a rule) to
// approve the plan because booking spends money, then runs it step by
// step.
//
// By default the model is scripted, so the example runs offline:
//
//	go run ./examples/assistant
//
// Give it an OpenAI-compatible server to plan with a real model (OpenAI,
// Ollama, vLLM, llama.cpp server):
//
//	go run ./examples/assistant -base-url http://localhost:11434/v1 -model qwen2.5
//
// OPENAI_API_KEY is read from the environment when the server wants one.
//
// With -trace the run is traced with OpenTelemetry (package otelrolegen):
// each span is printed as the stdout exporter writes it, one JSON object
// a line, and the run's tree of spans at the end:
//
//	go run ./examples/assistant -trace
//
// With -review the plan is put to a person on a review page (package
// llm/review) instead of the rule: the assistant proposes it, serves the
// page, waits for the decision taken there and runs the plan as the
// person approved it (steps removed, reordered, arguments edited):
//
//	go run ./examples/assistant -review :8080
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"strings"

	"github.com/rolegen/rolegen/examples/assistant/travel"
	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/llm/openai"
)

func main() {
	baseURL := flag.String("base-url", "", "OpenAI-compatible server (default: a scripted model, offline)")
	model := flag.String("model", "gpt-4o-mini", "model name on the server")
	goal := flag.String("goal", "Fly me from Zurich to Lisbon on 2026-12-18, economy, for at most 150 euros, and tell me the booking.", "what to achieve")
	traced := flag.Bool("trace", false, "print the run's OpenTelemetry spans")
	reviewAddr := flag.String("review", "", "serve a review page on this address (as :8080) and run the plan as a person decides there")
	flag.Parse()

	m := llm.Model(scriptedModel())
	if *baseURL != "" {
		m = openai.New(*model, openai.WithBaseURL(*baseURL))
	}
	var err error
	switch {
	case *reviewAddr != "":
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		err = runReviewed(ctx, os.Stdout, m, *goal, *reviewAddr, nil)
		stop()
	case *traced:
		err = runTraced(context.Background(), os.Stdout, m, *goal)
	default:
		err = run(context.Background(), os.Stdout, m, *goal)
	}
	if err != nil {
		log.SetFlags(0)
		log.Fatal(err)
	}
}

// run plans and acts for goal with model m, and tells what happens on w;
// opts are more options of the planner.
func run(ctx context.Context, w io.Writer, m llm.Model, goal string, opts ...llm.Option) error {
	agent := &travel.Agent{Budget: 400}
	var planner *llm.Planner[travel.AgentState]
	calls := 0

	// Every reply of the model: the plan it proposes and what symbolic
	// verification says of it, before anything runs.
	shown := llm.ModelFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
		resp, err := m.Complete(ctx, req)
		if err != nil {
			return resp, err
		}
		calls++
		fmt.Fprintf(w, "model call %d (%d prompt + %d completion tokens) proposes:\n", calls, resp.Usage.PromptTokens, resp.Usage.CompletionTokens)
		plan, err := llm.ParsePlan(resp.Text)
		if err != nil {
			fmt.Fprintf(w, "  an unreadable reply: %v\n", err)
			return resp, nil
		}
		printPlan(w, plan)
		if err := planner.Validate(plan); err != nil {
			fmt.Fprintf(w, "  validation: %v\n", err)
		} else if err := planner.Verify(plan, agent.PlanState()); err != nil {
			fmt.Fprintf(w, "  verification: %v\n", err)
		} else {
			fmt.Fprintln(w, "  verification: every precondition holds and the goal is reached")
		}
		return resp, nil
	})

	// A person approves plans that book; a rule stands in for them here.
	approve := llm.ApproverFunc(func(_ context.Context, plan *llm.Plan) (llm.Decision, error) {
		for _, s := range plan.Steps {
			if s.Capability == "Book" && !strings.Contains(string(s.Args), `"maxPrice":150`) {
				return llm.Reject("the traveller said at most 150 euros"), nil
			}
		}
		fmt.Fprintln(w, "approved")
		return llm.Approve(), nil
	})

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

	planner = llm.NewPlanner(travel.AgentDomain, shown, append([]llm.Option{
		llm.WithMaxSteps(6),
		llm.WithRequireVerified(2),
		llm.WithGoals(travel.AgentGoalTrip),
		llm.WithApprover(approve),
		llm.WithOnStep(step),
		llm.WithTemperature(0),
	}, opts...)...)
	res, err := planner.Run(ctx, goal, llm.RoleTarget[travel.AgentState](agent))
	fmt.Fprintf(w, "status: %s after %d replans; %d tokens in %d calls\n", res.Status, res.Replans, res.Usage.TotalTokens, len(res.Calls))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "state: %+v\n", agent.PlanState())
	fmt.Fprintf(w, "inbox: %q\n", agent.Inbox())
	return nil
}

func printPlan(w io.Writer, plan *llm.Plan) {
	for _, s := range plan.Steps {
		deps := ""
		if len(s.DependsOn) > 0 {
			deps = " after " + strings.Join(s.DependsOn, ", ")
		}
		fmt.Fprintf(w, "  %s %s %s%s\n", s.ID, s.Capability, compactJSON(s.Args), deps)
	}
}

func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}

// scriptedModel answers as a model might: first a plan that books before
// it has searched, which verification refuses; then, given the critique,
// a plan that works.
func scriptedModel() llm.Model {
	wrong := `{"steps":[
		{"id":"book","capability":"Book","args":{"passenger":"Ada Lovelace","maxPrice":150},"dependsOn":[]},
		{"id":"search","capability":"Search","args":{"from":"ZRH","to":"LIS","date":"2026-12-18","cabin":"economy"},"dependsOn":[]},
		{"id":"tell","capability":"Notify","args":{"message":"Your flight to Lisbon is booked."},"dependsOn":["book"]}]}`
	right := "```json\n" + `{"steps":[
		{"id":"search","capability":"Search","args":{"from":"ZRH","to":"LIS","date":"2026-12-18","cabin":"economy"},"dependsOn":[]},
		{"id":"book","capability":"Book","args":{"passenger":"Ada Lovelace","maxPrice":150},"dependsOn":["search"]},
		{"id":"tell","capability":"Notify","args":{"message":"Your flight to Lisbon is booked."},"dependsOn":["book"]}]}` + "\n```"
	return llm.NewScriptedModel(
		llm.Reply{Text: wrong, Usage: llm.Usage{PromptTokens: 912, CompletionTokens: 118, TotalTokens: 1030}},
		llm.Reply{Text: right, Usage: llm.Usage{PromptTokens: 1104, CompletionTokens: 121, TotalTokens: 1225}},
	)
}
