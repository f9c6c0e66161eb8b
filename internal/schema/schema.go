// Package schema is the JSON Schema rolegen writes for typed action
// arguments and LLM plans, rendered the same way, byte for byte, on every
// run: the subset OpenAI strict structured outputs, Ollama and llama.cpp's
// JSON-schema-to-grammar converter all accept (no $ref, no oneOf, one
// anyOf branch per alternative; bounds as minimum, maximum, minItems,
// maxItems, pattern and the date-time format). Anthropic's structured
// outputs take it once the numeric and length bounds are removed.
//
// Every object is closed: it lists all its properties as required and
// sets additionalProperties to false, which strict mode demands. The
// renderer writes both, so no builder can forget them, and an object
// without properties still writes "required": [].
package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Schema is one JSON Schema node.
type Schema struct {
	// Type is "object", "array", "string", "integer", "number",
	// "boolean" or "null"; empty for an AnyOf.
	Type        string
	Description string
	Enum        []any
	// Format is a string format every target knows ("date-time").
	Format string
	// Pattern is a regular expression a string matches, in the syntax
	// every target reads: no lookaround, no (?: groups.
	Pattern string
	// Minimum and Maximum bound an integer; empty for no bound.
	Minimum, Maximum string
	// MinItems and MaxItems bound an array's length; nil for no bound.
	MinItems, MaxItems *int
	Items              *Schema
	AnyOf              []*Schema
	// Properties are an object's properties in order; all are required.
	Properties []Property
}

// Property is a property of an object schema.
type Property struct {
	Name   string
	Schema *Schema
}

// Object returns a closed object schema with the given properties.
func Object(props ...Property) *Schema { return &Schema{Type: "object", Properties: props} }

// EmptyObject is the rendering of Object(): the arguments of an action
// that takes none.
const EmptyObject = `{"type":"object","properties":{},"required":[],"additionalProperties":false}`

// Int returns n as a bound.
func Int(n int) *int { return &n }

// Nullable returns s or null: nil pointers decode from null.
func Nullable(s *Schema) *Schema {
	if s.Type == "null" {
		return s
	}
	for _, alt := range s.AnyOf {
		if alt.Type == "null" {
			return s
		}
	}
	return &Schema{AnyOf: []*Schema{s, {Type: "null"}}}
}

// Compact renders s as one line of JSON.
func (s *Schema) Compact() string {
	w := writer{}
	w.schema(s)
	return w.b.String()
}

// Indent renders s as JSON indented with tabs, a key a line and lists of
// values on one line, for a reader (and a diff) to follow. Backquotes in
// text are written as \u0060, so the result always fits in a Go raw
// string literal.
func (s *Schema) Indent() string {
	w := writer{indent: true}
	w.schema(s)
	return strings.ReplaceAll(w.b.String(), "`", `\u0060`)
}

// writer renders schemas with their keys in a fixed order: what a value
// is first, then its bounds, then its parts.
type writer struct {
	b      bytes.Buffer
	indent bool
	depth  int
	// keys counts the keys written in each open object.
	keys []int
}

func (w *writer) open() {
	w.b.WriteByte('{')
	w.depth++
	w.keys = append(w.keys, 0)
}

func (w *writer) close() {
	w.depth--
	n := w.keys[len(w.keys)-1]
	w.keys = w.keys[:len(w.keys)-1]
	if w.indent && n > 0 {
		w.newline()
	}
	w.b.WriteByte('}')
}

func (w *writer) newline() {
	w.b.WriteByte('\n')
	for range w.depth {
		w.b.WriteByte('\t')
	}
}

func (w *writer) key(k string) {
	if w.keys[len(w.keys)-1] > 0 {
		w.b.WriteByte(',')
	}
	w.keys[len(w.keys)-1]++
	if w.indent {
		w.newline()
	}
	writeValue(&w.b, k)
	w.b.WriteByte(':')
	if w.indent {
		w.b.WriteByte(' ')
	}
}

// values writes a list of plain values on one line.
func (w *writer) values(vs []any) {
	w.b.WriteByte('[')
	for i, v := range vs {
		if i > 0 {
			w.b.WriteByte(',')
			if w.indent {
				w.b.WriteByte(' ')
			}
		}
		writeValue(&w.b, v)
	}
	w.b.WriteByte(']')
}

func (w *writer) schema(s *Schema) {
	w.open()
	if s.Type != "" {
		w.key("type")
		writeValue(&w.b, s.Type)
	}
	if s.Description != "" {
		w.key("description")
		writeValue(&w.b, s.Description)
	}
	if s.Enum != nil {
		w.key("enum")
		w.values(s.Enum)
	}
	if s.Format != "" {
		w.key("format")
		writeValue(&w.b, s.Format)
	}
	if s.Pattern != "" {
		w.key("pattern")
		writeValue(&w.b, s.Pattern)
	}
	if s.Minimum != "" {
		w.key("minimum")
		w.b.WriteString(s.Minimum)
	}
	if s.Maximum != "" {
		w.key("maximum")
		w.b.WriteString(s.Maximum)
	}
	if s.MinItems != nil {
		w.key("minItems")
		w.b.WriteString(strconv.Itoa(*s.MinItems))
	}
	if s.MaxItems != nil {
		w.key("maxItems")
		w.b.WriteString(strconv.Itoa(*s.MaxItems))
	}
	if s.Items != nil {
		w.key("items")
		w.schema(s.Items)
	}
	if s.AnyOf != nil {
		w.key("anyOf")
		w.b.WriteByte('[')
		w.depth++
		for i, alt := range s.AnyOf {
			if i > 0 {
				w.b.WriteByte(',')
			}
			if w.indent {
				w.newline()
			}
			w.schema(alt)
		}
		w.depth--
		if w.indent {
			w.newline()
		}
		w.b.WriteByte(']')
	}
	if s.Type == "object" {
		w.key("properties")
		w.open()
		names := make([]any, len(s.Properties))
		for i, p := range s.Properties {
			w.key(p.Name)
			w.schema(p.Schema)
			names[i] = p.Name
		}
		w.close()
		w.key("required")
		w.values(names)
		w.key("additionalProperties")
		w.b.WriteString("false")
	}
	w.close()
}

// writeValue writes v as JSON, without the HTML escapes of
// encoding/json's default.
func writeValue(b *bytes.Buffer, v any) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(fmt.Sprintf("schema: %v has no JSON form: %v", v, err))
	}
	b.Truncate(b.Len() - 1) // Encode's newline
}
