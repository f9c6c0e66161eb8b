package gen

import (
	"fmt"
	"go/constant"
	"math"
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/rolegen/rolegen/exprlang"
	"github.com/rolegen/rolegen/internal/model"
)

// What the planners learn of the forms of conditions and effects: for each
// conjunct that compares a field with a constant, the comparison; for each
// effect that sets a field to a constant or adds one to it, that. The
// runtime derives from these which actions can make which conjunct hold.

// part is the form of one conjunct (or of a group of them, the last bit of
// an unmet mask: no form).
type part struct {
	reads []int
	cmp   string // the runtime's Cmp constant; "" for no form
	field int
	num   float64
	str   *string // the constant of a string field
	// any, for a conjunct with no form that is a disjunction of
	// comparisons that each have one, are their forms (runtime Part.Any).
	any []part
	// sum, for a conjunct with no form that compares a weighted sum of
	// numeric fields with a constant, is that comparison (runtime
	// Part.Sum).
	sum *sum
}

// sum is the form of a comparison of Σ terms' coef × field with num.
type sum struct {
	terms []term
	cmp   string // the runtime's Cmp constant: CmpLt, CmpLe, CmpGt or CmpGe
	num   float64
}

// term is one field of a sum, times a constant.
type term struct {
	field int
	coef  float64
}

// change is the form of one effect.
type change struct {
	field int
	op    string // the runtime's ChangeOp constant
	num   float64
	str   *string
	by    int // ChangeAddTimes: the field num multiplies
}

// conditionParts returns the forms of the parts of a condition (the
// model's, as its unmet mask groups its conjuncts).
func conditionParts(parts []model.Part) []part {
	var out []part
	for _, mp := range parts {
		p := part{reads: mp.Reads}
		if len(mp.Conds) == 1 {
			p.comparison(mp.Conds[0])
			if p.cmp == "" {
				p.any = disjunction(mp.Conds[0])
			}
			if p.cmp == "" && p.any == nil {
				p.sum = sumComparison(mp.Conds[0])
			}
		}
		out = append(out, p)
	}
	return out
}

// disjunction returns the forms of the operands of e's top-level ||
// operators when e has two or more and each compares one field with a
// constant; else nil.
func disjunction(e exprlang.Expr) []part {
	ds := exprlang.Disjuncts(e)
	if len(ds) < 2 {
		return nil
	}
	out := make([]part, len(ds))
	for i, d := range ds {
		q := &out[i]
		if q.comparison(d); q.cmp == "" {
			return nil
		}
		q.reads = []int{q.field}
	}
	return out
}

var cmpNames = map[exprlang.Op]string{
	exprlang.OpEql: "CmpEq", exprlang.OpNeq: "CmpNe",
	exprlang.OpLss: "CmpLt", exprlang.OpLeq: "CmpLe",
	exprlang.OpGtr: "CmpGt", exprlang.OpGeq: "CmpGe",
}

// flipped is the comparison with its operands swapped: 3 < X is X > 3.
var flipped = map[exprlang.Op]exprlang.Op{
	exprlang.OpEql: exprlang.OpEql, exprlang.OpNeq: exprlang.OpNeq,
	exprlang.OpLss: exprlang.OpGtr, exprlang.OpLeq: exprlang.OpGeq,
	exprlang.OpGtr: exprlang.OpLss, exprlang.OpGeq: exprlang.OpLeq,
}

// comparison fills in p's form when e compares one field with a constant
// (or is a bool field, or its negation).
func (p *part) comparison(e exprlang.Expr) {
	e = unparen(e)
	if f, ok := stateField(e); ok && f.Type().Kind.IsBoolean() {
		p.cmp, p.field, p.num = "CmpEq", f.Symbol.Index, 1
		return
	}
	if u, ok := e.(*exprlang.Unary); ok && u.Op == exprlang.OpNot {
		if f, ok := stateField(unparen(u.X)); ok && f.Type().Kind.IsBoolean() {
			p.cmp, p.field, p.num = "CmpEq", f.Symbol.Index, 0
		}
		return
	}
	b, ok := e.(*exprlang.Binary)
	if !ok || !b.Op.IsComparison() {
		return
	}
	op, x, y := b.Op, unparen(b.X), unparen(b.Y)
	f, ok := stateField(x)
	if !ok {
		op, x, y = flipped[op], y, x
		if f, ok = stateField(x); !ok {
			return
		}
	}
	num, str, ok := constantValue(y.Value())
	if !ok {
		return
	}
	if str == nil && f.Type().Kind.IsBoolean() {
		// Flag == false, Flag != true: one form, Flag == value.
		switch op {
		case exprlang.OpEql:
		case exprlang.OpNeq:
			num = 1 - num
		default:
			return
		}
		op = exprlang.OpEql
	}
	p.cmp, p.field, p.num, p.str = cmpNames[op], f.Symbol.Index, num, str
}

