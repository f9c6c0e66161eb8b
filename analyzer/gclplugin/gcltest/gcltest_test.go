package gcltest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// soldier is the README's role, line for line.
const soldier = `package soldier

//go:generate go tool rolegen

// Soldier stays armed.
type Soldier struct {
	Ammo      int ` + "`" + `plan:"state"` + "`" + `
	Magazines int ` + "`" + `plan:"state"` + "`" + `

	// Armed means enough ammunition to fight.
	Armed struct{} ` + "`" + `plan:"goal=Ammo > 10; priority=high"` + "`" + `
}

// FetchMagazine picks up a magazine.
//
//plan:action post="Magazines = Magazines + 1"
func (s *Soldier) FetchMagazine() { s.Magazines++ }

// Reload loads a magazine.
//
//plan:action pre="Magazines > 0" post="Ammo = 30, Magazines = Magazines - 1" fulfills=Armed cost=2
func (s *Soldier) Reload() { s.Ammo = 30; s.Magazines-- }
`

// use is code of the soldier's package that uses the generated names:
// until the first go generate, the package does not compile.
const use = `package soldier

import (
	"context"

	"github.com/rolegen/rolegen/runtime"
)

// Plan plans for s.
func Plan(ctx context.Context, s *Soldier) (runtime.Plan, error) {
	return runtime.NewBackwardChainer(SoldierDomain).Plan(ctx, s.PlanState())
}
`

// medic and ward: a role embedding a role of another package, whose
// mistakes rolegen reports in both packages.
const medic = `package medic

// Medic heals; roles of other packages embed it.
type Medic struct {
	Hp int ` + "`" + `plan:"state"` + "`" + `
}

// Patch patches.
//
//plan:action pre="Hp < 10" post="Hp = 10"
func (m *Medic) Patch() { m.Hp = 10 }
`

const ward = `package ward

import "example.com/lint/medic"

// Ward keeps its medic busy.
type Ward struct {
	medic.Medic
	Beds int ` + "`" + `plan:"state"` + "`" + `

	// Healed: the medic's patient is well.
	Healed struct{} ` + "`" + `plan:"goal=Hp >= 10"` + "`" + `
}
`

// mistakes are the README's four mistakes in the soldier, and one in the
// medic.
var mistakes = map[string][][2]string{
	"soldier/soldier.go": {
		{`goal=Ammo > 10`, `goal=Amo > 10`},
		{`pre="Magazines > 0"`, `pre="Magazine > 0"`},
		{`fulfills=Armed cost=2`, `fulfills=Armd cost=0`},
	},
	"medic/medic.go": {{`pre="Hp < 10"`, `pre="Hpp < 10"`}},
}

// readme is what the README says rolegen prints for its four mistakes.
var readme = []string{
	`soldier/soldier.go:11:29: unknown state field "Amo" (did you mean "Ammo"?)`,
	`soldier/soldier.go:21:20: unknown state field "Magazine" (did you mean "Magazines"?)`,
	`soldier/soldier.go:21:87: unknown goal "Armd" in fulfills (did you mean "Armed"?)`,
	`soldier/soldier.go:21:97: cost must be greater than 0, not 0`,
}

// golangciYML is the README's .golangci.yml.
const golangciYML = `version: "2"
linters:
  enable:
    - rolegen
  settings:
    custom:
      rolegen:
        type: module
        description: checks rolegen annotations
issues:
  uniq-by-line: false
`

// A golangci-lint built with rolegen's plugin, with the README's
// configuration, reports every diagnostic rolegen reports, at its line and
// column. Before the first go generate, the soldier's package does not
// compile: run with golangci-lint's standard linters, which need types,
// golangci-lint reports only the compiler's error there and none of
// rolegen's; run alone (--enable-only rolegen), rolegen reports them all.
// After go generate, both runs report them all.
//
// Its first run builds golangci-lint, which takes minutes (more than go
// test's default -timeout of 10 minutes on a busy machine: go test
// -timeout 30m ./... then).
func TestGolangciLintReportsWhatRolegenReports(t *testing.T) {
	if testing.Short() {
		t.Skip("builds golangci-lint")
	}
	ctx := context.Background()
	if deadline, ok := t.Deadline(); ok {
		// Stop the build (and say why) before go test's -timeout does.
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline.Add(-30*time.Second))
		defer cancel()
	}
	root := checkout(t)
	bin := customBinary(t, ctx, root)

	dir := t.TempDir()
	lintModule(t, ctx, dir, root)
	correct := map[string]string{
		"soldier/soldier.go": soldier,
		"soldier/use.go":     use,
		"medic/medic.go":     medic,
		"ward/ward.go":       ward,
		".golangci.yml":      golangciYML,
	}
	writeFiles(t, dir, withMistakes(t, correct))

	t.Run("before the first go generate", func(t *testing.T) {
		want := rolegen(t, ctx, dir, false)
		require.Subset(t, want, readme)
		require.True(t, slices.ContainsFunc(want, func(l string) bool {
			return strings.HasPrefix(l, "ward/ward.go:") && strings.Contains(l, "of embedded medic.Medic")
		}), "rolegen reports the medic's mistake where the ward embeds it: %q", want)

		alone := lint(t, ctx, bin, dir, "--enable-only", "rolegen")
		assert.Equal(t, want, alone.lines("rolegen"))
		assert.Empty(t, alone.lines("typecheck"))

		all := lint(t, ctx, bin, dir)
		// golangci-lint skips every analyzer on a package that does not
		// type-check, and says why: the soldier gets the compiler's error
		// and none of rolegen's. It also stops analysing the packages it
		// has not finished yet (medic and ward compile; whether their
		// issues come before the stop is a race): what it does report of
		// rolegen's is right.
		typecheck := all.lines("typecheck")
		require.NotEmpty(t, typecheck)
		for _, l := range typecheck {
			assert.True(t, strings.HasPrefix(l, "soldier/"), "%s", l)
		}
		assert.True(t, slices.ContainsFunc(typecheck, func(l string) bool { return strings.Contains(l, "PlanState undefined") }), "%q", typecheck)
		for _, l := range all.lines("rolegen") {
			assert.False(t, strings.HasPrefix(l, "soldier/"), "%s", l)
			assert.Contains(t, want, l)
		}
	})

	t.Run("after go generate", func(t *testing.T) {
		writeFiles(t, dir, correct)
		require.Empty(t, rolegen(t, ctx, dir, true))
		require.FileExists(t, filepath.Join(dir, "soldier", "soldier_plan.go"))
		writeFiles(t, dir, withMistakes(t, correct))
		want := rolegen(t, ctx, dir, false)
		require.Subset(t, want, readme)

		all := lint(t, ctx, bin, dir)
		assert.Empty(t, all.lines("typecheck"))
		assert.Equal(t, want, all.lines("rolegen"))

		alone := lint(t, ctx, bin, dir, "--enable-only", "rolegen")
		assert.Equal(t, want, alone.lines("rolegen"))
	})
}

