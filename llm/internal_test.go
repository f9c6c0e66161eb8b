package llm

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
)

type pingState struct{ N int }

func TestArgumentSchemasAreCompiledOncePerDomain(t *testing.T) {
	d := runtime.NewDomain(runtime.Domain[pingState]{
		Name: "Pinger",
		Actions: []runtime.Action[pingState]{
			{Name: "Ping", Cost: 1},
			{Name: "Say", Cost: 1, Args: `{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`},
		},
	})
	first, err := argSchemas(d)
	require.NoError(t, err)
	require.Len(t, first, 2)

	for range 2 {
		p := NewPlanner(d, nil)
		plan, err := ParsePlan(`{"steps":[{"id":"a","capability":"Say","args":{"text":"hi"},"dependsOn":[]}]}`)
		require.NoError(t, err)
		require.NoError(t, p.Validate(plan))
	}
	again, err := argSchemas(d)
	require.NoError(t, err)
	assert.Same(t, first[0], again[0], "planners over one domain share its compiled schemas")
	assert.Same(t, first[1], again[1])
}

func TestBrokenArgumentSchemaIsAnError(t *testing.T) {
	d := runtime.NewDomain(runtime.Domain[pingState]{
		Name:    "Broken",
		Actions: []runtime.Action[pingState]{{Name: "Say", Cost: 1, Args: `{"type":`}},
	})
	plan, err := ParsePlan(`{"steps":[{"id":"a","capability":"Say","args":{},"dependsOn":[]}]}`)
	require.NoError(t, err)
	err = NewPlanner(d, nil).Validate(plan)
	assert.ErrorContains(t, err, "Broken.Say: argument schema")
}

// imports returns the import paths of the non-test Go files of dir.
func imports(t *testing.T, dir string) map[string][]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	out := map[string][]string{}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		require.NoError(t, err)
		for _, imp := range af.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			out[f] = append(out[f], path)
		}
	}
	return out
}

// The runtime (and so generated code) must not depend on this package: a
// game that plans only symbolically links nothing of it.
func TestRuntimeDoesNotImportLLM(t *testing.T) {
	for file, paths := range imports(t, filepath.Join("..", "runtime")) {
		for _, p := range paths {
			assert.False(t, strings.HasPrefix(p, "github.com/rolegen/rolegen/llm"), "%s imports %s", file, p)
		}
	}
}

func TestNoReflection(t *testing.T) {
	for _, dir := range []string{".", "openai"} {
		for file, paths := range imports(t, dir) {
			assert.NotContains(t, paths, "reflect", file)
		}
	}
}

// The engine decides and does not act: engine.go imports nothing that
// does I/O or reads a clock, starts no goroutine and calls no time.Now,
// so that a workflow (whose code must be deterministic) can run it.
func TestEngineIsPure(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "engine.go", nil, 0)
	require.NoError(t, err)
	allowed := []string{"encoding/json", "errors", "fmt", "maps", "slices", "time"}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		assert.Contains(t, allowed, path, "engine.go imports %s", path)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			t.Errorf("%s: the engine starts a goroutine", fset.Position(n.Pos()))
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok && x.Name == "time" && n.Sel.Name != "Time" {
				t.Errorf("%s: the engine uses time.%s", fset.Position(n.Pos()), n.Sel.Name)
			}
		}
		return true
	})
}
