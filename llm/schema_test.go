package llm_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/llm"
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
