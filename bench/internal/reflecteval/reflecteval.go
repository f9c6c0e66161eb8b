// Package reflecteval is the baseline a reflection-based design would
// use instead of generated code: conditions parsed once into a tree that is
// walked on every evaluation, looking state fields up by name with
// reflect.Value.FieldByName and carrying values boxed in interface{}; and
// state extraction that reads the fields tagged plan:"state" through
// reflect into a map[string]any.
//
// It understands the condition language of rolegen (see SPEC §2): Go's
// operators and precedence over fields and named constants, with Go's
// integer division and no implicit int/float mixing between fields (an
// untyped number adapts to the other operand).
package reflecteval

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode"
)

// Program is a parsed condition.
type Program struct {
	src  string
	root node
}

// Eval evaluates the condition against the struct state points to.
func (p *Program) Eval(state any) bool {
	v := reflect.ValueOf(state).Elem()
	b, _ := p.root.eval(v).(bool)
	return b
}

// String returns the condition as written.
func (p *Program) String() string { return p.src }

// node is a tree node: it evaluates to int64, float64, string or bool,
// boxed.
type node interface {
	eval(v reflect.Value) any
}

type literal struct{ v any }

func (n literal) eval(reflect.Value) any { return n.v }

type field struct{ name string }

func (n field) eval(v reflect.Value) any {
	f := v.FieldByName(n.name)
	switch f.Kind() {
	case reflect.Bool:
		return f.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return f.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return int64(f.Uint())
	case reflect.Float32, reflect.Float64:
		return f.Float()
	case reflect.String:
		return f.String()
	}
	panic(fmt.Sprintf("reflecteval: field %s: unsupported kind %s", n.name, f.Kind()))
}

type unary struct {
	op string
	x  node
}

func (n unary) eval(v reflect.Value) any {
	x := n.x.eval(v)
	if n.op == "!" {
		return !x.(bool)
	}
	switch x := x.(type) {
	case int64:
		return -x
	case float64:
		return -x
	}
	panic("reflecteval: bad operand of -")
}

type binary struct {
	op   string
	l, r node
}

func (n binary) eval(v reflect.Value) any {
	switch n.op {
	case "&&":
		return n.l.eval(v).(bool) && n.r.eval(v).(bool)
	case "||":
		return n.l.eval(v).(bool) || n.r.eval(v).(bool)
	}
	l, r := n.l.eval(v), n.r.eval(v)
	switch l := l.(type) {
	case int64:
		switch r := r.(type) {
		case int64:
			return intOp(n.op, l, r)
		case float64:
			return floatOp(n.op, float64(l), r)
		}
	case float64:
		switch r := r.(type) {
		case float64:
			return floatOp(n.op, l, r)
		case int64:
			return floatOp(n.op, l, float64(r))
		}
	case string:
		return stringOp(n.op, l, r.(string))
	case bool:
		switch n.op {
		case "==":
			return l == r.(bool)
		case "!=":
			return l != r.(bool)
		}
	}
	panic(fmt.Sprintf("reflecteval: bad operands of %s: %T, %T", n.op, l, r))
}

func intOp(op string, l, r int64) any {
	switch op {
	case "+":
		return l + r
	case "-":
		return l - r
	case "*":
		return l * r
	case "/":
		return l / r
	case "%":
		return l % r
	case "==":
		return l == r
	case "!=":
		return l != r
	case "<":
		return l < r
	case "<=":
		return l <= r
	case ">":
		return l > r
	case ">=":
		return l >= r
	}
	panic("reflecteval: bad int operator " + op)
}

func floatOp(op string, l, r float64) any {
	switch op {
	case "+":
		return l + r
	case "-":
		return l - r
	case "*":
		return l * r
	case "/":
		return l / r
	case "==":
		return l == r
	case "!=":
		return l != r
	case "<":
		return l < r
	case "<=":
		return l <= r
	case ">":
		return l > r
	case ">=":
		return l >= r
	}
	panic("reflecteval: bad float operator " + op)
}

func stringOp(op string, l, r string) any {
	switch op {
	case "+":
		return l + r
	case "==":
		return l == r
	case "!=":
		return l != r
	case "<":
		return l < r
	case "<=":
		return l <= r
	case ">":
		return l > r
	case ">=":
		return l >= r
	}
	panic("reflecteval: bad string operator " + op)
}

// Compile parses src. Identifiers that are not fields of the state type t
// (a struct type) are looked up in consts; their values are stored as
// int64, float64, string or bool by kind.
func Compile(src string, t reflect.Type, consts map[string]any) (*Program, error) {
	toks, err := tokenize(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks, t: t, consts: consts}
	root, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.pos != len(p.toks) {
		return nil, fmt.Errorf("reflecteval: %q: unexpected %q", src, p.toks[p.pos])
	}
	return &Program{src: src, root: root}, nil
}

