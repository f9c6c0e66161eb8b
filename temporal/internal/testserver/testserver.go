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
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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

// Binary builds the dev server (if it is not built and current) and
// returns its path. The build of the server's packages takes minutes on
// a cold cache and lands in the go command's build cache; the binary is
// kept in the user's cache directory, and go build relinks it only when
// its sources or dependencies changed.
func Binary(ctx context.Context) (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", errors.New("testserver: cannot find the dev server's sources")
	}
	src := filepath.Join(filepath.Dir(file), "..", "devserver")
	if _, err := os.Stat(filepath.Join(src, "go.mod")); err != nil {
		return "", fmt.Errorf("testserver: the dev server's sources are not at %s: %w", src, err)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "rolegen")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "temporal-devserver")
	unlock, err := lockFile(bin + ".lock")
	if err != nil {
		return "", err
	}
	defer unlock()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("testserver: building the dev server: %w\n%s", err, out)
	}
	return bin, nil
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