// sumComparison returns the form of e when it orders (by < <= > >=) two
// sums of numeric fields times constants (or floats divided by constants)
// and constants, which are not both one field and a constant (Pies +
// Soup >= 4, 2*Gold + Silver > Cost, Ammo + Clips*30 < 40, Fuel - Reserve
// >= 10, Energy / 2.5 > 8); else nil. Fields of type
// float32 (whose values the runtime reads as float64, not as the
// condition rounds them) and sums of unsigned integers that subtract
// (which wrap around below 0) have no form.
func sumComparison(e exprlang.Expr) *sum {
	b, ok := unparen(e).(*exprlang.Binary)
	if !ok || b.Op < exprlang.OpLss || b.Op > exprlang.OpGeq {
		return nil
	}
	coefs := map[int]float64{}
	k := 0.0
	if !addLinear(b.X, 1, coefs, &k) || !addLinear(b.Y, -1, coefs, &k) {
		return nil
	}
	// Σ coefs × fields + k op 0.
	out := &sum{cmp: cmpNames[b.Op], num: -k}
	for f, c := range coefs {
		if c != 0 {
			out.terms = append(out.terms, term{field: f, coef: c})
		}
	}
	if len(out.terms) == 0 || math.IsInf(out.num, 0) || math.IsNaN(out.num) {
		return nil
	}
	slices.SortFunc(out.terms, func(a, b term) int { return a.field - b.field })
	return out
}

// addLinear adds sign × e to the sum of coefs × fields plus k, reporting
// whether e is such a sum.
func addLinear(e exprlang.Expr, sign float64, coefs map[int]float64, k *float64) bool {
	e = unparen(e)
	if v := e.Value(); v != nil {
		num, str, ok := constantValue(v)
		if !ok || str != nil || v.Kind() == constant.Bool {
			return false
		}
		*k += sign * num
		return true
	}
	kind := e.Type().Kind
	if !kind.IsNumeric() || kind == exprlang.Float32 {
		return false
	}
	if f, ok := stateField(e); ok {
		coefs[f.Symbol.Index] += sign
		return true
	}
	switch n := e.(type) {
	case *exprlang.Unary:
		return n.Op == exprlang.OpSub && !kind.IsUnsigned() && addLinear(n.X, -sign, coefs, k)
	case *exprlang.Binary:
		switch n.Op {
		case exprlang.OpAdd:
			return addLinear(n.X, sign, coefs, k) && addLinear(n.Y, sign, coefs, k)
		case exprlang.OpSub:
			return !kind.IsUnsigned() && addLinear(n.X, sign, coefs, k) && addLinear(n.Y, -sign, coefs, k)
		case exprlang.OpMul:
			if c, ok := numericConstant(n.X); ok {
				return addLinear(n.Y, sign*c, coefs, k)
			}
			if c, ok := numericConstant(n.Y); ok {
				return addLinear(n.X, sign*c, coefs, k)
			}
		case exprlang.OpQuo:
			// A float divided by a constant is linear; an integer's
			// quotient truncates.
			if c, ok := numericConstant(n.Y); ok && kind.IsFloat() && c != 0 {
				return addLinear(n.X, sign/c, coefs, k)
			}
		}
	}
	return false
}

// numericConstant returns e's value when it is a numeric constant.
func numericConstant(e exprlang.Expr) (float64, bool) {
	v := e.Value()
	if v == nil || v.Kind() == constant.Bool {
		return 0, false
	}
	num, str, ok := constantValue(v)
	return num, ok && str == nil
}

