package analyzer_test

import (
	"bytes"
	"context"
	"errors"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/rolegen/rolegen/analyzer"
	"github.com/rolegen/rolegen/gen"
)

// brokenModule writes a module whose roles have mistakes of every origin:
// in a role's own annotations, in an actions-only role of another package
// (reported there and where a role embeds it), an unexported action of
// that package, and a generated name taken. extra is appended to ward.go.
func brokenModule(t *testing.T, extra string) string {
	t.Helper()
	dir := t.TempDir()
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join("testdata", "src", name))
		require.NoError(t, err)
		// analysistest's want comments are not source.
		return regexp.MustCompile(` ?// want .*`).ReplaceAllString(string(data), "")
	}
	files := map[string]string{
		"go.mod":          "module example.com/m\n\ngo 1.26\n",
		"medic/medic.go":  read("medic/medic.go"),
		"ward/ward.go":    strings.Replace(read("ward/ward.go"), `import "medic"`, `import "example.com/m/medic"`, 1) + extra,
		"roles/roles.go":  read("roles/roles.go"),
		"roles/fine.go":   "package roles\n\n// Rested is rested.\ntype Rested struct {\n\tNap bool `plan:\"state\"`\n\tOk  struct{} `plan:\"goal=Naps\"`\n}\n",
		"unused/other.go": "package unused\n\n//plan:actoin post=\"X = 1\"\nfunc (u *U) Do() {}\n\ntype U struct{ X int `plan:\"state\"` }\n",
	}
	for name, data := range files {
		path := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(data), 0o644))
	}
	return dir
}

// rolegenLines runs rolegen's Generate on the module: its diagnostics as
// FILE:LINE:COL: message, relative to dir, sorted.
func rolegenLines(t *testing.T, dir string) []string {
	t.Helper()
	files, err := gen.Generate(context.Background(), gen.Options{Dir: dir}, "./...")
	require.Nil(t, files)
	var ge *gen.Error
	require.True(t, errors.As(err, &ge), "want diagnostics, got %v", err)
	var lines []string
	for _, d := range ge.Diagnostics {
		d.Pos.Filename = rel(t, dir, d.Pos.Filename)
		lines = append(lines, d.String())
	}
	slices.Sort(lines)
	return lines
}

func rel(t *testing.T, dir, path string) string {
	t.Helper()
	if !filepath.IsAbs(path) {
		return filepath.ToSlash(path)
	}
	r, err := filepath.Rel(dir, path)
	require.NoError(t, err)
	return filepath.ToSlash(r)
}

var diagLine = regexp.MustCompile(`^(.+\.go):(\d+):(\d+): (.*)$`)

// go vet -vettool=rolevet reports, line for line, what rolegen reports
// for the same module: the mistakes of a role embedding an actions-only
// role of another package included, which the Analyzer reads from that
// package's facts.
func TestVetReportsWhatRolegenReports(t *testing.T) {
	if testing.Short() {
		t.Skip("builds rolevet")
	}
	dir := brokenModule(t, "")
	want := rolegenLines(t, dir)
	require.GreaterOrEqual(t, len(want), 10)
	require.True(t, slices.ContainsFunc(want, func(l string) bool {
		return strings.HasPrefix(l, "ward/ward.go") && strings.Contains(l, "of embedded medic.Medic")
	}))

	rolevet := filepath.Join(t.TempDir(), "rolevet")
	build := exec.Command("go", "build", "-o", rolevet, "github.com/rolegen/rolegen/cmd/rolevet")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	vet := exec.Command("go", "vet", "-vettool="+rolevet, "./...")
	vet.Dir = dir
	// brokenModule requires nothing: go vet needs no module, and
	// GOPROXY=off makes sure it looks none up.
	vet.Env = append(os.Environ(), "GOFLAGS=", "GOPROXY=off", "GOWORK=off")
	var stderr bytes.Buffer
	vet.Stdout, vet.Stderr = &stderr, &stderr
	require.Error(t, vet.Run(), "go vet fails on the mistakes")
	var got []string
	for _, line := range strings.Split(stderr.String(), "\n") {
		if line == "" || strings.HasPrefix(line, "# ") {
			continue
		}
		m := diagLine.FindStringSubmatch(line)
		require.NotNil(t, m, "go vet printed %q", line)
		got = append(got, rel(t, dir, strings.TrimPrefix(m[1], "./"))+":"+m[2]+":"+m[3]+": "+m[4])
	}
	slices.Sort(got)
	assert.Equal(t, want, got)
}

