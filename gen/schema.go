package gen

import (
	"github.com/rolegen/rolegen/internal/model"
	"github.com/rolegen/rolegen/internal/schema"
)

// planSchema is the JSON Schema of an LLM plan over r's actions:
//
//	{"steps": [{"id": "...", "capability": "Reload", "args": {...}, "dependsOn": ["..."]}]}
//
// with one anyOf branch per action, so that each capability carries its
// own typed args, and at least one step. Every object is closed and lists
// all its keys as required, and nothing uses $ref or oneOf, which keeps
// the schema acceptable to OpenAI strict mode, Ollama and llama.cpp alike
// (package schema). The llm package adds the ceiling on the number of
// steps, which is its own setting.
func planSchema(r *model.Role) *schema.Schema {
	var branches []*schema.Schema
	for _, a := range r.Actions {
		args := a.ArgsSchema
		if args == nil {
			args = schema.Object()
		}
		branches = append(branches, schema.Object(
			schema.Property{Name: "id", Schema: &schema.Schema{Type: "string", Description: "A unique id for this step."}},
			schema.Property{Name: "capability", Schema: &schema.Schema{Type: "string", Description: a.Doc, Enum: []any{a.Name}}},
			schema.Property{Name: "args", Schema: args},
			schema.Property{Name: "dependsOn", Schema: &schema.Schema{
				Type:        "array",
				Description: "Ids of the steps that must finish before this one.",
				Items:       &schema.Schema{Type: "string"},
			}},
		))
	}
	steps := &schema.Schema{Type: "array", MinItems: schema.Int(1), Items: &schema.Schema{AnyOf: branches}}
	if len(branches) == 0 {
		// A role with goals only: no step is possible.
		steps = &schema.Schema{Type: "array", MaxItems: schema.Int(0), Items: schema.Object()}
	}
	return schema.Object(schema.Property{Name: "steps", Schema: steps})
}
