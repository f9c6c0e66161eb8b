package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/bench/internal/synthetic"
	"github.com/rolegen/rolegen/gen"
)

// The synthetic role families (internal/synthetic) are not committed:
// this test writes them, with rolegen's generated files, into a
// temporary module, checks that generating them again gives the same
// bytes, vets the module and runs its tests, each of which is a subtest
// here with its output.
func TestSyntheticFamilies(t *testing.T) {
	for _, kv := range synthetic.Environ {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	ctx := t.Context()
	dir := t.TempDir()
	require.NoError(t, synthetic.Write(ctx, dir, "."))

	t.Run("deterministic", func(t *testing.T) {
		for _, f := range synthetic.Families {
			srcs, err := f.Sources()
			require.NoError(t, err)
			for name, src := range srcs {
				written, err := os.ReadFile(filepath.Join(dir, f.Name, name))
				require.NoError(t, err)
				assert.Equal(t, string(written), string(src), "%s/%s: the generator wrote other bytes the second time", f.Name, name)
			}
		}
		again, err := synthetic.Generate(ctx, dir)
		require.NoError(t, err)
		require.NotEmpty(t, again)
		assert.Empty(t, gen.Stale(again), "rolegen wrote other bytes the second time")
	})
	t.Run("vet", func(t *testing.T) {
		out, err := synthetic.Command(ctx, dir, "vet", "./...").CombinedOutput()
		require.NoError(t, err, "go vet in the synthetic module:\n%s", out)
	})
	readDependencies(t, dir)
	runSynthetic(t, dir)
}

// readDependencies reads the Go files of this checkout that the module in
// dir builds on (bench's packages and rolegen's), and bench's testdata,
// which its tests read. go test keys this test's cached result by the
// files the test reads: a change to one of them must run the synthetic
// tests again, even when this test binary does not link the package.
func readDependencies(t *testing.T, dir string) {
	t.Helper()
	require.NoError(t, filepath.WalkDir("testdata", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			_, err = os.ReadFile(path)
		}
		return err
	}))
	format := `{{if and .Module .Module.Replace}}{{range .GoFiles}}{{$.Dir}}/{{.}}{{"\n"}}{{end}}{{end}}`
	out, err := synthetic.Command(t.Context(), dir, "list", "-deps", "-test", "-f", format, "./...").Output()
	require.NoError(t, err, "go list in the synthetic module")
	for path := range strings.Lines(string(out)) {
		_, err := os.ReadFile(strings.TrimSpace(path))
		require.NoError(t, err)
	}
}

// testEvent is a line of go test -json (cmd/test2json).
type testEvent struct {
	Action string
	Test   string
	Output string
}

// testResult is what one test of the synthetic module printed and how it
// ended, with its subtests.
type testResult struct {
	name     string
	output   []string
	action   string
	subtests []*testResult
}

// runSynthetic runs the tests of the module in dir and reports each as a
// subtest of t, with its output.
func runSynthetic(t *testing.T, dir string) {
	cmd := synthetic.Command(t.Context(), dir, "test", "-json", "-count=1", ".")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, runErr := cmd.Output()
	top := &testResult{}
	byName := map[string]*testResult{"": top}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e testEvent
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			top.output = append(top.output, sc.Text()+"\n")
			continue
		}
		r := result(byName, e.Test)
		switch e.Action {
		case "output", "build-output":
			r.output = append(r.output, e.Output)
		case "pass", "fail", "skip":
			r.action = e.Action
		}
	}
	require.NoError(t, sc.Err())
	failed := false
	for _, r := range top.subtests {
		failed = !replay(t, r) || failed
	}
	if runErr != nil && !failed {
		t.Fatalf("go test in the synthetic module: %v\n%s%s", runErr, strings.Join(top.output, ""), stderr.String())
	}
	require.NotEmpty(t, top.subtests, "the synthetic module ran no test:\n%s%s", strings.Join(top.output, ""), stderr.String())
}

// result returns the result of the test named name in byName, adding it
// (and its parents, when a subtest's own name holds a slash) if needed.
func result(byName map[string]*testResult, name string) *testResult {
	if r := byName[name]; r != nil {
		return r
	}
	parent, last := "", name
	if i := strings.LastIndex(name, "/"); i >= 0 {
		parent, last = name[:i], name[i+1:]
	}
	r := &testResult{name: last}
	byName[name] = r
	p := result(byName, parent)
	p.subtests = append(p.subtests, r)
	return r
}

// replay reports r as a subtest of t and whether it passed.
func replay(t *testing.T, r *testResult) bool {
	return t.Run(r.name, func(t *testing.T) {
		for _, line := range r.output {
			if trimmed := strings.TrimSpace(line); strings.HasPrefix(trimmed, "=== ") || strings.HasPrefix(trimmed, "--- ") {
				continue // the framework's lines, which t.Run prints again
			}
			_, _ = t.Output().Write([]byte(line))
		}
		for _, sub := range r.subtests {
			replay(t, sub)
		}
		switch r.action {
		case "fail":
			t.Fail()
		case "skip":
			t.SkipNow()
		case "":
			if len(r.subtests) == 0 {
				t.Error("the test did not finish")
			}
		}
	})
}
