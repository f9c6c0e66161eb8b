package gen

import (
	"bytes"
	"go/ast"
	"go/constant"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strconv"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"

	"github.com/rolegen/rolegen/exprlang"
	"github.com/rolegen/rolegen/internal/model"
)

// The fuzz targets below check rolegen's condition checker against Go's
// own type checker on the Go code rolegen emits.

const agreeDecls = `package p

import "time"

type Stance int

const (
	Standing Stance = iota
	Crouched
	Prone
)

const MaxAmmo = 30
const Half = 0.5
const Idle = "idle"
const Limit int = 100

type S struct {
	Ammo      int
	Magazines int
	Speed     float64
	Ready     bool
	Mode      string
	Stance    Stance
	Small     int8
	Count     uint
	Ratio     float32
	Shift     time.Duration
}
`

const agreePath = "example.com/p"

var agreeStance = exprlang.Named("Stance", agreePath, exprlang.Int)

var agreeFields = []struct {
	name string
	typ  exprlang.Type
}{
	{"Ammo", exprlang.Basic(exprlang.Int)}, {"Magazines", exprlang.Basic(exprlang.Int)},
	{"Speed", exprlang.Basic(exprlang.Float64)}, {"Ready", exprlang.Basic(exprlang.Bool)},
	{"Mode", exprlang.Basic(exprlang.String)}, {"Stance", agreeStance},
	{"Small", exprlang.Basic(exprlang.Int8)}, {"Count", exprlang.Basic(exprlang.Uint)},
	{"Ratio", exprlang.Basic(exprlang.Float32)}, {"Shift", exprlang.Named("time.Duration", "time", exprlang.Int64)},
}

// agreePackages are the packages qualified names may name, as go/types
// reads them: every exported name of time and math, so that a constant's
// type and exact value are Go's own (math.Pi to the last digit).
var agreePackages = []string{"time", "math"}

// packageScope lists the exported names of the standard package path as
// rolegen's checker resolves them: constants with their Go type, and
// every other name unusable.
func packageScope(t *testing.T, path string) *exprlang.MapScope {
	pkg, err := importer.Default().Import(path)
	if err != nil {
		t.Fatal(err)
	}
	sc := &exprlang.MapScope{}
	for _, name := range pkg.Scope().Names() {
		obj := pkg.Scope().Lookup(name)
		if !obj.Exported() {
			continue
		}
		k, isConst := obj.(*types.Const)
		typ, ok := agreeType(k)
		if !isConst || !ok {
			sc.List = append(sc.List, exprlang.Symbol{Kind: exprlang.Unusable, Name: name, Reason: path + "." + name + " is not a constant"})
			continue
		}
		sc.List = append(sc.List, exprlang.Symbol{Kind: exprlang.Const, Name: name, Type: typ, Value: k.Val(), PkgPath: path, PkgName: pkg.Name()})
	}
	return sc
}

// agreeType is the condition language's type of constant k of a standard
// package: a basic type, or a named one (time.Duration).
func agreeType(k *types.Const) (exprlang.Type, bool) {
	if k == nil {
		return exprlang.Type{}, false
	}
	b, ok := k.Type().Underlying().(*types.Basic)
	if !ok {
		return exprlang.Type{}, false
	}
	kinds := map[types.BasicKind]exprlang.Kind{
		types.Bool: exprlang.Bool, types.Int: exprlang.Int, types.Int8: exprlang.Int8, types.Int16: exprlang.Int16,
		types.Int32: exprlang.Int32, types.Int64: exprlang.Int64, types.Uint: exprlang.Uint, types.Uint8: exprlang.Uint8,
		types.Uint16: exprlang.Uint16, types.Uint32: exprlang.Uint32, types.Uint64: exprlang.Uint64,
		types.Uintptr: exprlang.Uintptr, types.Float32: exprlang.Float32, types.Float64: exprlang.Float64,
		types.String: exprlang.String, types.UntypedBool: exprlang.UntypedBool, types.UntypedInt: exprlang.UntypedInt,
		types.UntypedRune: exprlang.UntypedRune, types.UntypedFloat: exprlang.UntypedFloat,
		types.UntypedString: exprlang.UntypedString,
	}
	kind, ok := kinds[b.Kind()]
	if !ok {
		return exprlang.Type{}, false
	}
	if n, named := k.Type().(*types.Named); named {
		return exprlang.Named(n.Obj().Pkg().Name()+"."+n.Obj().Name(), n.Obj().Pkg().Path(), kind), true
	}
	return exprlang.Basic(kind), true
}

