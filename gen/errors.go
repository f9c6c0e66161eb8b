package gen

import (
	"go/token"
	"strings"

	"github.com/rolegen/rolegen/internal/diag"
)

// Diagnostic is one problem rolegen found in an annotation (or one error
// the Go toolchain reported loading a package).
type Diagnostic struct {
	// Pos is the wrong character, with the file name as loaded.
	Pos token.Position
	// End is just past the wrong text, for tools that underline it; its
	// Line is 0 when the end is not known.
	End     token.Position
	Message string
	// Notes are further lines about the same problem, each at its own
	// position: for a name the type checker found declared twice, where
	// the other declaration is.
	Notes []Note
}

// Note is a line of a diagnostic after its first.
type Note struct {
	Pos     token.Position
	Message string
}

// String formats d as FILE:LINE:COL: message (FILE: message for a
// problem the loader reports without a line), each note on a line of
// its own after a tab.
func (d Diagnostic) String() string { return d.Format("") }

// Format is String with the files relative to dir when they lie below
// it.
func (d Diagnostic) Format(dir string) string {
	dd := diag.Diagnostic{Pos: d.Pos, Msg: d.Message}
	for _, n := range d.Notes {
		dd.Notes = append(dd.Notes, diag.Note{Pos: n.Pos, Msg: n.Message})
	}
	return dd.Format(dir)
}

// Error is the error of Generate and WriteGraphs when annotations are
// wrong: every diagnostic, sorted by position. errors.As finds it.
type Error struct {
	Diagnostics []Diagnostic
}

// Error lists the diagnostics one a line.
func (e *Error) Error() string {
	var b strings.Builder
	for i, d := range e.Diagnostics {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(d.String())
	}
	return b.String()
}

func newError(l diag.List) *Error {
	e := &Error{Diagnostics: make([]Diagnostic, len(l))}
	for i, d := range l {
		e.Diagnostics[i] = Diagnostic{Pos: d.Pos, End: d.End, Message: d.Msg}
		for _, n := range d.Notes {
			e.Diagnostics[i].Notes = append(e.Diagnostics[i].Notes, Note{Pos: n.Pos, Message: n.Msg})
		}
	}
	return e
}
