package exprlang

import (
	"go/constant"
	"go/token"
	"math/big"
	"strings"
)

// Contradiction returns an error at the first conjunct of cond (a checked
// condition, its text src) after which no value of some state field
// satisfies the conjuncts that read that field alone: cond holds in no
// state (a precondition that never lets its action run, a goal that no
// plan reaches). It sees the conjuncts that compare one field of a bool,
// integer or string kind with a constant (On, !On, Count > 7, 3 < Count,
// Mode == 'ready', Mode != 'idle'), and an integer field's type (a uint
// is never below 0); nil when they leave every field a value.
func Contradiction(src string, cond Expr) *Error {
	var seen []fieldValues
	for _, c := range Conjuncts(cond) {
		f, op, v, ok := FieldConstant(c)
		if !ok {
			continue
		}
		i := 0
		for i < len(seen) && seen[i].field.Symbol.Index != f.Symbol.Index {
			i++
		}
		if i == len(seen) {
			seen = append(seen, fieldValues{field: f})
			seen[i].typeRange()
		}
		fv := &seen[i]
		fv.narrow(op, v)
		text := Source(src, c)
		if fv.empty() {
			if len(fv.texts) == 0 {
				return errorf(c.Pos(), c.End(), "%s never holds: %s is a %s; this condition holds in no state", text, f.Name, f.Type())
			}
			all := "both"
			if len(fv.texts) > 1 {
				all = "all of them"
			}
			return errorf(c.Pos(), c.End(), "%s contradicts %s: no value of %s satisfies %s; this condition holds in no state",
				text, strings.Join(fv.texts, " && "), f.Name, all)
		}
		fv.texts = append(fv.texts, text)
	}
	return nil
}

// fieldValues is what the conjuncts seen so far leave a field: for a bool
// or string, the value it must have (nil: any) and those it must not;
// for an integer, the interval lo..hi (nil: no end) less those it must
// not have.
type fieldValues struct {
	field  *Ident
	eq     constant.Value
	not    []constant.Value
	lo, hi constant.Value
	none   bool // an ordering of a string, or a bound past its type: nothing known is wrong
	texts  []string
}

// typeRange bounds an integer field by its type, at its widest (int and
// uint at 64 bits), so that a contradiction holds on every platform.
func (fv *fieldValues) typeRange() {
	k := fv.field.Type().Kind
	if !k.IsInteger() {
		return
	}
	bits := int(intWidths(k)[len(intWidths(k))-1])
	if k.IsUnsigned() {
		fv.lo = constant.MakeInt64(0)
		fv.hi = constant.Make(new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(bits)), big.NewInt(1)))
		return
	}
	one := big.NewInt(1)
	fv.lo = constant.Make(new(big.Int).Neg(new(big.Int).Lsh(one, uint(bits-1))))
	fv.hi = constant.Make(new(big.Int).Sub(new(big.Int).Lsh(one, uint(bits-1)), one))
}

// narrow adds the conjunct field op v.
func (fv *fieldValues) narrow(op Op, v constant.Value) {
	k := fv.field.Type().Kind
	switch {
	case op == OpEql:
		if fv.eq != nil && !constant.Compare(fv.eq, token.EQL, v) {
			fv.none = true // two values: empty, reported below
		}
		fv.eq = v
		if k.IsInteger() {
			fv.raiseLo(v)
			fv.lowerHi(v)
		}
	case op == OpNeq:
		fv.not = append(fv.not, v)
	case k.IsInteger():
		one := constant.MakeInt64(1)
		switch op {
		case OpLss:
			fv.lowerHi(constant.BinaryOp(v, token.SUB, one))
		case OpLeq:
			fv.lowerHi(v)
		case OpGtr:
			fv.raiseLo(constant.BinaryOp(v, token.ADD, one))
		case OpGeq:
			fv.raiseLo(v)
		}
	}
}

func (fv *fieldValues) raiseLo(v constant.Value) {
	if fv.lo == nil || constant.Compare(v, token.GTR, fv.lo) {
		fv.lo = v
	}
}

