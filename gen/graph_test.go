package gen_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"

	"github.com/rolegen/rolegen/gen"
)

// TestGraphs draws the villager of the golden cases (14 actions, four
// goals) in every view and format and compares the text with
// testdata/graph (-update rewrites it). Render a .dot file with
// dot -Tpng to look at it; the test does not need Graphviz.
func TestGraphs(t *testing.T) {
	ar, err := txtar.ParseFile(filepath.Join("testdata", "golden", "villager.txtar"))
	require.NoError(t, err)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/farm\n\ngo 1.26\n")
	for _, f := range ar.Files {
		if f.Name == "villager.go" { // the role alone: main.go needs the runtime
			writeFile(t, filepath.Join(dir, f.Name), string(f.Data))
		}
	}
	for _, c := range []struct{ file, format, view string }{
		{"villager.goals.dot", "dot", "goals"},
		{"villager.fields.dot", "dot", "fields"},
		{"villager.full.dot", "dot", "full"},
		{"villager.fields.mmd", "mermaid", ""},
		{"villager.goals.mmd", "mermaid", "goals"},
	} {
		t.Run(c.file, func(t *testing.T) {
			var b bytes.Buffer
			require.NoError(t, gen.WriteGraphs(context.Background(), gen.Options{Dir: dir}, &b,
				gen.GraphOptions{Format: c.format, View: c.view}, "."))
			golden := filepath.Join("testdata", "graph", c.file)
			if *update {
				require.NoError(t, os.MkdirAll(filepath.Dir(golden), 0o755))
				require.NoError(t, os.WriteFile(golden, b.Bytes(), 0o644))
				return
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			require.Equal(t, string(want), b.String())
		})
	}

	err = gen.WriteGraphs(context.Background(), gen.Options{Dir: dir}, &bytes.Buffer{}, gen.GraphOptions{View: "tangled"}, ".")
	require.EqualError(t, err, `unknown graph view "tangled" (want goals, fields or full)`)
}

// TestGraphShowsCostsThatDependOnTheState draws the traveller of the
// golden cases: a cost that depends on the state shows as written, tied to
// the field it reads.
func TestGraphShowsCostsThatDependOnTheState(t *testing.T) {
	ar, err := txtar.ParseFile(filepath.Join("testdata", "golden", "costs.txtar"))
	require.NoError(t, err)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/golden/costs\n\ngo 1.26\n")
	for _, f := range ar.Files {
		if f.Name == "travel.go" || f.Name == "pack/pack.go" {
			writeFile(t, filepath.Join(dir, f.Name), string(f.Data))
		}
	}
	var b bytes.Buffer
	require.NoError(t, gen.WriteGraphs(context.Background(), gen.Options{Dir: dir}, &b,
		gen.GraphOptions{Format: "dot", Role: "Traveller"}, "."))
	require.Contains(t, b.String(), `"action:Walk" [label="Walk\ncost 2 + Distance / 10\npost Arrived = true"`)
	require.Contains(t, b.String(), `"action:Ride" [label="Ride\ncost 5\npost Arrived = true"`)
	require.Contains(t, b.String(), `"field:Load" -> "action:Drop" [label="cost", style=dashed, constraint=false];`)
}
