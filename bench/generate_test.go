package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/packages"

	"github.com/rolegen/rolegen/gen"
	"github.com/rolegen/rolegen/internal/testmodule"
)

// roleSource returns a package with one role of n actions over twelve
// state fields, two goals, and every tenth action taking typed arguments
// (so its JSON schema is generated too).
func roleSource(n int) string {
	const fields = 12
	var b strings.Builder
	b.WriteString("// Package big is a role with many actions.\npackage big\n\nimport \"context\"\n\n")
	b.WriteString("// Move is the argument of the actions that take one.\ntype Move struct {\n\tX, Y   int\n\tReason string `json:\"reason\"`\n}\n\n")
	b.WriteString("// Big has many actions.\ntype Big struct {\n")
	for f := range fields {
		fmt.Fprintf(&b, "\tF%d int `plan:\"state\"`\n", f)
	}
	b.WriteString("\tMode string `plan:\"state\"`\n\tOn   bool   `plan:\"state\"`\n\n")
	b.WriteString("\t// Done means F0 is high.\n\tDone struct{} `plan:\"goal=F0 >= 10 && On; priority=high\"`\n")
	b.WriteString("\t// Calm means the mode is idle.\n\tCalm struct{} `plan:\"goal=Mode == 'idle'\"`\n}\n")
	for i := range n {
		f, g := i%fields, (i+1)%fields
		fmt.Fprintf(&b, "\n// Act%d moves a unit from F%d to F%d.\n//\n", i, g, f)
		fmt.Fprintf(&b, "//plan:action pre=\"F%d < 10 && F%d > 0 || Mode == 'busy'\" post=\"F%d += 1, F%d -= 1, On = true\" cost=%d tags=t%d\n", f, g, f, g, 1+i%3, i%4)
		if i%10 == 9 {
			fmt.Fprintf(&b, "func (r *Big) Act%d(ctx context.Context, m Move) error { r.F%d++; return nil }\n", i, f)
		} else {
			fmt.Fprintf(&b, "func (r *Big) Act%d() { r.F%d++ }\n", i, f)
		}
	}
	b.WriteString("\n// Settle calms down.\n//\n//plan:action post=\"Mode = 'idle'\" fulfills=Calm\nfunc (r *Big) Settle() { r.Mode = \"idle\" }\n")
	return b.String()
}

// genModule writes a module holding roleSource(n) in its own directory,
// which requires rolegen through a replace of this repository, as a
// user's module would, with the bench module's requirements and go.sum,
// and sets up the environment so that go list needs no module that
// building bench did not fetch (see internal/testmodule).
func genModule(tb testing.TB, n int) string {
	tb.Helper()
	root, err := filepath.Abs("..")
	require.NoError(tb, err)
	here, err := filepath.Abs(".")
	require.NoError(tb, err)
	dir := tb.TempDir()
	require.NoError(tb, testmodule.Write(dir, "example.com/big", root, here))
	require.NoError(tb, os.WriteFile(filepath.Join(dir, "big.go"), []byte(roleSource(n)), 0o644))
	tb.Setenv("GOFLAGS", "-mod=readonly")
	tb.Setenv("GOWORK", "off")
	return dir
}

// BenchmarkGenerate runs rolegen (gen.Generate: load with go/packages,
// check, emit) on a package with one role of 10, 50 and 200 actions. The
// first call, not timed, warms the go command's caches and writes the
// generated file, so that each op is what go generate costs on a package
// whose generated file exists: a load through go list, then checking and
// emitting.
func BenchmarkGenerate(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{10, 50, 200} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dir := genModule(b, n)
			files, err := gen.Generate(ctx, gen.Options{Dir: dir})
			require.NoError(b, err)
			_, err = gen.Write(files)
			require.NoError(b, err)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := gen.Generate(ctx, gen.Options{Dir: dir}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLoad is the loading part of BenchmarkGenerate alone: the same
// packages.Load call rolegen makes (go list, then parsing and
// type-checking the package), on the same packages. Generate minus Load is
// what rolegen's own work (annotations, checks, emission) costs.
func BenchmarkLoad(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{10, 50, 200} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dir := genModule(b, n)
			files, err := gen.Generate(ctx, gen.Options{Dir: dir})
			require.NoError(b, err)
			_, err = gen.Write(files)
			require.NoError(b, err)
			cfg := &packages.Config{Context: ctx, Dir: dir, Mode: packages.NeedName | packages.NeedFiles |
				packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo}
			b.ReportAllocs()
			for b.Loop() {
				pkgs, err := packages.Load(cfg, ".")
				if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
					b.Fatal(err, pkgs)
				}
			}
		})
	}
}

// The generated package of the Generate benchmark is valid: it has every
// action and the stale check finds nothing to do once it is written.
func TestGenerate(t *testing.T) {
	dir := genModule(t, 10)
	files, err := gen.Generate(t.Context(), gen.Options{Dir: dir})
	require.NoError(t, err)
	require.Len(t, files, 1)
	assert.Equal(t, filepath.Join(dir, "big_plan.go"), files[0].Path)
	src := string(files[0].Content)
	for i := range 10 {
		assert.True(t, strings.Contains(src, fmt.Sprintf("case BigAct%d:", i)), "no case for Act%d", i)
	}
	_, err = gen.Write(files)
	require.NoError(t, err)
	again, err := gen.Generate(t.Context(), gen.Options{Dir: dir})
	require.NoError(t, err)
	assert.Empty(t, gen.Stale(again))
}
