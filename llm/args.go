package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/rolegen/rolegen/runtime"
)

// checkArgs checks the arguments of step st of action a before any step
// runs: first by decoding them exactly as the action will (a.CheckArgs,
// generated), then against the action's schema, which also says what
// decoding lets through (a missing key, an unknown one in another case, a
// fixed array of another length). Nil when both accept them.
func checkArgs[S any](a *runtime.Action[S], sch *jsonschema.Schema, st *Step) *ValidationError {
	invalid := func(path, detail string, err error) *ValidationError {
		if path != "" {
			detail = fmt.Sprintf("at '%s': %s", path, detail)
		}
		return &ValidationError{Kind: InvalidArgs, StepID: st.ID, Capability: st.Capability, Path: path, Detail: detail, Err: err}
	}
	if a.CheckArgs != nil {
		if err := a.CheckArgs(st.Args); err != nil {
			path, err := argPath(a.CheckArgs, st.Args, err)
			reason := err
			if ae, ok := errors.AsType[*runtime.ArgsError](err); ok {
				reason = ae.Err
			}
			return invalid(path, reason.Error(), err)
		}
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(st.Args))
	if err != nil {
		return invalid("", fmt.Sprintf("arguments are not JSON: %v", err), err)
	}
	if err := sch.Validate(inst); err != nil {
		return &ValidationError{Kind: InvalidArgs, StepID: st.ID, Capability: st.Capability, Path: schemaPath(err), Detail: schemaDetail(err), Err: err}
	}
	return nil
}

// argPath finds where in args decoding fails: the JSON Pointer of the
// deepest value that fails to decode alone (its siblings left out, the
// other elements of its arrays null, which decoding always accepts), and
// the error decoding gives for it. err is the error of the whole args.
func argPath(check func(json.RawMessage) error, args json.RawMessage, err error) (string, error) {
	kind, parts := jsonParts(args)
	if kind == 0 || check(emptyJSON(kind)) != nil {
		// The arguments as a whole are of the wrong kind.
		return "", err
	}
	// levels are the containers from the root down to the one whose parts
	// are tried; probe builds args holding only value at the path (with
	// the arrays on the way at their full length).
	levels := []jsonLevel{{kind: kind, n: len(parts)}}
	var path []string
	probe := func(key string, index int, value json.RawMessage) json.RawMessage {
		for i := len(levels) - 1; i >= 0; i-- {
			if i < len(levels)-1 {
				key, index = levels[i].key, levels[i].index
			}
			value = levels[i].wrap(key, index, value)
		}
		return value
	}
	for {
		descended := false
		for i, part := range parts {
			childErr := check(probe(part.key, i, part.raw))
			if childErr == nil {
				continue
			}
			err = childErr
			path = append(path, part.key)
			// Descend unless the child fails even empty: then the key
			// itself, or the kind of its value, is what is wrong.
			if ck, cparts := jsonParts(part.raw); ck != 0 && check(probe(part.key, i, emptyJSON(ck))) == nil {
				levels[len(levels)-1].key, levels[len(levels)-1].index = part.key, i
				levels = append(levels, jsonLevel{kind: ck, n: len(cparts)})
				parts, descended = cparts, true
			}
			break
		}
		if !descended {
			return jsonPointer(path), err
		}
	}
}

// jsonPart is a member of a JSON object (key its name) or an element of
// an array (key its index), as written.
type jsonPart struct {
	key string
	raw json.RawMessage
}

// jsonParts splits a JSON object or array into its parts, in order; kind
// is '{' or '[', or 0 for a scalar or what is not JSON.
func jsonParts(raw json.RawMessage) (kind byte, parts []jsonPart) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' && raw[0] != '[' {
		return 0, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return 0, nil
	}
	for i := 0; dec.More(); i++ {
		key := strconv.Itoa(i)
		if raw[0] == '{' {
			tok, err := dec.Token()
			if err != nil {
				return 0, nil
			}
			key, _ = tok.(string)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return 0, nil
		}
		parts = append(parts, jsonPart{key: key, raw: v})
	}
	if _, err := dec.Token(); err != nil {
		return 0, nil
	}
	return raw[0], parts
}

// emptyJSON is the empty object or array.
func emptyJSON(kind byte) json.RawMessage {
	if kind == '{' {
		return json.RawMessage("{}")
	}
	return json.RawMessage("[]")
}

// jsonLevel is a container on the way to a value argPath probes: an
// object, or an array of n elements; key and index say which part leads
// on.
type jsonLevel struct {
	kind  byte
	n     int
	key   string
	index int
}

// wrap returns a container of the level's kind holding only value: as the
// member key of an object, or as element index of an array of the level's
// length whose other elements are null.
func (l jsonLevel) wrap(key string, index int, value json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if l.kind == '{' {
		name, _ := json.Marshal(key)
		b.WriteByte('{')
		b.Write(name)
		b.WriteByte(':')
		b.Write(value)
		b.WriteByte('}')
		return b.Bytes()
	}
	b.WriteByte('[')
	for j := range l.n {
		if j > 0 {
			b.WriteByte(',')
		}
		if j == index {
			b.Write(value)
		} else {
			b.WriteString("null")
		}
	}
	b.WriteByte(']')
	return b.Bytes()
}

// jsonPointer renders a path of object keys and array indexes as a JSON
// Pointer (RFC 6901): "" for the whole value.
func jsonPointer(path []string) string {
	var b strings.Builder
	for _, p := range path {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(p))
	}
	return b.String()
}

// schemaPath is the JSON Pointer of the first value a schema validation
// error names.
func schemaPath(err error) string {
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return ""
	}
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	return jsonPointer(ve.InstanceLocation)
}

// schemaDetail renders a schema validation error as one line: the leaf
// causes, "at '/seats': got string, want integer; ...".
func schemaDetail(err error) string {
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return err.Error()
	}
	var leaves []string
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			// A leaf reads "at '/seats': got string, want integer"; at
			// the root the location says nothing.
			leaves = append(leaves, strings.TrimPrefix(e.Error(), "at '': "))
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return strings.Join(leaves, "; ")
}
