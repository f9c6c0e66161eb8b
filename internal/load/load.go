// Package load loads Go packages for rolegen with golang.org/x/tools/go/packages:
// syntax, types and type information, and a way around stale generated
// files.
package load

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/build"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/rolegen/rolegen/internal/genfile"
	"github.com/rolegen/rolegen/internal/model"
)

// Mode is what rolegen needs of a package.
const Mode = packages.NeedName | packages.NeedFiles | packages.NeedSyntax |
	packages.NeedTypes | packages.NeedTypesInfo

// Load loads the packages matching patterns, relative to dir. When a
// package does not type-check and holds rolegen-generated files, it is
// loaded again with those files emptied: a generated file that no longer
// matches its role must not stop rolegen from regenerating it. Errors
// that remain are returned on the packages, for the caller to judge.
func Load(ctx context.Context, dir string, patterns ...string) ([]*packages.Package, *token.FileSet, error) {
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	fset := token.NewFileSet()
	cfg := &packages.Config{Context: ctx, Dir: dir, Mode: Mode, Fset: fset}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, nil, err
	}
	if len(pkgs) == 0 {
		return nil, nil, explainEmpty(ctx, dir, patterns)
	}
	overlay := map[string][]byte{}
	for _, p := range pkgs {
		if len(p.Errors) == 0 || p.Types == nil {
			continue
		}
		for _, name := range p.GoFiles {
			if genfile.IsGeneratedFile(name) {
				overlay[name] = []byte(fmt.Sprintf("%s\n\npackage %s\n", genfile.Header, p.Name))
			}
		}
	}
	if len(overlay) > 0 {
		fset = token.NewFileSet()
		cfg = &packages.Config{Context: ctx, Dir: dir, Mode: Mode, Fset: fset, Overlay: overlay}
		pkgs, err = packages.Load(cfg, patterns...)
		if err != nil {
			return nil, nil, err
		}
	}
	return pkgs, fset, nil
}

// Syntax returns a function that gives the parsed files (with comments,
// in fset) of any package by import path: those loaded already, others
// loaded on first use and kept.
func Syntax(ctx context.Context, dir string, fset *token.FileSet, loaded []*packages.Package) func(string) []*ast.File {
	cache := map[string][]*ast.File{}
	for _, p := range loaded {
		cache[p.PkgPath] = p.Syntax
	}
	return func(path string) []*ast.File {
		if files, ok := cache[path]; ok {
			return files
		}
		if isStandard(path) {
			// No roles there; a role embedding sync.Mutex or bytes.Buffer
			// must not cost a go list and a parse of the package.
			cache[path] = nil
			return nil
		}
		cfg := &packages.Config{Context: ctx, Dir: dir, Fset: fset, Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax}
		pkgs, err := packages.Load(cfg, path)
		var files []*ast.File
		if err == nil && len(pkgs) == 1 {
			files = pkgs[0].Syntax
		}
		cache[path] = files
		return files
	}
}

// isStandard reports whether path is a standard library package, as
// go/build decides it before asking the go command: a directory of that
// name under GOROOT/src. Without a known GOROOT it says false.
func isStandard(path string) bool {
	root := build.Default.GOROOT
	if root == "" || path == "" {
		return false
	}
	fi, err := os.Stat(filepath.Join(root, "src", filepath.FromSlash(path)))
	return err == nil && fi.IsDir()
}

// explainEmpty says why nothing was loaded: go/packages returns no
// package and no error when go list itself fails (an untidy go.mod, say).
func explainEmpty(ctx context.Context, dir string, patterns []string) error {
	cmd := exec.CommandContext(ctx, "go", append([]string{"list"}, patterns...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil && stderr.Len() > 0 {
		return fmt.Errorf("rolegen: go list %s: %s", strings.Join(patterns, " "), strings.TrimSpace(stderr.String()))
	}
	return fmt.Errorf("rolegen: no packages match %s", strings.Join(patterns, " "))
}

// Fatal returns the errors of p that stop generation: all of them but the
// type errors about names rolegen is about to generate (generated holds
// the identifiers of the roles' model.Role.GeneratedIdents; with the
// methods of model.GeneratedMethods, code written before a role's file
// existed may use them). For roles with diagnostics, whose names are not
// known yet, any missing name that starts with the role's name is taken
// for a generated one.
func Fatal(p *packages.Package, generated map[string]bool, failedRoles []string) []packages.Error {
	hasRoles := len(generated) > 0 || len(failedRoles) > 0
	isGenerated := func(name string) bool {
		if generated[name] || hasRoles && slices.Contains(model.GeneratedMethods, name) {
			return true
		}
		for _, r := range failedRoles {
			if strings.HasPrefix(name, r) {
				return true
			}
		}
		return false
	}
	var out []packages.Error
	for _, e := range p.Errors {
		if name := missingName(e.Msg); e.Kind == packages.TypeError && name != "" && isGenerated(name) {
			continue
		}
		if e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# "+p.PkgPath+"\n") {
			// The compiler's report on the package itself, which go list
			// builds for export data: the type checker's errors, listed
			// one by one, say the same.
			continue
		}
		out = append(out, e)
	}
	return out
}

// missingName extracts X from the type checker's "undefined: X" and
// "... has no field or method X" messages.
func missingName(msg string) string {
	if name, ok := strings.CutPrefix(msg, "undefined: "); ok {
		return name
	}
	const marker = "has no field or method "
	if i := strings.Index(msg, marker); i >= 0 {
		name := msg[i+len(marker):]
		if j := strings.IndexAny(name, "), "); j >= 0 {
			name = name[:j]
		}
		return name
	}
	return ""
}
