package annot

import (
	"fmt"
	"strconv"
	"strings"
)

// Field is one key=value (or bare key) of a plan tag or directive.
type Field struct {
	Key Text
	// Value is the value without its quotes; HasValue is false for a bare
	// key such as guarded.
	Value    Text
	HasValue bool
}

// Problem is a malformed piece of an annotation.
type Problem struct {
	At  Text // where; At.Pos(0) is the position reported
	Msg string
}

// SplitTag splits the value of a plan struct tag into its ;-separated
// fields, key=value or bare key. A ; inside a quoted string of a condition
// does not split.
func SplitTag(v Text) ([]Field, []Problem) {
	var fields []Field
	var probs []Problem
	start := 0
	var quote byte
	for i := 0; i <= len(v.S); i++ {
		if i < len(v.S) {
			c := v.S[i]
			switch {
			case quote != 0 && c == '\\':
				i++
				continue
			case quote != 0 && c == quote:
				quote = 0
				continue
			case quote != 0:
				continue
			case c == '\'' || c == '"':
				quote = c
				continue
			case c != ';':
				continue
			}
		}
		part := v.Slice(start, i)
		start = i + 1
		if strings.TrimSpace(part.S) == "" {
			// A trailing ; is harmless; an empty entry between two is a
			// slip worth pointing at.
			if i < len(v.S) {
				probs = append(probs, Problem{At: part, Msg: "empty entry in plan tag"})
			}
			continue
		}
		fields = append(fields, splitKeyValue(part))
	}
	return fields, probs
}

func splitKeyValue(part Text) Field {
	part = part.TrimSpace()
	eq := strings.IndexByte(part.S, '=')
	if eq < 0 {
		return Field{Key: part}
	}
	return Field{Key: part.Slice(0, eq).TrimSpace(), Value: part.Slice(eq+1, len(part.S)).TrimSpace(), HasValue: true}
}

// DirectivePrefix starts every rolegen directive.
const DirectivePrefix = "//plan:"

// Directive is a //plan:NAME line.
type Directive struct {
	// Name is what follows //plan: up to the first space ("action").
	Name Text
	// Args is the rest of the line.
	Args Text
}

// ParseDirective splits a comment that starts with //plan: into its name
// and arguments; ok is false for any other comment.
func ParseDirective(c Text) (Directive, bool) {
	if !strings.HasPrefix(c.S, DirectivePrefix) {
		return Directive{}, false
	}
	rest := len(DirectivePrefix)
	end := rest
	for end < len(c.S) && !isSpace(c.S[end]) {
		end++
	}
	return Directive{Name: c.Slice(rest, end), Args: c.Slice(end, len(c.S))}, true
}

// SplitDirective splits the arguments of a directive into key=value
// fields: values are bare words without spaces or Go string literals,
// double-quoted or back-quoted; a key without = is a bare key.
func SplitDirective(args Text) ([]Field, []Problem) {
	var fields []Field
	var probs []Problem
	s := args.S
	i := 0
	for {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i >= len(s) {
			return fields, probs
		}
		k := i
		for i < len(s) && !isSpace(s[i]) && s[i] != '=' && s[i] != '"' && s[i] != '`' {
			i++
		}
		if i == k {
			// A value with no key: skip the literal or word.
			j := skipValue(s, i)
			probs = append(probs, Problem{At: args.Slice(k, j), Msg: fmt.Sprintf("value %s has no key (write key=value)", s[k:j])})
			i = j
			continue
		}
		f := Field{Key: args.Slice(k, i)}
		if i < len(s) && s[i] == '=' {
			i++
			start := i
			j := skipValue(s, i)
			raw := args.Slice(i, j)
			i = j
			f.HasValue = true
			switch {
			case raw.S == "":
				probs = append(probs, Problem{At: raw, Msg: fmt.Sprintf("missing value after %s=", f.Key.S)})
				continue
			case raw.S[0] == '"' || raw.S[0] == '`':
				v, err := raw.Unquote()
				if err != nil {
					probs = append(probs, Problem{At: raw, Msg: fmt.Sprintf("value of %s: %v", f.Key.S, err)})
					continue
				}
				f.Value = v
			default:
				if end, ok := runOn(s, start, j); ok {
					// pre=Ammo > 10: the value stopped at the first
					// space and the rest would read as keys.
					text := strings.TrimSpace(s[start:end])
					probs = append(probs, Problem{At: args.Slice(start, end),
						Msg: fmt.Sprintf("value of %s ends at the first space; quote it: %s=%s", f.Key.S, f.Key.S, quote(text))})
					i = end
					continue
				}
				f.Value = raw
			}
		} else if i < len(s) && (s[i] == '"' || s[i] == '`') {
			j := skipValue(s, i)
			probs = append(probs, Problem{At: args.Slice(i, i), Msg: fmt.Sprintf("missing = between %s and its value", f.Key.S)})
			i = j
			continue
		}
		fields = append(fields, f)
	}
}

// skipValue returns the end of the value starting at s[i]: a quoted
// literal (to its closing quote, or the end of the line) or a word.
func skipValue(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch q := s[i]; q {
	case '"':
		j := i + 1
		for j < len(s) && s[j] != '"' {
			if s[j] == '\\' {
				j++
			}
			j++
		}
		return min(j+1, len(s))
	case '`':
		j := i + 1
		for j < len(s) && s[j] != '`' {
			j++
		}
		return min(j+1, len(s))
	}
	j := i
	for j < len(s) && !isSpace(s[j]) {
		j++
	}
	return j
}

// runOn reports whether the bare value s[start:end] runs on past the
// space that ends it: the next word is not a key (an operator, a
// literal), or the value ends with an operator or comma. It returns the
// end of the run-on text: the next key=, or the end of s.
func runOn(s string, start, end int) (int, bool) {
	next := end
	for next < len(s) && isSpace(s[next]) {
		next++
	}
	if next == len(s) {
		return 0, false
	}
	if s[next] == '=' && (next+1 == len(s) || s[next+1] != '=') {
		return 0, false // "cost=1 =2": a value without a key, not an operator
	}
	last := s[end-1]
	if isKeyStart(s[next]) && !strings.ContainsRune(",&|=<>!+-*/%(", rune(last)) {
		return 0, false
	}
	stop := len(s)
	for k := next; k < len(s); {
		for k < len(s) && isSpace(s[k]) {
			k++
		}
		if keyAt(s, k) {
			stop = k
			break
		}
		k = skipValue(s, k)
	}
	for stop > end && isSpace(s[stop-1]) {
		stop--
	}
	return stop, true
}

func isKeyStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// keyAt reports whether a key= (not ==) starts at s[k].
func keyAt(s string, k int) bool {
	if k >= len(s) || !isKeyStart(s[k]) {
		return false
	}
	j := k
	for j < len(s) && (isKeyStart(s[j]) || s[j] >= '0' && s[j] <= '9') {
		j++
	}
	return j < len(s) && s[j] == '=' && (j+1 == len(s) || s[j+1] != '=')
}

// quote writes a directive value as a Go string literal, double-quoted
// when that needs no escapes.
func quote(s string) string {
	switch {
	case !strings.ContainsAny(s, `\"`):
		return `"` + s + `"`
	case !strings.Contains(s, "`"):
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}
