package schema

import (
	"testing"

	"github.com/invopop/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEmptyObjectIsStrict(t *testing.T) {
	assert.Equal(t, EmptyObject, string(Compact(Object())))
}

func example() *jsonschema.Schema {
	return Object(
		Property{Name: "when", Schema: &jsonschema.Schema{Type: "string", Format: "date-time", Description: "a `quoted` time"}},
		Property{Name: "seats", Schema: &jsonschema.Schema{Type: "integer", Minimum: "0", Maximum: "255"}},
		Property{Name: "grid", Schema: &jsonschema.Schema{Type: "array", MinItems: Int(3), MaxItems: Int(3), Items: &jsonschema.Schema{Type: "integer"}}},
		Property{Name: "cabin", Schema: Nullable(&jsonschema.Schema{Type: "string", Enum: []any{"economy", "business"}})},
		Property{Name: "empty", Schema: Object()},
	)
}

// Keywords come in the order of jsonschema.Schema's fields, properties
// in the order they were added; every object is closed.
func TestRendering(t *testing.T) {
	assert.Equal(t, `{"properties":{`+
		`"when":{"type":"string","format":"date-time","description":"a `+"`quoted`"+` time"},`+
		`"seats":{"type":"integer","maximum":255,"minimum":0},`+
		`"grid":{"items":{"type":"integer"},"type":"array","maxItems":3,"minItems":3},`+
		`"cabin":{"anyOf":[{"type":"string","enum":["economy","business"]},{"type":"null"}]},`+
		`"empty":`+EmptyObject+`},`+
		`"additionalProperties":false,"type":"object","required":["when","seats","grid","cabin","empty"]}`, string(Compact(example())))
}

// What Compact writes, Parse reads back to the same bytes: the order of
// the properties is kept.
func TestParseRoundTrip(t *testing.T) {
	text := Compact(example())
	again, err := Parse(text)
	require.NoError(t, err)
	assert.Equal(t, string(text), string(Compact(again)))
	_, err = Parse([]byte(`{"type":`))
	assert.Error(t, err)
}

func TestAddRefusesADuplicate(t *testing.T) {
	s := Object(Property{Name: "a", Schema: &jsonschema.Schema{Type: "string"}})
	assert.False(t, Add(s, "a", &jsonschema.Schema{Type: "integer"}))
	assert.Equal(t, []string{"a"}, s.Required)
}

func TestNullableOnce(t *testing.T) {
	n := Nullable(&jsonschema.Schema{Type: "integer"})
	assert.Same(t, n, Nullable(n))
	null := &jsonschema.Schema{Type: "null"}
	assert.Same(t, null, Nullable(null))
}

func TestWalkVisitsEverySchema(t *testing.T) {
	var types []string
	Walk(example(), func(s *jsonschema.Schema) { types = append(types, s.Type) })
	assert.Equal(t, []string{"object", "string", "integer", "array", "integer", "", "string", "null", "object"}, types)
}
