// Package testmodule writes the temporary modules that rolegen's tests
// generate, build and run code in: modules that require this checkout of
// rolegen, as a user's module would, and that the go command can build
// without looking anything up.
//
// A temporary module gets the complete requirement list and go.sum of a
// module that already builds here (rolegen's own, or bench's), plus a
// replace of rolegen by the checkout. Its module graph is then that
// module's graph, so the go command needs no module that building that
// module did not already put in the module cache: `go test ./...` loads
// every package it tests, and their dependencies, before any test runs.
// Running `go mod tidy` instead would look for the test dependencies of
// every dependency too, which no build of rolegen downloads, and fail on a
// machine that never fetched them.
package testmodule

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"golang.org/x/mod/modfile"
)

// Rolegen is rolegen's module path.
const Rolegen = "github.com/rolegen/rolegen"

// Local is a module of this checkout, other than rolegen, that a
// temporary module requires: bench's packages for a module that builds
// on them, say. Its requirements must be among the base module's, so that
// the base's go.sum covers them.
type Local struct {
	// Path is the module's path, Dir the directory of its go.mod.
	Path, Dir string
}

// Write makes dir the root of a module named path: its go.mod requires
// what the module in baseDir requires, rolegen, replaced by the checkout
// at root, and each of locals, replaced by its directory; its go.sum is
// baseDir's.
func Write(dir, path, root, baseDir string, locals ...Local) error {
	base, err := os.ReadFile(filepath.Join(baseDir, "go.mod"))
	if err != nil {
		return err
	}
	gomod, err := GoMod(path, root, base, locals...)
	if err != nil {
		return err
	}
	sum, err := os.ReadFile(filepath.Join(baseDir, "go.sum"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), gomod, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644)
}

// GoMod returns the go.mod of a module named path with the go version and
// every requirement of the go.mod base, a requirement of rolegen replaced
// by the checkout at root, and one of each of locals replaced by its
// directory (base's own replaces are dropped: rolegen is root's checkout,
// and the locals are where they say).
func GoMod(path, root string, base []byte, locals ...Local) ([]byte, error) {
	from, err := modfile.Parse("go.mod", base, nil)
	if err != nil {
		return nil, err
	}
	if from.Go == nil {
		return nil, fmt.Errorf("testmodule: base go.mod has no go directive")
	}
	f := new(modfile.File)
	if err := f.AddModuleStmt(path); err != nil {
		return nil, err
	}
	if err := f.AddGoStmt(from.Go.Version); err != nil {
		return nil, err
	}
	replaced := append([]Local{{Path: Rolegen, Dir: root}}, locals...)
	isReplaced := func(path string) bool {
		return slices.ContainsFunc(replaced, func(l Local) bool { return l.Path == path })
	}
	for _, r := range from.Require {
		if !isReplaced(r.Mod.Path) {
			f.AddNewRequire(r.Mod.Path, r.Mod.Version, r.Indirect)
		}
	}
	for _, l := range replaced {
		f.AddNewRequire(l.Path, "v0.0.0", false)
		if err := f.AddReplace(l.Path, "", l.Dir, ""); err != nil {
			return nil, err
		}
	}
	f.Cleanup()
	return f.Format()
}

// Env returns the environment for go commands run in such a module:
// os.Environ() with the go.mod read as it is (-mod=readonly: a missing
// requirement is an error, never a lookup) and no workspace.
func Env() []string {
	return append(os.Environ(), "GOFLAGS=-mod=readonly", "GOWORK=off")
}
