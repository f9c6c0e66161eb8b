package gen

import (
	"go/constant"
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/rolegen/rolegen/exprlang"
	"github.com/rolegen/rolegen/internal/model"
)

// exprEmitter turns checked conditions into Go expressions over a state
// value named s.
type exprEmitter struct {
	role *model.Role
}

// expr emits e. The language has Go's precedence and associativity, so
// the tree prints as Go with only the parentheses the source had.
func (x *exprEmitter) expr(e exprlang.Expr) jen.Code {
	switch e := e.(type) {
	case *exprlang.Ident:
		switch e.Symbol.Kind {
		case exprlang.Field:
			return jen.Id("s").Dot(x.role.Fields[e.Symbol.Index].Name)
		case exprlang.Const:
			return jen.Qual(e.Symbol.PkgPath, e.Name)
		}
	case *exprlang.BasicLit:
		if e.LitKind == exprlang.StringLit {
			return jen.Lit(stringValue(e))
		}
		return jen.Op(e.Raw)
	case *exprlang.BoolLit:
		return jen.Lit(e.Val)
	case *exprlang.Paren:
		return jen.Parens(x.expr(e.X))
	case *exprlang.Unary:
		operand := x.expr(e.X)
		if _, nested := e.X.(*exprlang.Unary); nested && e.Op == exprlang.OpSub {
			// - -x would print as the decrement token.
			operand = jen.Parens(operand)
		}
		return jen.Op(e.Op.String()).Add(operand)
	case *exprlang.Binary:
		return jen.Add(x.expr(e.X)).Op(e.Op.String()).Add(x.expr(e.Y))
	}
	panic("gen: unexpected expression node")
}

// stringValue is the value of a checked string literal.
func stringValue(e *exprlang.BasicLit) string {
	if v := e.Value(); v != nil && v.Kind() == constant.String {
		return constant.StringVal(v)
	}
	return e.Raw
}

// effects emits the body of an effect function: all right-hand sides read
// the state before the action, so several effects become one tuple
// assignment.
func (x *exprEmitter) effects(effs []*exprlang.Effect) jen.Code {
	if len(effs) == 1 {
		e := effs[0]
		lhs := jen.Id("s").Dot(x.role.Fields[e.Field.Symbol.Index].Name)
		switch e.Op {
		case exprlang.Inc:
			return lhs.Op("++")
		case exprlang.Dec:
			return lhs.Op("--")
		}
		return lhs.Op(e.Op.String()).Add(x.expr(e.Value))
	}
	var lhs, rhs []jen.Code
	for _, e := range effs {
		field := x.role.Fields[e.Field.Symbol.Index].Name
		lhs = append(lhs, jen.Id("s").Dot(field))
		cur := jen.Id("s").Dot(field)
		switch e.Op {
		case exprlang.Assign:
			rhs = append(rhs, x.expr(e.Value))
		case exprlang.AddAssign:
			rhs = append(rhs, cur.Op("+").Add(x.operand(e.Value)))
		case exprlang.SubAssign:
			rhs = append(rhs, cur.Op("-").Add(x.operand(e.Value)))
		case exprlang.Inc:
			rhs = append(rhs, cur.Op("+").Lit(1))
		case exprlang.Dec:
			rhs = append(rhs, cur.Op("-").Lit(1))
		}
	}
	return jen.List(lhs...).Op("=").List(rhs...)
}

// operand emits e as the right operand of + or -, parenthesized when it
// is itself an operation.
func (x *exprEmitter) operand(e exprlang.Expr) jen.Code {
	switch e.(type) {
	case *exprlang.Binary, *exprlang.Unary:
		return jen.Parens(x.expr(e))
	}
	return x.expr(e)
}

// conjuncts splits a condition at its top-level && operators (through
// parentheses): a && (b && c) gives a, b, c.
func conjuncts(e exprlang.Expr) []exprlang.Expr {
	switch n := e.(type) {
	case *exprlang.Paren:
		return conjuncts(n.X)
	case *exprlang.Binary:
		if n.Op == exprlang.OpAnd {
			return append(conjuncts(n.X), conjuncts(n.Y)...)
		}
	}
	return []exprlang.Expr{e}
}

// maxParts is how many conjuncts an unmet mask tells apart; the last bit
// stands for all the rest.
const maxParts = 64

// groups gives each bit of an unmet mask its conjuncts.
func groups(parts []exprlang.Expr) [][]exprlang.Expr {
	var out [][]exprlang.Expr
	for i := 0; i < len(parts) && i < maxParts; i++ {
		if i == maxParts-1 {
			out = append(out, parts[i:])
			break
		}
		out = append(out, parts[i:i+1])
	}
	return out
}

// partReads returns the fields each bit of the unmet mask of parts reads.
func partReads(parts []exprlang.Expr) [][]int {
	var reads [][]int
	for _, group := range groups(parts) {
		var r []int
		for _, p := range group {
			r = append(r, exprlang.Reads(p)...)
		}
		slices.Sort(r)
		reads = append(reads, slices.Compact(r))
	}
	return reads
}

// unmet emits the body of a function reporting, one bit each, the
// conjuncts of parts that do not hold.
func (x *exprEmitter) unmet(parts []exprlang.Expr) []jen.Code {
	body := []jen.Code{jen.Var().Id("m").Uint64()}
	for i, group := range groups(parts) {
		cond := jen.Add(x.expr(group[0]))
		for _, p := range group[1:] {
			cond = cond.Op("&&").Add(x.expr(p))
		}
		body = append(body, jen.If(jen.Op("!").Parens(cond)).Block(
			jen.Id("m").Op("|=").Lit(1).Op("<<").Lit(i),
		))
	}
	return append(body, jen.Return(jen.Id("m")))
}