// effectChanges returns the forms of an action's effects.
func effectChanges(effs []*exprlang.Effect) []change {
	var out []change
	for _, eff := range effs {
		field := eff.Field.Symbol.Index
		c := change{field: field, op: "ChangeOther"}
		switch eff.Op {
		case exprlang.Inc:
			c.op, c.num = "ChangeAdd", 1
		case exprlang.Dec:
			c.op, c.num = "ChangeAdd", -1
		case exprlang.AddAssign:
			c = addition(c, eff.Value, 1)
		case exprlang.SubAssign:
			c = addition(c, eff.Value, -1)
		case exprlang.Assign:
			if num, str, ok := constantValue(eff.Value.Value()); ok {
				c.op, c.num, c.str = "ChangeSet", num, str
			} else if x, sign, ok := selfPlus(field, eff.Value); ok {
				c = addition(c, x, sign)
			}
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b change) int { return a.field - b.field })
	return out
}

// selfPlus recognises F + X, X + F and F - X for field F, returning X
// and the sign it is added with.
func selfPlus(field int, e exprlang.Expr) (x exprlang.Expr, sign float64, ok bool) {
	b, isBin := unparen(e).(*exprlang.Binary)
	if !isBin || (b.Op != exprlang.OpAdd && b.Op != exprlang.OpSub) || !b.Type().Kind.IsNumeric() {
		return nil, 0, false
	}
	isSelf := func(e exprlang.Expr) bool {
		f, ok := stateField(unparen(e))
		return ok && f.Symbol.Index == field
	}
	switch {
	case isSelf(b.X) && b.Op == exprlang.OpSub:
		return b.Y, -1, true
	case isSelf(b.X):
		return b.Y, 1, true
	case isSelf(b.Y) && b.Op == exprlang.OpAdd:
		return b.X, 1, true
	}
	return nil, 0, false
}

// addition is c, the change of its field, as adding sign times x to it:
// ChangeAdd for a numeric constant x, ChangeAddTimes for a multiple of
// another numeric field (see timesField), else c as it was.
func addition(c change, x exprlang.Expr, sign float64) change {
	if num, ok := numericConstant(x); ok {
		c.op, c.num = "ChangeAdd", sign*num
	} else if k, by, ok := timesField(x); ok && by != c.field {
		c.op, c.num, c.by = "ChangeAddTimes", sign*k, by
	}
	return c
}

// timesField recognises G, k * G and G * k for a numeric state field G
// and a numeric constant k (in parentheses or not), returning k and G.
func timesField(e exprlang.Expr) (k float64, by int, ok bool) {
	e = unparen(e)
	if !e.Type().Kind.IsNumeric() {
		return 0, 0, false
	}
	if f, ok := stateField(e); ok {
		return 1, f.Symbol.Index, true
	}
	b, isBin := e.(*exprlang.Binary)
	if !isBin || b.Op != exprlang.OpMul {
		return 0, 0, false
	}
	if c, ok := numericConstant(unparen(b.X)); ok {
		if f, ok := stateField(unparen(b.Y)); ok {
			return c, f.Symbol.Index, true
		}
	}
	if c, ok := numericConstant(unparen(b.Y)); ok {
		if f, ok := stateField(unparen(b.X)); ok {
			return c, f.Symbol.Index, true
		}
	}
	return 0, 0, false
}

func unparen(e exprlang.Expr) exprlang.Expr {
	for {
		p, ok := e.(*exprlang.Paren)
		if !ok {
			return e
		}
		e = p.X
	}
}

// stateField returns e as a reference to a state field.
func stateField(e exprlang.Expr) (*exprlang.Ident, bool) {
	id, ok := e.(*exprlang.Ident)
	return id, ok && id.Symbol.Kind == exprlang.Field
}

// constantValue returns a constant as the runtime describes it: a number
// (bools as 1 and 0) exactly representable as a float64, or a string.
func constantValue(v constant.Value) (num float64, str *string, ok bool) {
	if v == nil {
		return 0, nil, false
	}
	switch v.Kind() {
	case constant.Bool:
		if constant.BoolVal(v) {
			return 1, nil, true
		}
		return 0, nil, true
	case constant.String:
		s := constant.StringVal(v)
		return 0, &s, true
	case constant.Int, constant.Float:
		f, exact := constant.Float64Val(v)
		return f, nil, exact
	}
	return 0, nil, false
}

