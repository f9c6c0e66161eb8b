package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
)

type obsKey struct{}

// Every event of a run reaches the observer, in order: the run's start,
// each plan with its model calls, validation and verification, the gate,
// each step's start and end, the replan and the end. The contexts the
// observer returns reach the work they open: the model calls see the
// plan's, each step's action sees its step's.
func TestObserverSeesEveryEventOfARun(t *testing.T) {
	d := runtime.NewDomain(runtime.Domain[pingState]{
		Name:    "Pinger",
		Actions: []runtime.Action[pingState]{{Name: "Ping", Cost: 1}},
	})
	plan := func(ids ...string) string {
		s := `{"steps":[`
		for i, id := range ids {
			if i > 0 {
				s += ","
			}
			s += fmt.Sprintf(`{"id":%q,"capability":"Ping","args":{},"dependsOn":[]}`, id)
		}
		return s + `]}`
	}
	var seen []string
	obs := ObserverFunc(func(ctx context.Context, ev Event) context.Context {
		where, _ := ctx.Value(obsKey{}).(string)
		line := fmt.Sprintf("%s in %q", ev.Kind, where)
		opens := func(name string) context.Context {
			seen = append(seen, line)
			return context.WithValue(ctx, obsKey{}, name)
		}
		switch ev.Kind {
		case EventRunStart:
			assert.Equal(t, "observed", ev.RunID)
			assert.False(t, ev.Resumed)
			return opens("run")
		case EventPlanStart:
			line += fmt.Sprintf(" revision %d", ev.Revision)
			return opens(fmt.Sprintf("plan %d", ev.Revision))
		case EventModelCallStart:
			line += " " + ev.Call.Purpose
			return opens("call")
		case EventModelCallEnd:
			line += fmt.Sprintf(" %d tokens", ev.Usage.TotalTokens)
		case EventValidation, EventVerification:
			line += fmt.Sprintf(" ok=%v", ev.Err == nil)
		case EventPlanEnd:
			line += fmt.Sprintf(" %d steps, %d tokens", len(ev.Plan.Steps), ev.Usage.TotalTokens)
		case EventStepStart:
			line += fmt.Sprintf(" %s attempt %d", ev.Record.Step.ID, ev.Attempt)
			return opens("step " + ev.Record.Step.ID)
		case EventStepEnd:
			line += fmt.Sprintf(" %s %s", ev.Record.Step.ID, ev.Record.Status)
		case EventReplan:
			line += fmt.Sprintf(" %d: %s", ev.Replans, ev.Replanning.Failure)
		case EventRunEnd:
			line += fmt.Sprintf(" %s after %d replans, %d tokens", ev.Status, ev.Replans, ev.Usage.TotalTokens)
			assert.False(t, ev.Started.IsZero())
		}
		seen = append(seen, line)
		return ctx
	})
	failed := false
	var stepContexts []string
	exec := func(ctx context.Context, st Step, _ map[string]json.RawMessage) (json.RawMessage, error) {
		where, _ := ctx.Value(obsKey{}).(string)
		stepContexts = append(stepContexts, where)
		if st.ID == "a" && !failed {
			failed = true
			return nil, errors.New("busy")
		}
		return nil, nil
	}
	model := NewScriptedModel(
		Reply{Text: plan("a", "b"), Usage: Usage{PromptTokens: 10, CompletionTokens: 5}},
		Reply{Text: plan("a"), Usage: Usage{PromptTokens: 20, CompletionTokens: 7}},
	)
	p := NewPlanner(d, model, WithObserver(obs))
	res, err := p.Run(context.Background(), "ping", FuncTarget(d, pingState{}, exec), WithRunID("observed"))
	require.NoError(t, err)
	require.True(t, res.Succeeded())
	assert.Equal(t, []string{
		`run start in ""`,
		`plan start in "run" revision 0`,
		`model call start in "plan 0" plan`,
		`model call end in "call" 15 tokens`,
		`validation in "plan 0" ok=true`,
		`verification in "plan 0" ok=true`,
		`plan end in "plan 0" 2 steps, 15 tokens`,
		`step start in "run" a attempt 1`,
		`step end in "step a" a failed`,
		`replan in "run" 1: llm: step "a" (Ping): busy`,
		`plan start in "run" revision 1`,
		`model call start in "plan 1" replan`,
		`model call end in "call" 27 tokens`,
		`validation in "plan 1" ok=true`,
		`verification in "plan 1" ok=true`,
		`plan end in "plan 1" 1 steps, 27 tokens`,
		`step start in "run" a attempt 2`,
		`step end in "step a" a done`,
		`run end in "run" completed after 1 replans, 42 tokens`,
	}, seen)
	assert.Equal(t, []string{"step a", "step a"}, stepContexts)
	assert.Equal(t, 42, res.Usage.TotalTokens)
}

