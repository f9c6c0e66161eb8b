package testmodule_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/mod/modfile"

	"github.com/rolegen/rolegen/internal/testmodule"
)

func TestGoModKeepsEveryRequirementAndReplacesRolegen(t *testing.T) {
	base := []byte(`module example.com/base

go 1.26.0

require (
	github.com/rolegen/rolegen v0.0.0
	example.com/direct v1.2.3
)

require example.com/indirect v0.1.0 // indirect

replace github.com/rolegen/rolegen => ../
`)
	out, err := testmodule.GoMod("example.com/tmp", "/src/rolegen", base)
	require.NoError(t, err)
	f, err := modfile.Parse("go.mod", out, nil)
	require.NoError(t, err)
	assert.Equal(t, "example.com/tmp", f.Module.Mod.Path)
	assert.Equal(t, "1.26.0", f.Go.Version)
	var reqs []string
	for _, r := range f.Require {
		reqs = append(reqs, r.Mod.String())
	}
	assert.ElementsMatch(t, []string{"example.com/direct@v1.2.3", "example.com/indirect@v0.1.0", "github.com/rolegen/rolegen@v0.0.0"}, reqs)
	require.Len(t, f.Replace, 1, "the base's own replace of rolegen is dropped")
	assert.Equal(t, "/src/rolegen", f.Replace[0].New.Path)
}

func TestGoModRequiresAndReplacesLocals(t *testing.T) {
	base := []byte(`module example.com/bench

go 1.26.0

require (
	github.com/rolegen/rolegen v0.0.0
	example.com/direct v1.2.3
	example.com/local v0.3.0
)

replace github.com/rolegen/rolegen => ../
`)
	out, err := testmodule.GoMod("example.com/bench/tmp", "/src/rolegen", base,
		testmodule.Local{Path: "example.com/bench", Dir: "/src/rolegen/bench"},
		testmodule.Local{Path: "example.com/local", Dir: "/src/local"})
	require.NoError(t, err)
	f, err := modfile.Parse("go.mod", out, nil)
	require.NoError(t, err)
	var reqs []string
	for _, r := range f.Require {
		reqs = append(reqs, r.Mod.String())
	}
	assert.ElementsMatch(t, []string{"example.com/direct@v1.2.3", "github.com/rolegen/rolegen@v0.0.0",
		"example.com/bench@v0.0.0", "example.com/local@v0.0.0"}, reqs,
		"a local replaces the base's requirement of it")
	replaces := map[string]string{}
	for _, r := range f.Replace {
		replaces[r.Old.Path] = r.New.Path
	}
	assert.Equal(t, map[string]string{
		"github.com/rolegen/rolegen": "/src/rolegen",
		"example.com/bench":          "/src/rolegen/bench",
		"example.com/local":          "/src/local",
	}, replaces)
}

// A module Write makes builds a program that uses rolegen's runtime with
// its go.mod as written: nothing to add, nothing to look up.
func TestWrittenModuleBuildsAsWritten(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, testmodule.Write(dir, "example.com/tmp", root, root))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte(`package main

import (
	"fmt"

	"github.com/rolegen/rolegen/runtime"
)

func main() { fmt.Println(runtime.Critical) }
`), 0o644))
	cmd := exec.Command("go", "run", ".")
	cmd.Dir = dir
	cmd.Env = append(testmodule.Env(), "GOPROXY=off")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Equal(t, "critical\n", string(out))
}
