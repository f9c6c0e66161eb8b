package exprlang

import (
	"go/constant"
	"slices"
)

// SymbolKind tells what a name in a condition stands for.
type SymbolKind uint8

// Symbol kinds.
const (
	// NoSymbol is the zero Symbol's kind: the name is not resolved.
	NoSymbol SymbolKind = iota
	// Field is a state field.
	Field
	// Const is a package-level constant.
	Const
	// Unusable is a name the scope knows but that cannot be used in a
	// condition (a field without plan:"state", a variable, a function);
	// Symbol.Reason says why.
	Unusable
	// Reported is a name whose own declaration is wrong and already
	// reported (a field with a misspelled plan tag): a condition that
	// uses it fails with a Cascade error, so the mistake is told once.
	Reported
)

// Symbol is what a name resolves to.
type Symbol struct {
	Kind SymbolKind
	Name string
	Type Type
	// Value is the value of a constant.
	Value constant.Value
	// PkgPath is the package that declares a constant, PkgName that
	// package's name.
	PkgPath, PkgName string
	// Index is the scope's own number for a field (its FieldID).
	Index int
	// Reason explains why an Unusable name cannot be used.
	Reason string
}

// Names resolves plain names: what a Scope sees directly, or what one
// package exports.
type Names interface {
	// Lookup resolves name: a state field first, then a constant.
	Lookup(name string) (Symbol, bool)
	// Symbols lists the fields and constants, in a fixed order, to
	// suggest the name a typo meant.
	Symbols() []Symbol
}

// Scope resolves the names of conditions and effects: plain names, and
// names qualified by a package (time.Hour).
type Scope interface {
	Names
	// Package resolves the package that a qualifier names (time in
	// time.Hour): its exported names. It reports false when no package
	// has that name here.
	Package(name string) (Names, bool)
	// PackageNames lists, in a fixed order, qualifiers Package resolves,
	// to suggest the one a typo meant.
	PackageNames() []string
}

// MapScope is a Scope over fixed lists, for tests and tools.
type MapScope struct {
	List []Symbol
	// Packages are the packages qualified names may name, by qualifier.
	Packages map[string]*MapScope
}

// Package implements [Scope].
func (m *MapScope) Package(name string) (Names, bool) {
	p, ok := m.Packages[name]
	return p, ok
}

// PackageNames implements [Scope]: the qualifiers of Packages, sorted.
func (m *MapScope) PackageNames() []string {
	names := make([]string, 0, len(m.Packages))
	for n := range m.Packages {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Lookup implements [Scope]; fields win over constants.
func (m *MapScope) Lookup(name string) (Symbol, bool) {
	var found Symbol
	ok := false
	for _, s := range m.List {
		if s.Name != name {
			continue
		}
		if s.Kind == Field {
			return s, true
		}
		if !ok {
			found, ok = s, true
		}
	}
	return found, ok
}

// Symbols implements [Scope].
func (m *MapScope) Symbols() []Symbol { return m.List }
