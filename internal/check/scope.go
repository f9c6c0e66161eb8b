package check

import (
	"fmt"
	"go/types"
	"slices"

	"github.com/rolegen/rolegen/exprlang"
)

// originScope resolves the names in the conditions of one origin: what
// the origin struct sees (its fields, promoted by Go's rules) and the
// constants of its package. Field symbols index the role's fields.
type originScope struct {
	b *roleBuild
	o *origin
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
	return exprlang.Symbol{Kind: exprlang.Const, Name: obj.Name(), Type: t, Value: obj.Val(), PkgPath: obj.Pkg().Path()}
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
