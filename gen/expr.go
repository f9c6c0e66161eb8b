package gen

import (
	"go/constant"

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

// float64 emits the numeric expression e converted to float64 as Go
// converts its type: computed in that type (integer division truncates,
// integers wrap around), then converted.
func (x *exprEmitter) float64(e exprlang.Expr) jen.Code {
	if t := e.Type(); t.Kind == exprlang.Float64 && t.Name == "" {
		return x.expr(e)
	}
	for {
		p, ok := e.(*exprlang.Paren)
		if !ok {
			break
		}
		e = p.X
	}
	return jen.Float64().Call(x.expr(e))
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
	if len(effs) == 1 && !x.role.Fields[effs[0].Field.Symbol.Index].Saturates() {
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
		if fld := x.role.Fields[e.Field.Symbol.Index]; fld.Saturates() {
			rhs[len(rhs)-1] = x.clamp(fld, rhs[len(rhs)-1])
		}
	}
	return jen.List(lhs...).Op("=").List(rhs...)
}

// clamp emits v, a value of saturating field fld, clamped into its range.
func (x *exprEmitter) clamp(fld *model.Field, v jen.Code) jen.Code {
	// The field's type is given: a constant value would make it int.
	typ := typeCode(fld.Type)
	switch {
	case fld.Max == "":
		return jen.Qual(implPath, "AtLeast").Types(typ).Call(v, jen.Op(fld.Min))
	case fld.Min == "":
		return jen.Qual(implPath, "AtMost").Types(typ).Call(v, jen.Op(fld.Max))
	}
	return jen.Qual(implPath, "Clamp").Types(typ).Call(v, jen.Op(fld.Min), jen.Op(fld.Max))
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

// unmet emits the body of a function reporting, one bit each, the parts
// of a condition that do not hold.
func (x *exprEmitter) unmet(parts []model.Part) []jen.Code {
	body := []jen.Code{jen.Var().Id("m").Uint64()}
	for i, p := range parts {
		cond := jen.Add(x.expr(p.Conds[0]))
		for _, c := range p.Conds[1:] {
			cond = cond.Op("&&").Add(x.expr(c))
		}
		body = append(body, jen.If(jen.Op("!").Parens(cond)).Block(
			jen.Id("m").Op("|=").Lit(1).Op("<<").Lit(i),
		))
	}
	return append(body, jen.Return(jen.Id("m")))
}
