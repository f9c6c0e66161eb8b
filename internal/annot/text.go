// Package annot reads rolegen's annotations out of Go source: the plan
// key of struct tags and //plan: directives in doc comments. Every byte of
// every value it returns keeps the source position it came from, through
// the quoting of struct tags and of directive values, so that a problem in
// a condition is reported at its exact character.
package annot

import (
	"fmt"
	"go/token"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Text is a string with the source position of each of its bytes.
type Text struct {
	S string
	// pos[i] is the position of S[i]; pos[len(S)] is the position just
	// past the last byte.
	pos []token.Pos
}

// NewText returns the source text s that starts at position start, where
// every byte stands at its own position; with start token.NoPos (text whose
// source is not at hand, such as the tag of a struct from export data) no
// byte has a position.
func NewText(s string, start token.Pos) Text {
	pos := make([]token.Pos, len(s)+1)
	if start.IsValid() {
		for i := range pos {
			pos[i] = start + token.Pos(i)
		}
	}
	return Text{S: s, pos: pos}
}

// Pos returns the position of byte i of t (i may be len(t.S)).
func (t Text) Pos(i int) token.Pos {
	if len(t.pos) == 0 {
		return token.NoPos
	}
	if i < 0 {
		i = 0
	}
	if i >= len(t.pos) {
		i = len(t.pos) - 1
	}
	return t.pos[i]
}

// End returns the position just past t.
func (t Text) End() token.Pos { return t.Pos(len(t.S)) }

// Slice returns t.S[i:j] with its positions.
func (t Text) Slice(i, j int) Text {
	return Text{S: t.S[i:j], pos: t.pos[i : j+1]}
}

// TrimSpace returns t without leading and trailing white space.
func (t Text) TrimSpace() Text {
	i, j := 0, len(t.S)
	for i < j && isSpace(t.S[i]) {
		i++
	}
	for j > i && isSpace(t.S[j-1]) {
		j--
	}
	return t.Slice(i, j)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// Unquote interprets t as a Go string literal (double-quoted with escapes,
// or back-quoted) and returns its value, each byte at the position of the
// source character it came from (an escape sequence maps to its
// backslash).
func (t Text) Unquote() (Text, error) {
	s := t.S
	if s == "" || (s[0] != '"' && s[0] != '`') {
		return Text{}, fmt.Errorf("malformed string literal %s", s)
	}
	if len(s) < 2 || s[len(s)-1] != s[0] {
		return Text{}, fmt.Errorf("string literal not terminated")
	}
	if s[0] == '`' {
		return t.Slice(1, len(s)-1), nil
	}
	var out strings.Builder
	var pos []token.Pos
	body := s[1 : len(s)-1]
	for i := 0; i < len(body); {
		start := i
		if body[i] == '"' {
			return Text{}, fmt.Errorf("unescaped \" inside string literal")
		}
		r, multibyte, tail, err := strconv.UnquoteChar(body[i:], '"')
		if err != nil {
			return Text{}, fmt.Errorf("invalid escape in string literal at %q", body[i:min(i+4, len(body))])
		}
		consumed := len(body[i:]) - len(tail)
		n := out.Len()
		if r < utf8.RuneSelf || !multibyte {
			out.WriteByte(byte(r))
		} else {
			out.WriteRune(r)
		}
		for range out.Len() - n {
			pos = append(pos, t.Pos(1+start))
		}
		i += consumed
	}
	pos = append(pos, t.Pos(len(s)-1))
	return Text{S: out.String(), pos: pos}, nil
}
