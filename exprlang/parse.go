package exprlang

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// ParseCondition parses a condition. The error, if any, is an [ErrorList]
// with the position of the first syntax error.
func ParseCondition(src string) (Expr, error) {
	if strings.TrimSpace(src) == "" {
		return nil, ErrorList{errorf(0, len(src), "empty condition")}
	}
	return parseExpr(src, inCondition)
}

// ParseCost parses the cost of an action: an expression of the language
// (numeric once checked, see [CheckCost]).
func ParseCost(src string) (Expr, error) {
	if strings.TrimSpace(src) == "" {
		return nil, ErrorList{errorf(0, len(src), "empty cost: write a number, as in cost=2, or an expression, as in cost=\"2 + Distance / 10\"")}
	}
	return parseExpr(src, inCost)
}

// textKind tells what a source text is, for syntax errors: a condition, a
// post or a cost.
type textKind uint8

const (
	inCondition textKind = iota
	inPost
	inCost
)

func (c textKind) String() string {
	return [...]string{inCondition: "condition", inPost: "post", inCost: "cost"}[c]
}

func parseExpr(src string, what textKind) (Expr, error) {
	tree, err := condParser.ParseString("", src)
	if err != nil {
		return nil, ErrorList{syntaxError(src, err, what)}
	}
	var errs ErrorList
	e := convertCond(tree, &errs)
	if len(errs) > 0 {
		return nil, errs
	}
	return e, nil
}

// ParseEffects parses the comma-separated effects of a post.
func ParseEffects(src string) ([]*Effect, error) {
	if strings.TrimSpace(src) == "" {
		return nil, ErrorList{errorf(0, len(src), "empty post: write at least one effect, as in Ammo = 30")}
	}
	tree, err := effectsParser.ParseString("", src)
	if err != nil {
		return nil, ErrorList{syntaxError(src, err, inPost)}
	}
	var errs ErrorList
	out := make([]*Effect, 0, len(tree.List))
	for _, g := range tree.List {
		eff := &Effect{
			Field:    &Ident{Name: g.Field, Offset: g.Pos.Offset, NameOffset: g.Pos.Offset},
			OpOffset: g.Op.Pos.Offset,
		}
		op := g.Op.Op
		switch op {
		case "=":
			eff.Op = Assign
		case "+=":
			eff.Op = AddAssign
		case "-=":
			eff.Op = SubAssign
		case "++":
			eff.Op = Inc
		case "--":
			eff.Op = Dec
		}
		hasValue := eff.Op == Assign || eff.Op == AddAssign || eff.Op == SubAssign
		switch {
		case hasValue && g.Value == nil:
			at := eff.OpOffset + len(op)
			errs = append(errs, errorf(at, at, "missing value after %s in effect on %s", op, g.Field))
		case !hasValue && g.Value != nil:
			v := convertCond(g.Value, &errs)
			if v != nil {
				errs = append(errs, errorf(v.Pos(), v.End(), "unexpected value after %s%s", g.Field, op))
			}
		case hasValue:
			eff.Value = convertCond(g.Value, &errs)
		}
		out = append(out, eff)
	}
	if len(errs) > 0 {
		errs.sort()
		return nil, errs
	}
	return out, nil
}

// syntaxError turns a participle error into a message a user can act on,
// at the offset of the token that does not fit.
func syntaxError(src string, err error, what textKind) *Error {
	var perr participle.Error
	if !errors.As(err, &perr) {
		return errorf(0, len(src), "%v", err)
	}
	off := perr.Position().Offset
	if off > len(src) {
		off = len(src)
	}
	rest := src[off:]
	if strings.TrimSpace(rest) == "" {
		return errorf(len(src), len(src), "unexpected end of %s (expected an operand)", what)
	}
	tok, ok := nextToken(rest)
	if !ok {
		switch c := rest[0]; c {
		case '\'', '"':
			return errorf(off, len(src), "string literal not terminated")
		case '&':
			return errorf(off, off+1, "unexpected & (did you mean &&?)")
		case '|':
			return errorf(off, off+1, "unexpected | (did you mean ||?)")
		default:
			r, size := firstRune(rest)
			return errorf(off, off+size, "unexpected character %q", r)
		}
	}
	end := off + len(tok.Value)
	switch tok.Value {
	case "=":
		switch what {
		case inCondition:
			return errorf(off, end, "unexpected = in condition (use == to compare)")
		case inCost:
			return errorf(off, end, "unexpected = in cost (a cost is a number or a numeric expression; effects belong in post)")
		}
	case "==", "!=", "<", "<=", ">", ">=":
		return errorf(off, end, "unexpected %s: comparisons cannot be chained (join them with &&)", tok.Value)
	case ")":
		return errorf(off, end, "unexpected ) without a matching (")
	case ".":
		if what == inPost {
			return errorf(off, end, "unexpected . in post (effects assign the role's state fields, named directly)")
		}
		return errorf(off, end, "unexpected . (a selector is a package's constant, as in time.Hour; state fields are named directly)")
	case "++", "--", "+=", "-=":
		if what != inPost {
			return errorf(off, end, "unexpected %s in %s (effects belong in post)", tok.Value, what)
		}
	case ",":
		switch what {
		case inCondition:
			return errorf(off, end, "unexpected , in condition (join conditions with &&)")
		case inCost:
			return errorf(off, end, "unexpected , in cost (a cost is one number or one numeric expression)")
		}
	}
	return errorf(off, end, "unexpected %s", quoteToken(tok.Value))
}

