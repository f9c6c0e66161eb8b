package gen_test

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/printer"
	"go/token"
	"go/types"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/ast/astutil"

	"github.com/rolegen/rolegen/exprlang"
	"github.com/rolegen/rolegen/gen"
)

// constEval evaluates goExpr, a condition as the generator emits it, on
// state s without compiling it: every s.Field becomes a typed constant
// holding the field's value, and Go's type checker folds the expression
// as a constant. Go's constant arithmetic rounds floats as run time does
// but refuses what run time wraps (an integer overflow): then it reports
// ok false.
func constEval(t testing.TB, goExpr string, s istate) (value, ok bool) {
	x, err := parser.ParseExpr(goExpr)
	require.NoError(t, err, goExpr)
	x = astutil.Apply(x, func(c *astutil.Cursor) bool {
		if sel, isSel := c.Node().(*ast.SelectorExpr); isSel {
			if id, isID := sel.X.(*ast.Ident); isID && id.Name == "s" {
				c.Replace(ast.NewIdent("s_" + sel.Sel.Name))
				return false
			}
		}
		return true
	}, nil).(ast.Expr)
	var src strings.Builder
	src.WriteString("package p\n\ntype Stance int\n\nconst (\n\tStanding Stance = iota\n\tCrouched\n\tProne\n)\n\nconst Max = 7\n\nconst (\n")
	for i, f := range interpFields {
		fmt.Fprintf(&src, "\ts_%s %s = %s\n", f.name, f.goType, goConst(s.get(i), f.typ.Kind))
	}
	src.WriteString(")\n\nconst result = ")
	require.NoError(t, printer.Fprint(&src, token.NewFileSet(), x))
	src.WriteString("\n")

	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src.String(), 0)
	require.NoError(t, err, src.String())
	pkg, err := (&types.Config{}).Check("p", fset, []*ast.File{file}, nil)
	if err != nil {
		// Go's constants refuse an overflow or a negative unsigned value
		// that run time wraps; anything else is a bug of this test.
		require.Regexp(t, `overflows|cannot use .* \(untyped|truncated|division by zero`, err.Error(), src.String())
		return false, false
	}
	v := pkg.Scope().Lookup("result").(*types.Const).Val()
	require.Equal(t, constant.Bool, v.Kind(), src.String())
	return constant.BoolVal(v), true
}

// goConst writes v, of kind k, as a Go literal that denotes it exactly.
func goConst(v val, k exprlang.Kind) string {
	switch {
	case k == exprlang.Bool:
		return strconv.FormatBool(v.b)
	case k.IsString():
		return strconv.Quote(v.s)
	case k == exprlang.Float32:
		return strconv.FormatFloat(v.f, 'g', -1, 32)
	case k.IsFloat():
		return strconv.FormatFloat(v.f, 'g', -1, 64)
	case k.IsUnsigned():
		return strconv.FormatUint(v.u, 10)
	}
	return strconv.FormatInt(v.i, 10)
}

var interpFieldNames = func() []string {
	var out []string
	for _, f := range interpFields {
		out = append(out, f.name)
	}
	return out
}()

// FuzzGeneratedConditionMatchesInterpreter: on a state drawn from the
// input, the Go rolegen emits for a condition it accepts has the value
// the reference interpreter gives the checked tree. The emitted Go is
// folded by Go's type checker (constEval), so each execution takes
// microseconds instead of a compile; wrap-around, which constants refuse,
// is left to TestGeneratedCodeMatchesInterpreter, which runs compiled
// code.
func FuzzGeneratedConditionMatchesInterpreter(f *testing.F) {
	for i, s := range []string{
		"I > 3 && J < 100", "B + 1 > 0", "U - 1 < U", "F * 2.5 >= 1.25", "H / 3 < 1",
		"S + 'b' == 'ab'", "St == Crouched || !OK", "I % 7 == -2", "(J / 3) * 3 != J",
		"-F < F", "H * 0.1 == 0.3", "S < 'abc' == OK", "I * Max + J >= 0", "F - F == 0.0",
	} {
		f.Add(s, uint64(i))
	}
	f.Fuzz(func(t *testing.T, src string, seed uint64) {
		e, err := exprlang.ParseCondition(src)
		if err != nil {
			return
		}
		if errs := exprlang.CheckCondition(src, e, interpScope()); len(errs) > 0 {
			return
		}
		s := randomState(rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)))
		goExpr := gen.EmitCondition(interpFieldNames, e)
		got, ok := constEval(t, goExpr, s)
		if !ok {
			return
		}
		if want := eval(e, s).b; got != want {
			t.Fatalf("%q on %v: the emitted Go %s is %v, the interpreter says %v", src, s, goExpr, got, want)
		}
	})
}

// The fuzz target's seeds are all evaluated, not skipped: constEval does
// fold what the generator emits.
func TestConstEvalFoldsTheEmittedCode(t *testing.T) {
	s := istate{I: 5, J: -7, B: 127, U: 0, F: 0.5, H: 3, OK: true, S: "ab", St: 1}
	for src, want := range map[string]bool{
		"I > 3 && J < 100":      true,
		"St == Crouched && OK":  true,
		"(J / 2) * 2 != J":      true, // truncating division
		"J % 4 == -3":           true,
		"(F - 0.4) * 10 == 1.0": false, // rounded after each operation, as at run time
		"H * 0.1 == 0.3":        true,  // in float32
		"F * 3 == 1.5":          true,
		"S + 'c' == 'abc'":      true,
		"I * Max == 35":         true,
	} {
		e, err := exprlang.ParseCondition(src)
		require.NoError(t, err)
		require.Empty(t, exprlang.CheckCondition(src, e, interpScope()), src)
		got, ok := constEval(t, gen.EmitCondition(interpFieldNames, e), s)
		require.True(t, ok, src)
		require.Equal(t, want, got, src)
		require.Equal(t, eval(e, s).b, got, src)
	}
	// Overflows are refused by constants, not evaluated.
	e, err := exprlang.ParseCondition("B + 1 > 0")
	require.NoError(t, err)
	require.Empty(t, exprlang.CheckCondition("B + 1 > 0", e, interpScope()))
	_, ok := constEval(t, gen.EmitCondition(interpFieldNames, e), s)
	require.False(t, ok)
}
