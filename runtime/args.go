package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// DecodeArgs decodes the JSON arguments of an action into v strictly:
// the arguments must be one JSON object whose keys are all fields of v.
// Generated PerformJSON methods call it.
func DecodeArgs(role, action string, data json.RawMessage, v any) error {
	wrap := func(err error) error { return &ArgsError{Role: role, Action: action, Err: err} }
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return wrap(errors.New("want a JSON object"))
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return wrap(err)
	}
	if dec.More() {
		return wrap(fmt.Errorf("unexpected data after the arguments"))
	}
	return nil
}

// ArgsChecker returns the Action.CheckArgs of an action whose arguments
// are a T: it decodes them with DecodeArgs, as the generated PerformJSON
// does, into a T it then drops.
func ArgsChecker[T any](role, action string) func(args json.RawMessage) error {
	return func(args json.RawMessage) error {
		var v T
		return DecodeArgs(role, action, args, &v)
	}
}

// EncodeResult encodes an action's result as JSON.
func EncodeResult(role, action string, v any) (json.RawMessage, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, &ArgsError{Role: role, Action: action, Result: true, Err: err}
	}
	return b, nil
}
