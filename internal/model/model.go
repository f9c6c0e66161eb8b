// Package model is the intermediate form between reading a package and
// generating code: plain data in declaration order, checked, with no
// go/ast or go/types in it. Conditions and effects are checked exprlang
// trees whose field references index Role.Fields.
package model

import (
	"slices"

	"github.com/invopop/jsonschema"

	"github.com/rolegen/rolegen/exprlang"
)

// Package is a Go package with its roles.
type Package struct {
	Name string
	Path string
	Dir  string
	// Roles in declaration order (by position in the package's files).
	Roles []*Role
	// Generated lists the rolegen-generated files present in the package
	// (their absolute paths), to find ones no role produces any more.
	Generated []string
	// Failed lists the roles that have diagnostics (and no model).
	Failed []string
	// Declared lists, sorted, the package-level names the package's own
	// files declare (generated files aside).
	Declared []string
}

// Declares reports whether the package declares name at package level.
func (p *Package) Declares(name string) bool {
	_, found := slices.BinarySearch(p.Declared, name)
	return found
}

// Role is a struct type with goals or actions, its own or embedded.
type Role struct {
	Name string
	// File is the output file's absolute path (lower-case role name +
	// "_plan.go" beside the declaration).
	File   string
	Doc    string
	Fields []*Field
	Goals  []*Goal
	// Actions in declaration order: the role's own methods, then those of
	// embedded roles in field order.
	Actions []*Action

	// The names of the generated state type, domain variable, function
	// testing every precondition (empty without actions), field reader,
	// string field reader (empty without string fields), state hash and
	// state key (empty without inert fields); see SetNames.
	StateType, DomainVar, EnabledFunc, NumberFunc, TextFunc, HashFunc, KeyFunc string
	// ChangedFunc names the function comparing two states field by field
	// (empty without fields); SearchFunc the one that runs A*'s search
	// loop over the role's actions, ReplayFunc the one applying a
	// sequence of actions (both empty without actions); SatisfiedFunc the
	// one testing every goal (empty without goals).
	ChangedFunc, SearchFunc, SatisfiedFunc, ReplayFunc string
}

// TypeRef is a Go type as generated code writes it: a predeclared type,
// or a named type of some package.
type TypeRef struct {
	// PkgPath and PkgName are empty for predeclared types.
	PkgPath, PkgName string
	Name             string
}

// Field is a state field of a role.
type Field struct {
	// Name is the field's name in the generated state type: the Go field
	// name where the role sees it (promoted), else the names of its path
	// joined (SoldierHealth) when another field shadows it.
	Name string
	// Path is the selector path from the role: ["Soldier", "Ammo"].
	Path []string
	Type TypeRef
	// Kind is the underlying kind.
	Kind exprlang.Kind
	Doc  string
	// Min and Max end a saturating number's range as the tag writes them
	// (plan:"state; min=0; max=100"), "" for none: every effect that
	// assigns the field clamps its value into the range.
	Min, Max string
}

// Saturates reports whether the field has a range that effects clamp it
// into.
func (f *Field) Saturates() bool { return f.Min != "" || f.Max != "" }

// Goal is a goal of a role.
type Goal struct {
	Name     string
	Path     []string
	Doc      string
	Priority int
	Cond     exprlang.Expr
	CondText string
	Reads    []int
	// Parts splits the condition into its conjuncts, as the bits of its
	// unmet mask group them (see Parts).
	Parts []Part

	// Const names the goal's GoalID constant, CondFunc the function of its
	// condition and UnmetFunc that of its unmet mask (empty for a single
	// conjunct); see Role.SetNames.
	Const, CondFunc, UnmetFunc string
}

// Shape is the signature of an action's method.
type Shape uint8

// Method shapes.
const (
	ShapeNone       Shape = iota // ()
	ShapeErr                     // () error
	ShapeCtxErr                  // (context.Context) error
	ShapeArgsErr                 // (context.Context, T) error
	ShapeArgsResult              // (context.Context, T) (R, error)
	ShapeStep                    // (runtime.Step) runtime.Status
	ShapeCtxStep                 // (context.Context, runtime.Step) runtime.Status
	ShapeCtxStepErr              // (context.Context, runtime.Step) (runtime.Status, error)
)

