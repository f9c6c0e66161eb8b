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
	root, perr := parseJSON(args)
	if perr != nil || root.kind == 0 || check((&jsonValue{kind: root.kind}).encode()) != nil {
		// The arguments as a whole are of the wrong kind.
		return "", err
	}
	// nodes[i] is the value at path[:i]; probe builds args holding only
	// value at path (with the arrays on the way at their full length).
	nodes := []*jsonValue{root}
	var path []string
	var indexes []int
	probe := func(key string, index int, value *jsonValue) json.RawMessage {
		for i := len(nodes) - 1; i >= 0; i-- {
			n := nodes[i]
			if n.kind == '{' {
				value = &jsonValue{kind: '{', members: []jsonMember{{key: key, value: value}}}
			} else {
				elems := make([]*jsonValue, len(n.elems))
				for j := range elems {
					elems[j] = &jsonValue{scalar: json.RawMessage("null")}
				}
				elems[index] = value
				value = &jsonValue{kind: '[', elems: elems}
			}
			if i > 0 {
				key, index = path[i-1], indexes[i-1]
			}
		}
		return value.encode()
	}
	for {
		node := nodes[len(nodes)-1]
		children := len(node.members)
		if node.kind == '[' {
			children = len(node.elems)
		} else if node.kind != '{' {
			children = 0
		}
		descended := false
		for i := range children {
			key, child := strconv.Itoa(i), (*jsonValue)(nil)
			if node.kind == '{' {
				key, child = node.members[i].key, node.members[i].value
			} else {
				child = node.elems[i]
			}
			childErr := check(probe(key, i, child))
			if childErr == nil {
				continue
			}
			err = childErr
			path, indexes = append(path, key), append(indexes, i)
			// Descend unless the child fails even empty: then the key
			// itself, or the kind of its value, is what is wrong.
			if child.kind != 0 && check(probe(key, i, &jsonValue{kind: child.kind})) == nil {
				nodes = append(nodes, child)
				descended = true
			}
			break
		}
		if !descended {
			return jsonPointer(path), err
		}
	}
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
