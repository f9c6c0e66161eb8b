// Synthetic writes the module of bench's synthetic role families
// (internal/synthetic: the roles generators write, which are not
// committed) and runs go test in it, or keeps it in a directory:
//
//	go run ./tools/synthetic test [go test flags]   # in bench: a temporary module, removed after
//	go run ./tools/synthetic write DIR              # the module in DIR, kept
//
// test runs go test with the flags given on the module's root package,
// which holds the families' tests and benchmarks, and exits as go test
// does: `go run ./tools/synthetic test -run '^$' -bench . -benchmem`
// runs their benchmarks. In a kept module, go test and
// tools/instructions.sh -C DIR run as in bench itself.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/rolegen/rolegen/bench/internal/synthetic"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

const usage = `usage: go run ./tools/synthetic test [go test flags]
       go run ./tools/synthetic write DIR
(in the bench module)`

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "write" && len(args) != 2 || args[0] != "write" && args[0] != "test" {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	bench, err := benchDir(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "synthetic:", err)
		return 1
	}
	// The go command that rolegen runs to load the roles runs as the go
	// commands in the module do.
	for _, kv := range synthetic.Environ {
		k, v, _ := strings.Cut(kv, "=")
		os.Setenv(k, v)
	}
	if args[0] == "write" {
		if err := synthetic.Write(ctx, args[1], bench); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		return 0
	}
	dir, err := os.MkdirTemp("", "synthetic")
	if err != nil {
		fmt.Fprintln(stderr, "synthetic:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	if err := synthetic.Write(ctx, dir, bench); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	cmd := synthetic.Command(ctx, dir, append(append([]string{"test"}, args[1:]...), ".")...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	var exit *exec.ExitError
	switch err := cmd.Run(); {
	case errors.As(err, &exit):
		return exit.ExitCode()
	case err != nil:
		fmt.Fprintln(stderr, "synthetic:", err)
		return 1
	}
	return 0
}

// benchDir returns the directory of the bench module, which the current
// directory is in.
func benchDir(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	src, err := os.ReadFile(gomod)
	if err != nil || modfile.ModulePath(src) != synthetic.Bench {
		return "", fmt.Errorf("run in the bench module (%s), not in %q", synthetic.Bench, gomod)
	}
	return filepath.Dir(gomod), nil
}
