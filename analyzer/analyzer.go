// Package analyzer is rolegen's checks as a golang.org/x/tools/go/analysis
// Analyzer, so that go vet, golangci-lint and editors (gopls) report
// mistakes in role annotations where people look:
//
//	go install github.com/rolegen/rolegen/cmd/rolevet
//	go vet -vettool=$(which rolevet) ./...
//
// It runs exactly the checks of the rolegen command and reports the same
// messages at the same positions.
package analyzer

import (
	"golang.org/x/tools/go/analysis"

	"github.com/rolegen/rolegen/internal/check"
)

// Analyzer reports mistakes in rolegen annotations: plan struct tags and
// //plan:action directives.
var Analyzer = &analysis.Analyzer{
	Name: "rolegen",
	Doc:  "check rolegen annotations (plan struct tags and //plan:action directives)",
	URL:  "https://pkg.go.dev/github.com/rolegen/rolegen/analyzer",
	Run:  run,
}

func run(pass *analysis.Pass) (any, error) {
	_, diags := check.Package(check.Input{
		Fset:  pass.Fset,
		Pkg:   pass.Pkg,
		Info:  pass.TypesInfo,
		Files: pass.Files,
	})
	for _, d := range diags {
		pass.Report(analysis.Diagnostic{Pos: d.At, End: d.EndAt, Message: d.Msg})
	}
	return nil, nil
}
