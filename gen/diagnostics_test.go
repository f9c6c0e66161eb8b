package gen_test

import (
	"context"
	"errors"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/gen"
	"github.com/rolegen/rolegen/internal/testmodule"
)

var update = flag.Bool("update", false, "rewrite the expected output of golden tests")

// TestDiagnostics runs rolegen over every case of testdata/diagnostics
// (one package each, loaded together) and compares the diagnostics with
// the case's want section: FILE:LINE:COL: message, each followed by a
// line "\t^TEXT" that names the text found at that column, so that every
// column is checked against the source, not only against the last run.
func TestDiagnostics(t *testing.T) {
	cases := loadCases(t, "diagnostics")
	require.GreaterOrEqual(t, len(cases), 30)
	root := t.TempDir()
	// The cases may import rolegen's runtime (runtime.Step): the module
	// requires this checkout, as a user's module would.
	readSources(t, repoRoot(t))
	require.NoError(t, testmodule.Write(root, "example.com/cases", repoRoot(t), repoRoot(t)))
	writeCases(t, root, cases, func(section string) bool { return section == "want" })

	files, err := gen.Generate(context.Background(), gen.Options{Dir: root}, "./...")
	require.Nil(t, files, "no file may be generated when there are diagnostics")
	var de *gen.Error
	require.True(t, errors.As(err, &de), "want diagnostics, got %v", err)

	got := map[string][]string{}
	for _, d := range de.Diagnostics {
		if d.End.Line != 0 {
			require.Equal(t, d.Pos.Filename, d.End.Filename, d.String())
			require.GreaterOrEqual(t, d.End.Offset, d.Pos.Offset, "%s: End is not before Pos", d)
		}
		rel, err := filepath.Rel(root, d.Pos.Filename)
		require.NoError(t, err)
		caseName, file, _ := strings.Cut(filepath.ToSlash(rel), "/")
		d.Pos.Filename = file
		for i := range d.Notes {
			rel, err := filepath.Rel(filepath.Join(root, caseName), d.Notes[i].Pos.Filename)
			require.NoError(t, err)
			d.Notes[i].Pos.Filename = filepath.ToSlash(rel)
		}
		got[caseName] = append(got[caseName], d.String())
	}

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := c.section("want")
			require.NotNil(t, want, "case has no want section")
			sources := map[string][]string{}
			for _, f := range c.ar.Files {
				if f.Name != "want" {
					sources[f.Name] = strings.Split(string(f.Data), "\n")
				}
			}
			require.NotEmpty(t, got[c.name], "no diagnostics")

			var lines []string
			for _, g := range got[c.name] {
				lines = append(lines, g, "\t^"+textAt(t, sources, g))
			}
			actual := strings.Join(lines, "\n") + "\n"
			if *update {
				want.Data = []byte(actual)
				c.save(t)
				return
			}
			require.Equal(t, string(want.Data), actual)
			// Nothing was written next to the case.
			plans, _ := filepath.Glob(filepath.Join(root, c.name, "*_plan.go"))
			require.Empty(t, plans)
		})
	}
}

// textAt returns the source text at the position of diagnostic line d
// (FILE:LINE:COL: ...), up to the end of the word or operator there.
func textAt(t *testing.T, sources map[string][]string, d string) string {
	t.Helper()
	parts := strings.SplitN(d, ":", 4)
	require.Len(t, parts, 4, d)
	src := sources[parts[0]]
	require.NotNil(t, src, "diagnostic in unknown file: %s", d)
	var line, col int
	_, err := fmtSscan(parts[1], &line)
	require.NoError(t, err)
	_, err = fmtSscan(parts[2], &col)
	require.NoError(t, err)
	require.LessOrEqual(t, line, len(src), d)
	text := src[line-1]
	require.LessOrEqual(t, col-1, len(text), d)
	rest := text[col-1:]
	end := len(rest)
	for i, r := range rest {
		if i > 0 && strings.ContainsRune(" \t\"`;,)=", r) {
			end = i
			break
		}
	}
	return rest[:min(end, 24)]
}
