package reflecteval

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type mode int

type inner struct {
	Level int `plan:"state"`
}

type state struct {
	inner
	A, B  int     `plan:"state"`
	F     float64 `plan:"state"`
	S     string  `plan:"state"`
	On    bool    `plan:"state"`
	M     mode    `plan:"state"`
	Notes string
}

func TestEval(t *testing.T) {
	s := &state{inner: inner{Level: 3}, A: 7, B: 2, F: 1.5, S: "camp", On: true, M: 2}
	consts := map[string]any{"Fast": mode(2)}
	for src, want := range map[string]bool{
		"A > 5":                 true,
		"A + B*3 == 13":         true, // precedence
		"(A + B)*3 == 27":       true,
		"A/B == 3 && A%B == 1":  true, // integer division
		"-A + 10 == 3":          true,
		"F*2.0 > 2.9":           true,
		"S == 'camp' || false":  true,
		"S + \"!\" == 'camp!'":  true,
		"!On":                   false,
		"M == Fast && Level>=3": true,
		"A < 5 || B < 1":        false,
		"A - B - 1 == 4":        true, // left associative
	} {
		p, err := Compile(src, reflect.TypeFor[state](), consts)
		require.NoError(t, err, src)
		assert.Equal(t, want, p.Eval(s), src)
		assert.Equal(t, src, p.String())
	}
}

func TestCompileErrors(t *testing.T) {
	for _, src := range []string{"Nope > 1", "A >", "(A > 1", "A > 1 )", "A # 1", "S == 'open"} {
		_, err := Compile(src, reflect.TypeFor[state](), nil)
		assert.Error(t, err, src)
	}
}

func TestExtract(t *testing.T) {
	e := NewExtractor(reflect.TypeFor[state]())
	assert.Equal(t, []string{"Level", "A", "B", "F", "S", "On", "M"}, e.Fields())
	got := e.Extract(&state{inner: inner{Level: 1}, A: 2, S: "x", M: 3, Notes: "not state"})
	assert.Equal(t, map[string]any{"Level": 1, "A": 2, "B": 0, "F": 0.0, "S": "x", "On": false, "M": mode(3)}, got)
}
