// Package diag holds diagnostics: problems found in annotations, with the
// exact source position of the wrong character.
package diag

import (
	"cmp"
	"fmt"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
)

// Diagnostic is one problem at one position.
type Diagnostic struct {
	// At is the position in the file set it was found with (NoPos for
	// problems reported by the loader); EndAt is just past the wrong
	// text, when known, for tools that underline it.
	At, EndAt token.Pos
	// Pos and End are At and EndAt in that file set (End is zero when
	// EndAt is not known).
	Pos, End token.Position
	Msg      string
	// Notes are further lines about the same problem, each at its own
	// position: the type checker's "other declaration of X" after "X
	// redeclared".
	Notes []Note
}

// Note is a line of a diagnostic after its first.
type Note struct {
	Pos token.Position
	Msg string
}

// String formats d as FILE:LINE:COL: message with the file name as
// recorded.
func (d Diagnostic) String() string { return d.Format("") }

// Format formats d as FILE:LINE:COL: message, with FILE relative to dir
// when it lies below it; a problem the loader reports without a line or
// column (a malformed package path) is FILE: message, never FILE:0:0.
// Each note follows on a line of its own, indented by a tab, as the Go
// compiler prints them.
func (d Diagnostic) Format(dir string) string {
	s := formatAt(dir, d.Pos, d.Msg)
	for _, n := range d.Notes {
		s += "\n\t" + formatAt(dir, n.Pos, n.Msg)
	}
	return s
}

func formatAt(dir string, pos token.Position, msg string) string {
	file := RelPath(dir, pos.Filename)
	switch {
	case pos.Line == 0:
		return fmt.Sprintf("%s: %s", file, msg)
	case pos.Column == 0:
		return fmt.Sprintf("%s:%d: %s", file, pos.Line, msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", file, pos.Line, pos.Column, msg)
}

// RelPath returns path relative to dir when it lies below dir, else path
// as it is (also when dir is empty).
func RelPath(dir, path string) string {
	if dir != "" {
		if rel, err := filepath.Rel(dir, path); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return path
}

// List collects diagnostics.
type List []Diagnostic

// Add appends a diagnostic at pos.
func (l *List) Add(fset *token.FileSet, pos, end token.Pos, format string, args ...any) {
	d := Diagnostic{At: pos, EndAt: end, Pos: fset.Position(pos), Msg: fmt.Sprintf(format, args...)}
	if end.IsValid() {
		d.End = fset.Position(end)
	}
	*l = append(*l, d)
}

// Sort orders l by file, line and column (then message), and drops exact
// repeats (an embedded role's mistake found once per role embedding it).
func (l List) Sort() List {
	slices.SortStableFunc(l, func(a, b Diagnostic) int {
		return cmp.Or(
			cmp.Compare(a.Pos.Filename, b.Pos.Filename),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Column, b.Pos.Column),
			cmp.Compare(a.Msg, b.Msg),
		)
	})
	return slices.CompactFunc(l, func(a, b Diagnostic) bool {
		return a.Pos == b.Pos && a.Msg == b.Msg
	})
}
