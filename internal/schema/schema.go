// Package schema builds and renders the JSON Schemas rolegen writes for
// typed action arguments and LLM plans, on invopop/jsonschema's Schema:
// the subset OpenAI strict structured outputs, Ollama and llama.cpp's
// JSON-schema-to-grammar converter all accept (no $ref, no oneOf, one
// anyOf branch per alternative; bounds as minimum, maximum, minItems,
// maxItems, pattern and the date-time format). Anthropic's structured
// outputs take it once the numeric and length bounds are removed.
//
// Every object built here is closed: it lists all its properties as
// required and sets additionalProperties to false, which strict mode
// demands; Object and Add keep both in step, and Compact writes
// "required": [] for an object without properties. Properties keep the
// order they were added in, and Compact renders a schema the same, byte
// for byte, on every run: keywords in the order of jsonschema.Schema's
// fields, properties in their order.
package schema

import (
	"encoding/json"
	"fmt"

	"github.com/invopop/jsonschema"
)

// Property is a property of an object schema.
type Property struct {
	Name   string
	Schema *jsonschema.Schema
}

// Object returns a closed object schema with the given properties.
func Object(props ...Property) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "object", Properties: jsonschema.NewProperties(), AdditionalProperties: jsonschema.FalseSchema}
	for _, p := range props {
		Add(s, p.Name, p.Schema)
	}
	return s
}

// Add adds property name to the object s, required like every other, and
// reports false (changing nothing) when s has it already.
func Add(s *jsonschema.Schema, name string, prop *jsonschema.Schema) bool {
	if _, dup := s.Properties.Get(name); dup {
		return false
	}
	s.Properties.Set(name, prop)
	s.Required = append(s.Required, name)
	return true
}

// EmptyObject is the rendering of Object(): the arguments of an action
// that takes none.
const EmptyObject = `{"properties":{},"additionalProperties":false,"type":"object","required":[]}`

// Int returns n as a bound.
func Int(n int) *uint64 {
	u := uint64(n)
	return &u
}

// Nullable returns s or null: nil pointers decode from null.
func Nullable(s *jsonschema.Schema) *jsonschema.Schema {
	if s.Type == "null" {
		return s
	}
	for _, alt := range s.AnyOf {
		if alt.Type == "null" {
			return s
		}
	}
	return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{s, {Type: "null"}}}
}

// Parse reads a schema, keeping the order of its properties. Keywords
// jsonschema.Schema has no field for are dropped.
func Parse(text []byte) (*jsonschema.Schema, error) {
	s := new(jsonschema.Schema)
	if err := json.Unmarshal(text, s); err != nil {
		return nil, err
	}
	return s, nil
}

// Compact renders s as one line of JSON. It writes "required": [] on
// every object schema with an empty properties list, which the
// jsonschema package would leave out and strict mode wants.
func Compact(s *jsonschema.Schema) []byte {
	Walk(s, func(n *jsonschema.Schema) {
		if n.Properties != nil && n.Properties.Len() == 0 && len(n.Required) == 0 {
			if n.Extras == nil {
				n.Extras = map[string]any{}
			}
			n.Extras["required"] = []string{}
		}
	})
	b, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("schema: no JSON form: %v", err))
	}
	return b
}

// Walk calls f on s and on every schema inside it, parents first. It
// skips jsonschema.TrueSchema and FalseSchema, which are shared.
func Walk(s *jsonschema.Schema, f func(*jsonschema.Schema)) {
	if s == nil || s == jsonschema.TrueSchema || s == jsonschema.FalseSchema {
		return
	}
	f(s)
	for _, list := range [][]*jsonschema.Schema{s.AllOf, s.AnyOf, s.OneOf, s.PrefixItems} {
		for _, c := range list {
			Walk(c, f)
		}
	}
	for _, c := range []*jsonschema.Schema{s.Not, s.If, s.Then, s.Else, s.Items, s.Contains, s.AdditionalProperties, s.PropertyNames, s.ContentSchema} {
		Walk(c, f)
	}
	if s.Properties != nil {
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			Walk(p.Value, f)
		}
	}
	for _, m := range []map[string]*jsonschema.Schema{s.DependentSchemas, s.PatternProperties, s.Definitions} {
		for _, c := range m {
			Walk(c, f)
		}
	}
}
