package gen

import (
	"bytes"
	"encoding/json"

	"github.com/invopop/jsonschema"
	orderedmap "github.com/pb33f/ordered-map/v2"

	"github.com/rolegen/rolegen/internal/model"
)

// emptyObject is the args schema of an action without arguments. Strict
// mode wants "required" on every object, even an empty list, which the
// schema type omits when empty: it goes in Extras.
func emptyObject() *jsonschema.Schema {
	return &jsonschema.Schema{
		Type:                 "object",
		Properties:           orderedmap.New[string, *jsonschema.Schema](),
		AdditionalProperties: jsonschema.FalseSchema,
		Extras:               map[string]any{"required": []string{}},
	}
}

// planSchema is the JSON Schema of an LLM plan over r's actions:
//
//	{"steps": [{"id": "...", "capability": "Reload", "args": {...}, "dependsOn": ["..."]}]}
//
// with one anyOf branch per action, so that each capability carries its
// own typed args. Every object is closed and lists all its keys as
// required, and nothing uses $ref, oneOf, nullable types or length limits,
// which keeps the schema acceptable to OpenAI strict mode, Anthropic,
// Ollama and llama.cpp alike.
func planSchema(r *model.Role) *jsonschema.Schema {
	var branches []*jsonschema.Schema
	for _, a := range r.Actions {
		args := a.ArgsSchema
		if args == nil {
			args = emptyObject()
		}
		props := orderedmap.New[string, *jsonschema.Schema]()
		props.Set("id", &jsonschema.Schema{Type: "string", Description: "A unique id for this step."})
		props.Set("capability", &jsonschema.Schema{Type: "string", Enum: []any{a.Name}, Description: a.Doc})
		props.Set("args", args)
		props.Set("dependsOn", &jsonschema.Schema{
			Type:        "array",
			Items:       &jsonschema.Schema{Type: "string"},
			Description: "Ids of the steps that must finish before this one.",
		})
		branches = append(branches, &jsonschema.Schema{
			Type:                 "object",
			Properties:           props,
			Required:             []string{"id", "capability", "args", "dependsOn"},
			AdditionalProperties: jsonschema.FalseSchema,
		})
	}
	items := &jsonschema.Schema{AnyOf: branches}
	if len(branches) == 0 {
		// A role with goals only: no step is possible.
		items = emptyObject()
	}
	props := orderedmap.New[string, *jsonschema.Schema]()
	props.Set("steps", &jsonschema.Schema{Type: "array", Items: items})
	return &jsonschema.Schema{
		Type:                 "object",
		Properties:           props,
		Required:             []string{"steps"},
		AdditionalProperties: jsonschema.FalseSchema,
	}
}

// compact renders a schema as compact JSON, without HTML escaping.
func compact(s *jsonschema.Schema) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return "", err
	}
	return string(bytes.TrimSpace(buf.Bytes())), nil
}
