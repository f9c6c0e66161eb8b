// Package gclplugin registers rolegen's Analyzer as a golangci-lint module
// plugin named "rolegen". See the README for .custom-gcl.yml and
// .golangci.yml.
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

// GetLoadMode asks for type information: the checks resolve fields and
// constants with go/types.
func (plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
