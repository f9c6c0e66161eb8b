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
	"strings"

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
(in bench)`

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "write" && len(args) != 2 || args[0] != "write" && args[0] != "test" {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	// The go command that rolegen runs to load the roles runs as the go
	// commands in the module do.
	for _, kv := range synthetic.Environ {
		k, v, _ := strings.Cut(kv, "=")
		os.Setenv(k, v)
	}
	if args[0] == "write" {
		if err := synthetic.Write(ctx, args[1], "."); err != nil {
			fmt.Fprintln(stderr, "synthetic:", err)
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
	if err := synthetic.Write(ctx, dir, "."); err != nil {
		fmt.Fprintln(stderr, "synthetic:", err)
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
