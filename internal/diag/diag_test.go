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
