// Package analyzer is rolegen's checks as a golang.org/x/tools/go/analysis
// Analyzer, so that go vet and golangci-lint report mistakes in role
// annotations where people look:
//
//	go install github.com/rolegen/rolegen/cmd/rolevet
//	go vet -vettool=$(which rolevet) ./...
//
// It runs exactly the checks of the rolegen command and reports the same
// messages at the same positions.
//
// Before the first go generate, code that uses the generated names does
// not compile, and that is when the annotations' mistakes matter most.
// The Analyzer runs despite type errors, but what reaches it depends on
// the driver: go vet skips a package that does not compile; rolevet run
// on its own (rolevet ./..., the x/tools checker) prints the compiler's
// errors and runs it; golangci-lint skips every analyzer on a package it
// type-checked and found ill-typed, so its plugin asks for syntax alone
// (see gclplugin), and given no type information the Analyzer
// type-checks, itself, the packages that carry rolegen annotations,
// ignoring their type errors. gopls runs only its own analyzers.
//
// A role that embeds a role of another package sees that package's
// //plan:action methods: through the analysis facts the Analyzer exports
// when it checks that package (vet and golangci-lint with type
// information analyse dependencies for their facts), and, given syntax
// alone, by reading that package's source, as rolegen does. Given syntax
// alone, a package whose files hold no annotation at all (a struct that
// only embeds roles of other packages, before its first go generate) is
// not checked.
package analyzer

import (
	"context"
	"go/types"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/rolegen/rolegen/internal/check"
	"github.com/rolegen/rolegen/internal/load"
)

// Analyzer reports mistakes in rolegen annotations: plan struct tags and
// //plan:action directives.
var Analyzer = &analysis.Analyzer{
	Name:             "rolegen",
	Doc:              "check rolegen annotations (plan struct tags and //plan:action directives)",
	URL:              "https://pkg.go.dev/github.com/rolegen/rolegen/analyzer",
	Run:              run,
	RunDespiteErrors: true,
	FactTypes:        []analysis.Fact{new(actionsFact)},
}

// actionsFact is what a package declares for roles of other packages to
// embed: its methods with //plan:action directives, by receiver type,
// sorted by type name (facts are encoded deterministically).
type actionsFact struct {
	Types []typeActions
}

type typeActions struct {
	Name    string
	Actions []check.ActionDecl
}

func (*actionsFact) AFact() {}

func (f *actionsFact) String() string {
	var types []string
	for _, t := range f.Types {
		var methods []string
		for _, d := range t.Actions {
			methods = append(methods, d.Method)
		}
		types = append(types, t.Name+"."+strings.Join(methods, ","))
	}
	return "actions(" + strings.Join(types, " ") + ")"
}

// std resolves qualified names of standard-library packages that a role's
// file does not import, as rolegen does: one listing of the standard
// library for the whole process.
var std = load.NewStd(context.Background(), "")

func run(pass *analysis.Pass) (any, error) {
	if pass.TypesInfo == nil {
		// A driver that parses packages but does not type-check them:
		// golangci-lint in the plugin's syntax load mode. It loads no
		// dependencies, so no package reads facts (and pass.Pkg, which
		// facts are keyed by, is nil).
		in, ok := syntaxInput(pass)
		if ok {
			report(pass, in)
		}
		return nil, nil
	}
	if own := check.Actions(pass.Files); len(own) > 0 {
		f := &actionsFact{}
		for _, name := range slices.Sorted(maps.Keys(own)) {
			f.Types = append(f.Types, typeActions{Name: name, Actions: own[name]})
		}
		pass.ExportPackageFact(f)
	}
	report(pass, check.Input{
		Fset:  pass.Fset,
		Pkg:   pass.Pkg,
		Info:  pass.TypesInfo,
		Files: pass.Files,
		Foreign: func(pkg *types.Package) map[string][]check.ActionDecl {
			var f actionsFact
			if !pass.ImportPackageFact(pkg, &f) {
				return nil
			}
			out := map[string][]check.ActionDecl{}
			for _, t := range f.Types {
				out[t.Name] = t.Actions
			}
			return out
		},
		Std: std,
	})
	return nil, nil
}

// report checks the package and reports rolegen's diagnostics.
func report(pass *analysis.Pass, in check.Input) {
	_, diags := check.Package(in)
	for _, d := range diags {
		pass.Report(analysis.Diagnostic{Pos: d.At, End: d.EndAt, Message: d.Msg})
	}
}
