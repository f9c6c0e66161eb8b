package exprlang

import (
	"fmt"
	"go/constant"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCostsThatCheck(t *testing.T) {
	for _, c := range []struct {
		src  string
		kind Kind
	}{
		{"2 + Ammo / 10", Int},
		{"Ammo", Int},
		{"Speed * 0.5 + 1", Float64},
		{"Ratio * 2", Float32},
		{"Count % 3 + 1", Uint},
		{"Stance + 1", Int}, // an enum is an int underneath, as in Go
		{"MaxAmmo / 2", UntypedInt},
		{"Half + 1", UntypedFloat},
		{"(Small + 1) * 2", Int8},
	} {
		e, errs := Cost(c.src, testScope())
		require.Empty(t, errs, "%q: %v", c.src, errs)
		require.Equal(t, c.kind, e.Type().Kind, c.src)
	}
}

// Each case is one mistake: its message and the byte offset of the wrong
// character.
func TestCostErrors(t *testing.T) {
	for _, c := range []struct {
		src    string
		offset int
		msg    string
	}{
		{"2 + Amo / 10", 4, `unknown state field "Amo" (did you mean "Ammo"?)`},
		{"Ready", 0, `cost must be a number, but Ready is bool`},
		{"Ammo > 3", 0, `cost must be a number, but Ammo > 3 is untyped bool`},
		{"Mode", 0, `cost must be a number, but Mode is string`},
		{"'two'", 0, `cost must be a number, but 'two' is untyped string constant`},
		{"Health + 1", 0, `Health is not a state field (tag it plan:"state")`},
		{"Ammo + Speed", 5, `mismatched types int and float64: Ammo is int, Speed is float64 (Go does not mix numeric types; make the fields the same type)`},
		{"Ammo / Magazines", 7, `divisor Magazines must be a constant (a state field could be zero when the plan runs)`},
		{"2 +", 3, `unexpected end of cost (expected an operand)`},
		{"Ammo = 3", 5, `unexpected = in cost (a cost is a number or a numeric expression; effects belong in post)`},
		{"1, 2", 1, `unexpected , in cost (a cost is one number or one numeric expression)`},
		{"Ammo++", 4, `unexpected ++ in cost (effects belong in post)`},
		{" ", 0, `empty cost: write a number, as in cost=2, or an expression, as in cost="2 + Distance / 10"`},
	} {
		_, errs := Cost(c.src, testScope())
		require.NotEmpty(t, errs, c.src)
		assert.Equal(t, c.msg, errs[0].Msg, c.src)
		assert.Equal(t, c.offset, errs[0].Offset, c.src)
	}
}

func TestConjuncts(t *testing.T) {
	e, errs := Condition("Ammo > 1 && (Speed > 2 && (Ready || Count > 0)) && Small < 3", testScope())
	require.Empty(t, errs)
	var got []string
	for _, c := range Conjuncts(e) {
		got = append(got, sexpr(c))
	}
	assert.Equal(t, []string{"(Ammo > 1)", "(Speed > 2)", "(Ready || (Count > 0))", "(Small < 3)"}, got)
}

// mustCost checks a cost and a precondition over the test scope.
func mustCost(t *testing.T, src, pre string) (Expr, []Expr) {
	t.Helper()
	e, errs := Cost(src, testScope())
	require.Empty(t, errs, "%q: %v", src, errs)
	if pre == "" {
		return e, nil
	}
	p, errs := Condition(pre, testScope())
	require.Empty(t, errs, "%q: %v", pre, errs)
	return e, Conjuncts(p)
}

func TestBounds(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		src, pre string
		want     Range
	}{
		// Integers: a positive integer is at least 1.
		{"2 + Ammo / 10", "", Range{Min: 2 + math.MinInt64/10, Max: 2 + math.MaxInt64/10, Least: 1}},
		// A precondition bounds a field; Ammo + 2 wraps only to negative
		// values.
		{"2 + Ammo / 10", "Ammo >= 0", Range{Min: 2, Max: 2 + math.MaxInt64/10, Least: 2}},
		{"Ammo + 2", "Ammo >= 0 && Ready", Range{Min: math.MinInt64, Max: math.MaxInt64, Least: 2}},
		{"Ammo + 2", "0 <= Ammo && (Ammo < 100)", Range{Min: 2, Max: 101, Least: 2}},
		{"Ammo * 3 - 1", "Ammo > 4 && Ammo <= 10", Range{Min: 14, Max: 29, Least: 14}},
		// An int is taken at 32 bits too, where it wraps sooner; not when
		// a constant needs 64 (the code does not compile at 32).
		{"Ammo + 2", "Ammo >= 0 && Ammo <= 2147483647", Range{Min: -2147483648, Max: 2147483649, Least: 2}},
		{"Ammo * 2", "Ammo >= 1 && Ammo <= 2147483647", Range{Min: -2147483648, Max: 4294967294, Least: 2}},
		{"Ammo * 2", "Ammo >= 1 && Ammo <= 4294967296", Range{Min: 2, Max: 8589934592, Least: 2}},
		{"Ammo", "Ammo == 7", Range{Min: 7, Max: 7, Least: 7}},
		// A precondition that never holds: the action is never taken.
		{"Ammo + 2", "Ammo > 5 && Ammo < 3", Range{Min: math.MinInt64, Max: math.MaxInt64, Least: 8}},
		// Unsigned fields are >= 0; subtraction can wrap to anything.
		{"3 + Count / 100", "", Range{Min: 3, Max: 3 + math.MaxUint64/100, Least: 3}},
		{"10 - Count", "", Range{Min: 0, Max: math.MaxUint64, Least: 1}},
		{"-Count", "Count == 0", Range{Min: 0, Max: 0}},
		// int8 wraps at 8 bits: Small + 100 is -28..127, split where it
		// wraps.
		{"Small + 100", "Small >= 0", Range{Min: -128, Max: 127, Least: 100}},
		{"(Small + 1) * 2", "Small >= 0 && Small < 10", Range{Min: 2, Max: 20, Least: 2}},
		// Remainders have the sign of the dividend.
		{"Ammo % 7 + 1", "Ammo >= 0", Range{Min: 1, Max: 7, Least: 1}},
		{"Ammo % 7", "Ammo >= 2 && Ammo <= 5", Range{Min: 2, Max: 5, Least: 2}},
		{"-(Ammo % 7)", "", Range{Min: -6, Max: 6, Least: 1}},
		// Never positive.
		{"-Ammo", "Ammo > 0", Range{Min: -math.MaxInt64, Max: -1}},
		// Floats: each end rounded outward where it is inexact.
		{"Speed * 0.5 + 1", "Speed >= 0", Range{Min: 1, Max: math.Nextafter(math.MaxFloat64*0.5, inf), Least: 1}},
		{"Speed * 0.5 + 1", "", Range{Min: -math.MaxFloat64 * 0.5, Max: math.Nextafter(math.MaxFloat64*0.5, inf)}},
		{"Speed / 4 - 0.25", "Speed >= 2 && Speed < 3", Range{Min: 0.25, Max: 0.5, Least: 0.25}},
		{"Speed * Speed + 1", "Speed >= -2 && Speed <= 3", Range{Min: -5, Max: 10}},
		{"Speed * 3", "Speed > 0.1 && Speed < 0.2", Range{Min: 0.3, Max: 0.6000000000000001, Least: 0.3}},
		{"Speed * Speed * Speed", "", Range{Min: -inf, Max: inf}},
		{"Ratio * 2", "Ratio >= 1.5", Range{Min: 3, Max: inf, Least: 3}},
		// float32: 0.1 and 0.2 are rounded to float32, each product
		// rounded outward to float32, below and above what Go computes.
		{"Ratio * 3", "Ratio >= 0.1 && Ratio <= 0.2", Range{Min: 0.29999998211860657, Max: 0.6000000238418579, Least: 0.29999998211860657}},
		// Constants are their value.
		{"MaxAmmo / 4", "", Range{Min: 7, Max: 7, Least: 7}},
	} {
		e, assume := mustCost(t, c.src, c.pre)
		assert.Equal(t, c.want, Bounds(e, assume), "%s where %s", c.src, c.pre)
	}
}

