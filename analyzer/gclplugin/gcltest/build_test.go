package gcltest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const (
	// golangciModule and golangciVersion are the golangci-lint built: v2.15.0
	// is the newest that builds with the Go of this project's machines.
	golangciModule  = "github.com/golangci/golangci-lint/v2"
	golangciVersion = "v2.15.0"

	rolegenModule = "github.com/rolegen/rolegen"
	pluginImport  = rolegenModule + "/analyzer/gclplugin"

	// recipe names the steps of buildCustom; change it when they change,
	// so that binaries built the old way are not taken for current.
	recipe = "custom-path-1"
)

// customBinary returns a golangci-lint built with rolegen's plugin from
// the checkout at root, building it when the binary in the user's cache
// directory is not current. Its name carries a digest of all it is built
// from: golangci-lint's version, the go command's version and platform,
// the recipe, and the sources of rolegen that go into the plugin, with
// rolegen's go.mod and go.sum. Editing anything else in the checkout (a
// README, a test, the runtime) leaves it current.
func customBinary(t *testing.T, ctx context.Context, root string) string {
	t.Helper()
	key := buildKey(t, ctx, root)
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "rolegen")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	const prefix = "golangci-lint-custom-"
	bin := filepath.Join(dir, prefix+golangciVersion+"-"+key)
	if _, err := os.Stat(bin); err == nil {
		t.Logf("golangci-lint with rolegen's plugin is current: %s", bin)
		return bin
	}
	t.Logf("building golangci-lint %s with rolegen's plugin from %s (minutes on a cold cache)", golangciVersion, root)
	tmp := bin + ".tmp" + fmt.Sprint(os.Getpid())
	buildCustom(t, ctx, root, tmp)
	// The rename is atomic: two test runs building at once both build,
	// and each takes a whole binary.
	require.NoError(t, os.Rename(tmp, bin))
	stale, _ := filepath.Glob(filepath.Join(dir, prefix+"*"))
	for _, s := range stale {
		if s != bin && !strings.Contains(filepath.Base(s), ".tmp") {
			_ = os.Remove(s)
		}
	}
	return bin
}

// buildCustom builds golangci-lint as golangci-lint custom does for a
// plugin given by path (pkg/commands/internal/builder.go): golangci-lint's
// source at the version, an import of the plugin in
// cmd/golangci-lint/plugins.go, a replace of the plugin's module by the
// local checkout, go mod tidy, go build ./cmd/golangci-lint. custom clones
// golangci-lint's repository; the same source comes here from the module
// proxy, which is all the go command needs to reach. Unlike the tests
// that build temporary modules of rolegen (internal/testmodule), this one
// runs go mod tidy because custom does: what it proves is that a user's
// custom build works.
func buildCustom(t *testing.T, ctx context.Context, root, out string) {
	t.Helper()
	var mod struct{ Dir, Error string }
	data := goCmd(t, ctx, "", "mod", "download", "-json", golangciModule+"@"+golangciVersion)
	require.NoError(t, json.Unmarshal(data, &mod), "%s", data)
	require.Empty(t, mod.Error)
	src := filepath.Join(t.TempDir(), "golangci-lint")
	require.NoError(t, copyTree(mod.Dir, src))
	plugins := fmt.Sprintf("package main\n\nimport (\n\t_ %q\n)\n", pluginImport)
	require.NoError(t, os.WriteFile(filepath.Join(src, "cmd", "golangci-lint", "plugins.go"), []byte(plugins), 0o644))
	goCmd(t, ctx, src, "mod", "edit", "-replace", rolegenModule+"="+root)
	goCmd(t, ctx, src, "mod", "tidy")
	version := strings.TrimPrefix(golangciVersion, "v") + "-custom-gcl-rolegen"
	// -trimpath, which custom does not use, keeps the build cache's
	// entries for golangci-lint's own packages independent of the
	// temporary directory: a rebuild after a change to rolegen compiles
	// rolegen's packages and links.
	goCmd(t, ctx, src, "build", "-trimpath", "-ldflags", "-s -w -X main.version="+version, "-o", out, "./cmd/golangci-lint")
}

// buildKey is the digest that names a current binary.
func buildKey(t *testing.T, ctx context.Context, root string) string {
	t.Helper()
	h := sha256.New()
	goVersion := strings.TrimSpace(string(goCmd(t, ctx, root, "env", "GOVERSION")))
	fmt.Fprintf(h, "%s@%s\n%s %s/%s\n%s\n", golangciModule, golangciVersion, goVersion, runtime.GOOS, runtime.GOARCH, recipe)
	files := append([]string{filepath.Join(root, "go.mod"), filepath.Join(root, "go.sum")}, pluginSources(t, ctx, root)...)
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		rel, err := filepath.Rel(root, f)
		require.NoError(t, err)
		fmt.Fprintf(h, "%s %x\n", filepath.ToSlash(rel), sha256.Sum256(data))
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// pluginSources lists the files of rolegen's module that the plugin's
// packages are built from, sorted.
func pluginSources(t *testing.T, ctx context.Context, root string) []string {
	t.Helper()
	format := `{{if and .Module (eq .Module.Path "` + rolegenModule + `")}}{{$d := .Dir}}` +
		`{{range .GoFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}{{range .EmbedFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}{{end}}`
	out := goCmd(t, ctx, root, "list", "-deps", "-f", format, "./analyzer/gclplugin")
	var files []string
	for _, line := range strings.Split(string(out), "\n") {
		if line != "" {
			files = append(files, filepath.FromSlash(line))
		}
	}
	require.NotEmpty(t, files)
	slices.Sort(files)
	return files
}

// goCmd runs the go command in dir, outside any workspace, and returns
// its standard output.
func goCmd(t *testing.T, ctx context.Context, dir string, args ...string) []byte {
	t.Helper()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			t.Fatalf("go %s: %v: stopped before go test's -timeout; building golangci-lint takes minutes the first time (go test -timeout 30m ./...), and is then cached", strings.Join(args, " "), ctx.Err())
		}
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.Bytes()
}

// copyTree copies the regular files under from (the module cache's
// read-only copy) into to, writable.
func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		target := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		outFile, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
		if err != nil {
			return err
		}
		if _, err := io.Copy(outFile, in); err != nil {
			outFile.Close()
			return err
		}
		return outFile.Close()
	})
}
