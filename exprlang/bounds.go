package exprlang

import (
	"go/constant"
	"math"
	"math/big"
	"slices"
)

// Range bounds the values of a numeric expression converted to float64,
// as Go converts them: for every state in which the assumed conditions
// hold, the value v the expression takes there, if finite, has
// Min <= float64(v) <= Max, and if also positive, Least <= float64(v).
type Range struct {
	Min, Max float64
	// Least bounds the positive values from below: 0 when no positive
	// bound is proven, at least 1 for an integer expression that can be
	// positive.
	Least float64
}

// Bounds returns the range of e, a checked numeric expression (a cost),
// over every state in which the conditions assume hold, by interval
// arithmetic on the types of the fields e reads:
//
//   - a field ranges over its type (an unsigned field is >= 0, an int8
//     within [-128, 127], a float within ±MaxFloat), narrowed by the
//     assumptions of the form Field op Constant (op one of == < <= > >=,
//     either side); a constant is its value;
//   - + - * and unary - combine the ends of the ranges; / and % divide by
//     the constant the checker requires;
//   - integers wrap around as in Go: the range of an operation that can
//     overflow its type is split where it wraps (a set of intervals, so
//     that Distance + 2 with Distance >= 0 stays >= 2 where it does not
//     wrap, and wraps to negative values only), or is the whole type when
//     it wraps more than once; int, uint and uintptr are taken at 32 and
//     64 bits, so the bounds hold on every platform (but at 32 bits when
//     a constant of the type does not fit there: the code would not
//     compile);
//   - floats are bounded at the type's precision, each end rounded
//     outward, so the bounds hold whether or not the compiler fuses a
//     multiplication and an addition. A field that is infinite or NaN makes
//     the value infinite or NaN (every operation keeps them), which no
//     bound needs to cover.
//
// An expression the analysis does not cover gets the whole line.
func Bounds(e Expr, assume []Expr) Range {
	k := e.Type().Kind
	if v := e.Value(); v != nil {
		c := constFloat(v, k)
		return newRange(c, c, c)
	}
	switch {
	case k.IsInteger():
		r := Range{Min: math.Inf(1), Max: math.Inf(-1), Least: math.Inf(1)}
		widths := intWidths(k)
		for i, bits := range widths {
			b := newIntBounder(k, bits, assume)
			set := b.eval(e)
			if b.overflow && i < len(widths)-1 {
				// A constant of the expression or of the precondition
				// overflows the type at this width: the code does not
				// compile on such a platform.
				continue
			}
			r.Min = min(r.Min, floatDown(set[0].lo))
			r.Max = max(r.Max, floatUp(set[len(set)-1].hi))
			r.Least = min(r.Least, set.least())
		}
		if r.Max < 1 || math.IsInf(r.Least, 1) {
			r.Least = 0
		}
		return r
	case k.IsFloat():
		b := newFloatBounder(k, assume)
		lo, hi := b.eval(e)
		return newRange(lo, hi, lo)
	}
	return Range{Min: math.Inf(-1), Max: math.Inf(1)}
}

// newRange is the range [lo, hi], whose positive values are at least
// least when least is positive.
func newRange(lo, hi, least float64) Range {
	r := Range{Min: lo, Max: hi}
	if least > 0 && !math.IsInf(least, 1) && hi > 0 {
		r.Least = least
	}
	return r
}

// constFloat returns v, a constant of kind k, converted to float64 as Go
// converts a value of kind k: rounded to the nearest float32 for float32,
// else to the nearest float64 (go/types rounds typed constants the same
// way, with go/constant).
func constFloat(v constant.Value, k Kind) float64 {
	if k == Float32 {
		f, _ := constant.Float32Val(constant.ToFloat(v))
		return float64(f)
	}
	f, _ := constant.Float64Val(constant.ToFloat(v))
	return f
}

// A bound is what an assumption Field op Constant says of a field: its
// constant and how the field compares with it, the field on the left.
type bound struct {
	field int
	op    Op
	value constant.Value
	kind  Kind
}