// TestBoundsHold evaluates random costs, as Go computes them, in random
// states where random preconditions hold, extreme values first, and
// checks every finite value against the bounds of its expression.
func TestBoundsHold(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	g := &numGen{rng: rng}
	scope := testScope()
	checked := 0
	for range 3000 {
		kind := g.kind()
		src := g.expr(kind, 3)
		e, errs := Cost(src, scope)
		if len(errs) > 0 {
			continue // a constant that overflows its type, and the like
		}
		pre := g.pre(kind)
		var assume []Expr
		if pre != "" {
			p, errs := Condition(pre, scope)
			require.Empty(t, errs, pre)
			assume = Conjuncts(p)
		}
		r := Bounds(e, assume)
		for range 60 {
			s := g.state()
			if pre != "" && !evalCond(assume, s) {
				continue
			}
			v := evalNum(e, s)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				continue
			}
			checked++
			if v < r.Min || v > r.Max || v > 0 && v < r.Least {
				t.Fatalf("cost %q where %q: %v is outside %+v in state %+v", src, pre, v, r, s)
			}
		}
	}
	require.Greater(t, checked, 20000)
}

// numGen writes random numeric expressions over the fields of the test
// scope.
type numGen struct{ rng *rand.Rand }

func (g *numGen) pick(xs ...string) string { return xs[g.rng.IntN(len(xs))] }

