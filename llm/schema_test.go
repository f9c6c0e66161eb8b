package llm_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/runtime"
)

func stepsOf(t *testing.T, schema json.RawMessage) map[string]any {
	t.Helper()
	var root struct {
		Properties struct {
			Steps map[string]any `json:"steps"`
		} `json:"properties"`
	}
	require.NoError(t, json.Unmarshal(schema, &root))
	return root.Properties.Steps
}

// The schema sent with a request bounds the steps as Validate does: at
// least one (unless empty plans are allowed), at most 4×WithMaxSteps; the
// order of the keys, capability before args, is kept.
func TestRequestSchemaBoundsTheSteps(t *testing.T) {
	for _, tc := range []struct {
		opts     []llm.Option
		min, max any
	}{
		{nil, 1.0, 40.0},
		{[]llm.Option{llm.WithMaxSteps(3)}, 1.0, 12.0},
		{[]llm.Option{llm.WithMaxSteps(3), llm.WithAllowEmptyPlan()}, nil, 12.0},
	} {
		model := llm.ScriptedReplies(goodPlan)
		_, err := llm.NewPlanner(trip, model, tc.opts...).Propose(context.Background(), "Paris", rich)
		require.NoError(t, err)
		schema := model.Requests()[0].Schema
		steps := stepsOf(t, schema)
		assert.Equal(t, tc.min, steps["minItems"])
		assert.Equal(t, tc.max, steps["maxItems"])
		assert.Less(t, strings.Index(string(schema), `"capability"`), strings.Index(string(schema), `"args"`))
	}
}

// A reflection may adjust the rest of a plan to no step at all.
func TestReflectionStepsMayBeNone(t *testing.T) {
	var got llm.ReflectRequest
	reflector := llm.ReflectorFunc(func(_ context.Context, req llm.ReflectRequest) (llm.Directive, llm.Usage, error) {
		got = req
		return llm.Directive{}, llm.Usage{}, nil
	})
	rec := newRecorder()
	_, err := llm.NewPlanner(trip, llm.ScriptedReplies(goodPlan), llm.WithReflector(1, reflector)).
		Run(context.Background(), "Paris", rec.target(rich))
	require.NoError(t, err)
	var steps map[string]any
	require.NoError(t, json.Unmarshal(got.StepsSchema, &steps))
	assert.NotContains(t, steps, "minItems")
	assert.Equal(t, 40.0, steps["maxItems"])
}

func TestWithoutBounds(t *testing.T) {
	in := `{"type":"object","properties":{"minimum":{"type":"integer","minimum":0,"maximum":9},` +
		`"xs":{"type":"array","minItems":3,"maxItems":3,"items":{"type":"string","pattern":"^a$"}},` +
		`"ys":{"type":"array","minItems":1,"items":{"anyOf":[{"type":"integer","minimum":1},{"type":"null"}]}}},` +
		`"required":["minimum","xs","ys"],"additionalProperties":false}`
	assert.Equal(t, `{"properties":{"minimum":{"type":"integer"},`+
		`"xs":{"items":{"type":"string","pattern":"^a$"},"type":"array"},`+
		`"ys":{"items":{"anyOf":[{"type":"integer"},{"type":"null"}]},"type":"array","minItems":1}},`+
		`"additionalProperties":false,"type":"object","required":["minimum","xs","ys"]}`, string(llm.WithoutBounds(json.RawMessage(in))))
	assert.Equal(t, "not json", string(llm.WithoutBounds(json.RawMessage("not json"))))
}

// The plan schema is assembled from the actions of any domain, a
// hand-built one too, the same bytes on every call; an argument schema
// that is not JSON is named, and no request is sent.
func TestPlanSchemaOfAHandBuiltDomain(t *testing.T) {
	first, err := llm.PlanSchema(trip)
	require.NoError(t, err)
	again, err := llm.PlanSchema(trip)
	require.NoError(t, err)
	assert.Equal(t, string(first), string(again))
	var names []string
	for _, b := range stepsOf(t, first)["items"].(map[string]any)["anyOf"].([]any) {
		props := b.(map[string]any)["properties"].(map[string]any)
		names = append(names, props["capability"].(map[string]any)["enum"].([]any)[0].(string))
	}
	assert.Equal(t, []string{"Search", "BookFlight", "BookHotel", "Ping", "Wire"}, names)

	goalsOnly := runtime.NewDomain(runtime.Domain[tripState]{Name: "Idle", Fields: trip.Fields, Goals: trip.Goals})
	none, err := llm.PlanSchema(goalsOnly)
	require.NoError(t, err)
	assert.Equal(t, 0.0, stepsOf(t, none)["maxItems"], "no step is possible")
	assert.NotContains(t, stepsOf(t, none), "minItems")

	actions := append([]runtime.Action[tripState](nil), trip.Actions...)
	actions[1].Args = `{"type":`
	broken := runtime.NewDomain(runtime.Domain[tripState]{Name: "Broken", Fields: trip.Fields, Actions: actions, Goals: trip.Goals})
	_, err = llm.PlanSchema(broken)
	require.ErrorContains(t, err, "Broken.BookFlight: argument schema")
	model := llm.ScriptedReplies(goodPlan)
	_, err = llm.NewPlanner(broken, model).Propose(context.Background(), "Paris", rich)
	require.ErrorContains(t, err, "Broken.BookFlight: argument schema")
	assert.Empty(t, model.Requests())
}