// bounds reads the assumptions of the form Field op Constant.
func bounds(assume []Expr) []bound {
	var out []bound
	for _, a := range assume {
		bin, ok := unparen(a).(*Binary)
		if !ok || !bin.Op.IsComparison() || bin.Op == OpNeq {
			continue
		}
		x, y, op := unparen(bin.X), unparen(bin.Y), bin.Op
		if x.Value() != nil {
			x, y, op = y, x, mirror(op)
		}
		id, ok := x.(*Ident)
		if !ok || id.Symbol.Kind != Field || y.Value() == nil || !id.Type().Kind.IsNumeric() {
			continue
		}
		out = append(out, bound{field: id.Symbol.Index, op: op, value: y.Value(), kind: id.Type().Kind})
	}
	return out
}

func unparen(e Expr) Expr {
	for {
		p, ok := e.(*Paren)
		if !ok {
			return e
		}
		e = p.X
	}
}

// mirror turns c op F into F op' c.
func mirror(op Op) Op {
	switch op {
	case OpLss:
		return OpGtr
	case OpLeq:
		return OpGeq
	case OpGtr:
		return OpLss
	case OpGeq:
		return OpLeq
	}
	return op
}

// Integers.

// intWidths are the sizes in bits a value of integer kind k can have.
func intWidths(k Kind) []uint {
	switch k {
	case Int8, Uint8:
		return []uint{8}
	case Int16, Uint16:
		return []uint{16}
	case Int32, Uint32, UntypedRune:
		return []uint{32}
	case Int64, Uint64:
		return []uint{64}
	}
	return []uint{32, 64} // int, uint, uintptr
}

// interval is the integers lo..hi.
type interval struct{ lo, hi *big.Int }

// intSet is a union of intervals, sorted and disjoint, not empty.
type intSet []interval

// maxIntervals caps the intervals of a set: beyond, the closest are
// merged.
const maxIntervals = 16

// least is the least positive value of s, converted to float64 rounding
// down; +Inf when s has none.
func (s intSet) least() float64 {
	one := big.NewInt(1)
	for _, iv := range s {
		if iv.hi.Cmp(one) >= 0 {
			if iv.lo.Cmp(one) >= 0 {
				return floatDown(iv.lo)
			}
			return 1
		}
	}
	return math.Inf(1)
}

// intBounder bounds integer expressions of one type at one width.
type intBounder struct {
	min, max, size *big.Int
	// fields holds the narrowed ranges of fields, by index.
	fields map[int]interval
	// overflow: a constant of the type is out of its range at this width.
	overflow bool
}

// inRange reports whether c is a value of the type, noting an overflow.
func (b *intBounder) inRange(c *big.Int) bool {
	if c.Cmp(b.min) < 0 || c.Cmp(b.max) > 0 {
		b.overflow = true
		return false
	}
	return true
}

func newIntBounder(k Kind, bits uint, assume []Expr) *intBounder {
	b := &intBounder{size: new(big.Int).Lsh(big.NewInt(1), bits), fields: map[int]interval{}}
	if k.IsUnsigned() {
		b.min = big.NewInt(0)
		b.max = new(big.Int).Sub(b.size, big.NewInt(1))
	} else {
		half := new(big.Int).Lsh(big.NewInt(1), bits-1)
		b.min = new(big.Int).Neg(half)
		b.max = new(big.Int).Sub(half, big.NewInt(1))
	}
	for _, a := range bounds(assume) {
		// Only the fields of the expression's kind can be among those it
		// reads (Go does not mix types).
		if a.kind != k {
			continue
		}
		c := intOf(a.value)
		if !b.inRange(c) {
			continue
		}
		iv, ok := b.fields[a.field]
		if !ok {
			iv = interval{b.min, b.max}
		}
		one := big.NewInt(1)
		switch a.op {
		case OpEql:
			iv = interval{maxInt(iv.lo, c), minInt(iv.hi, c)}
		case OpGtr:
			iv.lo = maxInt(iv.lo, new(big.Int).Add(c, one))
		case OpGeq:
			iv.lo = maxInt(iv.lo, c)
		case OpLss:
			iv.hi = minInt(iv.hi, new(big.Int).Sub(c, one))
		case OpLeq:
			iv.hi = minInt(iv.hi, c)
		}
		// A bound that contradicts those before it is left out: the
		// precondition never holds, the action is never taken, and any
		// range is right for it.
		if iv.lo.Cmp(iv.hi) <= 0 {
			b.fields[a.field] = iv
		}
	}
	return b
}

