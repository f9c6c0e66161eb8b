package rolegenimpl_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
	"github.com/rolegen/rolegen/runtime/rolegenimpl"
)

type countArgs struct {
	N uint `json:"n"`
}

// ArgsChecker refuses exactly what DecodeArgs refuses for the type.
func TestArgsCheckerDecodesAsPerformJSON(t *testing.T) {
	check := rolegenimpl.ArgsChecker[countArgs]("Shop", "Count")
	for _, args := range []string{`{"n":1}`, `{}`, ` {"n":0} `} {
		assert.NoError(t, check(json.RawMessage(args)), args)
	}
	for _, args := range []string{`{"n":-1}`, `{"n":1.5}`, `{"m":1}`, `[]`, ``, `{"n":1} {}`} {
		err := check(json.RawMessage(args))
		var v countArgs
		assert.Equal(t, rolegenimpl.DecodeArgs("Shop", "Count", json.RawMessage(args), &v), err, args)
		var ae *runtime.ArgsError
		require.True(t, errors.As(err, &ae), "%s: %v", args, err)
		assert.Equal(t, "Count", ae.Action)
	}
}
