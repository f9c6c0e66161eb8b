// Package gclplugin registers rolegen's Analyzer as a golangci-lint module
// plugin named "rolegen". See the README for .custom-gcl.yml and
// .golangci.yml, and the module gcltest below this directory for the
// test that builds golangci-lint with the plugin and runs it.
package gclplugin

import (
	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/rolegen/rolegen/analyzer"
)

func init() { register.Plugin("rolegen", New) }

// New returns the plugin; rolegen's checks take no settings.
func New(any) (register.LinterPlugin, error) { return plugin{}, nil }

type plugin struct{}

func (plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return []*analysis.Analyzer{analyzer.Analyzer}, nil
}

// GetLoadMode asks for syntax only. golangci-lint runs no analyzer on a
// package that it type-checked and found ill-typed, and a package whose
// code uses the names rolegen generates is ill-typed until the first go
// generate. Given syntax alone, the Analyzer type-checks the packages
// that carry rolegen annotations itself (the others cost a walk over
// their declarations), ignoring the type errors. golangci-lint runs every
// go/analysis linter of a run in the strictest load mode any of them
// asks for: run with linters that need types, rolegen gets golangci-lint's
// own type information and reports nothing on a package that does not
// compile; run alone (golangci-lint run --enable-only rolegen), it
// reports before the first go generate too.
func (plugin) GetLoadMode() string { return register.LoadModeSyntax }
