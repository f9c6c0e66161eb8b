package diag

import (
	"go/token"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSortDropsRepeats(t *testing.T) {
	at := func(file string, line, col int, msg string) Diagnostic {
		return Diagnostic{Pos: token.Position{Filename: file, Line: line, Column: col}, Msg: msg}
	}
	l := List{at("b.go", 1, 1, "x"), at("a.go", 2, 5, "y"), at("a.go", 2, 3, "z"), at("a.go", 2, 5, "y")}
	assert.Equal(t, List{at("a.go", 2, 3, "z"), at("a.go", 2, 5, "y"), at("b.go", 1, 1, "x")}, l.Sort())
}

func TestFormatRelative(t *testing.T) {
	d := Diagnostic{Pos: token.Position{Filename: "/m/soldier/s.go", Line: 9, Column: 29}, Msg: "bad"}
	assert.Equal(t, "soldier/s.go:9:29: bad", d.Format("/m"))
	assert.Equal(t, "/m/soldier/s.go:9:29: bad", d.Format("/elsewhere"))
	assert.Equal(t, "/m/soldier/s.go:9:29: bad", d.String())
}

// A loader's problem without a line (a malformed package path) prints no
// made-up :0:0.
func TestFormatWithoutPosition(t *testing.T) {
	d := Diagnostic{Pos: token.Position{Filename: "-format"}, Msg: `malformed import path "-format": leading dash`}
	assert.Equal(t, `-format: malformed import path "-format": leading dash`, d.String())
	d = Diagnostic{Pos: token.Position{Filename: "/m/go.mod", Line: 3}, Msg: "bad"}
	assert.Equal(t, "go.mod:3: bad", d.Format("/m"))
}
