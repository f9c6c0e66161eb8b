package analyzer

import (
	"context"
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/rolegen/rolegen/internal/check"
	"github.com/rolegen/rolegen/internal/load"
)

// syntaxInput is the Input for a pass whose driver parsed the package
// but did not type-check it: golangci-lint with the plugin's syntax load
// mode, which is the only way golangci-lint runs an analyzer on a package
// that does not compile (it skips every analyzer on such a package when
// it type-checks it itself). The package is type-checked here, with its
// imports' types from export data, and its type errors are ignored: they
// are the generated names that do not exist yet, or mistakes that the
// compiler reports. ok is false when there is nothing to check.
//
// Such a driver loads no dependencies and so has no facts: the
// //plan:action methods of roles embedded from other packages are read
// from those packages' source, as rolegen reads them.
func syntaxInput(pass *analysis.Pass) (in check.Input, ok bool) {
	if len(pass.Files) == 0 || !check.Annotated(pass.Files) {
		return check.Input{}, false
	}
	ctx := context.Background()
	dir := filepath.Dir(pass.Fset.File(pass.Files[0].Pos()).Name())
	imported := loadImports(ctx, dir, pass.Fset, pass.Files)
	conf := &types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			if p := imported[path]; p != nil {
				return p, nil
			}
			return nil, &importError{path: path}
		}),
		Error: func(error) {},
		Sizes: types.SizesFor(build.Default.Compiler, build.Default.GOARCH),
	}
	if pass.Module != nil && pass.Module.GoVersion != "" {
		conf.GoVersion = "go" + strings.TrimPrefix(pass.Module.GoVersion, "go")
	}
	info := &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		Scopes:       map[ast.Node]*types.Scope{},
		FileVersions: map[*ast.File]string{},
	}
	name := pass.Files[0].Name.Name
	pkg, _ := conf.Check(packagePath(dir, name), pass.Fset, pass.Files, info)
	return check.Input{
		Fset:    pass.Fset,
		Pkg:     pkg,
		Info:    info,
		Files:   pass.Files,
		Foreign: foreignFromSource(ctx, dir),
		Std:     std,
	}, true
}

// loadImports loads the types of the packages the files import, from
// export data (built by the go command, as go vet and golangci-lint build
// it), by import path. A package that fails to load is missing.
func loadImports(ctx context.Context, dir string, fset *token.FileSet, files []*ast.File) map[string]*types.Package {
	var paths []string
	seen := map[string]bool{"unsafe": true, "C": true}
	for _, f := range files {
		for _, spec := range f.Imports {
			path, err := strconv.Unquote(spec.Path.Value)
			if err != nil || seen[path] {
				continue
			}
			seen[path] = true
			paths = append(paths, path)
		}
	}
	out := map[string]*types.Package{}
	if len(paths) == 0 {
		return out
	}
	cfg := &packages.Config{Context: ctx, Dir: dir, Fset: fset, Mode: packages.NeedName | packages.NeedTypes}
	pkgs, err := packages.Load(cfg, paths...)
	if err != nil {
		return out
	}
	for _, p := range pkgs {
		if p.Types != nil && p.Types.Complete() {
			out[p.PkgPath] = p.Types
		}
	}
	return out
}

// foreignFromSource returns the //plan:action methods of another package,
// read from its files as rolegen reads them.
func foreignFromSource(ctx context.Context, dir string) func(*types.Package) map[string][]check.ActionDecl {
	syntax := load.Syntax(ctx, dir, token.NewFileSet(), nil)
	actions := map[string]map[string][]check.ActionDecl{}
	return func(pkg *types.Package) map[string][]check.ActionDecl {
		a, ok := actions[pkg.Path()]
		if !ok {
			a = check.Actions(syntax(pkg.Path()))
			actions[pkg.Path()] = a
		}
		return a
	}
}

// packagePath is the import path of the package in dir: its module's
// path and the directory below the module's root (with _test for an
// external test package). Outside a module, the package's name.
func packagePath(dir, name string) string {
	for root := dir; ; {
		if data, err := os.ReadFile(filepath.Join(root, "go.mod")); err == nil {
			mod := modfile.ModulePath(data)
			if mod == "" {
				break
			}
			rel, err := filepath.Rel(root, dir)
			if err != nil {
				break
			}
			path := mod
			if rel != "." {
				path += "/" + filepath.ToSlash(rel)
			}
			if strings.HasSuffix(name, "_test") && !strings.HasSuffix(path, "_test") {
				path += "_test"
			}
			return path
		}
		parent := filepath.Dir(root)
		if parent == root {
			break
		}
		root = parent
	}
	return name
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

type importError struct{ path string }

func (e *importError) Error() string { return "could not import " + e.path }
