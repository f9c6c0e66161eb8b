// Package check reads a type-checked package's rolegen annotations, checks
// them and builds the model the generator emits. It reports every problem
// as a diagnostic at the exact character, and is shared by the rolegen
// command and the go/analysis Analyzer.
package check

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rolegen/rolegen/internal/annot"
	"github.com/rolegen/rolegen/internal/diag"
	"github.com/rolegen/rolegen/internal/genfile"
	"github.com/rolegen/rolegen/internal/model"
)

// Input is a type-checked package.
type Input struct {
	Fset  *token.FileSet
	Pkg   *types.Package
	Info  *types.Info
	Files []*ast.File
	// Foreign, when set, returns the //plan:action methods another
	// package declares (see Actions): roles embedded from that package
	// contribute them. Without it, such roles contribute their state and
	// goals only. rolegen reads them from the package's source, the
	// Analyzer from the facts it exported analysing that package; either
	// way they are text without positions, so both report the same
	// diagnostics.
	Foreign func(pkg *types.Package) map[string][]ActionDecl
	// Std, when set, resolves the qualifiers of conditions that name a
	// standard-library package the role's file does not import
	// (time.Hour without import "time"), as goimports would.
	Std Std
}

// Std finds standard-library packages by name.
type Std interface {
	// Packages returns the standard-library packages named name, best
	// first (math/rand before math/rand/v2); none for an unknown name.
	Packages(name string) []*types.Package
	// Names returns every standard-library package name, sorted.
	Names() []string
}

// Package checks the annotations of in and returns its roles. The model is
// complete only when the diagnostics are empty.
func Package(in Input) (*model.Package, diag.List) {
	c := &checker{
		Input:    in,
		structs:  map[*types.TypeName]*structInfo{},
		methods:  map[*types.TypeName][]*methodDecl{},
		fieldDoc: map[*types.Var]string{},
		foreign:  map[*types.TypeName]bool{},
		reported: map[*types.Var]bool{},
	}
	c.index()
	pkg := &model.Package{Name: in.Pkg.Name(), Path: in.Pkg.Path()}
	for _, f := range in.Files {
		name := in.Fset.File(f.Pos()).Name()
		if pkg.Dir == "" {
			pkg.Dir = filepath.Dir(name)
		}
		if genfile.IsGenerated(f) {
			pkg.Generated = append(pkg.Generated, name)
		}
	}
	for _, tn := range c.order {
		if c.isRole(tn, nil) {
			if r := c.role(tn); r != nil {
				pkg.Roles = append(pkg.Roles, r)
			} else {
				pkg.Failed = append(pkg.Failed, tn.Name())
			}
		}
	}
	for _, name := range in.Pkg.Scope().Names() {
		if !c.isGeneratedPos(in.Pkg.Scope().Lookup(name).Pos()) {
			pkg.Declared = append(pkg.Declared, name)
		}
	}
	c.checkNames(pkg)
	return pkg, c.diags.Sort()
}

type checker struct {
	Input
	diags diag.List

	// structs holds the struct types declared in the package, by type
	// name; order lists them in declaration order.
	structs map[*types.TypeName]*structInfo
	order   []*types.TypeName
	// methods holds the //plan:action methods of each receiver type.
	methods  map[*types.TypeName][]*methodDecl
	fieldDoc map[*types.Var]string
	// foreign marks the types of other packages whose methods have been
	// read: a type's directives are read (and their mistakes reported)
	// only when a role here uses the type.
	foreign map[*types.TypeName]bool
	// reported holds the fields whose own declaration has a diagnostic
	// and so is neither state nor goal: a condition or fulfills that
	// names one fails without a second message.
	reported map[*types.Var]bool
	// genFiles are rolegen's own files, whose declarations are ignored
	// when looking for name conflicts.
	genFiles []*token.File
	// imports caches each file's imports by name (see fileImports).
	imports map[*ast.File]map[string]*types.Package
}

func (c *checker) errorf(pos, end token.Pos, format string, args ...any) {
	c.diags.Add(c.Fset, pos, end, format, args...)
}

// errorText reports a problem at annotation text t.
func (c *checker) errorText(t annot.Text, format string, args ...any) {
	c.errorf(t.Pos(0), t.End(), format, args...)
}

// index finds the package's struct types and //plan: directives.
func (c *checker) index() {
	for _, f := range c.Files {
		if genfile.IsGenerated(f) {
			c.genFiles = append(c.genFiles, c.Fset.File(f.Pos()))
			continue
		}
		attached := map[*ast.CommentGroup]bool{}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.GenDecl:
				if d.Tok != token.TYPE {
					continue
				}
				for _, spec := range d.Specs {
					ts := spec.(*ast.TypeSpec)
					st, ok := ts.Type.(*ast.StructType)
					if !ok {
						continue
					}
					tn, ok := c.Info.Defs[ts.Name].(*types.TypeName)
					if !ok {
						continue
					}
					doc := ts.Doc
					if doc == nil && len(d.Specs) == 1 {
						doc = d.Doc
					}
					c.structs[tn] = &structInfo{name: tn, spec: ts, ast: st, doc: doc.Text(), generic: ts.TypeParams != nil}
					c.order = append(c.order, tn)
					for _, fld := range st.Fields.List {
						doc := fld.Doc
						if doc == nil {
							doc = fld.Comment
						}
						if doc == nil {
							continue
						}
						for _, n := range fld.Names {
							if v, ok := c.Info.Defs[n].(*types.Var); ok {
								c.fieldDoc[v] = strings.TrimSpace(doc.Text())
							}
						}
					}
				}
			case *ast.FuncDecl:
				if d.Doc == nil {
					continue
				}
				attached[d.Doc] = true
				c.funcDirectives(d)
			}
		}
		// //plan: lines anywhere else are misplaced.
		for _, cg := range f.Comments {
			if attached[cg] {
				continue
			}
			for _, cm := range cg.List {
				if strings.HasPrefix(cm.Text, annot.DirectivePrefix) {
					c.errorf(cm.Slash, token.NoPos, "%s must be in the doc comment of a method of a role", directiveName(cm.Text))
				}
			}
		}
	}
	slices.SortFunc(c.order, func(a, b *types.TypeName) int { return int(a.Pos() - b.Pos()) })
}

func directiveName(text string) string {
	if i := strings.IndexAny(text, " \t"); i >= 0 {
		text = text[:i]
	}
	return strings.TrimPrefix(text, "//")
}

// recvBase is the named type a method is declared on.
func recvBase(fn *types.Func) *types.TypeName {
	t := fn.Signature().Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj()
	}
	return nil
}

// isGeneratedPos reports whether pos lies in a rolegen-generated file.
func (c *checker) isGeneratedPos(pos token.Pos) bool {
	for _, f := range c.genFiles {
		if int(pos) >= f.Base() && int(pos) <= f.Base()+f.Size() {
			return true
		}
	}
	return false
}
