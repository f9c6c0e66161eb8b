package llm

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
)

// wired is the in-process driver with every reply sent through JSON, as
// a workflow gets the plan activity's result.
type wired[S comparable] struct{ *local[S] }

func (w wired[S]) Plan(req PlanRequest[S]) (PlanReply, error) {
	reply, err := w.local.Plan(req)
	b, merr := json.Marshal(reply)
	if merr != nil {
		return PlanReply{}, merr
	}
	var out PlanReply
	if merr := json.Unmarshal(b, &out); merr != nil {
		return PlanReply{}, merr
	}
	// The plan that crossed the wire is not trusted: a different one
	// here must not run.
	out.Plan.Steps = out.Plan.Steps[:1]
	return out, err
}

// A reply from elsewhere is decided again by the engine from the model's
// plans: the repaired plan runs, not the plan the reply carried.
func TestTheEngineChoosesAgainFromAReplyOffTheWire(t *testing.T) {
	type st struct{ Packed, Shipped bool }
	d := runtime.NewDomain(runtime.Domain[st]{
		Name: "Mini",
		Fields: []runtime.Field{{Name: "Packed", Type: "bool", Kind: runtime.KindBool},
			{Name: "Shipped", Type: "bool", Kind: runtime.KindBool}},
		Actions: []runtime.Action[st]{
			{Name: "Pack", Cost: 1, Effect: func(s st) st { s.Packed = true; return s }, Writes: []runtime.FieldID{0}},
			{Name: "Ship", Cost: 1, Pre: func(s st) bool { return s.Packed }, PreText: "Packed", PreReads: []runtime.FieldID{0},
				Effect: func(s st) st { s.Shipped = true; return s }, Writes: []runtime.FieldID{1}},
		},
	})
	model := ScriptedReplies(`{"steps":[{"id":"ship","capability":"Ship","args":{},"dependsOn":[]}]}`)
	p := NewPlanner(d, model, WithRequireVerified(0))
	var ran []string
	target := FuncTarget(d, st{}, func(_ context.Context, s Step, _ map[string]json.RawMessage) (json.RawMessage, error) {
		ran = append(ran, s.ID)
		return nil, nil
	})
	e := p.NewEngine("wired", "ship")
	res, err := e.Run(wired[st]{p.local(context.Background(), target)})
	require.NoError(t, err)
	assert.Equal(t, []string{"repair-1", "ship"}, ran)
	assert.Len(t, res.Plan.Inserted(), 1)
}
