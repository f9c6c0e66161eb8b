package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"

	"github.com/rolegen/rolegen/gen"
	"github.com/rolegen/rolegen/internal/diag"
	"github.com/rolegen/rolegen/internal/graph"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Exit codes.
const (
	exitOK    = 0
	exitDiag  = 1 // diagnostics, failed load, or -check found stale files
	exitUsage = 2
)

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "graph" {
		return runGraph(ctx, args[1:], stdout, stderr)
	}
	fs := flagSet("rolegen", stderr, generateUsage, "      "+graphUsage[len("usage:"):])
	checkOnly := fs.Bool("check", false, "write nothing; exit 1 when a generated file is missing or out of date")
	verbose := fs.Bool("v", false, "print the files written")
	patterns, wd, code := setUp(fs, args, stderr)
	if code >= 0 {
		return code
	}
	files, err := gen.Generate(ctx, gen.Options{Dir: wd}, patterns...)
	if err != nil {
		return report(stderr, wd, err)
	}
	if *checkOnly {
		return check(stderr, wd, files)
	}
	changed, err := gen.Write(files)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitDiag
	}
	if *verbose {
		for _, p := range changed {
			fmt.Fprintln(stdout, diag.RelPath(wd, p))
		}
	}
	return exitOK
}

// check prints the generated files that are missing, out of date or no
// longer generated, and exits 1 when there is any.
func check(stderr io.Writer, wd string, files []gen.File) int {
	stale := gen.Stale(files)
	for _, f := range files {
		if !slices.Contains(stale, f.Path) {
			continue
		}
		name := diag.RelPath(wd, f.Path)
		switch _, err := os.Stat(f.Path); {
		case f.Delete:
			fmt.Fprintf(stderr, "%s: no role generates it any more; run go generate to remove it\n", name)
		case errors.Is(err, os.ErrNotExist):
			fmt.Fprintf(stderr, "%s: missing; run go generate\n", name)
		default:
			fmt.Fprintf(stderr, "%s: out of date; run go generate\n", name)
		}
	}
	if len(stale) > 0 {
		return exitDiag
	}
	return exitOK
}

// The synopses of the command's two forms.
const (
	generateUsage = "usage: rolegen [-check] [-v] [packages]"
	graphUsage    = "usage: rolegen graph [-format dot|mermaid] [-view goals|fields|full] [-role R] [packages]"
)

// flagSet returns the flags of a form of the command, which print their
// errors and, for -h or a usage error, the synopses and the flags to
// stderr.
func flagSet(name string, stderr io.Writer, synopses ...string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		for _, s := range synopses {
			fmt.Fprintln(stderr, s)
		}
		fs.PrintDefaults()
	}
	return fs
}

// setUp parses args with fs and finds the working directory: it returns
// the packages and the directory, and code -1, or the exit status when
// the run ends here (-h, a usage error, no working directory).
func setUp(fs *flag.FlagSet, args []string, stderr io.Writer) (patterns []string, wd string, code int) {
	patterns, err := parse(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return nil, "", exitOK
	}
	if err != nil {
		return nil, "", exitUsage
	}
	if wd, err = os.Getwd(); err != nil {
		fmt.Fprintln(stderr, "rolegen:", err)
		return nil, "", exitDiag
	}
	return patterns, wd, -1
}

// parse parses the flags of fs and returns the packages. Flags may come
// after packages too, as go's own commands take them (rolegen graph
// ./pkg -format dot); after "--" every argument is a package.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var packages []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(packages, rest...), nil
		}
		if len(rest) == 0 {
			return packages, nil
		}
		packages = append(packages, rest[0])
		args = rest[1:]
	}
}

// report prints an error: diagnostics one a line, their files relative to
// dir.
func report(stderr io.Writer, dir string, err error) int {
	ge, ok := errors.AsType[*gen.Error](err)
	if !ok {
		fmt.Fprintln(stderr, err)
		return exitDiag
	}
	for _, d := range ge.Diagnostics {
		fmt.Fprintln(stderr, d.Format(dir))
	}
	return exitDiag
}

func runGraph(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flagSet("rolegen graph", stderr, graphUsage)
	format := fs.String("format", "dot", "output format: dot or mermaid")
	role := fs.String("role", "", "draw only the role with this name")
	view := fs.String("view", "fields", "what to draw besides fulfills edges: goals (nothing), fields (state fields between their writers and readers) or full (every write-read edge)")
	patterns, wd, code := setUp(fs, args, stderr)
	if code >= 0 {
		return code
	}
	if _, err := graph.ParseFormat(*format); err != nil {
		fmt.Fprintln(stderr, "rolegen graph:", err)
		return exitUsage
	}
	if _, err := graph.ParseView(*view); err != nil {
		fmt.Fprintln(stderr, "rolegen graph:", err)
		return exitUsage
	}
	g := gen.GraphOptions{Format: *format, Role: *role, View: *view}
	if err := gen.WriteGraphs(ctx, gen.Options{Dir: wd}, stdout, g, patterns...); err != nil {
		return report(stderr, wd, err)
	}
	return exitOK
}
