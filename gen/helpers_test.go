package gen_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"
)

func fmtSscan(s string, v *int) (int, error) { return fmt.Sscan(s, v) }

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(data), 0o644))
}

// testCase is one txtar case of testdata/golden or testdata/diagnostics
// (wire's loadTestCase is the pattern): a package of source files, each
// in a section, and the sections that hold what is expected of it.
type testCase struct {
	name string
	path string
	ar   *txtar.Archive
}

// loadCases reads every case of testdata/kind, in name order.
func loadCases(t *testing.T, kind string) []*testCase {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", kind, "*.txtar"))
	require.NoError(t, err)
	require.NotEmpty(t, paths, "no cases in testdata/%s", kind)
	var cases []*testCase
	for _, p := range paths {
		ar, err := txtar.ParseFile(p)
		require.NoError(t, err)
		cases = append(cases, &testCase{name: strings.TrimSuffix(filepath.Base(p), ".txtar"), path: p, ar: ar})
	}
	return cases
}

// writeCases writes the source sections of every case (all but those
// expected reports true for) into dir/<case name>/.
func writeCases(t *testing.T, dir string, cases []*testCase, expected func(section string) bool) {
	t.Helper()
	for _, c := range cases {
		for _, f := range c.ar.Files {
			if !expected(f.Name) {
				writeFile(t, filepath.Join(dir, c.name, f.Name), string(f.Data))
			}
		}
	}
}

// section returns the section named name, or nil.
func (c *testCase) section(name string) *txtar.File {
	for i := range c.ar.Files {
		if c.ar.Files[i].Name == name {
			return &c.ar.Files[i]
		}
	}
	return nil
}

// save writes the case back, for -update.
func (c *testCase) save(t *testing.T) {
	t.Helper()
	require.NoError(t, os.WriteFile(c.path, txtar.Format(c.ar), 0o644))
}
