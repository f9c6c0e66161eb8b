package gen_test

import (
	"bytes"
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"

	"github.com/rolegen/rolegen/gen"
	"github.com/rolegen/rolegen/internal/testmodule"
)

// repoRoot is the root of the rolegen module.
func repoRoot(t *testing.T) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	require.True(t, ok)
	return filepath.Dir(filepath.Dir(file))
}

// newModule makes a module in a temporary directory that requires this
// checkout of rolegen with rolegen's own requirements and go.sum, so that
// building it needs no module that building rolegen did not fetch (see
// internal/testmodule): no go mod tidy, no lookup.
func newModule(t *testing.T, name string) string {
	t.Helper()
	root := repoRoot(t)
	readSources(t, root)
	dir := t.TempDir()
	require.NoError(t, testmodule.Write(dir, name, root, root))
	return dir
}

// readSources reads rolegen's own Go files. The programs these tests build
// compile them in another process, which go test cannot see: reading them
// here makes a change to any of them invalidate the cached test result.
func readSources(t *testing.T, root string) {
	t.Helper()
	for _, dir := range []string{"runtime", "llm", "gen", "exprlang", "internal/check", "internal/annot", "internal/load", "internal/model", "internal/schema", "cmd/rolegen"} {
		files, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
		require.NoError(t, err)
		for _, f := range files {
			_, err := os.ReadFile(f)
			require.NoError(t, err)
		}
	}
}

// goCmd runs the go command in dir, a module newModule made, with its
// go.mod as written (testmodule.Env).
func goCmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = testmodule.Env()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	require.NoError(t, cmd.Run(), "go %s:\n%s%s", strings.Join(args, " "), out.String(), errb.String())
	return out.String()
}

// TestGolden generates each case of testdata/golden, compares the output
// with the case's *_plan.go sections, then builds the module with go vet
// and runs each case's program, comparing what it prints with the stdout
// section: generate, compile, run. -update rewrites the expectations.
func TestGolden(t *testing.T) {
	dir, cases := goldenModule(t)
	ctx := context.Background()
	files, err := gen.Generate(ctx, gen.Options{Dir: dir}, "./...")
	require.NoError(t, err)
	again, err := gen.Generate(ctx, gen.Options{Dir: dir}, "./...")
	require.NoError(t, err)
	require.Equal(t, files, again, "two runs must give the same bytes")

	generated := map[string]map[string][]byte{}
	for _, f := range files {
		rel, err := filepath.Rel(dir, f.Path)
		require.NoError(t, err)
		caseName, file, _ := strings.Cut(filepath.ToSlash(rel), "/")
		if generated[caseName] == nil {
			generated[caseName] = map[string][]byte{}
		}
		generated[caseName][file] = f.Content
		assertNoReflect(t, f.Path, f.Content)
	}
	idents, err := gen.GeneratedIdents(ctx, gen.Options{Dir: dir}, "./...")
	require.NoError(t, err)
	for _, f := range files {
		assert.ElementsMatch(t, idents[f.Path], declaredNames(t, f.Path, f.Content),
			"%s declares exactly the names the model reserves", f.Path)
	}
	_, err = gen.Write(files)
	require.NoError(t, err)
	require.Empty(t, gen.Stale(files), "written files are current")

	goCmd(t, dir, "vet", "./...")
	bin := filepath.Join(dir, "bin")
	goCmd(t, dir, "build", "-o", bin+string(filepath.Separator), "./...")

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(filepath.Join(bin, c.name))
			stdout, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s", stdout)

			changed := false
			seen := map[string]bool{}
			for i := range c.ar.Files {
				f := &c.ar.Files[i]
				switch {
				case f.Name == "stdout":
					if *update {
						changed = changed || !bytes.Equal(f.Data, stdout)
						f.Data = stdout
					} else {
						require.Equal(t, string(f.Data), string(stdout), "output of the generated program")
					}
				case strings.HasSuffix(f.Name, "_plan.go"):
					seen[f.Name] = true
					got, ok := generated[c.name][f.Name]
					if *update {
						changed = true
						f.Data = got
						continue
					}
					require.True(t, ok, "rolegen did not generate %s", f.Name)
					require.Equal(t, string(f.Data), string(got), "generated %s", f.Name)
				}
			}
			for file, content := range generated[c.name] {
				if !seen[file] {
					require.True(t, *update, "generated %s has no golden section; run with -update", file)
					c.ar.Files = append(c.ar.Files, txtar.File{Name: file, Data: content})
					changed = true
				}
			}
			if *update && changed {
				c.save(t)
			}
		})
	}
}

// goldenExpected reports whether a section of a golden case holds what
// is expected (the program's output, the generated files), not source.
func goldenExpected(section string) bool {
	return section == "stdout" || strings.HasSuffix(section, "_plan.go")
}

// goldenModule writes every golden case, a package each, into a temporary
// module requiring this checkout of rolegen.
func goldenModule(t *testing.T) (string, []*testCase) {
	t.Helper()
	cases := loadCases(t, "golden")
	dir := newModule(t, "example.com/golden")
	writeCases(t, dir, cases, goldenExpected)
	return dir, cases
}

// generateGolden generates the golden cases in a temporary module and
// returns the generated files by path.
func generateGolden(t *testing.T) map[string][]byte {
	t.Helper()
	dir, _ := goldenModule(t)
	files, err := gen.Generate(context.Background(), gen.Options{Dir: dir}, "./...")
	require.NoError(t, err)
	out := map[string][]byte{}
	for _, f := range files {
		out[filepath.ToSlash(f.Path)] = f.Content
	}
	return out
}

// declaredNames returns the package-level names a Go file declares
// (methods aside; the blank identifier declares none).
func declaredNames(t *testing.T, name string, src []byte) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
	require.NoError(t, err)
	var names []string
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				names = append(names, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					names = append(names, s.Name.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.Name != "_" {
							names = append(names, n.Name)
						}
					}
				}
			}
		}
	}
	return names
}

// assertNoReflect checks that generated code imports no reflection.
func assertNoReflect(t *testing.T, name string, src []byte) {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ImportsOnly)
	require.NoError(t, err)
	for _, imp := range f.Imports {
		require.NotEqual(t, `"reflect"`, imp.Path.Value, "%s imports reflect", name)
	}
}
