package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/rolegen/rolegen/llm"
)

// The run loop's own cost: a scripted model, a target that does nothing,
// so what is measured is planning the reply, validation, verification,
// scheduling, records and checkpoints.

func benchNop(context.Context, llm.Step, map[string]json.RawMessage) (json.RawMessage, error) {
	return json.RawMessage(`{"ok":true}`), nil
}

// pings is a plan of n independent Ping steps (a wide DAG).
func pings(n int) string {
	steps := make([]string, n)
	for i := range steps {
		steps[i] = step(fmt.Sprintf("p%d", i), "Ping", "{}")
	}
	return planJSON(steps...)
}

// chain is a plan of n Ping steps, each depending on the one before.
func chain(n int) string {
	steps := make([]string, n)
	for i := range steps {
		var deps []string
		if i > 0 {
			deps = []string{fmt.Sprintf("p%d", i-1)}
		}
		steps[i] = step(fmt.Sprintf("p%d", i), "Ping", "{}", deps...)
	}
	return planJSON(steps...)
}

// cycle is a model that answers with replies in turn, round and round.
func cycle(replies ...string) llm.Model {
	n := 0
	return llm.ModelFunc(func(context.Context, llm.Request) (llm.Response, error) {
		text := replies[n%len(replies)]
		n++
		return llm.Response{Text: text, Usage: llm.Usage{PromptTokens: 100, CompletionTokens: 20}}, nil
	})
}

func benchRun(b *testing.B, reply string, exec llm.Executor, opts ...llm.Option) {
	b.Helper()
	ctx := context.Background()
	p := llm.NewPlanner(trip, cycle(reply), opts...)
	b.ReportAllocs()
	for b.Loop() {
		res, err := p.Run(ctx, "ping", llm.FuncTarget(trip, rich, exec))
		if err != nil || !res.Succeeded() {
			b.Fatalf("run: %v", err)
		}
	}
}

// BenchmarkRunInOrder: a chain of 8 steps run in order.
func BenchmarkRunInOrder(b *testing.B) {
	benchRun(b, chain(8), benchNop, llm.WithMaxSteps(8))
}

// BenchmarkRunDAG: 8 independent steps, 4 at once.
func BenchmarkRunDAG(b *testing.B) {
	benchRun(b, pings(8), benchNop, llm.WithMaxSteps(8), llm.WithDAG(4))
}

// BenchmarkRunCheckpointed: the chain of 8 with a checkpoint at every
// step's start and end (in memory, encoded as a file store would).
func BenchmarkRunCheckpointed(b *testing.B) {
	benchRun(b, chain(8), benchNop, llm.WithMaxSteps(8), llm.WithStore(llm.NewMemoryStore()))
}

// BenchmarkRunReplan: the first plan's third step fails once, the model
// replans, the second plan completes.
func BenchmarkRunReplan(b *testing.B) {
	failed := false
	exec := func(ctx context.Context, st llm.Step, in map[string]json.RawMessage) (json.RawMessage, error) {
		if st.ID == "p2" && !failed {
			failed = true
			return nil, errors.New("down")
		}
		return benchNop(ctx, st, in)
	}
	second := strings.ReplaceAll(chain(4), `"p`, `"q`)
	ctx := context.Background()
	p := llm.NewPlanner(trip, cycle(chain(4), second), llm.WithMaxSteps(8))
	b.ReportAllocs()
	for b.Loop() {
		failed = false
		res, err := p.Run(ctx, "ping", llm.FuncTarget(trip, rich, exec))
		if err != nil || !res.Succeeded() || res.Replans != 1 {
			b.Fatalf("run: %v", err)
		}
	}
}

// Repair alone: a plan that builds without planks (five steps inserted
// before it) and ends unpainted (one more after it), and a plan missing
// one step.
func BenchmarkRepair(b *testing.B) {
	for _, bc := range []struct {
		name  string
		plan  string
		state woodState
	}{
		{"six-steps", planJSON(step("b", "Build", "{}")), woodState{Money: 10, Distance: 2}},
		{"one-step", planJSON(step("p1", "SawPlank", "{}"), step("p2", "SawPlank", "{}"), step("b", "Build", "{}")), woodState{Wood: 2, Distance: 2}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			planner := llm.NewPlanner(wood, nil, llm.WithGoals(gFinished), paintBlue)
			plan, err := llm.ParsePlan(bc.plan)
			if err != nil {
				b.Fatal(err)
			}
			if err := planner.Validate(plan); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if fixed, rep := planner.RepairPlan(plan, bc.state); fixed == nil {
					b.Fatal(rep.Err)
				}
			}
		})
	}
}
