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

	"golang.org/x/mod/modfile"
)

// Rolegen is rolegen's module path.
const Rolegen = "github.com/rolegen/rolegen"

// Write makes dir the root of a module named path: its go.mod requires
// what the module in baseDir requires, and rolegen, replaced by the
// checkout at root; its go.sum is baseDir's.
func Write(dir, path, root, baseDir string) error {
	base, err := os.ReadFile(filepath.Join(baseDir, "go.mod"))
	if err != nil {
		return err
	}
	gomod, err := GoMod(path, root, base)
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
// every requirement of the go.mod base, and a requirement of rolegen
// replaced by the checkout at root (base's own replace of rolegen, if it
// has one, is dropped: the checkout is root).
func GoMod(path, root string, base []byte) ([]byte, error) {
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
	for _, r := range from.Require {
		if r.Mod.Path != Rolegen {
			f.AddNewRequire(r.Mod.Path, r.Mod.Version, r.Indirect)
		}
	}
	f.AddNewRequire(Rolegen, "v0.0.0", false)
	if err := f.AddReplace(Rolegen, "", root, ""); err != nil {
		return nil, err
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
