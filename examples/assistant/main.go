// Assistant plans a trip with a language model over a role's typed
// actions, checks the model's plan against the role's own preconditions
// and effects before anything runs, repairs what the model left out with
// the role's own A*, asks a person (here: a rule) to approve the plan
// because booking spends money, then runs it step by step.
//
// By default the model is scripted, so the example runs offline:
//
//	go run ./examples/assistant
//
// The scripted model's plan books without searching first. Verification
// refuses it, and repair inserts the missing Search (rolegen can: the
// program supplies Search's arguments, the traveller's route, with
// llm.WithArgs), so the run needs one model call. With -repair=false the
// critique goes back to the model instead, and its second plan runs:
//
//	go run ./examples/assistant -repair=false
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
// a line, and the run's tree of spans at the end (the repair is a span of
// its own):
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
	repair := flag.Bool("repair", true, "repair a plan that fails verification with A* (false: send the critique back to the model)")
	traced := flag.Bool("trace", false, "print the run's OpenTelemetry spans")
	reviewAddr := flag.String("review", "", "serve a review page on this address (as :8080) and run the plan as a person decides there")
	flag.Parse()

	m := llm.Model(scriptedModel())
	if *baseURL != "" {
		m = openai.New(*model, openai.WithBaseURL(*baseURL))
	}
	var opts []llm.Option
	if !*repair {
		opts = append(opts, llm.WithRepair(0))
	}
	var err error
	switch {
	case *reviewAddr != "":
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		err = runReviewed(ctx, os.Stdout, m, *goal, *reviewAddr, nil, opts...)
		stop()
	case *traced:
		err = runTraced(context.Background(), os.Stdout, m, *goal, opts...)
	default:
		err = run(context.Background(), os.Stdout, m, *goal, nil, opts...)
	}
	if err != nil {
		log.SetFlags(0)
		log.Fatal(err)
	}
}

// route is the trip the traveller asked for, as a booking form would hold
// it: the program, not the model, knows what to search for, so repair may
// insert a Search.
var route = travel.SearchArgs{From: "ZRH", To: "LIS", Date: "2026-12-18", Cabin: travel.Economy}

// searchRoute lets repair insert a Search: its arguments are the route.
var searchRoute = llm.WithArgs(travel.AgentSearchArgs, func(travel.AgentState) (travel.SearchArgs, error) { return route, nil })

// maxPrice is the most the traveller pays; the approval rule holds plans
// to it.
const maxPrice = 150

// run plans and acts for goal with model m, and tells what happens on w;
// obs, when not nil, observes the run too, and opts are more options of
// the planner.
func run(ctx context.Context, w io.Writer, m llm.Model, goal string, obs llm.Observer, opts ...llm.Option) error {
	agent := &travel.Agent{Budget: 400}
	var planner *llm.Planner[travel.AgentState]
	calls := 0

	// Every reply of the model: the plan it proposes and what symbolic
	// verification says of it, before anything runs; and, from the second
	// call on, the critique it was sent.
	shown := llm.ModelFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
		if len(req.Messages) > 2 {
			fmt.Fprintf(w, "the plan was refused by verification; the critique sent back to the model:\n  %s\n",
				strings.ReplaceAll(req.Messages[len(req.Messages)-1].Content, "\n", "\n  "))
		}
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
	// It sees the plan as it will run, the steps rolegen inserted marked.
	approve := llm.ApproverFunc(func(_ context.Context, plan *llm.Plan) (llm.Decision, error) {
		fmt.Fprintln(w, "the plan put to the approver:")
		printPlan(w, plan)
		for _, s := range plan.Steps {
			if s.Capability == "Book" && !strings.Contains(string(s.Args), fmt.Sprintf(`"maxPrice":%d`, maxPrice)) {
				fmt.Fprintf(w, "rejected by the rule \"book within the traveller's %d euros\" (standing in for a person)\n", maxPrice)
				return llm.Reject(fmt.Sprintf("the traveller said at most %d euros", maxPrice)), nil
			}
		}
		fmt.Fprintf(w, "approved by the rule \"book within the traveller's %d euros\" (standing in for a person)\n", maxPrice)
		return llm.Approve(), nil
	})

	// What repair did, from the run's events (and every event on to obs).
	repairs := llm.ObserverFunc(func(ctx context.Context, ev llm.Event) context.Context {
		if ev.Kind == llm.EventRepair {
			if ev.Repair.Err != nil {
				fmt.Fprintf(w, "repair: %v\n", ev.Repair.Err)
			} else {
				fmt.Fprintf(w, "repair: A* inserted %s (%s searched, no model call)\n",
					strings.Join(ev.Repair.Inserted(), "; "), plural(ev.Repair.Expansions, "state"))
			}
		}
		if obs != nil {
			return obs.Observe(ctx, ev)
		}
		return ctx
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
		searchRoute,
		llm.WithApprover(approve),
		llm.WithOnStep(step),
		llm.WithObserver(repairs),
		llm.WithTemperature(0),
	}, opts...)...)
	res, err := planner.Run(ctx, goal, llm.RoleTarget[travel.AgentState](agent))
	summary := fmt.Sprintf("status: %s after %d replans; %d tokens in %s", res.Status, res.Replans, res.Usage.TotalTokens, plural(len(res.Calls), "model call"))
	if res.Plan != nil {
		var inserted []string
		for _, s := range res.Plan.Inserted() {
			inserted = append(inserted, s.ID+" "+s.Capability)
		}
		if len(inserted) > 0 {
			summary += fmt.Sprintf("; %s inserted by repair (%s)", plural(len(inserted), "step"), strings.Join(inserted, ", "))
		}
	}
	fmt.Fprintln(w, summary)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "state: %+v\n", agent.PlanState())
	fmt.Fprintf(w, "inbox: %q\n", agent.Inbox())
	return nil
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func printPlan(w io.Writer, plan *llm.Plan) {
	for _, s := range plan.Steps {
		deps := ""
		if len(s.DependsOn) > 0 {
			deps = " after " + strings.Join(s.DependsOn, ", ")
		}
		inserted := ""
		if s.Inserted != nil {
			inserted = " (inserted by rolegen " + s.Inserted.String() + ")"
		}
		fmt.Fprintf(w, "  %s %s %s%s%s\n", s.ID, s.Capability, compactJSON(s.Args), deps, inserted)
	}
}

func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}

// scriptedModel answers as a model might: first a plan that books
// without searching first, which verification refuses; then, given the
// critique (when repair is off), a plan that works.
func scriptedModel() llm.Model {
	wrong := `{"steps":[
		{"id":"book","capability":"Book","args":{"passenger":"Ada Lovelace","maxPrice":150},"dependsOn":[]},
		{"id":"tell","capability":"Notify","args":{"message":"Your flight to Lisbon is booked."},"dependsOn":["book"]}]}`
	right := "```json\n" + `{"steps":[
		{"id":"search","capability":"Search","args":{"from":"ZRH","to":"LIS","date":"2026-12-18","cabin":"economy"},"dependsOn":[]},
		{"id":"book","capability":"Book","args":{"passenger":"Ada Lovelace","maxPrice":150},"dependsOn":["search"]},
		{"id":"tell","capability":"Notify","args":{"message":"Your flight to Lisbon is booked."},"dependsOn":["book"]}]}` + "\n```"
	return llm.NewScriptedModel(
		llm.Reply{Text: wrong, Usage: llm.Usage{PromptTokens: 912, CompletionTokens: 98, TotalTokens: 1010}},
		llm.Reply{Text: right, Usage: llm.Usage{PromptTokens: 1104, CompletionTokens: 121, TotalTokens: 1225}},
	)
}
