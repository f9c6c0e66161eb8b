package gen_test

import (
	"context"
	"fmt"
	"go/constant"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/exprlang"
	"github.com/rolegen/rolegen/gen"
)

// TestGeneratedCodeMatchesInterpreter generates a role with hundreds of
// random conditions, effects and costs, compiles it, runs it on random
// states, and compares every result with a reference interpreter of the
// same checked trees written here, independently of the generator: Go's
// integer wrap-around, truncating division, float32 rounding, string
// concatenation and simultaneous effects included. Every positive cost the
// generated code computes where its action's precondition holds is at
// least the action's Cost, the lower bound rolegen proved for it.
func TestGeneratedCodeMatchesInterpreter(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	g := &exprGen{rng: rng}
	scope := interpScope()

	var conds []string
	var condTrees []exprlang.Expr
	for len(conds) < 250 {
		src := g.boolExpr(3)
		e, errs := exprlang.Condition(src, scope)
		if len(errs) > 0 || exprlang.Contradiction(src, e) != nil {
			continue // overflowing constants and the like, which Go rejects too, and conditions rolegen refuses as holding nowhere
		}
		conds, condTrees = append(conds, src), append(condTrees, e)
	}
	var posts []string
	var postTrees [][]*exprlang.Effect
	for len(posts) < 80 {
		src := g.post()
		effs, errs := exprlang.Effects(src, scope)
		if len(errs) > 0 || takesFromU(effs) {
			continue // and effects rolegen refuses, as wrapping U below 0 where no precondition guards it
		}
		posts, postTrees = append(posts, src), append(postTrees, effs)
	}
	// Each action's precondition is one of the conditions, every other
	// one joined with bounds on fields, which bound its cost; its cost is
	// a numeric expression that is not constant and can be positive where
	// the precondition holds (rolegen reports the others).
	var pres, costs []string
	var preTrees, costTrees []exprlang.Expr
	for len(costs) < len(posts) {
		i := len(costs)
		pre := conds[i]
		if i%2 == 1 {
			pre = "(" + pre + ") && " + g.bounds()
		}
		preTree, errs := exprlang.Condition(pre, scope)
		require.Empty(t, errs, pre)
		src := g.num(g.pick("int", "int8", "uint", "float64", "float32", "Stance"), 3)
		if g.rng.IntN(2) == 0 {
			src = g.pick("1", "3", "0.5", "100") + " + " + src
		}
		e, errs := exprlang.Cost(src, scope)
		if len(errs) > 0 || e.Value() != nil || exprlang.Bounds(e, exprlang.Conjuncts(preTree)).Max <= 0 || exprlang.Contradiction(pre, preTree) != nil {
			continue
		}
		pres, preTrees = append(pres, pre), append(preTrees, preTree)
		costs, costTrees = append(costs, src), append(costTrees, e)
	}
	var states []istate
	for range 40 {
		states = append(states, randomState(rng))
	}
	states = append(states, extremeStates()...)

	// The role and a program that prints every goal and effect result.
	var role strings.Builder
	role.WriteString("package main\n\ntype Stance int\n\nconst (\n\tStanding Stance = iota\n\tCrouched\n\tProne\n)\n\nconst Max = 7\n\n")
	role.WriteString("type Fuzz struct {\n")
	for _, f := range interpFields {
		fmt.Fprintf(&role, "\t%s %s `plan:\"state%s\"`\n", f.name, f.goType, f.tag)
	}
	for i, c := range conds {
		// Inside a struct tag a backslash is written twice.
		fmt.Fprintf(&role, "\tG%d struct{} `plan:\"goal=%s\"`\n", i, strings.ReplaceAll(c, `\`, `\\`))
	}
	role.WriteString("}\n")
	// Pre, the generated all-at-once Enabled and the search loop must agree with
	// the interpreter too.
	for i, p := range posts {
		fmt.Fprintf(&role, "\n//plan:action pre=%q post=%q cost=%q\nfunc (f *Fuzz) A%d() {}\n", pres[i], p, costs[i], i)
	}
	var main strings.Builder
	main.WriteString("package main\n\nimport (\n\t\"context\"\n\t\"fmt\"\n\t\"slices\"\n\n\t\"github.com/rolegen/rolegen/runtime\"\n)\n\n")
	main.WriteString("func fromState(s FuzzState) Fuzz {\n\treturn Fuzz{\n")
	for _, f := range interpFields {
		fmt.Fprintf(&main, "\t\t%s: s.%s,\n", f.name, f.name)
	}
	main.WriteString("\t}\n}\n\nvar states = []FuzzState{\n")
	for _, s := range states {
		fmt.Fprintf(&main, "\t%s,\n", s.goLiteral())
	}
	main.WriteString(`}

func main() {
	// The random costs are often negative, which ends a search at once:
	// the searches compared cost the constant lower bounds.
	ctx := context.Background()
	bound := *FuzzDomain
	bound.Actions = slices.Clone(FuzzDomain.Actions)
	for j := range bound.Actions {
		bound.Actions[j].CostOf = nil
	}
	plain := bound // without the generated search loop
	plain.Search = nil
	with := runtime.NewAStar(&bound, runtime.WithSearchBudget(64))
	without := runtime.NewAStar(&plain, runtime.WithSearchBudget(64))
	for i, s := range states {
		for _, g := range FuzzDomain.Goals {
			fmt.Printf("state %d goal %s: %v\n", i, g.Name, g.Cond(s))
		}
		bits := make([]uint64, (len(FuzzDomain.Actions)+63)/64)
		FuzzDomain.Enabled(&s, bits)
		for j, a := range FuzzDomain.Actions {
			fmt.Printf("state %d action %s: pre %v, enabled %v, effect %v, cost %v\n", i, a.Name, a.Pre(s), bits[j/64]>>(j%64)&1 == 1, a.Effect(s), a.CostOf(s))
		}
		// The generated search loop searches as A* does action by action
		// (with Pre, Effect, Key and Hash, checked above), plan for plan
		// and expansion for expansion.
		for g, goal := range FuzzDomain.Goals {
			p, err := with.PlanGoal(ctx, s, runtime.GoalID(g))
			q, errq := without.PlanGoal(ctx, s, runtime.GoalID(g))
			same := slices.Equal(p.Steps, q.Steps) && p.Expansions == q.Expansions && p.Generated == q.Generated && (err == nil) == (errq == nil)
			fmt.Printf("state %d search %s: %v\n", i, goal.Name, same)
		}
		// Satisfied tests every goal at once.
		held := make([]uint64, (len(FuzzDomain.Goals)+63)/64)
		FuzzDomain.Satisfied(&s, held)
		var holds []string
		for g, goal := range FuzzDomain.Goals {
			if held[g/64]>>(g%64)&1 == 1 {
				holds = append(holds, goal.Name)
			}
		}
		fmt.Printf("state %d satisfied: %v\n", i, holds)
		// Replay applies every action in order while its precondition holds.
		steps := make([]runtime.ActionID, len(FuzzDomain.Actions))
		for j := range steps {
			steps[j] = runtime.ActionID(j)
		}
		end := s
		n := FuzzDomain.Replay(&end, steps)
		fmt.Printf("state %d replay: %d %v\n", i, n, end)
		// UpdatePlanState reads a role into the state of the tick before
		// and says which fields changed, as Changed does.
		if i > 0 {
			prev, r := states[i-1], fromState(s)
			changed := r.UpdatePlanState(&prev)
			fmt.Printf("state %d update: %v %v\n", i, prev == s, changed == FuzzDomain.Changed(&s, &states[i-1]))
		}
	}
	for _, a := range FuzzDomain.Actions {
		fmt.Printf("action %s: cost at least %v\n", a.Name, a.Cost)
	}
}
`)
	dir := newModule(t, "example.com/interp")
	writeFile(t, filepath.Join(dir, "fuzz", "fuzz.go"), role.String())
	writeFile(t, filepath.Join(dir, "fuzz", "main.go"), main.String())
	files, err := gen.Generate(context.Background(), gen.Options{Dir: dir}, "./...")
	require.NoError(t, err)
	_, err = gen.Write(files)
	require.NoError(t, err)
	got := goCmd(t, dir, "run", "./fuzz")

	// One labelled line per result, so that a mismatch names the state,
	// the goal or action and the source of its condition or effects.
	var want strings.Builder
	for i, s := range states {
		for j, c := range condTrees {
			fmt.Fprintf(&want, "state %d goal G%d: %v\n", i, j, eval(c, s).b)
		}
		for j, effs := range postTrees {
			pre := eval(preTrees[j], s).b
			fmt.Fprintf(&want, "state %d action A%d: pre %v, enabled %v, effect %s, cost %v\n", i, j, pre, pre, applySaturating(effs, s), costValue(costTrees[j], s))
		}
		for j := range condTrees {
			fmt.Fprintf(&want, "state %d search G%d: true\n", i, j)
		}
		var holds []string
		for j, c := range condTrees {
			if eval(c, s).b {
				holds = append(holds, fmt.Sprintf("G%d", j))
			}
		}
		fmt.Fprintf(&want, "state %d satisfied: %v\n", i, holds)
		n, end := 0, s
		for j, effs := range postTrees {
			if !eval(preTrees[j], end).b {
				break
			}
			n, end = n+1, applySaturating(effs, end)
		}
		fmt.Fprintf(&want, "state %d replay: %d %s\n", i, n, end)
		if i > 0 {
			fmt.Fprintf(&want, "state %d update: true true\n", i)
		}
	}
	// The bounds the generated domain declares are rolegen's: read them
	// back, then check them against the costs.
	least := map[int]float64{}
	for _, line := range strings.Split(got, "\n") {
		var j int
		var c float64
		if _, err := fmt.Sscanf(line, "action A%d: cost at least %g", &j, &c); err == nil {
			least[j] = c
			fmt.Fprintf(&want, "action A%d: cost at least %v\n", j, c)
		}
	}
	require.Len(t, least, len(costs))
	for j, e := range costTrees {
		require.Equal(t, exprlang.Bounds(e, exprlang.Conjuncts(preTrees[j])).Least, least[j], "cost %q", costs[j])
		for i, s := range states {
			c := costValue(e, s)
			if eval(preTrees[j], s).b && c > 0 && !math.IsInf(c, 1) {
				require.GreaterOrEqual(t, c, least[j], "cost %q where %q in state %d (%s)", costs[j], pres[j], i, s)
			}
		}
	}
	gotLines, wantLines := strings.Split(got, "\n"), strings.Split(want.String(), "\n")
	require.Equal(t, len(wantLines), len(gotLines))
	mismatches := 0
	for i := range wantLines {
		if gotLines[i] == wantLines[i] {
			continue
		}
		var source string
		var j int
		switch label := wantLines[i]; {
		case sscan(label, "state %d goal G%d:", &j):
			source = fmt.Sprintf("condition %q", conds[j])
		case sscan(label, "state %d action A%d:", &j):
			source = fmt.Sprintf("pre %q, post %q, cost %q", pres[j], posts[j], costs[j])
		}
		t.Errorf("%s\ngenerated   %s\ninterpreter %s\nstate %s", source, gotLines[i], wantLines[i], states[stateOf(wantLines[i])])
		if mismatches++; mismatches == 5 {
			t.FailNow()
		}
	}
}

// sscan reads the second number of a labelled result line into n.
func sscan(line, format string, n *int) bool {
	var state int
	_, err := fmt.Sscanf(line, format, &state, n)
	return err == nil
}

// stateOf reads the state number of a labelled result line.
func stateOf(line string) int {
	var n int
	fmt.Sscanf(line, "state %d", &n)
	return n
}

// interpFields are the role's state fields; three saturate, each effect
// clamping them into their range (lo and hi, each where has says).
// takesFromU reports whether effs take a constant from U, the one
// unsigned field that no range clamps: rolegen refuses that where the
// precondition does not keep U high enough, and the preconditions here
// are drawn apart from the effects.
func takesFromU(effs []*exprlang.Effect) bool {
	for _, e := range effs {
		if e.Field.Name == "U" && (e.Op == exprlang.Dec || e.Op == exprlang.SubAssign && e.Value.Value() != nil) {
			return true
		}
	}
	return false
}

var interpFields = []struct {
	name, goType string
	typ          exprlang.Type
	tag          string
	lo, hi       float64
}{
	{"I", "int", exprlang.Basic(exprlang.Int), "", 0, 0},
	{"J", "int", exprlang.Basic(exprlang.Int), "; min=-3; max=12", -3, 12},
	{"B", "int8", exprlang.Basic(exprlang.Int8), "; max=20", math.Inf(-1), 20},
	{"U", "uint", exprlang.Basic(exprlang.Uint), "", 0, 0},
	{"F", "float64", exprlang.Basic(exprlang.Float64), "; min=0.5", 0.5, math.Inf(1)},
	{"H", "float32", exprlang.Basic(exprlang.Float32), "", 0, 0},
	{"OK", "bool", exprlang.Basic(exprlang.Bool), "", 0, 0},
	{"S", "string", exprlang.Basic(exprlang.String), "", 0, 0},
	{"St", "Stance", exprlang.Named("Stance", "example.com/interp/fuzz", exprlang.Int), "", 0, 0},
}

func interpScope() *exprlang.MapScope {
	sc := &exprlang.MapScope{}
	for i, f := range interpFields {
		sc.List = append(sc.List, exprlang.Symbol{Kind: exprlang.Field, Name: f.name, Type: f.typ, Index: i})
	}
	st := interpFields[8].typ
	for i, n := range []string{"Standing", "Crouched", "Prone"} {
		sc.List = append(sc.List, exprlang.Symbol{Kind: exprlang.Const, Name: n, Type: st, Value: constant.MakeInt64(int64(i))})
	}
	sc.List = append(sc.List, exprlang.Symbol{Kind: exprlang.Const, Name: "Max", Type: exprlang.Basic(exprlang.UntypedInt), Value: constant.MakeInt64(7)})
	return sc
}

// exprGen writes random, mostly well-typed, conditions and posts.
type exprGen struct{ rng *rand.Rand }

func (g *exprGen) pick(xs ...string) string { return xs[g.rng.IntN(len(xs))] }

func (g *exprGen) num(kind string, depth int) string {
	if depth <= 0 || g.rng.IntN(3) == 0 {
		switch kind {
		case "int":
			return g.pick("I", "J", "Max", fmt.Sprint(g.rng.IntN(20)-5), "3", "I", "J")
		case "int8":
			return g.pick("B", fmt.Sprint(g.rng.IntN(60)-30), "B")
		case "uint":
			return g.pick("U", fmt.Sprint(g.rng.IntN(9)), "U")
		case "float64":
			return g.pick("F", "1.5", "0.25", "F", "2", ".5", "Max")
		case "float32":
			return g.pick("H", "0.1", "3.75", "H", "1e3")
		case "string":
			return g.pick("S", "'ab'", "'c'", "S", "''", `'q\'s'`)
		case "Stance":
			return g.pick("St", "Standing", "Crouched", "Prone", "1", "St")
		}
	}
	switch kind {
	case "string":
		return g.num(kind, depth-1) + " + " + g.num(kind, depth-1)
	case "Stance":
		return g.num(kind, depth-1)
	}
	op := g.pick("+", "-", "*", "/", "%", "+", "-")
	if (kind == "float64" || kind == "float32") && op == "%" {
		op = "*"
	}
	if op == "/" || op == "%" {
		return "(" + g.num(kind, depth-1) + " " + op + " " + g.pick("2", "3", "7", "-4") + ")"
	}
	if g.rng.IntN(4) == 0 {
		return "-(" + g.num(kind, depth-1) + " " + op + " " + g.num(kind, depth-1) + ")"
	}
	return "(" + g.num(kind, depth-1) + " " + op + " " + g.num(kind, depth-1) + ")"
}

func (g *exprGen) boolExpr(depth int) string {
	if depth <= 0 || g.rng.IntN(3) == 0 {
		if g.rng.IntN(6) == 0 {
			return g.pick("OK", "!OK", "true", "false")
		}
		kind := g.pick("int", "int8", "uint", "float64", "float32", "string", "Stance")
		op := g.pick("==", "!=", "<", "<=", ">", ">=")
		return g.num(kind, 2) + " " + op + " " + g.num(kind, 2)
	}
	switch g.rng.IntN(4) {
	case 0:
		return "!(" + g.boolExpr(depth-1) + ")"
	case 1:
		return "(" + g.boolExpr(depth-1) + " || " + g.boolExpr(depth-1) + ")"
	default:
		return g.boolExpr(depth-1) + " && " + g.boolExpr(depth-1)
	}
}

// bounds bounds numeric fields with constants, as preconditions do.
func (g *exprGen) bounds() string {
	var parts []string
	for range 1 + g.rng.IntN(3) {
		switch g.rng.IntN(5) {
		case 0:
			parts = append(parts, "I "+g.pick(">=", ">", "<", "<=")+" "+g.pick("-3", "0", "2", "10"))
		case 1:
			parts = append(parts, "B "+g.pick(">=", ">", "<", "<=")+" "+g.pick("-3", "0", "2", "10"))
		case 2:
			parts = append(parts, "U "+g.pick(">=", ">", "<=")+" "+g.pick("1", "2", "5"))
		case 3:
			parts = append(parts, g.pick("0.5", "-1", "2.25")+" "+g.pick("<=", "<")+" F")
		default:
			parts = append(parts, "H "+g.pick(">=", ">", "<")+" "+g.pick("0.1", "1", "10"))
		}
	}
	return strings.Join(parts, " && ")
}

func (g *exprGen) post() string {
	var parts []string
	used := map[string]bool{}
	for range 1 + g.rng.IntN(4) {
		f := interpFields[g.rng.IntN(len(interpFields))]
		if used[f.name] {
			continue
		}
		used[f.name] = true
		switch f.goType {
		case "bool":
			parts = append(parts, f.name+" = "+g.boolExpr(1))
		case "string":
			parts = append(parts, f.name+g.pick(" = ", " += ")+g.num("string", 2))
		case "Stance":
			parts = append(parts, f.name+" = "+g.num("Stance", 1))
		default:
			switch g.rng.IntN(4) {
			case 0:
				parts = append(parts, f.name+g.pick("++", "--"))
			case 1:
				parts = append(parts, f.name+g.pick(" += ", " -= ")+g.num(f.goType, 2))
			default:
				parts = append(parts, f.name+" = "+g.num(f.goType, 2))
			}
		}
	}
	return strings.Join(parts, ", ")
}

// istate is a state for the interpreter, field by field.
type istate struct {
	I, J int64
	B    int8
	U    uint64
	F    float64
	H    float32
	OK   bool
	S    string
	St   int64
}

func randomState(rng *rand.Rand) istate {
	return istate{
		I: rng.Int64N(41) - 20, J: rng.Int64N(2001) - 1000, B: int8(rng.IntN(256) - 128), U: uint64(rng.IntN(10)),
		F: float64(rng.IntN(200)-100) / 8, H: float32(rng.IntN(100)) / 3, OK: rng.IntN(2) == 0,
		S: []string{"", "ab", "c", "abc"}[rng.IntN(4)], St: rng.Int64N(3),
	}
}

// extremeStates have fields at the ends of their types, where integers
// wrap around and floats overflow.
func extremeStates() []istate {
	return []istate{
		{I: math.MaxInt64, J: math.MinInt64, B: math.MaxInt8, U: math.MaxUint64, F: math.MaxFloat64, H: math.MaxFloat32, St: 2},
		{I: math.MinInt64, J: math.MaxInt64, B: math.MinInt8, U: 0, F: -math.MaxFloat64, H: -math.MaxFloat32, OK: true},
		{I: math.MaxInt64 / 3, J: -1, B: -1, U: math.MaxUint64 / 3, F: 1e300, H: 1e30, S: "ab", St: 1},
		{I: -1, J: 0, B: 100, U: 1, F: -1e-300, H: -1e-30},
	}
}

// costValue is the cost e has in s, converted to float64 as the generated
// code converts it.
func costValue(e exprlang.Expr, s istate) float64 {
	v, k := eval(e, s), e.Type().Kind
	switch {
	case k.IsFloat():
		return v.f
	case k.IsUnsigned():
		return float64(v.u)
	}
	return float64(v.i)
}

func (s istate) goLiteral() string {
	return fmt.Sprintf("{I: %d, J: %d, B: %d, U: %d, F: %v, H: %v, OK: %v, S: %q, St: %d}",
		s.I, s.J, s.B, s.U, s.F, s.H, s.OK, s.S, s.St)
}

// String prints s as fmt prints the generated state type with %v.
func (s istate) String() string {
	return fmt.Sprintf("{%d %d %d %d %v %v %v %s %d}", s.I, s.J, s.B, s.U, s.F, s.H, s.OK, s.S, s.St)
}

// val is an interpreted value of one of the language's kinds.
type val struct {
	i int64
	u uint64
	f float64
	b bool
	s string
}

func (s istate) get(i int) val {
	switch i {
	case 0:
		return val{i: s.I}
	case 1:
		return val{i: s.J}
	case 2:
		return val{i: int64(s.B)}
	case 3:
		return val{u: s.U}
	case 4:
		return val{f: s.F}
	case 5:
		return val{f: float64(s.H)}
	case 6:
		return val{b: s.OK}
	case 7:
		return val{s: s.S}
	}
	return val{i: s.St}
}

func (s *istate) set(i int, v val) {
	switch i {
	case 0:
		s.I = v.i
	case 1:
		s.J = v.i
	case 2:
		s.B = int8(v.i)
	case 3:
		s.U = v.u
	case 4:
		s.F = v.f
	case 5:
		s.H = float32(v.f)
	case 6:
		s.OK = v.b
	case 7:
		s.S = v.s
	case 8:
		s.St = v.i
	}
}

// constVal converts a checked constant to a value of kind k.
func constVal(v constant.Value, k exprlang.Kind) val {
	switch {
	case k.IsBoolean():
		return val{b: constant.BoolVal(v)}
	case k.IsString():
		return val{s: constant.StringVal(v)}
	case k.IsUnsigned():
		u, _ := constant.Uint64Val(constant.ToInt(v))
		return val{u: u}
	case k.IsInteger():
		i, _ := constant.Int64Val(constant.ToInt(v))
		return val{i: i}
	}
	f, _ := constant.Float64Val(constant.ToFloat(v))
	if k == exprlang.Float32 {
		f = float64(float32(f))
	}
	return val{f: f}
}

// wrap truncates an integer result to the width of kind k, as Go does.
func wrap(v val, k exprlang.Kind) val {
	switch k {
	case exprlang.Int8:
		v.i = int64(int8(v.i))
	case exprlang.Float32:
		v.f = float64(float32(v.f))
	}
	return v
}

func eval(e exprlang.Expr, s istate) val {
	k := e.Type().Kind
	if c := e.Value(); c != nil {
		return constVal(c, k)
	}
	switch n := e.(type) {
	case *exprlang.Ident:
		return s.get(n.Symbol.Index)
	case *exprlang.Paren:
		return eval(n.X, s)
	case *exprlang.Unary:
		x := eval(n.X, s)
		if n.Op == exprlang.OpNot {
			return val{b: !x.b}
		}
		return wrap(val{i: -x.i, u: -x.u, f: -x.f}, k)
	case *exprlang.Binary:
		x, y := eval(n.X, s), eval(n.Y, s)
		ok := n.X.Type().Kind
		switch n.Op {
		case exprlang.OpAnd:
			return val{b: x.b && y.b}
		case exprlang.OpOr:
			return val{b: x.b || y.b}
		}
		if n.Op.IsComparison() {
			return val{b: compare(n.Op, x, y, ok)}
		}
		var r val
		switch {
		case k.IsString():
			r.s = x.s + y.s
		case k.IsFloat():
			r.f = arith(n.Op, x.f, y.f)
		case k.IsUnsigned():
			r.u = uarith(n.Op, x.u, y.u)
		default:
			r.i = iarith(n.Op, x.i, y.i)
		}
		return wrap(r, k)
	}
	panic("unexpected node")
}

func arith(op exprlang.Op, x, y float64) float64 {
	switch op {
	case exprlang.OpAdd:
		return x + y
	case exprlang.OpSub:
		return x - y
	case exprlang.OpMul:
		return x * y
	}
	return x / y
}

func iarith(op exprlang.Op, x, y int64) int64 {
	switch op {
	case exprlang.OpAdd:
		return x + y
	case exprlang.OpSub:
		return x - y
	case exprlang.OpMul:
		return x * y
	case exprlang.OpQuo:
		return x / y
	}
	return x % y
}

func uarith(op exprlang.Op, x, y uint64) uint64 {
	switch op {
	case exprlang.OpAdd:
		return x + y
	case exprlang.OpSub:
		return x - y
	case exprlang.OpMul:
		return x * y
	case exprlang.OpQuo:
		return x / y
	}
	return x % y
}

func compare(op exprlang.Op, x, y val, k exprlang.Kind) bool {
	var c int
	switch {
	case k.IsBoolean():
		if x.b == y.b {
			c = 0
		} else {
			c = 1
		}
	case k.IsString():
		c = strings.Compare(x.s, y.s)
	case k.IsFloat():
		if math.IsNaN(x.f) || math.IsNaN(y.f) {
			return op == exprlang.OpNeq
		}
		c = cmp3(x.f < y.f, x.f > y.f)
	case k.IsUnsigned():
		c = cmp3(x.u < y.u, x.u > y.u)
	default:
		c = cmp3(x.i < y.i, x.i > y.i)
	}
	switch op {
	case exprlang.OpEql:
		return c == 0
	case exprlang.OpNeq:
		return c != 0
	case exprlang.OpLss:
		return c < 0
	case exprlang.OpLeq:
		return c <= 0
	case exprlang.OpGtr:
		return c > 0
	}
	return c >= 0
}

func cmp3(less, greater bool) int {
	switch {
	case less:
		return -1
	case greater:
		return 1
	}
	return 0
}

// apply runs effects simultaneously: every value reads s before any
// assignment.
func apply(effs []*exprlang.Effect, s istate) istate {
	out := s
	for _, e := range effs {
		f := e.Field.Symbol.Index
		k := e.Field.Type().Kind
		cur := s.get(f)
		var v val
		switch e.Op {
		case exprlang.Assign:
			v = eval(e.Value, s)
		case exprlang.Inc, exprlang.Dec:
			op := exprlang.OpAdd
			if e.Op == exprlang.Dec {
				op = exprlang.OpSub
			}
			one := val{i: 1, u: 1, f: 1}
			v = binop(op, cur, one, k)
		default:
			op := exprlang.OpAdd
			if e.Op == exprlang.SubAssign {
				op = exprlang.OpSub
			}
			v = binop(op, cur, eval(e.Value, s), k)
		}
		out.set(f, wrap(v, k))
	}
	return out
}

// applySaturating is apply for the role of TestGeneratedCodeMatchesInterpreter,
// whose fields with a tag saturate: each value assigned is clamped.
func applySaturating(effs []*exprlang.Effect, s istate) istate {
	out := apply(effs, s)
	for _, e := range effs {
		f := e.Field.Symbol.Index
		out.set(f, saturate(f, out.get(f), e.Field.Type().Kind))
	}
	return out
}

// saturate clamps value v of field f into the field's range, after Go's
// own arithmetic has wrapped it.
func saturate(f int, v val, k exprlang.Kind) val {
	fld := interpFields[f]
	if fld.tag == "" {
		return v
	}
	switch {
	case k.IsFloat():
		if v.f < fld.lo { // NaN stays NaN
			v.f = fld.lo
		} else if v.f > fld.hi {
			v.f = fld.hi
		}
	case k.IsInteger() && !k.IsUnsigned():
		if float64(v.i) < fld.lo {
			v.i = int64(fld.lo)
		} else if float64(v.i) > fld.hi {
			v.i = int64(fld.hi)
		}
	default:
		panic("no range on field " + fld.name)
	}
	return v
}

func binop(op exprlang.Op, x, y val, k exprlang.Kind) val {
	switch {
	case k.IsString():
		return val{s: x.s + y.s}
	case k.IsFloat():
		return val{f: arith(op, x.f, y.f)}
	case k.IsUnsigned():
		return val{u: uarith(op, x.u, y.u)}
	}
	return val{i: iarith(op, x.i, y.i)}
}