// Before the first go generate, code using the generated names does not
// compile. Drivers that run analyzers despite type errors (the x/tools
// checker, which rolevet ./... is when run on its own; go vet never does)
// report what rolegen, which expects those names, reports.
func TestCheckerReportsWhatRolegenReportsBeforeTheFirstGenerate(t *testing.T) {
	dir := brokenModule(t, "\nvar _ = CalmedDomain\n")
	want := rolegenLines(t, dir)
	require.GreaterOrEqual(t, len(want), 10)

	cfg := &packages.Config{Dir: dir, Mode: packages.LoadAllSyntax, Env: append(os.Environ(), "GOFLAGS=", "GOWORK=off")}
	pkgs, err := packages.Load(cfg, "./...")
	require.NoError(t, err)
	typeErrors := 0
	for _, p := range pkgs {
		typeErrors += len(p.TypeErrors)
	}
	require.Equal(t, 1, typeErrors, "ward does not compile yet")
	graph, err := checker.Analyze([]*analysis.Analyzer{analyzer.Analyzer}, pkgs, nil)
	require.NoError(t, err)
	var got []string
	for act := range graph.All() {
		require.NoError(t, act.Err)
		if !act.IsRoot {
			continue
		}
		for _, d := range act.Diagnostics {
			p := act.Package.Fset.Position(d.Pos)
			got = append(got, rel(t, dir, p.Filename)+":"+strconv.Itoa(p.Line)+":"+strconv.Itoa(p.Column)+": "+d.Message)
		}
	}
	slices.Sort(got)
	assert.Equal(t, want, got)
}

// golangci-lint in the plugin's syntax load mode parses the packages and
// type-checks none of them: the Analyzer type-checks those that carry
// annotations itself and reports what rolegen reports, before the first
// go generate too, and reads the actions of roles embedded from other
// packages from their source, without facts.
func TestSyntaxOnlyDriversReportWhatRolegenReportsBeforeTheFirstGenerate(t *testing.T) {
	dir := brokenModule(t, "\nvar _ = CalmedDomain\n")
	want := rolegenLines(t, dir)
	require.GreaterOrEqual(t, len(want), 10)
	require.True(t, slices.ContainsFunc(want, func(l string) bool {
		return strings.HasPrefix(l, "ward/ward.go") && strings.Contains(l, "of embedded medic.Medic")
	}))

	t.Setenv("GOFLAGS", "")
	t.Setenv("GOWORK", "off")
	fset := token.NewFileSet()
	cfg := &packages.Config{Dir: dir, Fset: fset, Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax}
	pkgs, err := packages.Load(cfg, "./...")
	require.NoError(t, err)
	var got []string
	for _, p := range pkgs {
		require.Empty(t, p.Errors)
		pass := &analysis.Pass{
			Analyzer: analyzer.Analyzer,
			Fset:     fset,
			Files:    p.Syntax,
			Module:   &analysis.Module{Path: "example.com/m", GoVersion: "1.26"},
			Report: func(d analysis.Diagnostic) {
				p := fset.Position(d.Pos)
				got = append(got, rel(t, dir, p.Filename)+":"+strconv.Itoa(p.Line)+":"+strconv.Itoa(p.Column)+": "+d.Message)
			},
			ImportPackageFact: func(*types.Package, analysis.Fact) bool { t.Fatal("no facts without types"); return false },
			ExportPackageFact: func(analysis.Fact) { t.Fatal("no facts without types") },
		}
		_, err := analyzer.Analyzer.Run(pass)
		require.NoError(t, err)
	}
	slices.Sort(got)
	assert.Equal(t, want, got)
}
