// Rolegen generates planning code for Go structs annotated as roles.
//
// Usage:
//
//	rolegen [-check] [-v] [packages]
//
// With no packages, rolegen works on the package in the current directory,
// which is what go generate gives it:
//
//	//go:generate go tool rolegen
//
// For each role R declared in a package, rolegen writes r_plan.go (the
// role's name in lower case) beside the declaration. The file holds RState,
// R.PlanState, one constant per action (R + method name) and per goal
// (RGoal + field name), RDomain with every condition and effect as Go code,
// R.Perform, R.PerformJSON, R.PerformStep, for each action that takes typed
// arguments an R + method name + Args value for runtime.WithArgs, and each
// such action's argument schema (JSON Schema), from which package llm
// assembles the schema of an LLM plan (llm.PlanSchema(RDomain)). It imports
// the standard library, runtime and runtime/rolegenimpl (what only
// generated code calls). It is byte-identical on every run and is only
// rewritten when its bytes change. Generated files of roles that no longer
// exist are removed.
//
// # Annotations
//
// State fields carry plan:"state", a saturating number
// plan:"state; min=0; max=100" (every effect that assigns it clamps it
// into the range; either end alone is allowed); a goal is a struct{} field with
// plan:"goal=CONDITION; priority=P" (low, normal, high, critical or an
// integer); an action is a method whose doc comment has a directive line:
//
//	//plan:action pre="Magazines > 0" post="Ammo = 30, Magazines--" fulfills=Armed cost=2
//
// with keys pre, post, fulfills, cost, value, weight, tags, guarded and
// uninterruptible. A method that takes a runtime.Step and returns a
// runtime.Status is an action that takes ticks, for runtime.Agent.
// Conditions use Go's operators and types over the state fields and the
// package's constants; in struct tags, strings take single quotes. A cost
// is a positive number or a numeric expression of the state,
// cost="2 + Distance / 10", which generated code computes in the state the
// action is taken in.
//
// # Diagnostics
//
// Every mistake is reported, sorted by position, one a line, as
//
//	FILE:LINE:COL: message
//
// where the column (in bytes, as Go's tools count) is the exact character
// inside the struct tag or comment that is wrong. When there is any
// diagnostic, rolegen writes nothing and exits with status 1.
//
// # Flags
//
//	-check  write nothing; list the generated files that are missing or
//	        out of date and exit 1 if there are any (for CI)
//	-v      print the files written
//
// Flags may also follow the packages (rolegen ./... -check), as with the go
// command; after -- every argument is a package.
//
// # Graphs
//
//	rolegen graph [-format dot|mermaid] [-view goals|fields|full] [-role R] [packages]
//
// draws the domain of each role (or of role R): goals with their
// conditions and priorities, actions with their costs and conditions, and
// "fulfills" edges. The view adds: fields (the default), the state fields
// between the actions that write them and the preconditions, costs and
// goals that read them; goals, nothing more; full, an edge from each action to every
// goal and precondition that reads what it writes. Render DOT with
// Graphviz: rolegen graph ./pkg | dot -Tsvg > role.svg.
//
// Exit status: 0 on success, 1 on diagnostics, load errors or stale files
// under -check, 2 on a usage error.
package main
