// Package analyzer is rolegen's checks as a golang.org/x/tools/go/analysis
// Analyzer, so that go vet, golangci-lint and editors (gopls) report
// mistakes in role annotations where people look:
//
//	go install github.com/rolegen/rolegen/cmd/rolevet
//	go vet -vettool=$(which rolevet) ./...
//
// It runs exactly the checks of the rolegen command and reports the same
// messages at the same positions. A role that embeds a role of another
// package sees that package's //plan:action methods through the analysis
// facts the Analyzer exports when it checks the package (vet and
// golangci-lint analyse dependencies for their facts), as rolegen reads
// them from the package's source. It runs despite type errors: before the
// first go generate, code that uses the generated names does not compile,
// and that is when the annotations' mistakes matter most.
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
	if own := check.Actions(pass.Files); len(own) > 0 {
		f := &actionsFact{}
		for _, name := range slices.Sorted(maps.Keys(own)) {
			f.Types = append(f.Types, typeActions{Name: name, Actions: own[name]})
		}
		pass.ExportPackageFact(f)
	}
	_, diags := check.Package(check.Input{
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
	for _, d := range diags {
		pass.Report(analysis.Diagnostic{Pos: d.At, End: d.EndAt, Message: d.Msg})
	}
	return nil, nil
}