func (b *intBounder) whole() intSet { return intSet{{b.min, b.max}} }

func (b *intBounder) eval(e Expr) intSet {
	if v := e.Value(); v != nil {
		c := intOf(v)
		b.inRange(c)
		return b.wrap(intSet{{c, c}})
	}
	switch n := e.(type) {
	case *Ident:
		if n.Symbol.Kind != Field {
			break
		}
		if iv, ok := b.fields[n.Symbol.Index]; ok {
			return b.wrap(intSet{iv})
		}
		return b.whole()
	case *Paren:
		return b.eval(n.X)
	case *Unary:
		if n.Op != OpSub {
			break
		}
		var out intSet
		for _, x := range b.eval(n.X) {
			out = append(out, interval{new(big.Int).Neg(x.hi), new(big.Int).Neg(x.lo)})
		}
		return b.wrap(out)
	case *Binary:
		xs, ys := b.eval(n.X), b.eval(n.Y)
		var out intSet
		for _, x := range xs {
			for _, y := range ys {
				iv, ok := intOp(n.Op, x, y)
				if !ok {
					return b.whole()
				}
				out = append(out, iv)
			}
		}
		return b.wrap(out)
	}
	return b.whole()
}

// intOp is the exact range of x op y, before wrapping.
func intOp(op Op, x, y interval) (interval, bool) {
	switch op {
	case OpAdd:
		return interval{new(big.Int).Add(x.lo, y.lo), new(big.Int).Add(x.hi, y.hi)}, true
	case OpSub:
		return interval{new(big.Int).Sub(x.lo, y.hi), new(big.Int).Sub(x.hi, y.lo)}, true
	case OpMul:
		corners := []*big.Int{
			new(big.Int).Mul(x.lo, y.lo), new(big.Int).Mul(x.lo, y.hi),
			new(big.Int).Mul(x.hi, y.lo), new(big.Int).Mul(x.hi, y.hi),
		}
		return interval{slices.MinFunc(corners, (*big.Int).Cmp), slices.MaxFunc(corners, (*big.Int).Cmp)}, true
	case OpQuo, OpRem:
		// The divisor is a constant (the checker requires it), not 0.
		if y.lo.Cmp(y.hi) != 0 || y.lo.Sign() == 0 {
			return interval{}, false
		}
		c := y.lo
		if op == OpQuo {
			// Go truncates toward zero, a monotone function of x.
			lo, hi := new(big.Int).Quo(x.lo, c), new(big.Int).Quo(x.hi, c)
			if c.Sign() < 0 {
				lo, hi = hi, lo
			}
			return interval{lo, hi}, true
		}
		// x % c has the sign of x, and its magnitude is below |c| and at
		// most |x|: x itself while |x| < |c|.
		m := new(big.Int).Abs(c)
		m.Sub(m, big.NewInt(1))
		negM := new(big.Int).Neg(m)
		switch {
		case x.lo.Sign() >= 0 && x.hi.Cmp(m) <= 0, x.hi.Sign() <= 0 && x.lo.Cmp(negM) >= 0:
			return x, true
		case x.lo.Sign() >= 0:
			return interval{new(big.Int), m}, true
		case x.hi.Sign() <= 0:
			return interval{negM, new(big.Int)}, true
		}
		return interval{maxInt(x.lo, negM), minInt(x.hi, m)}, true
	}
	return interval{}, false
}

