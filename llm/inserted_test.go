package llm_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/runtime"
)

// insertedPlan is a plan with one step marked as repair inserts it.
func insertedPlan(t *testing.T) *llm.Plan {
	t.Helper()
	plan, err := llm.ParsePlan(planJSON(step("s1", "BookFlight", flightParis), step("s2", "BookHotel", hotelParis, "s1")))
	require.NoError(t, err)
	plan.Steps = append([]llm.Step{{
		ID: "repair-1", Capability: "Ping", Args: json.RawMessage(`{}`), DependsOn: []string{},
		Inserted: &llm.Insertion{For: "s1", Precondition: "Money >= 100"},
	}}, plan.Steps...)
	return plan
}

func TestInsertedStepsAreMarkedAndKeptByCopies(t *testing.T) {
	plan := insertedPlan(t)
	require.Len(t, plan.Inserted(), 1)
	assert.Equal(t, "repair-1", plan.Inserted()[0].ID)
	assert.Equal(t, `before step "s1" (Money >= 100)`, plan.Steps[0].Inserted.String())
	assert.Equal(t, "to reach goal Travelling", (&llm.Insertion{Goals: []string{"Travelling"}}).String())
	assert.Equal(t, "to reach goals A, B", (&llm.Insertion{Goals: []string{"A", "B"}}).String())

	// A copy shares nothing: changing it leaves the original marked as it was.
	c := plan.Clone()
	c.Steps[0].Inserted.For = "other"
	assert.Equal(t, "s1", plan.Steps[0].Inserted.For)

	// Checkpoints and results keep the marking through JSON.
	b, err := json.Marshal(plan)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"inserted":{"for":"s1","precondition":"Money \u003e= 100"}`)
	var back llm.Plan
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, plan.Steps[0].Inserted, back.Steps[0].Inserted)
	assert.Nil(t, back.Steps[1].Inserted, "a step the model wrote is not marked")

	// The model's format has no such key: the plan sent back to a model
	// leaves it out, and a model cannot claim a step was inserted.
	assert.NotContains(t, string(plan.WireJSON()), "inserted")
	_, err = llm.ParsePlan(`{"steps":[{"id":"a","capability":"Ping","args":{},"dependsOn":[],"inserted":{"for":"b"}}]}`)
	require.ErrorIs(t, err, llm.ErrUnreadableReply)

	// An approval that reorders or removes other steps keeps the mark.
	planner := llm.NewPlanner(trip, llm.ScriptedReplies())
	out, err := planner.Approve(plan, llm.RemoveSteps("s2"))
	require.NoError(t, err)
	require.Len(t, out.Inserted(), 1)
	assert.Equal(t, "s1", out.Inserted()[0].Inserted.For)

	// The plan's picture says which step was inserted.
	var g strings.Builder
	require.NoError(t, plan.WriteGraph(&g, runtime.Mermaid, nil))
	assert.Contains(t, g.String(), `n0["repair-1: Ping<br/>(inserted by repair)"]`)
}