func (fv *fieldValues) lowerHi(v constant.Value) {
	if fv.hi == nil || constant.Compare(v, token.LSS, fv.hi) {
		fv.hi = v
	}
}

// empty reports whether no value is left.
func (fv *fieldValues) empty() bool {
	if fv.none {
		return true
	}
	if fv.field.Type().Kind.IsBoolean() && len(fv.not) > 1 {
		t, f := false, false
		for _, n := range fv.not {
			t, f = t || constant.BoolVal(n), f || !constant.BoolVal(n)
		}
		if t && f {
			return true
		}
	}
	if fv.eq != nil {
		for _, n := range fv.not {
			if constant.Compare(fv.eq, token.EQL, n) {
				return true
			}
		}
	}
	if fv.lo == nil || fv.hi == nil {
		return false
	}
	if constant.Compare(fv.lo, token.GTR, fv.hi) {
		return true
	}
	// Few values left: each may be one the field must not have.
	width := constant.BinaryOp(fv.hi, token.SUB, fv.lo)
	if w, ok := constant.Int64Val(width); !ok || w >= int64(len(fv.not)) {
		return false
	}
	for x := fv.lo; constant.Compare(x, token.LEQ, fv.hi); x = constant.BinaryOp(x, token.ADD, constant.MakeInt64(1)) {
		excluded := false
		for _, n := range fv.not {
			if constant.Compare(x, token.EQL, n) {
				excluded = true
				break
			}
		}
		if !excluded {
			return false
		}
	}
	return true
}

// FieldConstant returns a condition that compares a state field of a
// bool, integer or string kind with a constant (either side, in
// parentheses or not) as field op value: a bool field alone as field ==
// true, its negation as field == false. ok is false for any other
// condition, and for an ordering of strings.
func FieldConstant(e Expr) (f *Ident, op Op, v constant.Value, ok bool) {
	e = unparen(e)
	if id, isField := stateFieldOf(e); isField && id.Type().Kind.IsBoolean() {
		return id, OpEql, constant.MakeBool(true), true
	}
	if u, isUnary := e.(*Unary); isUnary && u.Op == OpNot {
		if id, isField := stateFieldOf(unparen(u.X)); isField && id.Type().Kind.IsBoolean() {
			return id, OpEql, constant.MakeBool(false), true
		}
		return nil, 0, nil, false
	}
	b, isBinary := e.(*Binary)
	if !isBinary || !b.Op.IsComparison() {
		return nil, 0, nil, false
	}
	op, x, y := b.Op, unparen(b.X), unparen(b.Y)
	id, isField := stateFieldOf(x)
	if !isField {
		op, x, y = mirror(op), y, x
		if id, isField = stateFieldOf(x); !isField {
			return nil, 0, nil, false
		}
	}
	k := id.Type().Kind
	v = y.Value()
	switch {
	case v == nil:
		return nil, 0, nil, false
	case k.IsBoolean() || k.IsString():
		if op != OpEql && op != OpNeq {
			return nil, 0, nil, false
		}
	case k.IsInteger():
		if v = constant.ToInt(v); v.Kind() != constant.Int {
			return nil, 0, nil, false
		}
	default:
		return nil, 0, nil, false
	}
	return id, op, v, true
}

func stateFieldOf(e Expr) (*Ident, bool) {
	id, ok := e.(*Ident)
	return id, ok && id.Symbol.Kind == Field
}

// Source is e's text in src, the text it was parsed from ("the
// condition" when e's offsets are not in src).
func Source(src string, e Expr) string {
	if lo, hi := e.Pos(), e.End(); 0 <= lo && lo <= hi && hi <= len(src) {
		return src[lo:hi]
	}
	return "the condition"
}

// Compare reports whether x op y, for op a comparison (== != < <= > >=)
// and x, y constants of one kind.
func (op Op) Compare(x, y constant.Value) bool {
	return constant.Compare(x, comparisonTokens[op], y)
}

var comparisonTokens = [...]token.Token{
	OpEql: token.EQL, OpNeq: token.NEQ, OpLss: token.LSS,
	OpLeq: token.LEQ, OpGtr: token.GTR, OpGeq: token.GEQ,
}
