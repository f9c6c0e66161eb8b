package exprlang

import (
	"fmt"
	"sort"
	"strings"
)

// Error is a problem in a condition or effect, at a byte range of its
// source text.
type Error struct {
	// Offset is the byte offset of the first wrong character.
	Offset int
	// End is the offset just past the wrong text (Offset when unknown).
	End int
	Msg string
	// Cascade marks an error that follows from a mistake reported
	// elsewhere (a Reported name): it makes the condition fail, and a
	// caller that prints diagnostics leaves it out.
	Cascade bool
}

func (e *Error) Error() string { return fmt.Sprintf("%d: %s", e.Offset, e.Msg) }

// ErrorList is every problem found, sorted by offset.
type ErrorList []*Error

func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns l as an error, or nil when l is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

func (l ErrorList) sort() {
	sort.SliceStable(l, func(i, j int) bool { return l[i].Offset < l[j].Offset })
}

func errorf(offset, end int, format string, args ...any) *Error {
	return &Error{Offset: offset, End: end, Msg: fmt.Sprintf(format, args...)}
}