func agreeScope(t *testing.T) (*exprlang.MapScope, *model.Role) {
	sc := &exprlang.MapScope{Packages: map[string]*exprlang.MapScope{}}
	for _, path := range agreePackages {
		sc.Packages[path] = packageScope(t, path)
	}
	role := &model.Role{Name: "S"}
	for i, f := range agreeFields {
		sc.List = append(sc.List, exprlang.Symbol{Kind: exprlang.Field, Name: f.name, Type: f.typ, Index: i})
		role.Fields = append(role.Fields, &model.Field{Name: f.name, Path: []string{f.name}, Kind: f.typ.Kind})
	}
	konst := func(name string, t exprlang.Type, v constant.Value) {
		sc.List = append(sc.List, exprlang.Symbol{Kind: exprlang.Const, Name: name, Type: t, Value: v, PkgPath: agreePath})
	}
	konst("Standing", agreeStance, constant.MakeInt64(0))
	konst("Crouched", agreeStance, constant.MakeInt64(1))
	konst("Prone", agreeStance, constant.MakeInt64(2))
	konst("MaxAmmo", exprlang.Basic(exprlang.UntypedInt), constant.MakeInt64(30))
	konst("Half", exprlang.Basic(exprlang.UntypedFloat), constant.MakeFloat64(0.5))
	konst("Idle", exprlang.Basic(exprlang.UntypedString), constant.MakeString("idle"))
	konst("Limit", exprlang.Basic(exprlang.Int), constant.MakeInt64(100))
	return sc, role
}

// agreeImports starts a Go file that may use the packages of
// agreePackages.
const agreeImports = "package p\n\nimport (\n\t\"math\"\n\t\"time\"\n)\n\nvar _, _ = math.Pi, time.Hour\n\n"

// goTypeCheck type-checks body (a function body over s S) next to the
// declarations and returns Go's first error.
func goTypeCheck(t *testing.T, file string) error {
	fset := token.NewFileSet()
	decls, err := parser.ParseFile(fset, "decls.go", agreeDecls, 0)
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(fset, "gen.go", file, 0)
	if err != nil {
		return err
	}
	conf := types.Config{Importer: importer.Default()}
	_, err = conf.Check(agreePath, fset, []*ast.File{decls, f}, nil)
	return err
}

// emitted renders condition e as the generator does, in a function.
func emitted(t *testing.T, role *model.Role, e exprlang.Expr) string {
	f := jen.NewFilePathName(agreePath, "p")
	x := exprEmitter{role: role}
	f.Func().Id("cond").Params(jen.Id("s").Id("S")).Bool().Block(jen.Return(x.expr(e)))
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		t.Fatalf("render: %v", err)
	}
	return buf.String()
}