// wrap maps exact intervals into the type, as Go's arithmetic wraps
// around: an interval crossing an end of the type splits in two, one
// spanning the whole type or more is the whole type. The result is
// sorted, merged and capped at maxIntervals.
func (b *intBounder) wrap(s intSet) intSet {
	var out intSet
	one := big.NewInt(1)
	for _, iv := range s {
		span := new(big.Int).Sub(iv.hi, iv.lo)
		if span.Cmp(b.size) >= 0 || span.Add(span, one).Cmp(b.size) >= 0 {
			return b.whole()
		}
		lo, hi := b.wrapInt(iv.lo), b.wrapInt(iv.hi)
		if lo.Cmp(hi) <= 0 {
			out = append(out, interval{lo, hi})
		} else {
			out = append(out, interval{lo, b.max}, interval{b.min, hi})
		}
	}
	slices.SortFunc(out, func(x, y interval) int { return x.lo.Cmp(y.lo) })
	merged := out[:1]
	for _, iv := range out[1:] {
		last := &merged[len(merged)-1]
		if iv.lo.Cmp(new(big.Int).Add(last.hi, one)) <= 0 {
			last.hi = maxInt(last.hi, iv.hi)
			continue
		}
		merged = append(merged, iv)
	}
	for len(merged) > maxIntervals {
		// Merge the two intervals with the smallest gap between them.
		best, gap := 0, (*big.Int)(nil)
		for i := range len(merged) - 1 {
			g := new(big.Int).Sub(merged[i+1].lo, merged[i].hi)
			if gap == nil || g.Cmp(gap) < 0 {
				best, gap = i, g
			}
		}
		merged[best].hi = merged[best+1].hi
		merged = slices.Delete(merged, best+1, best+2)
	}
	return merged
}

// wrapInt is x modulo the type's size, within [min, max].
func (b *intBounder) wrapInt(x *big.Int) *big.Int {
	r := new(big.Int).Sub(x, b.min)
	r.Mod(r, b.size)
	return r.Add(r, b.min)
}

func intOf(v constant.Value) *big.Int {
	switch x := constant.Val(constant.ToInt(v)).(type) {
	case int64:
		return big.NewInt(x)
	case *big.Int:
		return new(big.Int).Set(x)
	}
	return new(big.Int) // not an integer: the checker rejects it
}

func minInt(x, y *big.Int) *big.Int { return slices.MinFunc([]*big.Int{x, y}, (*big.Int).Cmp) }
func maxInt(x, y *big.Int) *big.Int { return slices.MaxFunc([]*big.Int{x, y}, (*big.Int).Cmp) }

// floatDown and floatUp convert x to float64 rounding down and up: below
// and above the float64 Go's conversion gives, whichever way it rounds.
func floatDown(x *big.Int) float64 {
	f, acc := new(big.Float).SetInt(x).Float64()
	if acc == big.Above {
		f = math.Nextafter(f, math.Inf(-1))
	}
	return f
}

func floatUp(x *big.Int) float64 {
	f, acc := new(big.Float).SetInt(x).Float64()
	if acc == big.Below {
		f = math.Nextafter(f, math.Inf(1))
	}
	return f
}

// Floats.

// floatPrec is enough bits for the exact sum, difference and product of
// two float64 values.
const floatPrec = 2200

// floatBounder bounds floating-point expressions of one type.
type floatBounder struct {
	f32 bool
	// fields holds the narrowed ranges of fields, by index.
	fields map[int][2]float64
	max    float64
}

