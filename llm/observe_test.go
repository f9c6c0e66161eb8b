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

// Every event of a run reaches the observer, in order, from the engine:
// the model's plans, the gate, each step's start and end, the replan and
// the end.
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
	obs := func(ev event) {
		assert.Equal(t, "observed", ev.runID)
		switch ev.kind {
		case eventPlan:
			seen = append(seen, fmt.Sprintf("plan(%d calls, %d steps)", len(ev.calls), len(ev.plan.Steps)))
		case eventGate:
			seen = append(seen, "gate:"+string(ev.status))
		case eventStepStart:
			seen = append(seen, "start:"+ev.record.Step.ID)
		case eventStepEnd:
			seen = append(seen, "end:"+ev.record.Step.ID+":"+string(ev.record.Status))
		case eventReplan:
			seen = append(seen, "replan:"+ev.replanning.Failure)
		case eventEnd:
			seen = append(seen, "done:"+string(ev.status))
		}
	}
	failed := false
	exec := func(_ context.Context, st Step, _ map[string]json.RawMessage) (json.RawMessage, error) {
		if st.ID == "a" && !failed {
			failed = true
			return nil, errors.New("busy")
		}
		return nil, nil
	}
	p := NewPlanner(d, ScriptedReplies(plan("a", "b"), plan("c")), withObserver(obs))
	res, err := p.Run(context.Background(), "ping", FuncTarget(d, pingState{}, exec), WithRunID("observed"))
	require.NoError(t, err)
	require.True(t, res.Succeeded())
	assert.Equal(t, []string{
		"plan(1 calls, 2 steps)", "gate:running",
		"start:a", "end:a:failed",
		`replan:llm: step "a" (Ping): busy`,
		"plan(1 calls, 1 steps)", "gate:running",
		"start:c", "end:c:done",
		"done:completed",
	}, seen)
}