// asGo prints a parsed (maybe ill-typed) condition as Go, fields read
// from s.
func asGo(e exprlang.Expr) string {
	switch n := e.(type) {
	case *exprlang.Ident:
		if n.Pkg != "" {
			return n.Text()
		}
		for _, f := range agreeFields {
			if f.name == n.Name {
				return "s." + n.Name
			}
		}
		return n.Name
	case *exprlang.BasicLit:
		if n.LitKind == exprlang.StringLit {
			// A single-quoted literal is a Go string with \' allowed; a
			// double-quoted one is a Go string as it is.
			body := n.Raw[1 : len(n.Raw)-1]
			if n.Raw[0] == '\'' {
				body = strings.ReplaceAll(body, `\'`, `'`)
			}
			if v, err := strconv.Unquote(`"` + body + `"`); err == nil {
				return strconv.Quote(v)
			}
			return `"\q"` // malformed: Go rejects it too
		}
		return n.Raw
	case *exprlang.BoolLit:
		return strconv.FormatBool(n.Val)
	case *exprlang.Paren:
		return "(" + asGo(n.X) + ")"
	case *exprlang.Unary:
		return n.Op.String() + "(" + asGo(n.X) + ")"
	case *exprlang.Binary:
		return asGo(n.X) + " " + n.Op.String() + " " + asGo(n.Y)
	}
	return "?"
}

// FuzzConditionAgreesWithGo: a condition rolegen accepts compiles as the
// Go rolegen emits for it; a condition it rejects is rejected by Go too,
// except for rolegen's one deliberate extra rule (a divisor must be a
// non-zero constant, so that no plan divides by zero, floats included).
func FuzzConditionAgreesWithGo(f *testing.F) {
	for _, s := range []string{
		"Ammo > 10", "Ammo > 10 && (Mode == 'idle' || !Ready)", "Stance == Crouched", "Stance == 1",
		"Speed * 2.5 >= Half", "Ammo / 0 > 1", "Small > 300", "Mode + \"x\" == 'y\\'z'", "-(-Ammo) % 3 == 1",
		"1e400 > Speed", "Count > -1", "Ammo > Speed", "Ammo / Magazines > 1", "Ratio < 1e-50",
		"Ammo % 2.0 == 0", "Speed > 7 / 2", "Limit * 3 < Ammo", "Stance == 'x'", "Ready == (Ammo > 1)",
		"!Ammo", "Ammo", "1 < 2", "Mode < Idle", "Count - 1 > 0", "- -Speed < 1",
		// Untyped integer constants beyond 512 bits: Go refuses them.
		"1" + strings.Repeat("0", 160) + " < 0", strings.Repeat("9", 80) + " * " + strings.Repeat("9", 80) + " > Ammo",
		// Qualified constants, typed and untyped, and names that are not constants.
		"Shift < 8*time.Hour", "Shift > time.Hour + Ammo", "Ammo < math.MaxInt8", "Small <= math.MaxInt8",
		"Small < math.MaxInt8 + 1", "Speed < math.Pi", "Ratio < math.MaxFloat64", "Count < math.MaxUint64",
		"Shift < time.Now", "Shift / time.Second > 3", "Ammo < time.Hour", "Ammo < math.MaxInt64 * 2",
		"Shift < time.Duration", "Speed > math.SmallestNonzeroFloat64", "Ammo < math.Hours",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		scope, role := agreeScope(t)
		e, err := exprlang.ParseCondition(src)
		if err != nil {
			return
		}
		errs := exprlang.CheckCondition(src, e, scope)
		if len(errs) == 0 {
			file := emitted(t, role, e)
			if err := goTypeCheck(t, file); err != nil {
				t.Fatalf("rolegen accepts %q but Go rejects what it emits:\n%s\n%v", src, file, err)
			}
			return
		}
		goSrc := agreeImports + "func cond(s S) bool { return " + asGo(e) + " }\n"
		if err := goTypeCheck(t, goSrc); err == nil {
			for _, e := range errs {
				// rolegen's one deliberate extra rule: a divisor is a
				// non-zero constant, also where Go would let a float
				// variable divided by zero become ±Inf or NaN.
				if strings.Contains(e.Msg, "must be a constant") || e.Msg == "division by zero" {
					return
				}
			}
			t.Fatalf("rolegen rejects %q (%s) but Go accepts %s", src, errs[0].Msg, goSrc)
		}
	})
}