// TakesArgs reports whether the method takes typed arguments.
func (a *Action) TakesArgs() bool { return a.Shape == ShapeArgsErr || a.Shape == ShapeArgsResult }

// Durative reports whether the action takes ticks: its method takes a
// runtime.Step and returns a runtime.Status, and is called once a tick
// until it says it is done.
func (a *Action) Durative() bool {
	return a.Shape == ShapeStep || a.Shape == ShapeCtxStep || a.Shape == ShapeCtxStepErr
}

// Action is an action of a role.
type Action struct {
	Name string
	// Method is the method's name; Path the selector path of the
	// embedded role that declares it (empty for the role's own).
	Method string
	Path   []string
	Doc    string

	Pre     exprlang.Expr // nil when there is no precondition
	PreText string
	// PreParts splits the precondition into its conjuncts, as the bits of
	// its unmet mask group them (see Parts); nil without a precondition.
	PreParts   []Part
	Effects    []*exprlang.Effect
	EffectText string

	// Cost is the action's cost: the number given, or for a cost that
	// depends on the state (CostExpr set) a lower bound of its positive
	// values where the precondition holds, 0 when none is proven (see
	// exprlang.Bounds).
	Cost, Value, Weight float64
	// CostExpr is the cost when it depends on the state, a checked
	// numeric expression (cost="2 + Distance / 10"); nil for a number.
	// CostText is it as written, CostReads the fields it reads.
	CostExpr  exprlang.Expr
	CostText  string
	CostReads []int
	Tags      []string
	Fulfills  []int // indexes of Role.Goals
	Guarded   bool
	// Uninterruptible: a durative action that runs to its end once begun.
	Uninterruptible bool

	PreReads []int
	// Reads are the fields the precondition, the effects and the cost
	// read.
	Reads  []int
	Writes []int

	Shape Shape
	// Args is the argument type of ShapeArgs*; ArgsSchema its JSON
	// Schema, fit for strict structured outputs.
	Args       TypeRef
	ArgsSchema *jsonschema.Schema

	// Const names the action's ActionID constant; PreFunc, UnmetFunc,
	// EffectFunc and CostFunc the functions of its precondition, unmet
	// mask (for more than one conjunct), effects and cost, each empty when
	// the action has none (a constant cost has none); ArgsVar the
	// runtime.ArgAction of an action that takes arguments. See
	// Role.SetNames.
	Const, PreFunc, UnmetFunc, EffectFunc, CostFunc, ArgsVar string
}

// InertFields returns the indexes of the state fields that cannot change
// what a planner decides: no goal, precondition or cost reads them, nor any
// effect that writes a field one of those reads, directly or through other
// effects. A clock that every action advances and no condition reads is
// one. States that differ only in inert fields are the same situation to a
// planner; the generated key function sets them to their zero value.
func (r *Role) InertFields() []int {
	live := make([]bool, len(r.Fields))
	mark := func(fields []int) {
		for _, f := range fields {
			live[f] = true
		}
	}
	for _, g := range r.Goals {
		mark(g.Reads)
	}
	for _, a := range r.Actions {
		mark(a.PreReads)
		mark(a.CostReads)
	}
	// An effect on a live field makes live what it reads, until nothing
	// changes.
	for changed := true; changed; {
		changed = false
		for _, a := range r.Actions {
			for _, eff := range a.Effects {
				if eff.Field.Symbol.Kind != exprlang.Field || !live[eff.Field.Symbol.Index] {
					continue
				}
				for _, f := range exprlang.EffectReads([]*exprlang.Effect{eff}) {
					if !live[f] {
						live[f], changed = true, true
					}
				}
			}
		}
	}
	var out []int
	for i, l := range live {
		if !l {
			out = append(out, i)
		}
	}
	return out
}
