package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

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
	fs := flag.NewFlagSet("rolegen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	checkOnly := fs.Bool("check", false, "write nothing; exit 1 when a generated file is missing or out of date")
	verbose := fs.Bool("v", false, "print the files written")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: rolegen [-check] [-v] [packages]")
		fmt.Fprintln(stderr, "       rolegen graph [-format dot|mermaid] [-role R] [packages]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(stderr, "rolegen:", err)
		return exitDiag
	}
	files, err := gen.Generate(ctx, gen.Options{Dir: wd}, fs.Args()...)
	if err != nil {
		return report(stderr, wd, err)
	}
	if *checkOnly {
		stale := gen.Stale(files)
		for _, p := range stale {
			fmt.Fprintf(stderr, "%s: out of date; run go generate\n", diag.RelPath(wd, p))
		}
		if len(stale) > 0 {
			return exitDiag
		}
		return exitOK
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

// report prints an error: diagnostics one a line, relative to dir.
func report(stderr io.Writer, dir string, err error) int {
	if de, ok := errors.AsType[*diag.Error](err); ok {
		de.Dir = dir
	}
	fmt.Fprintln(stderr, err)
	return exitDiag
}

func runGraph(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rolegen graph", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "dot", "output format: dot or mermaid")
	role := fs.String("role", "", "draw only the role with this name")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: rolegen graph [-format dot|mermaid] [-role R] [packages]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if _, err := graph.ParseFormat(*format); err != nil {
		fmt.Fprintln(stderr, "rolegen graph:", err)
		return exitUsage
	}
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(stderr, "rolegen:", err)
		return exitDiag
	}
	if err := gen.WriteGraphs(ctx, gen.Options{Dir: wd}, stdout, *format, *role, fs.Args()...); err != nil {
		return report(stderr, wd, err)
	}
	return exitOK
}
