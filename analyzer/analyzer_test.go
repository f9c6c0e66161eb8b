package analyzer_test

import (
	"go/token"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/rolegen/rolegen/analyzer"
)

func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), analyzer.Analyzer, "roles")
}

// Editors underline the wrong text: a diagnostic spans exactly it.
func TestDiagnosticsSpanTheWrongText(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), analyzer.Analyzer, "roles")
	require.Len(t, results, 1)
	found := false
	for _, d := range results[0].Diagnostics {
		if strings.HasPrefix(d.Message, `unknown state field "Amo"`) {
			found = true
			require.True(t, d.End.IsValid(), "End is set")
			assert.Equal(t, "Amo", text(t, results[0].Pass.Fset, d.Pos, d.End))
		}
	}
	assert.True(t, found)
}

func text(t *testing.T, fset *token.FileSet, from, to token.Pos) string {
	t.Helper()
	f := fset.File(from)
	data, err := os.ReadFile(f.Name())
	require.NoError(t, err)
	return string(data[f.Offset(from):f.Offset(to)])
}

// A role embedding an actions-only role of another package: the
// Analyzer sees that package's actions through its facts and reports what
// rolegen reports.
func TestActionsOfAnotherPackage(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), analyzer.Analyzer, "medic", "ward")
}

// Before the first go generate, code using the generated names does not
// compile; the Analyzer reports the annotations' mistakes all the same.
func TestRunsDespiteTypeErrors(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), analyzer.Analyzer, "pending")
	require.Len(t, results, 1)
	require.NotEmpty(t, results[0].Pass.TypeErrors, "the package does not type-check")
}
