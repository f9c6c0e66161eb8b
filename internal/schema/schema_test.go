package schema

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEmptyObjectIsStrict(t *testing.T) {
	assert.Equal(t, EmptyObject, Object().Compact())
}

func TestRendering(t *testing.T) {
	s := Object(
		Property{Name: "when", Schema: &Schema{Type: "string", Format: "date-time", Description: "a `quoted` <time>"}},
		Property{Name: "seats", Schema: &Schema{Type: "integer", Minimum: "0", Maximum: "255"}},
		Property{Name: "grid", Schema: &Schema{Type: "array", MinItems: Int(3), MaxItems: Int(3), Items: &Schema{Type: "integer"}}},
		Property{Name: "cabin", Schema: Nullable(&Schema{Type: "string", Enum: []any{"economy", "business"}})},
		Property{Name: "empty", Schema: Object()},
	)
	compact := s.Compact()
	assert.Equal(t, `{"type":"object","properties":{`+
		`"when":{"type":"string","description":"a `+"`quoted`"+` <time>","format":"date-time"},`+
		`"seats":{"type":"integer","minimum":0,"maximum":255},`+
		`"grid":{"type":"array","minItems":3,"maxItems":3,"items":{"type":"integer"}},`+
		`"cabin":{"anyOf":[{"type":"string","enum":["economy","business"]},{"type":"null"}]},`+
		`"empty":`+EmptyObject+`},`+
		`"required":["when","seats","grid","cabin","empty"],"additionalProperties":false}`, compact)

	indented := s.Indent()
	assert.NotContains(t, indented, "`", "fits in a raw string literal")
	var a, b bytes.Buffer
	require.NoError(t, json.Compact(&a, []byte(indented)))
	require.NoError(t, json.Compact(&b, []byte(compact)))
	var av, bv any
	require.NoError(t, json.Unmarshal(a.Bytes(), &av))
	require.NoError(t, json.Unmarshal(b.Bytes(), &bv))
	assert.Equal(t, bv, av, "indenting changes no value")
	assert.Contains(t, indented, "\n\t\"required\": [\"when\", \"seats\", \"grid\", \"cabin\", \"empty\"],\n")
	assert.Contains(t, indented, "\"empty\": {\n\t\t\t\"type\": \"object\",\n\t\t\t\"properties\": {},\n\t\t\t\"required\": [],\n")
}

func TestNullableOnce(t *testing.T) {
	n := Nullable(&Schema{Type: "integer"})
	assert.Same(t, n, Nullable(n))
	null := &Schema{Type: "null"}
	assert.Same(t, null, Nullable(null))
}