type parser struct {
	toks   []string
	pos    int
	t      reflect.Type
	consts map[string]any
}

func (p *parser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

func (p *parser) or() (node, error) { return p.left(p.and, "||") }

func (p *parser) and() (node, error) { return p.left(p.cmp, "&&") }

func (p *parser) sum() (node, error) { return p.left(p.prod, "+", "-") }

func (p *parser) prod() (node, error) { return p.left(p.unary, "*", "/", "%") }

// left parses a left-associative chain of next separated by ops.
func (p *parser) left(next func() (node, error), ops ...string) (node, error) {
	l, err := next()
	if err != nil {
		return nil, err
	}
	for {
		op := p.peek()
		if !contains(ops, op) {
			return l, nil
		}
		p.pos++
		r, err := next()
		if err != nil {
			return nil, err
		}
		l = binary{op: op, l: l, r: r}
	}
}

func (p *parser) cmp() (node, error) {
	l, err := p.sum()
	if err != nil {
		return nil, err
	}
	op := p.peek()
	if !contains([]string{"==", "!=", "<", "<=", ">", ">="}, op) {
		return l, nil
	}
	p.pos++
	r, err := p.sum()
	if err != nil {
		return nil, err
	}
	return binary{op: op, l: l, r: r}, nil
}

func (p *parser) unary() (node, error) {
	if op := p.peek(); op == "!" || op == "-" {
		p.pos++
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		return unary{op: op, x: x}, nil
	}
	return p.primary()
}

func (p *parser) primary() (node, error) {
	tok := p.peek()
	if tok == "" {
		return nil, fmt.Errorf("reflecteval: unexpected end of condition")
	}
	p.pos++
	switch c := tok[0]; {
	case tok == "(":
		x, err := p.or()
		if err != nil {
			return nil, err
		}
		if p.peek() != ")" {
			return nil, fmt.Errorf("reflecteval: missing )")
		}
		p.pos++
		return x, nil
	case c == '\'' || c == '"':
		s, err := strconv.Unquote(`"` + strings.ReplaceAll(tok[1:len(tok)-1], `"`, `\"`) + `"`)
		if err != nil {
			return nil, err
		}
		return literal{s}, nil
	case c >= '0' && c <= '9':
		if strings.Contains(tok, ".") {
			f, err := strconv.ParseFloat(tok, 64)
			return literal{f}, err
		}
		i, err := strconv.ParseInt(tok, 10, 64)
		return literal{i}, err
	case tok == "true" || tok == "false":
		return literal{tok == "true"}, nil
	}
	if _, ok := p.t.FieldByName(tok); ok {
		return field{tok}, nil
	}
	if c, ok := p.consts[tok]; ok {
		return literal{normalize(reflect.ValueOf(c))}, nil
	}
	return nil, fmt.Errorf("reflecteval: unknown name %q", tok)
}

// normalize returns v as int64, float64, string or bool.
func normalize(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Bool:
		return v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return int64(v.Uint())
	case reflect.Float32, reflect.Float64:
		return v.Float()
	case reflect.String:
		return v.String()
	}
	panic("reflecteval: unsupported constant kind " + v.Kind().String())
}

func contains(ops []string, op string) bool {
	for _, o := range ops {
		if o == op {
			return true
		}
	}
	return false
}

// tokenize splits src into identifiers, numbers, quoted strings (quotes
// kept) and operators.
func tokenize(src string) ([]string, error) {
	var toks []string
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '\'' || c == '"':
			j := strings.IndexByte(src[i+1:], c)
			if j < 0 {
				return nil, fmt.Errorf("reflecteval: unterminated string in %q", src)
			}
			toks = append(toks, src[i:i+j+2])
			i += j + 2
		case c >= '0' && c <= '9':
			j := i
			for j < len(src) && (src[j] >= '0' && src[j] <= '9' || src[j] == '.') {
				j++
			}
			toks = append(toks, src[i:j])
			i = j
		case c == '_' || unicode.IsLetter(rune(c)):
			j := i
			for j < len(src) && (src[j] == '_' || unicode.IsLetter(rune(src[j])) || unicode.IsDigit(rune(src[j]))) {
				j++
			}
			toks = append(toks, src[i:j])
			i = j
		default:
			if i+1 < len(src) {
				if two := src[i : i+2]; contains([]string{"&&", "||", "==", "!=", "<=", ">="}, two) {
					toks = append(toks, two)
					i += 2
					continue
				}
			}
			if !strings.ContainsRune("+-*/%<>!()", rune(c)) {
				return nil, fmt.Errorf("reflecteval: unexpected %q in %q", c, src)
			}
			toks = append(toks, string(c))
			i++
		}
	}
	return toks, nil
}
