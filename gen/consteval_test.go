package gen_test

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/printer"
	"go/token"
	"go/types"
	"maps"
	"math/rand/v2"
	"slices"
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
	vals, ok := fold(t, s, map[string]ast.Expr{"result": x}, map[string]string{})
	if !ok {
		return false, false
	}
	v := vals["result"]
	require.Equal(t, constant.Bool, v.Kind())
	return constant.BoolVal(v), true
}

// fold declares s's fields as typed constants s_Field, then each named
// expression (s.Field read as s_Field) as a constant of the type given
// in types (untyped when absent), and returns their values as Go's type
// checker folds them; ok is false when Go's constants refuse one (an
// overflow that run time would wrap).
func fold(t testing.TB, s istate, exprs map[string]ast.Expr, typeOf map[string]string) (map[string]constant.Value, bool) {
	var src strings.Builder
	src.WriteString("package p\n\ntype Stance int\n\nconst (\n\tStanding Stance = iota\n\tCrouched\n\tProne\n)\n\nconst Max = 7\n\nconst (\n")
	for i, f := range interpFields {
		fmt.Fprintf(&src, "\ts_%s %s = %s\n", f.name, f.goType, goConst(s.get(i), f.typ.Kind))
	}
	src.WriteString(")\n")
	for _, name := range slices.Sorted(maps.Keys(exprs)) {
		fmt.Fprintf(&src, "\nconst %s %s = ", name, typeOf[name])
		require.NoError(t, printer.Fprint(&src, token.NewFileSet(), constFields(exprs[name])))
		src.WriteString("\n")
	}

	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src.String(), 0)
	require.NoError(t, err, src.String())
	pkg, err := (&types.Config{}).Check("p", fset, []*ast.File{file}, nil)
	if err != nil {
		// Go's constants refuse an overflow or a negative unsigned value
		// that run time wraps; anything else is a bug of this test.
		require.Regexp(t, `overflows|cannot use .* \(untyped|truncated|division by zero`, err.Error(), src.String())
		return nil, false
	}
	out := map[string]constant.Value{}
	for name := range exprs {
		out[name] = pkg.Scope().Lookup(name).(*types.Const).Val()
	}
	return out, true
}

// constFields rewrites every s.Field of x as s_Field.
func constFields(x ast.Expr) ast.Expr {
	return astutil.Apply(x, func(c *astutil.Cursor) bool {
		if sel, isSel := c.Node().(*ast.SelectorExpr); isSel {
			if id, isID := sel.X.(*ast.Ident); isID && id.Name == "s" {
				c.Replace(ast.NewIdent("s_" + sel.Sel.Name))
				return false
			}
		}
		return true
	}, nil).(ast.Expr)
}

// effectEval folds the effect statements the generator emits, on state s:
// each assigned field's new value is the constant its right-hand side
// folds to (x op= y as x op (y), x++ as x + 1), typed as the field.
func effectEval(t testing.TB, goStmts string, s istate) (map[string]constant.Value, bool) {
	f, err := parser.ParseFile(token.NewFileSet(), "e.go", "package p\nfunc f() {\n"+goStmts+"\n}\n", 0)
	require.NoError(t, err, goStmts)
	body := f.Decls[0].(*ast.FuncDecl).Body.List
	require.Len(t, body, 1, goStmts)
	exprs, typeOf := map[string]ast.Expr{}, map[string]string{}
	field := func(x ast.Expr) string {
		sel := x.(*ast.SelectorExpr)
		name := "r_" + sel.Sel.Name
		for _, f := range interpFields {
			if f.name == sel.Sel.Name {
				typeOf[name] = f.goType
			}
		}
		return name
	}
	switch st := body[0].(type) {
	case *ast.IncDecStmt:
		op := token.ADD
		if st.Tok == token.DEC {
			op = token.SUB
		}
		exprs[field(st.X)] = &ast.BinaryExpr{X: st.X, Op: op, Y: &ast.BasicLit{Kind: token.INT, Value: "1"}}
	case *ast.AssignStmt:
		for i, lhs := range st.Lhs {
			rhs := st.Rhs[i]
			switch st.Tok {
			case token.ADD_ASSIGN:
				rhs = &ast.BinaryExpr{X: lhs, Op: token.ADD, Y: &ast.ParenExpr{X: rhs}}
			case token.SUB_ASSIGN:
				rhs = &ast.BinaryExpr{X: lhs, Op: token.SUB, Y: &ast.ParenExpr{X: rhs}}
			default:
				require.Equal(t, token.ASSIGN, st.Tok, goStmts)
			}
			exprs[field(lhs)] = rhs
		}
	default:
		t.Fatalf("unexpected statement %T in %s", st, goStmts)
	}
	return fold(t, s, exprs, typeOf)
}