// parts renders the parts of a condition.
func (e *emitter) parts(ps []part) jen.Code {
	return jen.Index().Add(e.rt("Part")).CustomFunc(multi, func(g *jen.Group) {
		for _, p := range ps {
			items := []jen.Code{kv("Reads", e.fieldIDs(p.reads))}
			if p.cmp != "" {
				items = append(items, kv("Cmp", e.rt(p.cmp)), kv("Field", jen.Lit(p.field)))
				items = append(items, e.constant(p.num, p.str)...)
			}
			if p.any != nil {
				items = append(items, kv("Any", e.parts(p.any)))
			}
			if p.sum != nil {
				items = append(items, kv("Sum", e.sum(p.sum)))
			}
			g.Values(items...)
		}
	})
}

// sum renders the form of a comparison of a sum.
func (e *emitter) sum(sm *sum) jen.Code {
	terms := jen.Index().Add(e.rt("Term")).CustomFunc(multi, func(g *jen.Group) {
		for _, t := range sm.terms {
			g.Values(kv("Field", jen.Lit(t.field)), kv("Coef", number(t.coef)))
		}
	})
	items := []jen.Code{kv("Terms", terms), kv("Cmp", e.rt(sm.cmp))}
	if sm.num != 0 {
		items = append(items, kv("Num", number(sm.num)))
	}
	return jen.Op("&").Add(e.rt("Sum")).Values(items...)
}

// changes renders the changes of an action's effects.
func (e *emitter) changes(cs []change) jen.Code {
	return jen.Index().Add(e.rt("Change")).CustomFunc(multi, func(g *jen.Group) {
		for _, c := range cs {
			items := []jen.Code{kv("Field", jen.Lit(c.field)), kv("Op", e.rt(c.op))}
			if c.op != "ChangeOther" {
				items = append(items, e.constant(c.num, c.str)...)
			}
			if c.op == "ChangeAddTimes" {
				items = append(items, kv("By", jen.Lit(c.by)))
			}
			g.Values(items...)
		}
	})
}

// constant renders the Num or Str of a part or change, leaving out zero.
func (e *emitter) constant(num float64, str *string) []jen.Code {
	switch {
	case str != nil:
		return []jen.Code{kv("Str", jen.Lit(*str))}
	case num != 0:
		return []jen.Code{kv("Num", number(num))}
	}
	return nil
}

// numberFunc emits the function that reads a numeric or bool field by its
// ID.
func (e *emitter) numberFunc() {
	r := e.r
	e.f.Func().Id(r.NumberFunc).Params(jen.Id("s").Op("*").Id(e.r.StateType), jen.Id("f").Add(e.rt("FieldID"))).Float64().BlockFunc(func(g *jen.Group) {
		g.Switch(jen.Id("f")).BlockFunc(func(sw *jen.Group) {
			for i, fld := range r.Fields {
				v := jen.Id("s").Dot(fld.Name)
				switch {
				case fld.Kind.IsBoolean():
					sw.Case(jen.Lit(i)).Block(
						jen.If(v).Block(jen.Return(jen.Lit(1))),
						jen.Return(jen.Lit(0)),
					)
				case fld.Kind.IsNumeric():
					sw.Case(jen.Lit(i)).Block(jen.Return(jen.Float64().Call(v)))
				}
			}
		})
		g.Return(jen.Lit(0))
	})
	e.f.Line()
}

// textFunc emits the function that reads a string field by its ID, when
// the role has one.
func (e *emitter) textFunc() {
	r := e.r
	if r.TextFunc == "" {
		return
	}
	e.f.Func().Id(r.TextFunc).Params(jen.Id("s").Op("*").Id(e.r.StateType), jen.Id("f").Add(e.rt("FieldID"))).String().BlockFunc(func(g *jen.Group) {
		g.Switch(jen.Id("f")).BlockFunc(func(sw *jen.Group) {
			for i, fld := range r.Fields {
				if !fld.Kind.IsString() {
					continue
				}
				v := jen.Id("s").Dot(fld.Name)
				if fld.Type.PkgPath != "" || fld.Type.Name != "string" {
					v = jen.String().Call(v) // a named string type
				}
				sw.Case(jen.Lit(i)).Block(jen.Return(v))
			}
		})
		g.Return(jen.Lit(""))
	})
	e.f.Line()
}

