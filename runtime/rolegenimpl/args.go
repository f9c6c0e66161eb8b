package rolegenimpl

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/rolegen/rolegen/runtime"
)

// DecodeArgs decodes the JSON arguments of an action into v strictly:
// the arguments must be one JSON object whose keys are all fields of v.
// Generated PerformJSON methods call it; its errors are *runtime.ArgsError.
func DecodeArgs(role, action string, data json.RawMessage, v any) error {
	wrap := func(err error) error { return &runtime.ArgsError{Role: role, Action: action, Err: err} }
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

// ArgsChecker returns the runtime.Action.CheckArgs of an action whose
// arguments are a T: it decodes them with DecodeArgs, as the generated
// PerformJSON does, into a T it then drops.
func ArgsChecker[T any](role, action string) func(args json.RawMessage) error {
	return func(args json.RawMessage) error {
		var v T
		return DecodeArgs(role, action, args, &v)
	}
}

// EncodeResult encodes an action's result as JSON; its error is a
// *runtime.ArgsError with Result set.
func EncodeResult(role, action string, v any) (json.RawMessage, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, &runtime.ArgsError{Role: role, Action: action, Result: true, Err: err}
	}
	return b, nil
}

// NewArgAction returns the runtime.ArgAction of action id of d, whose
// method run calls with its arguments: the generated RActionArgs
// variables.
func NewArgAction[R any, S comparable, T any](d *runtime.Domain[S], id runtime.ActionID, run func(ctx context.Context, r R, in T) error) runtime.ArgAction[R, S, T] {
	return runtime.ArgAction[R, S, T]{Domain: d, ID: id, Run: run}
}

// UnknownAction returns the error a generated Perform returns for an
// ActionID its role does not have; errors.Is matches
// runtime.ErrUnknownAction.
func UnknownAction(role string, a runtime.ActionID) error {
	return fmt.Errorf("rolegen: %s: %w %d", role, runtime.ErrUnknownAction, a)
}

// NeedsArguments returns the error a generated Perform returns for an
// action that takes typed arguments: a *runtime.NeedsArgumentsError.
func NeedsArguments(role, action string) error {
	return &runtime.NeedsArgumentsError{Role: role, Action: action, Step: -1}
}
