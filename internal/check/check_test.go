package check_test

import (
	"flag"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"

	"github.com/rolegen/rolegen/internal/check"
	"github.com/rolegen/rolegen/internal/diag"
	"github.com/rolegen/rolegen/internal/model"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/*.txtar")

// imports is shared by every case, so the standard library's export data
// is read once.
var imports = importer.Default()

// checkFiles type-checks the Go files of ar as one package p, as the
// loader would, and runs the checker on it. ok is false when the package
// does not type-check (or imports what only a module has): the case is
// not the checker's.
func checkFiles(t *testing.T, ar *txtar.Archive) (pkg *model.Package, diags diag.List, ok bool) {
	t.Helper()
	fset := token.NewFileSet()
	var files []*ast.File
	for _, f := range ar.Files {
		if !strings.HasSuffix(f.Name, ".go") {
			continue
		}
		if strings.Contains(f.Name, "/") {
			return nil, nil, false // another package: the loader's case
		}
		file, err := parser.ParseFile(fset, f.Name, f.Data, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, false
		}
		files = append(files, file)
	}
	info := &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
		Implicits: map[ast.Node]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}, Scopes: map[ast.Node]*types.Scope{},
		Instances: map[*ast.Ident]types.Instance{}, FileVersions: map[*ast.File]string{},
	}
	conf := types.Config{Importer: imports}
	tp, err := conf.Check("example.com/p", fset, files, info)
	if err != nil {
		return nil, nil, false
	}
	pkg, diags = check.Package(check.Input{Fset: fset, Pkg: tp, Info: info, Files: files, Std: std{}})
	return pkg, diags.Sort(), true
}

// std finds a few standard-library packages by name, as the loader finds
// them all: enough for the cases' qualified names.
type std struct{}

var stdPaths = []string{"math", "math/rand", "math/rand/v2", "strings", "time"}

func (std) Packages(name string) []*types.Package {
	var out []*types.Package
	for _, path := range stdPaths {
		if p, err := imports.Import(path); err == nil && p.Name() == name {
			out = append(out, p)
		}
	}
	return out
}

func (std) Names() []string { return []string{"math", "rand", "strings", "time"} }

// wantLines are the diagnostics of a want section, without the caret
// lines that gen's test checks the columns with.
func wantLines(want []byte) []string {
	var out []string
	for _, line := range strings.Split(string(want), "\n") {
		if line != "" && !strings.HasPrefix(line, "\t") {
			out = append(out, line)
		}
	}
	return out
}

func section(ar *txtar.Archive, name string) []byte {
	for _, f := range ar.Files {
		if f.Name == name {
			return f.Data
		}
	}
	return nil
}

// TestDiagnosticCases runs the checker alone on gen's diagnostic cases
// (those of one package that type-checks with the standard library
// only): the checker finds exactly the diagnostics rolegen prints, in a
// test that takes a second instead of gen's end-to-end run.
func TestDiagnosticCases(t *testing.T) {
	paths, err := filepath.Glob("../../gen/testdata/diagnostics/*.txtar")
	require.NoError(t, err)
	ran := 0
	for _, path := range paths {
		ar, err := txtar.ParseFile(path)
		require.NoError(t, err)
		_, diags, ok := checkFiles(t, ar)
		if !ok {
			continue
		}
		ran++
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			var got []string
			for _, d := range diags {
				got = append(got, d.Format(""))
			}
			assert.Equal(t, wantLines(section(ar, "want")), got)
		})
	}
	require.GreaterOrEqual(t, ran, 40, "most cases are the checker's alone")
}

// TestModelCases checks the model the checker builds for the roles of
// testdata/*.txtar against their want sections (-update rewrites them):
// fields, goals and actions with their read and write sets, parts, costs,
// shapes and generated names.
func TestModelCases(t *testing.T) {
	paths, err := filepath.Glob("testdata/*.txtar")
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			require.NoError(t, err)
			pkg, diags, ok := checkFiles(t, ar)
			require.True(t, ok, "the case type-checks")
			require.Empty(t, diags)
			got := dump(pkg)
			if *update {
				for i := range ar.Files {
					if ar.Files[i].Name == "want" {
						ar.Files[i].Data = []byte(got)
					}
				}
				require.NoError(t, os.WriteFile(path, txtar.Format(ar), 0o644))
				return
			}
			assert.Equal(t, string(section(ar, "want")), got)
		})
	}
}

// dump renders the model of a package one fact a line.
func dump(p *model.Package) string {
	var b strings.Builder
	for _, r := range p.Roles {
		fmt.Fprintf(&b, "role %s state=%s domain=%s key=%q inert=%v\n", r.Name, r.StateType, r.DomainVar, r.KeyFunc, r.InertFields())
		for i, f := range r.Fields {
			fmt.Fprintf(&b, "  field %d %s %s kind=%v path=%s\n", i, f.Name, typeText(f.Type), f.Kind, strings.Join(f.Path, "."))
		}
		for _, g := range r.Goals {
			fmt.Fprintf(&b, "  goal %s priority=%d cond=%q reads=%v parts=%v\n", g.Name, g.Priority, g.CondText, g.Reads, partReads(g.Parts))
		}
		for _, a := range r.Actions {
			fmt.Fprintf(&b, "  action %s method=%s shape=%d pre=%q parts=%v post=%q\n", a.Name, strings.Join(append(slices.Clone(a.Path), a.Method), "."), a.Shape, a.PreText, partReads(a.PreParts), a.EffectText)
			fmt.Fprintf(&b, "    cost=%g cost_text=%q cost_reads=%v value=%g weight=%g tags=%v guarded=%v\n", a.Cost, a.CostText, a.CostReads, a.Value, a.Weight, a.Tags, a.Guarded)
			fmt.Fprintf(&b, "    pre_reads=%v reads=%v writes=%v fulfills=%v\n", a.PreReads, a.Reads, a.Writes, a.Fulfills)
			if a.TakesArgs() {
				fmt.Fprintf(&b, "    args=%s args_var=%s\n", typeText(a.Args), a.ArgsVar)
			}
		}
	}
	return b.String()
}

func partReads(parts []model.Part) [][]int {
	var out [][]int
	for _, p := range parts {
		out = append(out, p.Reads)
	}
	return out
}

func typeText(t model.TypeRef) string {
	if t.PkgName == "" {
		return t.Name
	}
	return t.PkgName + "." + t.Name
}