// FuzzEffectsCompileAsGo: a post rolegen accepts compiles as the effect
// function rolegen emits for it (one statement, or one tuple assignment
// for simultaneous effects).
func FuzzEffectsCompileAsGo(f *testing.F) {
	for _, s := range []string{
		"Ammo = 30", "Ammo += 1, Magazines--", "Mode += 'x'", "Speed -= 0.5 * Half", "Stance = Prone",
		"Small = 127", "Count--", "Ratio = Ratio * 2", "Ready = !Ready, Ammo = Magazines * MaxAmmo",
		"Ammo -= Magazines - 1, Magazines = Ammo", "Mode = Idle + Mode", "Small += -128", "Count = 1e3",
		"Ready = Ammo > Limit || Mode == ''",
		"Shift += time.Minute", "Shift = Shift * 2 - time.Second", "Small = math.MaxInt8", "Ammo = math.MaxInt",
		"Speed = math.Pi * Speed", "Shift = time.Now",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		scope, role := agreeScope(t)
		effs, errs := exprlang.Effects(src, scope)
		if len(errs) > 0 {
			return
		}
		file := jen.NewFilePathName(agreePath, "p")
		x := exprEmitter{role: role}
		file.Func().Id("effect").Params(jen.Id("s").Id("S")).Id("S").Block(x.effects(effs), jen.Return(jen.Id("s")))
		var buf bytes.Buffer
		if err := file.Render(&buf); err != nil {
			t.Fatalf("render %q: %v", src, err)
		}
		if err := goTypeCheck(t, buf.String()); err != nil {
			t.Fatalf("rolegen accepts %q but Go rejects what it emits:\n%s\n%v", src, buf.String(), err)
		}
	})
}

// FuzzCostAgreesWithGo: a cost rolegen accepts (and does not fold into a
// number) compiles as the cost function rolegen emits for it; a cost it
// rejects does not compile as float64(cost) either, but for rolegen's
// rule on divisors.
func FuzzCostAgreesWithGo(f *testing.F) {
	for _, s := range []string{
		"2 + Ammo / 10", "Speed * 0.5 + 1", "Ratio * 2", "Count % 3 + 1", "Stance + 1", "(Small + 1) * 2",
		"Ammo > 3", "Mode", "Ready", "Ammo + Speed", "Ammo / Magazines", "Small * 300", "Count - -1",
		"Limit * Ammo", "-(-Speed)", "Ammo % 2.0", "Half * Speed", "MaxAmmo - Ammo", "Ratio / 1e40",
		"Shift / time.Minute", "math.Pi * Speed", "Ammo % math.MaxInt8 + 1", "time.Hour",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		scope, role := agreeScope(t)
		e, err := exprlang.ParseCost(src)
		if err != nil {
			return
		}
		errs := exprlang.CheckCost(src, e, scope)
		if len(errs) == 0 {
			if e.Value() != nil {
				return // a constant cost is a number in the generated code
			}
			file := jen.NewFilePathName(agreePath, "p")
			x := exprEmitter{role: role}
			file.Func().Id("cost").Params(jen.Id("s").Id("S")).Float64().Block(jen.Return(x.float64(e)))
			var buf bytes.Buffer
			if err := file.Render(&buf); err != nil {
				t.Fatalf("render %q: %v", src, err)
			}
			if err := goTypeCheck(t, buf.String()); err != nil {
				t.Fatalf("rolegen accepts cost %q but Go rejects what it emits:\n%s\n%v", src, buf.String(), err)
			}
			return
		}
		goSrc := agreeImports + "func cost(s S) float64 { return float64(" + asGo(e) + ") }\n"
		if err := goTypeCheck(t, goSrc); err == nil {
			for _, e := range errs {
				if strings.Contains(e.Msg, "must be a constant") || e.Msg == "division by zero" {
					return
				}
			}
			t.Fatalf("rolegen rejects cost %q (%s) but Go accepts %s", src, errs[0].Msg, goSrc)
		}
	})
}
