package gclplugin

import (
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/analyzer"
)

func TestRegistered(t *testing.T) {
	newPlugin, err := register.GetPlugin("rolegen")
	require.NoError(t, err)
	p, err := newPlugin(nil)
	require.NoError(t, err)
	as, err := p.BuildAnalyzers()
	require.NoError(t, err)
	require.Equal(t, analyzer.Analyzer, as[0])
	require.Equal(t, register.LoadModeSyntax, p.GetLoadMode())
}
