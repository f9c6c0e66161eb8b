package bench

import (
	"reflect"
	"testing"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/bench/internal/reflecteval"
	"github.com/rolegen/rolegen/bench/internal/survivor"
)

// exprSource is a condition written for expr. expr's / divides as floats
// where Go divides integers, so integer division is spelled int(a/b)
// there; every other condition is given to expr as written. Named
// constants (Standing, Prone) are patched in by constPatcher.
func exprSource(cond string) string {
	if cond == "Health - Hunger/2 >= 50" {
		return "Health - int(Hunger/2) >= 50"
	}
	return cond
}

// constPatcher replaces the names of the survivor's constants by their
// values, typed as in Go (survivor.Stance), before expr checks types.
type constPatcher map[string]any

func (c constPatcher) Visit(n *ast.Node) {
	if id, ok := (*n).(*ast.IdentifierNode); ok {
		if v, ok := c[id.Value]; ok {
			ast.Patch(n, &ast.ConstantNode{Value: v})
		}
	}
}

// exprPrograms compiles the survivor's conditions with expr, once.
func exprPrograms(tb testing.TB) []*vm.Program {
	var out []*vm.Program
	for _, cond := range survivor.Conditions() {
		p, err := expr.Compile(exprSource(cond), expr.Env(survivor.SurvivorState{}), expr.AsBool(),
			expr.Patch(constPatcher(survivor.Constants)))
		require.NoError(tb, err, cond)
		out = append(out, p)
	}
	return out
}

// reflectPrograms parses the survivor's conditions for the reflection
// interpreter, once.
func reflectPrograms(tb testing.TB) []*reflecteval.Program {
	var out []*reflecteval.Program
	for _, cond := range survivor.Conditions() {
		p, err := reflecteval.Compile(cond, reflect.TypeFor[survivor.SurvivorState](), survivor.Constants)
		require.NoError(tb, err, cond)
		out = append(out, p)
	}
	return out
}

// boxed returns the states boxed in interface{} once, as expr.Run takes
// its environment: the benchmark then does not measure the boxing.
func boxed(states []survivor.SurvivorState) []any {
	out := make([]any, len(states))
	for i, s := range states {
		out[i] = s
	}
	return out
}

var sink int

// BenchmarkCondition evaluates the survivor's eight conditions (see
// survivor.Conditions) on one state per op, cycling through 256 states:
//
//   - handwritten: the conditions written in Go, called through a table
//     of func values (survivor.Handwritten), as the generated ones are;
//   - generated: rolegen's SurvivorDomain.Actions[i].Pre and
//     Goals[i].Cond, called the same way;
//   - reflection: a tree parsed once, fields looked up by name with
//     reflect.Value.FieldByName, values boxed in interface{};
//   - expr: expr-lang/expr programs compiled once with the state struct as
//     environment, run with expr.Run (the state boxed beforehand);
//   - expr-vm: the same programs on one reused vm.VM, expr's fastest way.
func BenchmarkCondition(b *testing.B) {
	states := survivor.States(256, 1)
	conds := len(survivor.Conditions())
	perCond := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*conds), "ns/cond")
	}
	funcs := func(fns []func(survivor.SurvivorState) bool) func(*testing.B) {
		return func(b *testing.B) {
			b.ReportAllocs()
			n, i := 0, 0
			for b.Loop() {
				s := states[i&255]
				for _, f := range fns {
					if f(s) {
						n++
					}
				}
				i++
			}
			sink += n
			perCond(b)
		}
	}
	b.Run("handwritten", funcs(survivor.Handwritten))
	b.Run("generated", funcs(survivor.Generated()))
	b.Run("reflection", func(b *testing.B) {
		progs := reflectPrograms(b)
		b.ReportAllocs()
		n, i := 0, 0
		for b.Loop() {
			s := &states[i&255]
			for _, p := range progs {
				if p.Eval(s) {
					n++
				}
			}
			i++
		}
		sink += n
		perCond(b)
	})
	b.Run("expr", func(b *testing.B) {
		progs, envs := exprPrograms(b), boxed(states)
		b.ReportAllocs()
		n, i := 0, 0
		for b.Loop() {
			env := envs[i&255]
			for _, p := range progs {
				out, err := expr.Run(p, env)
				if err != nil {
					b.Fatal(err)
				}
				if out.(bool) {
					n++
				}
			}
			i++
		}
		sink += n
		perCond(b)
	})
	b.Run("expr-vm", func(b *testing.B) {
		progs, envs := exprPrograms(b), boxed(states)
		var machine vm.VM
		b.ReportAllocs()
		n, i := 0, 0
		for b.Loop() {
			env := envs[i&255]
			for _, p := range progs {
				out, err := machine.Run(p, env)
				if err != nil {
					b.Fatal(err)
				}
				if out.(bool) {
					n++
				}
			}
			i++
		}
		sink += n
		perCond(b)
	})
}

// The four implementations of the conditions agree on every test state,
// and the states make every condition both true and false.
func TestConditionsAgree(t *testing.T) {
	hand, generated := survivor.Handwritten, survivor.Generated()
	refl, exprs := reflectPrograms(t), exprPrograms(t)
	conds := survivor.Conditions()
	require.Len(t, conds, 8)
	require.Len(t, hand, len(conds))
	require.Len(t, generated, len(conds))
	seen := make([][2]bool, len(conds))
	var machine vm.VM
	for _, s := range survivor.States(5000, 7) {
		for i, cond := range conds {
			want := hand[i](s)
			seen[i][boolIndex(want)] = true
			require.Equal(t, want, generated[i](s), "generated %q on %+v", cond, s)
			require.Equal(t, want, refl[i].Eval(&s), "reflection %q on %+v", cond, s)
			out, err := expr.Run(exprs[i], s)
			require.NoError(t, err)
			require.Equal(t, want, out, "expr %q on %+v", cond, s)
			out, err = machine.Run(exprs[i], s)
			require.NoError(t, err)
			require.Equal(t, want, out, "expr vm %q on %+v", cond, s)
		}
	}
	for i, cond := range conds {
		require.Equal(t, [2]bool{true, true}, seen[i], "%q is not both true and false on the test states", cond)
	}
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}
