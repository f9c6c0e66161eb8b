package gen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/rolegen/rolegen/internal/check"
	"github.com/rolegen/rolegen/internal/diag"
	"github.com/rolegen/rolegen/internal/genfile"
	"github.com/rolegen/rolegen/internal/load"
	"github.com/rolegen/rolegen/internal/model"
)

// Options configures Generate.
type Options struct {
	// Dir is the directory patterns are relative to (default: the current
	// directory).
	Dir string
}

// File is a generated file: its content, or its removal (a file rolegen
// generated for a role that no longer exists).
type File struct {
	Path    string
	Content []byte
	Delete  bool
}

// Generate loads the packages matching patterns (default ".") and returns
// the generated file of every role, plus the removal of generated files
// no role produces any more, sorted by path. When an annotation is wrong
// the error is an *Error listing every problem, sorted by position, and
// no file is returned.
func Generate(ctx context.Context, opts Options, patterns ...string) ([]File, error) {
	models, err := analyze(ctx, opts, patterns)
	if err != nil {
		return nil, err
	}
	var files []File
	for _, m := range models {
		keep := map[string]bool{}
		for _, r := range m.Roles {
			content, err := emitRole(m, r)
			if err != nil {
				return nil, err
			}
			files = append(files, File{Path: r.File, Content: content})
			keep[r.File] = true
		}
		for _, g := range m.Generated {
			if !keep[g] {
				files = append(files, File{Path: g, Delete: true})
			}
		}
	}
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return files, nil
}

// analyze loads and checks the packages: their models, or every
// diagnostic.
func analyze(ctx context.Context, opts Options, patterns []string) ([]*model.Package, error) {
	pkgs, fset, err := load.Load(ctx, opts.Dir, patterns...)
	if err != nil {
		return nil, err
	}
	var diags diag.List
	var models []*model.Package
	syntax := load.Syntax(ctx, opts.Dir, fset, pkgs)
	std := load.NewStd(ctx, opts.Dir)
	actions := map[string]map[string][]check.ActionDecl{}
	foreign := func(pkg *types.Package) map[string][]check.ActionDecl {
		a, ok := actions[pkg.Path()]
		if !ok {
			a = check.Actions(syntax(pkg.Path()))
			actions[pkg.Path()] = a
		}
		return a
	}
	for _, p := range pkgs {
		if p.Types == nil || len(p.Syntax) == 0 {
			diags = append(diags, packageErrors(p, p.Errors)...)
			if len(p.Errors) == 0 {
				return nil, fmt.Errorf("rolegen: package %s has no Go files", p.PkgPath)
			}
			continue
		}
		m, ds := check.Package(check.Input{Fset: fset, Pkg: p.Types, Info: p.TypesInfo, Files: p.Syntax, Foreign: foreign, Std: std})
		diags = append(diags, ds...)
		generated := map[string]bool{}
		for _, r := range m.Roles {
			for _, n := range r.GeneratedIdents() {
				generated[n] = true
			}
		}
		diags = append(diags, packageErrors(p, load.Fatal(p, generated, m.Failed))...)
		models = append(models, m)
	}
	if len(diags) > 0 {
		return nil, newError(diags.Sort())
	}
	return models, nil
}

// packageErrors turns the loader's errors into diagnostics.
func packageErrors(p *packages.Package, errs []packages.Error) diag.List {
	var out diag.List
	for _, e := range errs {
		var pos token.Position
		pos.Filename, pos.Line, pos.Column = splitPos(e.Pos)
		if pos.Filename == "" {
			pos.Filename = p.PkgPath
		}
		if msg, ok := strings.CutPrefix(e.Msg, "\t"); ok && len(out) > 0 {
			// The type checker's further line about the error before
			// ("other declaration of X"): a note of that error, not an
			// error that sorting by position would put first.
			last := &out[len(out)-1]
			last.Notes = append(last.Notes, diag.Note{Pos: pos, Msg: msg})
			continue
		}
		out = append(out, diag.Diagnostic{Pos: pos, Msg: e.Msg})
	}
	return out
}

// splitPos splits "file:line:col" (or "file:line", or "-").
func splitPos(s string) (string, int, int) {
	if s == "" || s == "-" {
		return "", 0, 0
	}
	parts := strings.Split(s, ":")
	nums := []int{}
	for len(parts) > 1 && len(nums) < 2 {
		var n int
		if _, err := fmt.Sscanf(parts[len(parts)-1], "%d", &n); err != nil {
			break
		}
		nums = append([]int{n}, nums...)
		parts = parts[:len(parts)-1]
	}
	file := strings.Join(parts, ":")
	switch len(nums) {
	case 2:
		return file, nums[0], nums[1]
	case 1:
		return file, nums[0], 0
	}
	return file, 0, 0
}

// Stale returns the files whose content on disk differs from files (or
// that should be removed): what Write would change.
func Stale(files []File) []string {
	var out []string
	for _, f := range files {
		old, err := os.ReadFile(f.Path)
		switch {
		case f.Delete:
			if err == nil {
				out = append(out, f.Path)
			}
		case err != nil || !bytes.Equal(old, f.Content):
			out = append(out, f.Path)
		}
	}
	return out
}

// Write writes files to disk and returns the paths it changed. A file is
// written to a temporary file in its directory and renamed into place, so
// an interrupted run leaves the previous file whole; a file whose bytes
// did not change is not touched; a file rolegen did not generate is never
// overwritten or removed.
func Write(files []File) ([]string, error) {
	for _, f := range files {
		if _, err := os.Stat(f.Path); err == nil && !genfile.IsGeneratedFile(f.Path) {
			return nil, fmt.Errorf("rolegen: %s exists and was not generated by rolegen; not overwriting it", f.Path)
		}
	}
	changed := Stale(files)
	for _, f := range files {
		if !slices.Contains(changed, f.Path) {
			continue
		}
		if f.Delete {
			if err := os.Remove(f.Path); err != nil && !errors.Is(err, os.ErrNotExist) {
				return nil, err
			}
			continue
		}
		if err := writeAtomic(f.Path, f.Content); err != nil {
			return nil, err
		}
	}
	return changed, nil
}

func writeAtomic(path string, content []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(content); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
