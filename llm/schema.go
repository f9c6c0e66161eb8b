package llm

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/invopop/jsonschema"

	"github.com/rolegen/rolegen/internal/schema"
	"github.com/rolegen/rolegen/runtime"
)

// PlanSchema returns the JSON Schema of an LLM plan over d's actions, as
// a planner built with opts sends it with every planning request:
//
//	{"steps": [{"id": "...", "capability": "Reload", "args": {...}, "dependsOn": ["..."]}]}
//
// with one anyOf branch per action, so that each capability carries its
// own typed args (runtime.Action.Args; the empty object for an action
// without), capability before args, and from one to 4×WithMaxSteps
// steps (none at least with WithAllowEmptyPlan). Every object is closed
// and lists all its keys as required, and nothing uses $ref or oneOf:
// OpenAI strict mode, Ollama and llama.cpp take it as it is (Anthropic
// through WithoutBounds). The bytes are the same on every call. The error
// names an action whose Args is not a JSON Schema.
func PlanSchema[S comparable](d *runtime.Domain[S], opts ...Option) (json.RawMessage, error) {
	p := NewPlanner(d, nil, opts...)
	return p.requestSchema, p.schemaErr
}

// requestSchemas assembles the plan schema of d's actions sent with
// planning requests, and the schema of its steps for reflections (which
// may replace the rest of a plan with no step at all). A plan numbers at
// most 4×maxSteps steps, what Validate accepts, and at least one unless
// empty plans are allowed.
func requestSchemas[S comparable](d *runtime.Domain[S], maxSteps int, allowEmpty bool) (plan, steps json.RawMessage, err error) {
	branches := make([]*jsonschema.Schema, 0, len(d.Actions))
	for i := range d.Actions {
		a := &d.Actions[i]
		args := schema.Object()
		if a.Args != "" {
			if args, err = schema.Parse([]byte(a.Args)); err != nil {
				return nil, nil, fmt.Errorf("llm: %s.%s: argument schema: %w", d.Name, a.Name, err)
			}
		}
		branches = append(branches, schema.Object(
			schema.Property{Name: "id", Schema: &jsonschema.Schema{Type: "string", Description: "A unique id for this step."}},
			schema.Property{Name: "capability", Schema: &jsonschema.Schema{Type: "string", Description: a.Description, Enum: []any{a.Name}}},
			schema.Property{Name: "args", Schema: args},
			schema.Property{Name: "dependsOn", Schema: &jsonschema.Schema{
				Type:        "array",
				Description: "Ids of the steps that must finish before this one.",
				Items:       &jsonschema.Schema{Type: "string"},
			}},
		))
	}
	list := &jsonschema.Schema{Type: "array", MaxItems: schema.Int(4 * maxSteps), Items: &jsonschema.Schema{AnyOf: branches}}
	if len(branches) == 0 {
		// A domain with goals only: no step is possible.
		list = &jsonschema.Schema{Type: "array", MaxItems: schema.Int(0), Items: schema.Object()}
	}
	steps = schema.Compact(list)
	if !allowEmpty && len(branches) > 0 {
		list.MinItems = schema.Int(1)
	}
	return schema.Compact(schema.Object(schema.Property{Name: "steps", Schema: list})), steps, nil
}

// WithoutBounds returns s (a plan, reflection or argument schema) without
// the numeric and length bounds Anthropic's structured outputs refuse
// with an error: minimum, maximum, their exclusive forms, maxItems,
// minLength, maxLength, and minItems above 1. The plan schema states
// those bounds for OpenAI, Ollama and llama.cpp; an adapter for Anthropic
// sends it through WithoutBounds, and Validate still checks every bound
// before any step runs. The schema is read as jsonschema.Schema reads
// it, which drops keywords it has no field for (rolegen writes none); a
// schema that is not a JSON object is returned as it is.
func WithoutBounds(s json.RawMessage) json.RawMessage {
	root, err := schema.Parse(s)
	if err != nil || !bytes.HasPrefix(bytes.TrimSpace(s), []byte("{")) {
		return s
	}
	schema.Walk(root, func(n *jsonschema.Schema) {
		n.Minimum, n.Maximum, n.ExclusiveMinimum, n.ExclusiveMaximum = "", "", "", ""
		n.MaxItems, n.MinLength, n.MaxLength = nil, nil, nil
		if n.MinItems != nil && *n.MinItems > 1 {
			n.MinItems = nil
		}
	})
	return schema.Compact(root)
}