// hashFunc emits the function that hashes a state field by field.
func (e *emitter) hashFunc() {
	e.f.Func().Id(e.r.HashFunc).Params(jen.Id("s").Op("*").Id(e.r.StateType)).Uint64().BlockFunc(func(g *jen.Group) {
		for _, c := range e.hashFields("s") {
			g.Add(c)
		}
		g.Return(e.impl("HashMix").Call(jen.Id("h")))
	})
	e.f.Line()
}

// hashFields returns the statements that add the shares of the fields
// of state v to h, the hash before HashMix: one lane a field (see
// rolegenimpl.HashLane), the bools gathered 64 to a word first, a word a
// lane.
func (e *emitter) hashFields(v string) []jen.Code {
	r := e.r
	var g []jen.Code
	var bools []string
	for _, fld := range r.Fields {
		if fld.Kind.IsBoolean() {
			bools = append(bools, fld.Name)
		}
	}
	for w := 0; w*64 < len(bools); w++ {
		word := fmt.Sprintf("b%d", w)
		g = append(g, jen.Var().Id(word).Uint64())
		for i, name := range bools[w*64 : min(len(bools), (w+1)*64)] {
			g = append(g, jen.Id(word).Op("|=").Add(e.impl("HashBit")).Call(jen.Id(v).Dot(name), jen.Lit(i)))
		}
	}
	g = append(g, jen.Id("h").Op(":=").Add(e.impl("HashStart")))
	lane := 0
	add := func(word jen.Code) {
		g = append(g, jen.Id("h").Op("+=").Add(e.impl("HashLane")).Call(word, jen.Lit(lane)))
		lane++
	}
	for w := 0; w*64 < len(bools); w++ {
		add(jen.Id(fmt.Sprintf("b%d", w)))
	}
	for _, fld := range r.Fields {
		v := jen.Id(v).Dot(fld.Name)
		switch k := fld.Kind; {
		case k.IsBoolean():
		case k.IsFloat():
			add(e.impl("HashFloatBits").Call(jen.Float64().Call(v)))
		case k.IsNumeric():
			add(jen.Uint64().Call(v))
		default:
			add(e.impl("HashString").Call(jen.String().Call(v)))
		}
	}
	return g
}

// keyFunc emits the function that sets a state's inert fields to their
// zero value (see model.Role.InertFields), when the role has some.
func (e *emitter) keyFunc() {
	r := e.r
	if r.KeyFunc == "" {
		return
	}
	e.f.Func().Id(r.KeyFunc).Params(jen.Id("s").Op("*").Id(r.StateType)).Id(r.StateType).BlockFunc(func(g *jen.Group) {
		g.Id("k").Op(":=").Op("*").Id("s")
		for _, i := range r.InertFields() {
			fld := r.Fields[i]
			var zero jen.Code
			switch k := fld.Kind; {
			case k.IsBoolean():
				zero = jen.False()
			case k.IsNumeric():
				zero = jen.Lit(0)
			default:
				zero = jen.Lit("")
			}
			g.Id("k").Dot(fld.Name).Op("=").Add(zero)
		}
		g.Return(jen.Id("k"))
	})
	e.f.Line()
}

// changedFunc emits the function that compares two states field by field,
// for an agent's cheap checks: bit f set when field f differs, and bit 63
// for any field from the 63rd on.
func (e *emitter) changedFunc() {
	r := e.r
	if r.ChangedFunc == "" {
		return
	}
	e.f.Func().Id(r.ChangedFunc).Params(jen.List(jen.Id("a"), jen.Id("b")).Op("*").Id(r.StateType)).Uint64().BlockFunc(func(g *jen.Group) {
		g.Var().Id("w").Uint64()
		for i, fld := range r.Fields {
			g.If(jen.Id("a").Dot(fld.Name).Op("!=").Id("b").Dot(fld.Name)).Block(
				jen.Id("w").Op("|=").Lit(1).Op("<<").Lit(min(i, 63)),
			)
		}
		g.Return(jen.Id("w"))
	})
	e.f.Line()
}
