package check

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"

	"github.com/rolegen/rolegen/exprlang"
)

// originScope resolves the names in the conditions of one origin: what
// the origin struct sees (its fields, promoted by Go's rules), the
// constants of its package, and the exported constants of the packages a
// qualifier names (time.Hour). Field symbols index the role's fields.
type originScope struct {
	b *roleBuild
	o *origin
	// at is a position in the file whose imports qualifiers name first:
	// the goal's field, the action's method. NoPos for an origin of
	// another package, whose own imports are used.
	at token.Pos
}

func (s *originScope) Lookup(name string) (exprlang.Symbol, bool) {
	o := s.o
	obj, index, _ := types.LookupFieldOrMethod(o.tn.Type(), true, o.pkg(), name)
	switch obj := obj.(type) {
	case *types.Var:
		path := append(slices.Clip(o.path), selectorPath(o.tn.Type(), index)...)
		for i, f := range s.b.r.Fields {
			if slices.Equal(f.Path, path) && s.b.fields[i].v == obj {
				return exprlang.Symbol{Kind: exprlang.Field, Name: name, Type: s.b.fields[i].typ, Index: i}, true
			}
		}
		if s.b.c.reported[obj] {
			return exprlang.Symbol{Kind: exprlang.Reported, Name: name}, true
		}
		for _, g := range s.b.goals {
			if g.item.v == obj {
				return unusable(name, "%s is a goal; conditions read state fields (repeat the goal's condition instead)", name), true
			}
		}
		return unusable(name, "%s is not a state field (tag it plan:\"state\")", name), true
	case *types.Func:
		// A method is no name of its own in Go, as a condition is: the
		// package's constant of that name is (a site Quarry beside an
		// action Quarry).
		if k, ok := o.pkg().Scope().Lookup(name).(*types.Const); ok {
			return s.b.c.constSymbol(k, o), true
		}
		if st, ok := o.tn.Type().Underlying().(*types.Struct); ok {
			for i := range st.NumFields() {
				if st.Field(i).Name() == name {
					// A field and a method of one name: the type checker
					// reports the clash, which says what is wrong; that
					// the condition reads a method would mislead.
					return exprlang.Symbol{Kind: exprlang.Reported, Name: name}, true
				}
			}
		}
		return unusable(name, "%s is a method; conditions read state fields and constants", name), true
	case nil:
		if index != nil {
			return unusable(name, "%s is ambiguous in %s: several embedded structs have it", name, o.tn.Name()), true
		}
	}
	switch obj := o.pkg().Scope().Lookup(name).(type) {
	case *types.Const:
		return s.b.c.constSymbol(obj, o), true
	case nil:
		return exprlang.Symbol{}, false
	case *types.Var:
		return unusable(name, "%s is a package variable; conditions read state fields and constants", name), true
	case *types.Func:
		return unusable(name, "%s is a function; conditions read state fields and constants", name), true
	case *types.TypeName:
		return unusable(name, "%s is a type; conditions read state fields and constants", name), true
	}
	return exprlang.Symbol{}, false
}

func unusable(name, format string, args ...any) exprlang.Symbol {
	return exprlang.Symbol{Kind: exprlang.Unusable, Name: name, Reason: fmt.Sprintf(format, args...)}
}

func (c *checker) constSymbol(obj *types.Const, o *origin) exprlang.Symbol {
	t, ok := c.exprType(obj.Type())
	if !ok {
		return unusable(obj.Name(), "constant %s has type %s, which conditions cannot use", obj.Name(), obj.Type())
	}
	if obj.Pkg() != c.Pkg && !obj.Exported() {
		return unusable(obj.Name(), "constant %s of package %s is not exported; generated code in package %s cannot use it",
			obj.Name(), obj.Pkg().Name(), c.Pkg.Name())
	}
	return exprlang.Symbol{Kind: exprlang.Const, Name: obj.Name(), Type: t, Value: obj.Val(), PkgPath: obj.Pkg().Path(), PkgName: obj.Pkg().Name()}
}

// Symbols lists the fields the origin sees, then its package's constants
// in declaration order, for suggestions.
func (s *originScope) Symbols() []exprlang.Symbol {
	var out []exprlang.Symbol
	for i, f := range s.b.r.Fields {
		if hasPrefix(f.Path, s.o.path) {
			name := s.b.fields[i].v.Name()
			if sym, ok := s.Lookup(name); ok && sym.Kind == exprlang.Field && sym.Index == i {
				out = append(out, sym)
			}
		}
	}
	scope := s.o.pkg().Scope()
	var consts []*types.Const
	for _, name := range scope.Names() {
		if k, ok := scope.Lookup(name).(*types.Const); ok {
			consts = append(consts, k)
		}
	}
	slices.SortFunc(consts, func(a, b *types.Const) int { return int(a.Pos() - b.Pos()) })
	for _, k := range consts {
		out = append(out, s.b.c.constSymbol(k, s.o))
	}
	return out
}