func (g *numGen) kind() string { return g.pick("Ammo", "Small", "Count", "Speed", "Ratio") }

func (g *numGen) leaf(field string) string {
	switch g.rng.IntN(3) {
	case 0:
		return field
	case 1:
		switch field {
		case "Speed", "Ratio":
			return g.pick("0.5", "1.25", "3", "1e30", "0.1", "7")
		case "Count":
			return g.pick("1", "3", "100", "18446744073709551615")
		case "Small":
			return g.pick("1", "3", "100", "-7")
		}
		return g.pick("1", "3", "100", "-7", "9223372036854775807", "MaxAmmo")
	}
	return field
}

func (g *numGen) expr(field string, depth int) string {
	if depth == 0 || g.rng.IntN(4) == 0 {
		return g.leaf(field)
	}
	ops := []string{"+", "-", "*", "/"}
	if field != "Speed" && field != "Ratio" {
		ops = append(ops, "%")
	}
	op := ops[g.rng.IntN(len(ops))]
	if op == "/" || op == "%" {
		return "(" + g.expr(field, depth-1) + ") " + op + " " + g.pick("2", "3", "10", "-4", "7")
	}
	if g.rng.IntN(5) == 0 {
		return "-(" + g.expr(field, depth-1) + " " + op + " " + g.expr(field, depth-1) + ")"
	}
	return "(" + g.expr(field, depth-1) + " " + op + " " + g.expr(field, depth-1) + ")"
}

// pre is a random precondition bounding the field, or "".
func (g *numGen) pre(field string) string {
	var parts []string
	for range g.rng.IntN(3) {
		c := g.pick("0", "1", "5", "-3", "100")
		if field == "Count" && c == "-3" {
			c = "2"
		}
		if field == "Speed" || field == "Ratio" {
			c = g.pick("0", "0.5", "2.25", "-1.5", "100")
		}
		if g.rng.IntN(2) == 0 {
			parts = append(parts, field+" "+g.pick(">", ">=", "<", "<=", "==")+" "+c)
		} else {
			parts = append(parts, c+" "+g.pick(">", ">=", "<", "<=")+" "+field)
		}
	}
	if g.rng.IntN(4) == 0 {
		parts = append(parts, "Ready")
	}
	return strings.Join(parts, " && ")
}

// nstate holds the numeric fields of the test scope and Ready.
type nstate struct {
	Ammo  int64
	Small int8
	Count uint64
	Speed float64
	Ratio float32
	Ready bool
}

func (g *numGen) state() nstate {
	ints := []int64{math.MinInt64, math.MaxInt64, -1, 0, 1, 2, 5, 7, 100, -100, math.MinInt64 + 1, math.MaxInt64 / 10}
	floats := []float64{-math.MaxFloat64, math.MaxFloat64, 0, 0.5, -0.5, 2.25, 1e30, 1e-30, 100, -1.5, 3}
	s := nstate{
		Ammo:  ints[g.rng.IntN(len(ints))],
		Small: int8(g.rng.IntN(256) - 128),
		Count: uint64(ints[g.rng.IntN(len(ints))]),
		Speed: floats[g.rng.IntN(len(floats))],
		Ratio: float32(floats[g.rng.IntN(len(floats))]),
		Ready: g.rng.IntN(2) == 0,
	}
	if g.rng.IntN(3) == 0 {
		s.Ammo, s.Count = g.rng.Int64N(200)-100, uint64(g.rng.IntN(200))
		s.Speed, s.Ratio = g.rng.Float64()*10-5, float32(g.rng.Float64()*10-5)
	}
	return s
}

