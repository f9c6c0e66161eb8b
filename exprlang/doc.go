// Package exprlang is the condition and effect language of rolegen.
//
// Conditions (the pre of an action, the condition of a goal) are boolean
// expressions over the state fields of a role and the constants of its
// package, with Go's operators and precedence:
//
//	Ammo > 10 && (Stance == Crouched || Mode != 'idle')
//
// Effects (the post of an action) are comma-separated assignments that all
// read the state as it was before the action:
//
//	Ammo = 30, Magazines--, Score += Ammo * 2
//
// Costs that depend on the state are numeric expressions of the same
// language, of an integer or floating-point type; [Bounds] bounds their
// values by interval arithmetic:
//
//	2 + Distance / 10
//
// The package parses (with participle), builds an AST whose nodes carry byte
// offsets into the source text, and type-checks the AST against a [Scope]
// with Go's rules: identical operand types, untyped constants converted as
// in Go, ordering only on numbers and strings, boolean operators only on
// booleans, and a non-zero constant divisor for / and %. It knows nothing of
// go/packages or of code generation: callers supply the scope and turn the
// checked tree into code.
package exprlang