// Package resolves a qualifier: the package imported under that name by
// the file of the text being checked (by the origin's package, for an
// origin of another package), else the standard-library packages of that
// name, as goimports would import them: a constant used only in a
// directive needs no import that Go would then report as unused.
func (s *originScope) Package(name string) (exprlang.Names, bool) {
	if p, ok := s.imports()[name]; ok {
		return &packageNames{c: s.b.c, o: s.o, pkgs: []*types.Package{p}}, true
	}
	if s.b.c.Std != nil {
		if pkgs := s.b.c.Std.Packages(name); len(pkgs) > 0 {
			return &packageNames{c: s.b.c, o: s.o, pkgs: pkgs}, true
		}
	}
	return nil, false
}

// PackageNames lists the qualifiers the file imports, then the standard
// library's package names, for suggestions.
func (s *originScope) PackageNames() []string {
	names := slices.Sorted(maps.Keys(s.imports()))
	if s.b.c.Std != nil {
		names = append(names, s.b.c.Std.Names()...)
	}
	return names
}

// imports returns the packages the text's file imports, by the name it
// uses for them.
func (s *originScope) imports() map[string]*types.Package {
	if s.o.foreign || !s.at.IsValid() {
		out := map[string]*types.Package{}
		for _, p := range s.o.pkg().Imports() {
			out[p.Name()] = p
		}
		return out
	}
	return s.b.c.fileImports(s.at)
}

// fileImports returns the imports of the file of the package being checked
// that holds pos, by name; dot and blank imports name nothing.
func (c *checker) fileImports(pos token.Pos) map[string]*types.Package {
	for _, f := range c.Files {
		if f.FileStart > pos || pos > f.FileEnd {
			continue
		}
		if m, ok := c.imports[f]; ok {
			return m
		}
		m := map[string]*types.Package{}
		for _, spec := range f.Imports {
			if pn := c.Info.PkgNameOf(spec); pn != nil && pn.Name() != "_" && pn.Name() != "." {
				m[pn.Name()] = pn.Imported()
			}
		}
		if c.imports == nil {
			c.imports = map[*ast.File]map[string]*types.Package{}
		}
		c.imports[f] = m
		return m
	}
	return nil
}

// packageNames resolves the exported names of the package a qualifier
// names: one imported package, or the standard-library packages of that
// name, best first (the first that declares the name as a constant wins).
type packageNames struct {
	c    *checker
	o    *origin
	pkgs []*types.Package
}

func (p *packageNames) Lookup(name string) (exprlang.Symbol, bool) {
	var first types.Object
	for _, pkg := range p.pkgs {
		obj := pkg.Scope().Lookup(name)
		if k, ok := obj.(*types.Const); ok && k.Exported() {
			return p.c.constSymbol(k, p.o), true
		}
		if obj != nil && first == nil {
			first = obj
		}
	}
	if first == nil {
		return exprlang.Symbol{}, false
	}
	what := first.Pkg().Name() + "." + name
	switch first.(type) {
	case *types.Const:
		return unusable(name, "%s is not exported; generated code cannot use it", what), true
	case *types.Func:
		return unusable(name, "%s is a function; conditions read state fields and constants", what), true
	case *types.Var:
		return unusable(name, "%s is a package variable; conditions read state fields and constants", what), true
	case *types.TypeName:
		return unusable(name, "%s is a type; conditions read state fields and constants", what), true
	}
	return exprlang.Symbol{}, false
}

// Symbols lists the exported constants, in declaration order, for
// suggestions.
func (p *packageNames) Symbols() []exprlang.Symbol {
	var out []exprlang.Symbol
	for _, pkg := range p.pkgs {
		var consts []*types.Const
		for _, name := range pkg.Scope().Names() {
			if k, ok := pkg.Scope().Lookup(name).(*types.Const); ok && k.Exported() {
				consts = append(consts, k)
			}
		}
		slices.SortFunc(consts, func(a, b *types.Const) int { return int(a.Pos() - b.Pos()) })
		for _, k := range consts {
			out = append(out, p.c.constSymbol(k, p.o))
		}
	}
	return out
}