func evalCond(conds []Expr, s nstate) bool {
	for _, c := range conds {
		if id, ok := c.(*Ident); ok && id.Name == "Ready" {
			if !s.Ready {
				return false
			}
			continue
		}
		b := unparen(c).(*Binary)
		x, y := evalNum(b.X, s), evalNum(b.Y, s)
		var ok bool
		switch b.Op {
		case OpLss:
			ok = x < y
		case OpLeq:
			ok = x <= y
		case OpGtr:
			ok = x > y
		case OpGeq:
			ok = x >= y
		case OpEql:
			ok = x == y
		}
		if !ok {
			return false
		}
	}
	return true
}

// evalNum evaluates a checked numeric expression as Go computes it in its
// type (int as int64), converted to float64. Comparisons of the fields
// with constants are exact: the test's constants and fields are exact in
// float64 as compared.
func evalNum(e Expr, s nstate) float64 {
	if v := e.Value(); v != nil {
		f, _ := constant.Float64Val(constant.ToFloat(v))
		return f
	}
	switch e.Type().Kind {
	case Int, UntypedInt:
		return float64(evalInt(e, s))
	case Int8:
		return float64(int8(evalInt(e, s)))
	case Uint:
		return float64(evalUint(e, s))
	case Float32:
		return float64(evalF32(e, s))
	}
	return evalF64(e, s)
}

func evalInt(e Expr, s nstate) int64 {
	if v := e.Value(); v != nil {
		return intOf(v).Int64()
	}
	switch n := e.(type) {
	case *Ident:
		if n.Name == "Small" {
			return int64(s.Small)
		}
		return s.Ammo
	case *Paren:
		return evalInt(n.X, s)
	case *Unary:
		return wrapKind(-evalInt(n.X, s), n.Type().Kind)
	case *Binary:
		x, y := evalInt(n.X, s), evalInt(n.Y, s)
		var r int64
		switch n.Op {
		case OpAdd:
			r = x + y
		case OpSub:
			r = x - y
		case OpMul:
			r = x * y
		case OpQuo:
			r = x / y
		case OpRem:
			r = x % y
		}
		return wrapKind(r, n.Type().Kind)
	}
	panic(fmt.Sprintf("unexpected %T", e))
}

func wrapKind(x int64, k Kind) int64 {
	if k == Int8 {
		return int64(int8(x))
	}
	return x
}

func evalUint(e Expr, s nstate) uint64 {
	if v := e.Value(); v != nil {
		return intOf(v).Uint64()
	}
	switch n := e.(type) {
	case *Ident:
		return s.Count
	case *Paren:
		return evalUint(n.X, s)
	case *Unary:
		return -evalUint(n.X, s)
	case *Binary:
		x, y := evalUint(n.X, s), evalUint(n.Y, s)
		switch n.Op {
		case OpAdd:
			return x + y
		case OpSub:
			return x - y
		case OpMul:
			return x * y
		case OpQuo:
			return x / y
		}
		return x % y
	}
	panic(fmt.Sprintf("unexpected %T", e))
}

func evalF64(e Expr, s nstate) float64 {
	if v := e.Value(); v != nil {
		f, _ := constant.Float64Val(constant.ToFloat(v))
		return f
	}
	switch n := e.(type) {
	case *Ident:
		return s.Speed
	case *Paren:
		return evalF64(n.X, s)
	case *Unary:
		return -evalF64(n.X, s)
	case *Binary:
		x, y := evalF64(n.X, s), evalF64(n.Y, s)
		switch n.Op {
		case OpAdd:
			return x + y
		case OpSub:
			return x - y
		case OpMul:
			return x * y
		}
		return x / y
	}
	panic(fmt.Sprintf("unexpected %T", e))
}

// evalF32 rounds every operation to float32 (the conversions keep the
// compiler from fusing them).
func evalF32(e Expr, s nstate) float32 {
	if v := e.Value(); v != nil {
		f, _ := constant.Float32Val(constant.ToFloat(v))
		return f
	}
	switch n := e.(type) {
	case *Ident:
		return s.Ratio
	case *Paren:
		return evalF32(n.X, s)
	case *Unary:
		return -evalF32(n.X, s)
	case *Binary:
		x, y := evalF32(n.X, s), evalF32(n.Y, s)
		switch n.Op {
		case OpAdd:
			return float32(x + y)
		case OpSub:
			return float32(x - y)
		case OpMul:
			return float32(x * y)
		}
		return float32(x / y)
	}
	panic(fmt.Sprintf("unexpected %T", e))
}
