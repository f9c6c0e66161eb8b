package llm

import (
	"encoding/json"
	"strconv"
)

// looseSteps is the steps schema of a domain built without a plan schema.
const looseSteps = `{"type":"array","items":{"type":"object"}}`

// requestSchemas derives from a domain's plan schema the schema sent with
// planning requests and the steps schema of reflections. A plan numbers
// at most 4×maxSteps steps (what Validate accepts), and at least one
// unless empty plans are allowed; the steps that replace the rest of a
// plan in a reflection may be none. plan is nil for a domain without a
// plan schema; a schema without properties.steps is sent as it is.
func requestSchemas(schema string, maxSteps int, allowEmpty bool) (plan, steps json.RawMessage) {
	if schema == "" {
		return nil, json.RawMessage(looseSteps)
	}
	root, err := parseJSON([]byte(schema))
	var s *jsonValue
	if err == nil && root.kind == '{' {
		if props := root.get("properties"); props != nil && props.kind == '{' {
			s = props.get("steps")
		}
	}
	if s == nil || s.kind != '{' {
		return json.RawMessage(schema), json.RawMessage(looseSteps)
	}
	ceiling := 4 * maxSteps
	if n, ok := s.get("maxItems").number(); !ok || n > ceiling {
		s.set("maxItems", &jsonValue{scalar: json.RawMessage(strconv.Itoa(ceiling))})
	}
	if n, _ := s.get("maxItems").number(); allowEmpty || n == 0 {
		s.del("minItems")
	} else if s.get("minItems") == nil {
		s.set("minItems", &jsonValue{scalar: json.RawMessage("1")})
	}
	plan = root.encode()
	s.del("minItems")
	return plan, s.encode()
}

// number returns the value of v when it is a non-negative integer.
func (v *jsonValue) number() (int, bool) {
	if v == nil || v.kind != 0 {
		return 0, false
	}
	n, err := strconv.Atoi(string(v.scalar))
	return n, err == nil && n >= 0
}

// boundKeywords are the keywords Anthropic's structured outputs refuse;
// minItems it takes as 0 or 1 only.
var boundKeywords = []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "maxItems", "minLength", "maxLength"}

// WithoutBounds returns schema (a plan, reflection or argument schema)
// without the numeric and length bounds Anthropic's structured outputs
// refuse with an error: minimum, maximum, maxItems, and minItems above 1.
// The generated schemas state those bounds for OpenAI, Ollama and
// llama.cpp; an adapter for Anthropic sends the schema through
// WithoutBounds, and Validate still checks every bound before any step
// runs. A schema that is not a JSON object is returned as it is.
func WithoutBounds(schema json.RawMessage) json.RawMessage {
	root, err := parseJSON(schema)
	if err != nil || root.kind != '{' {
		return schema
	}
	var strip func(v *jsonValue, isSchema bool)
	strip = func(v *jsonValue, isSchema bool) {
		switch v.kind {
		case '{':
			if isSchema {
				for _, k := range boundKeywords {
					v.del(k)
				}
				if n, ok := v.get("minItems").number(); ok && n > 1 {
					v.del("minItems")
				}
			}
			for _, m := range v.members {
				switch m.key {
				case "properties", "$defs", "definitions":
					// A map from names to schemas.
					for _, p := range m.value.members {
						strip(p.value, true)
					}
				case "enum", "const", "required", "default", "examples":
				default:
					strip(m.value, true)
				}
			}
		case '[':
			for _, e := range v.elems {
				strip(e, isSchema)
			}
		}
	}
	strip(root, true)
	return root.encode()
}