// A gate that is asked reports its decision; a resumed run says so and
// gets what the observer kept of the run's context in its checkpoints.
func TestObserverSeesApprovalAndResume(t *testing.T) {
	d := runtime.NewDomain(runtime.Domain[pingState]{
		Name:    "Pinger",
		Actions: []runtime.Action[pingState]{{Name: "Ping", Cost: 1}},
	})
	two := `{"steps":[{"id":"a","capability":"Ping","args":{},"dependsOn":[]},{"id":"b","capability":"Ping","args":{},"dependsOn":["a"]}]}`
	store := NewMemoryStore()
	var events []Event
	obs := &carrier{observe: func(ctx context.Context, ev Event) context.Context {
		events = append(events, ev)
		return ctx
	}}
	ctx, cancel := context.WithCancel(context.Background())
	exec := func(_ context.Context, st Step, _ map[string]json.RawMessage) (json.RawMessage, error) {
		if st.ID == "a" {
			cancel()
		}
		return nil, nil
	}
	gate := ApproverFunc(func(context.Context, *Plan) (Decision, error) { return Approve(), nil })
	p := NewPlanner(d, ScriptedReplies(two), WithObserver(obs), WithStore(store), WithApprover(gate))
	res, err := p.Run(ctx, "ping", FuncTarget(d, pingState{}, exec), WithRunID("paused"))
	require.Error(t, err)
	require.Equal(t, StatusCancelled, res.Status)
	cp, err := store.Load(context.Background(), "paused")
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"run": "1"}, cp.Trace)

	var approval *Event
	for i := range events {
		if events[i].Kind == EventApproval {
			approval = &events[i]
		}
	}
	require.NotNil(t, approval)
	assert.True(t, approval.Asked)
	assert.Equal(t, StatusRunning, approval.Status)
	assert.False(t, approval.Started.IsZero())

	events = nil
	res, err = p.Resume(context.Background(), "paused", FuncTarget(d, pingState{}, exec))
	require.NoError(t, err)
	require.True(t, res.Succeeded())
	require.NotEmpty(t, events)
	assert.Equal(t, EventRunStart, events[0].Kind)
	assert.True(t, events[0].Resumed)
	assert.Equal(t, map[string]string{"run": "1"}, events[0].Resumes)
	cp, err = store.Load(context.Background(), "paused")
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"run": "2"}, cp.Trace, "the last runner's context")
}

// carrier is an observer that numbers the runs it sees and keeps the
// number in their checkpoints.
type carrier struct {
	observe func(ctx context.Context, ev Event) context.Context
	runs    int
}

func (c *carrier) Observe(ctx context.Context, ev Event) context.Context {
	if ev.Kind == EventRunStart {
		c.runs++
		ctx = context.WithValue(ctx, obsKey{}, fmt.Sprint(c.runs))
	}
	return c.observe(ctx, ev)
}

func (c *carrier) Carry(ctx context.Context) map[string]string {
	return map[string]string{"run": ctx.Value(obsKey{}).(string)}
}