func quoteToken(s string) string {
	if strings.ContainsAny(s, `'"`) {
		return s
	}
	return strconv.Quote(s)
}

func firstRune(s string) (rune, int) { return utf8.DecodeRuneInString(s) }

// nextToken lexes the first non-blank token of s.
func nextToken(s string) (lexer.Token, bool) {
	lx, err := lexerDef.LexString("", s)
	if err != nil {
		return lexer.Token{}, false
	}
	ws := lexerDef.Symbols()["Whitespace"]
	for {
		tok, err := lx.Next()
		if err != nil || tok.EOF() {
			return lexer.Token{}, false
		}
		if tok.Type != ws {
			return tok, true
		}
	}
}

func convertCond(g *gCond, errs *ErrorList) Expr {
	x := convertAnd(g.Left, errs)
	for _, r := range g.Right {
		x = &Binary{Op: OpOr, X: x, Y: convertAnd(r.Right, errs), OpOffset: r.Pos.Offset}
	}
	return x
}

func convertAnd(g *gAnd, errs *ErrorList) Expr {
	x := convertCmp(g.Left, errs)
	for _, r := range g.Right {
		x = &Binary{Op: OpAnd, X: x, Y: convertCmp(r.Right, errs), OpOffset: r.Pos.Offset}
	}
	return x
}

func convertCmp(g *gCmp, errs *ErrorList) Expr {
	x := convertSum(g.Left, errs)
	if g.Right == nil {
		return x
	}
	return &Binary{Op: opFromText(g.Right.Op), X: x, Y: convertSum(g.Right.Right, errs), OpOffset: g.Right.Pos.Offset}
}

func convertSum(g *gSum, errs *ErrorList) Expr {
	x := convertProd(g.Left, errs)
	for _, r := range g.Right {
		x = &Binary{Op: opFromText(r.Op), X: x, Y: convertProd(r.Right, errs), OpOffset: r.Pos.Offset}
	}
	return x
}

func convertProd(g *gProd, errs *ErrorList) Expr {
	x := convertUnary(g.Left, errs)
	for _, r := range g.Right {
		x = &Binary{Op: opFromText(r.Op), X: x, Y: convertUnary(r.Right, errs), OpOffset: r.Pos.Offset}
	}
	return x
}

func convertUnary(g *gUnary, errs *ErrorList) Expr {
	if g.Primary != nil {
		return convertPrimary(g.Primary, errs)
	}
	return &Unary{Op: opFromText(g.Op), X: convertUnary(g.X, errs), Offset: g.Pos.Offset}
}

func convertPrimary(g *gPrimary, errs *ErrorList) Expr {
	off := g.Pos.Offset
	switch {
	case g.Float != nil:
		return &BasicLit{LitKind: FloatLit, Raw: *g.Float, Offset: off}
	case g.Int != nil:
		return &BasicLit{LitKind: IntLit, Raw: *g.Int, Offset: off}
	case g.String != nil:
		return &BasicLit{LitKind: StringLit, Raw: *g.String, Offset: off}
	case g.Bool != nil:
		return &BoolLit{Val: bool(*g.Bool), Offset: off}
	case g.Qual != nil:
		return &Ident{Pkg: g.Qual.Pkg, Name: g.Qual.Name.Name, Offset: off, NameOffset: g.Qual.Name.Pos.Offset}
	case g.Ident != nil:
		return &Ident{Name: *g.Ident, Offset: off, NameOffset: off}
	case g.Sub != nil:
		return &Paren{X: convertCond(g.Sub, errs), Offset: off, Rbr: g.EndPos.Offset - 1}
	}
	*errs = append(*errs, errorf(off, off, "internal error: empty operand"))
	return &BoolLit{Offset: off}
}

// unquote returns the value of a string literal written with single or
// double quotes and Go's escapes; inside single quotes \' is a quote.
func unquote(raw string) (string, error) {
	if len(raw) < 2 {
		return "", fmt.Errorf("malformed string literal")
	}
	if raw[0] == '"' {
		return strconv.Unquote(raw)
	}
	// Rewrite 'a\'b"c' as "a'b\"c" and let strconv apply Go's escapes.
	body := raw[1 : len(raw)-1]
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c == '\\' && i+1 < len(body) && body[i+1] == '\'':
			b.WriteByte('\'')
			i++
		case c == '\\' && i+1 < len(body):
			b.WriteByte(c)
			b.WriteByte(body[i+1])
			i++
		case c == '"':
			b.WriteString(`\"`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return strconv.Unquote(b.String())
}