// checkout is the root of the rolegen checkout this module is in.
func checkout(t *testing.T) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	require.True(t, ok)
	root, err := filepath.Abs(filepath.Join(filepath.Dir(file), "..", "..", ".."))
	require.NoError(t, err)
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(data, []byte("module "+rolegenModule+"\n")), "%s is rolegen's checkout", root)
	return root
}

func withMistakes(t *testing.T, files map[string]string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for name, src := range files {
		for _, m := range mistakes[name] {
			require.Contains(t, src, m[0])
			src = strings.Replace(src, m[0], m[1], 1)
		}
		out[name] = src
	}
	return out
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	}
}

// lintModule makes dir a module that requires this checkout of rolegen
// as a user's module does, with rolegen's own requirement list and go.sum
// (as rolegen's tests' temporary modules do, internal/testmodule): its
// module graph is rolegen's, so the go command needs no module that
// building rolegen does not.
func lintModule(t *testing.T, ctx context.Context, dir, root string) {
	t.Helper()
	for _, name := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(root, name))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	goCmd(t, ctx, dir, "mod", "edit", "-module", "example.com/lint",
		"-require", rolegenModule+"@v0.0.0", "-replace", rolegenModule+"="+root)
}

// rolegen runs the rolegen command on the module, as go tool rolegen
// ./... does in a user's module: with ok, it must succeed (and write the
// generated files); otherwise it must fail, and its diagnostics are
// returned as FILE:LINE:COL: message relative to dir, sorted.
func rolegen(t *testing.T, ctx context.Context, dir string, ok bool) []string {
	t.Helper()
	cmd := exec.CommandContext(ctx, "go", "run", rolegenModule+"/cmd/rolegen", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=readonly", "GOWORK=off")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ok {
		require.NoError(t, err, "rolegen:\n%s%s", stdout.String(), stderr.String())
		return nil
	}
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "rolegen fails on the mistakes: %v\n%s%s", err, stdout.String(), stderr.String())
	var lines []string
	for _, line := range strings.Split(stderr.String(), "\n") {
		if line == "" || strings.HasPrefix(line, "exit status ") {
			continue
		}
		require.Regexp(t, `^[^:]+\.go:\d+:\d+: `, line, "rolegen printed %q", line)
		lines = append(lines, filepath.ToSlash(line))
	}
	slices.Sort(lines)
	return lines
}

// report is golangci-lint's JSON output.
type report struct {
	Issues []struct {
		FromLinter string
		Text       string
		Pos        struct {
			Filename     string
			Line, Column int
		}
	}
	dir string
	t   *testing.T
}

// lines returns the issues of one linter as FILE:LINE:COL: message,
// sorted.
func (r *report) lines(linter string) []string {
	var out []string
	for _, is := range r.Issues {
		if is.FromLinter == linter {
			out = append(out, fmt.Sprintf("%s:%d:%d: %s", relTo(r.t, r.dir, is.Pos.Filename), is.Pos.Line, is.Pos.Column, is.Text))
		}
	}
	slices.Sort(out)
	return out
}

// lint runs golangci-lint on the module in dir with a cache of its own
// (golangci-lint caches a package's issues by its files), offline: the
// module's requirements are rolegen's, in the module cache already.
func lint(t *testing.T, ctx context.Context, bin, dir string, args ...string) *report {
	t.Helper()
	cmd := exec.CommandContext(ctx, bin, append([]string{"run", "--output.json.path=stdout", "--show-stats=false"}, append(args, "./...")...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOLANGCI_LINT_CACHE="+t.TempDir(), "GOPROXY=off")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		require.NoError(t, err, "golangci-lint %s:\n%s%s", strings.Join(args, " "), stdout.String(), stderr.String())
	}
	r := &report{dir: dir, t: t}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), r), "golangci-lint printed:\n%s\n%s", stdout.String(), stderr.String())
	return r
}

func relTo(t *testing.T, dir, path string) string {
	t.Helper()
	if !filepath.IsAbs(path) {
		return filepath.ToSlash(path)
	}
	r, err := filepath.Rel(dir, path)
	require.NoError(t, err)
	return filepath.ToSlash(r)
}