// sameValue reports whether the constant c is the interpreted value v of
// kind k.
func sameValue(c constant.Value, v val, k exprlang.Kind) bool {
	switch {
	case k == exprlang.Bool:
		return constant.BoolVal(c) == v.b
	case k.IsString():
		return constant.StringVal(c) == v.s
	case k.IsFloat():
		f, _ := constant.Float64Val(c)
		return f == v.f
	case k.IsUnsigned():
		u, exact := constant.Uint64Val(c)
		return exact && u == v.u
	}
	i, exact := constant.Int64Val(constant.ToInt(c))
	return exact && i == v.i
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

// FuzzGeneratedCostMatchesInterpreter: on a state drawn from the input,
// the float64 expression rolegen emits for a cost that depends on the
// state has the value the reference interpreter gives the checked tree,
// converted to float64. Folded as constants, like the conditions.
func FuzzGeneratedCostMatchesInterpreter(f *testing.F) {
	for i, s := range []string{
		"2 + I / 10", "J * 3 - I", "B + 1", "U % 4 + 1", "F * 0.5 + 1", "H * 0.1", "St + 1",
		"-(I - J)", "(J / 3) * 3", "Max * I",
	} {
		f.Add(s, uint64(i))
	}
	f.Fuzz(func(t *testing.T, src string, seed uint64) {
		e, errs := exprlang.Cost(src, interpScope())
		if len(errs) > 0 || e.Value() != nil {
			return
		}
		s := randomState(rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)))
		goExpr := gen.EmitCost(interpFieldNames, e)
		x, err := parser.ParseExpr(goExpr)
		require.NoError(t, err, goExpr)
		vals, ok := fold(t, s, map[string]ast.Expr{"result": x}, map[string]string{"result": "float64"})
		if !ok {
			return
		}
		got, _ := constant.Float64Val(vals["result"])
		if want := costValue(e, s); got != want {
			t.Fatalf("%q on %v: the emitted Go %s is %v, the interpreter says %v", src, s, goExpr, got, want)
		}
	})
}

// The seeds of the cost fuzz target fold to the interpreter's values.
func TestConstEvalFoldsTheEmittedCosts(t *testing.T) {
	s := istate{I: 25, J: -7, B: 126, U: 3, F: 0.5, H: 3, OK: true, S: "ab", St: 1}
	for src, want := range map[string]float64{
		"2 + I / 10":  4, // integer division, then float64
		"F * 0.5 + 1": 1.25,
		"H * 0.1":     float64(float32(0.3)), // in float32
		"U % 2 + 1":   2,
		"St + 1":      2,
		"-J":          7,
	} {
		e, errs := exprlang.Cost(src, interpScope())
		require.Empty(t, errs, src)
		x, err := parser.ParseExpr(gen.EmitCost(interpFieldNames, e))
		require.NoError(t, err)
		vals, ok := fold(t, s, map[string]ast.Expr{"result": x}, map[string]string{"result": "float64"})
		require.True(t, ok, src)
		got, _ := constant.Float64Val(vals["result"])
		require.Equal(t, want, got, src)
		require.Equal(t, costValue(e, s), got, src)
	}
}

// FuzzGeneratedEffectsMatchInterpreter: on a state drawn from the input,
// the effects rolegen emits for a post it accepts leave every field it
// assigns with the value the reference interpreter gives (simultaneous
// effects included: every right-hand side reads the state before the
// action). Folded as constants, like the conditions.
func FuzzGeneratedEffectsMatchInterpreter(f *testing.F) {
	for i, s := range []string{
		"I = J, J = I", "I += J * 2, U--", "S += 'x', OK = !OK", "F -= 0.25, H = H * 3",
		"St = Prone", "B++", "J -= I - 1", "I = I % 7 - Max", "S = S + S, U = U + 3",
		"I -= J - 1, OK = true", "J += I * -2, F -= F - 1.5",
	} {
		f.Add(s, uint64(i))
	}
	f.Fuzz(func(t *testing.T, src string, seed uint64) {
		effs, errs := exprlang.Effects(src, interpScope())
		if len(errs) > 0 {
			return
		}
		s := randomState(rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)))
		goStmts := gen.EmitEffects(interpFieldNames, effs)
		got, ok := effectEval(t, goStmts, s)
		if !ok {
			return
		}
		want := apply(effs, s)
		for i, f := range interpFields {
			c, assigned := got["r_"+f.name]
			if assigned && !sameValue(c, want.get(i), f.typ.Kind) {
				t.Fatalf("%q on %v: the emitted %s gives %s = %s, the interpreter %v", src, s, goStmts, f.name, c, want)
			}
		}
		require.Len(t, got, len(effs), "every assigned field is folded")
	})
}

// The effects fold too: simultaneous assignments read the state before
// the action, and compound ones keep their operand whole.
func TestConstEvalFoldsTheEmittedEffects(t *testing.T) {
	s := istate{I: 5, J: -7, B: 126, U: 3, F: 0.5, H: 3, OK: true, S: "ab", St: 1}
	for src, want := range map[string]map[string]string{
		"I = J, J = I":           {"I": "-7", "J": "5"},
		"J -= I - 1":             {"J": "-11"},
		"I -= J - 1, U--":        {"I": "13", "U": "2"},
		"S += 'c', OK = !OK":     {"S": `"abc"`, "OK": "false"},
		"B++":                    {"B": "127"},
		"H = H * 0.1, F -= 0.25": {"H": "0.3", "F": "0.25"},
		"St = Prone":             {"St": "2"},
	} {
		effs, errs := exprlang.Effects(src, interpScope())
		require.Empty(t, errs, src)
		got, ok := effectEval(t, gen.EmitEffects(interpFieldNames, effs), s)
		require.True(t, ok, src)
		require.Len(t, got, len(want), src)
		for name, v := range want {
			c := got["r_"+name]
			if k := c.Kind(); k == constant.Float {
				f, _ := constant.Float32Val(c)
				require.Equal(t, v, strconv.FormatFloat(float64(f), 'g', -1, 32), "%s: %s", src, name)
				continue
			}
			require.Equal(t, v, c.ExactString(), "%s: %s", src, name)
		}
		after := apply(effs, s)
		for i, f := range interpFields {
			if c, ok := got["r_"+f.name]; ok {
				require.True(t, sameValue(c, after.get(i), f.typ.Kind), "%s: %s", src, f.name)
			}
		}
	}
}
