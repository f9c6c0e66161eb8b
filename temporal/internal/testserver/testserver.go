// Package testserver starts a real Temporal server for rolegen's tests and
// examples: the all-in-one dev server of internal/devserver (frontend,
// history, matching and worker services over SQLite in memory, on
// loopback ports), built by the go command on first use and cached, so
// that a fresh machine needs no step by hand and later runs start in a
// second or two.
package testserver

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
)

// Server is a running dev server.
type Server struct {
	// Address is the frontend's host:port.
	Address string
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	exited  chan struct{}
}

// Binary builds the dev server (if no current build of it is cached) and
// returns its path. The build takes minutes on a cold cache (about six on
// two idle cores). The binary is kept in the user's cache directory, named
// by a digest of all it is built from: the dev server's sources, go.mod
// and go.sum (which pin every dependency), and the go command's version
// and platform. A binary of that name is current without asking the go
// command, so that a run with an empty build cache does not compile the
// server again to find it is current.
func Binary(ctx context.Context) (string, error) {
	bin, _, err := Build(ctx)
	return bin, err
}

// Build is Binary, and reports whether it built the binary (false: a
// current build was cached).
func Build(ctx context.Context) (bin string, built bool, err error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", false, errors.New("testserver: cannot find the dev server's sources")
	}
	src := filepath.Join(filepath.Dir(file), "..", "devserver")
	if _, err := os.Stat(filepath.Join(src, "go.mod")); err != nil {
		return "", false, fmt.Errorf("testserver: the dev server's sources are not at %s: %w", src, err)
	}
	key, err := buildKey(ctx, src)
	if err != nil {
		return "", false, err
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "rolegen")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", false, err
	}
	const prefix = "temporal-devserver-"
	bin = filepath.Join(dir, prefix+key)
	unlock, err := lockFile(filepath.Join(dir, "temporal-devserver.lock"))
	if err != nil {
		return "", false, err
	}
	defer unlock()
	if _, err := os.Stat(bin); err == nil {
		return bin, false, nil
	}
	tmp := bin + ".tmp"
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", tmp, ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", false, fmt.Errorf("testserver: building the dev server: %w\n%s", err, out)
	}
	if err := os.Rename(tmp, bin); err != nil {
		return "", false, err
	}
	// Builds of other sources are stale now.
	stale, _ := filepath.Glob(filepath.Join(dir, prefix+"*"))
	for _, s := range stale {
		if s != bin && !strings.HasSuffix(s, ".lock") {
			_ = os.Remove(s)
		}
	}
	return bin, true, nil
}

// buildKey is the digest that names a current build of the dev server in
// src.
func buildKey(ctx context.Context, src string) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOVERSION", "GOOS", "GOARCH").Output()
	if err != nil {
		return "", fmt.Errorf("testserver: go env: %w", err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", out)
	files, err := filepath.Glob(filepath.Join(src, "*.go"))
	if err != nil {
		return "", err
	}
	files = append(files, filepath.Join(src, "go.mod"), filepath.Join(src, "go.sum"))
	slices.Sort(files)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %x\n", filepath.Base(f), sha256.Sum256(data))
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// Start builds the dev server if needed and starts it with a new
// namespace "default" in memory; it returns once the frontend serves.
// Stop it with Stop; it also stops when the process that started it dies.
func Start(ctx context.Context, args ...string) (*Server, error) {
	bin, err := Binary(ctx)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	setParentDeath(cmd)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &Server{cmd: cmd, stdin: stdin, exited: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(s.exited) }()
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if addr, ok := strings.CutPrefix(sc.Text(), "ready "); ok {
				ready <- addr
			}
		}
		close(ready)
	}()
	timeout := time.NewTimer(2 * time.Minute)
	defer timeout.Stop()
	select {
	case addr, ok := <-ready:
		if ok {
			s.Address = addr
			return s, nil
		}
		s.Stop()
		return nil, errors.New("testserver: the dev server stopped before it was ready")
	case <-timeout.C:
		s.Stop()
		return nil, errors.New("testserver: the dev server was not ready within 2 minutes")
	case <-ctx.Done():
		s.Stop()
		return nil, ctx.Err()
	}
}

// Stop stops the server and waits for it to exit.
func (s *Server) Stop() {
	_ = s.stdin.Close()
	select {
	case <-s.exited:
		return
	case <-time.After(10 * time.Second):
	}
	_ = s.cmd.Process.Kill()
	<-s.exited
}