func newFloatBounder(k Kind, assume []Expr) *floatBounder {
	b := &floatBounder{f32: k == Float32, fields: map[int][2]float64{}, max: math.MaxFloat64}
	if b.f32 {
		b.max = math.MaxFloat32
	}
	for _, a := range bounds(assume) {
		if a.kind != k {
			continue
		}
		c := constFloat(a.value, a.kind)
		r, ok := b.fields[a.field]
		if !ok {
			r = [2]float64{-b.max, b.max}
		}
		switch a.op {
		case OpEql:
			r = [2]float64{max(r[0], c), min(r[1], c)}
		case OpGtr, OpGeq:
			r[0] = max(r[0], c)
		case OpLss, OpLeq:
			r[1] = min(r[1], c)
		}
		if r[0] <= r[1] {
			b.fields[a.field] = r
		}
	}
	return b
}

func (b *floatBounder) eval(e Expr) (lo, hi float64) {
	if v := e.Value(); v != nil {
		c := constFloat(v, e.Type().Kind)
		return c, c
	}
	switch n := e.(type) {
	case *Ident:
		if n.Symbol.Kind != Field {
			break
		}
		if r, ok := b.fields[n.Symbol.Index]; ok {
			return r[0], r[1]
		}
		return -b.max, b.max
	case *Paren:
		return b.eval(n.X)
	case *Unary:
		if n.Op != OpSub {
			break
		}
		lo, hi := b.eval(n.X)
		return -hi, -lo
	case *Binary:
		xlo, xhi := b.eval(n.X)
		ylo, yhi := b.eval(n.Y)
		switch n.Op {
		case OpAdd:
			return b.op(n.Op, xlo, ylo, true), b.op(n.Op, xhi, yhi, false)
		case OpSub:
			return b.op(n.Op, xlo, yhi, true), b.op(n.Op, xhi, ylo, false)
		case OpMul, OpQuo:
			if n.Op == OpQuo && ylo <= 0 && yhi >= 0 {
				break // a divisor near 0: unbounded
			}
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, c := range [4][2]float64{{xlo, ylo}, {xlo, yhi}, {xhi, ylo}, {xhi, yhi}} {
				lo = min(lo, b.op(n.Op, c[0], c[1], true))
				hi = max(hi, b.op(n.Op, c[0], c[1], false))
			}
			return lo, hi
		}
	}
	return math.Inf(-1), math.Inf(1)
}

// op is x op y rounded to the type, down or up. An infinite end stays
// infinite; an undefined one (Inf - Inf, 0 * Inf) is unbounded.
func (b *floatBounder) op(op Op, x, y float64, down bool) float64 {
	if math.IsInf(x, 0) || math.IsInf(y, 0) {
		var r float64
		switch op {
		case OpAdd:
			r = x + y
		case OpSub:
			r = x - y
		case OpMul:
			r = x * y
		case OpQuo:
			r = x / y
		}
		if math.IsNaN(r) {
			if down {
				return math.Inf(-1)
			}
			return math.Inf(1)
		}
		return r
	}
	mode := big.ToPositiveInf
	if down {
		mode = big.ToNegativeInf
	}
	bx, by := new(big.Float).SetFloat64(x), new(big.Float).SetFloat64(y)
	z := new(big.Float).SetPrec(floatPrec).SetMode(mode)
	switch op {
	case OpAdd:
		z.Add(bx, by)
	case OpSub:
		z.Sub(bx, by)
	case OpMul:
		z.Mul(bx, by)
	case OpQuo:
		z.Quo(bx, by)
	}
	return b.round(z, down)
}

// round converts z to the type, rounding down or up.
func (b *floatBounder) round(z *big.Float, down bool) float64 {
	if b.f32 {
		f, acc := z.Float32()
		switch {
		case down && acc == big.Above:
			f = math.Nextafter32(f, float32(math.Inf(-1)))
		case !down && acc == big.Below:
			f = math.Nextafter32(f, float32(math.Inf(1)))
		}
		return float64(f)
	}
	f, acc := z.Float64()
	switch {
	case down && acc == big.Above:
		f = math.Nextafter(f, math.Inf(-1))
	case !down && acc == big.Below:
		f = math.Nextafter(f, math.Inf(1))
	}
	return f
}
