//go:build unix

package testserver

import (
	"os"
	"os/exec"
	"syscall"
)

// lockFile holds an exclusive lock on path until unlock: two test
// binaries building the dev server at once build it one after the other.
func lockFile(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
}

// setParentDeath asks Linux to kill the server when its parent dies;
// elsewhere the server stops when its standard input closes.
func setParentDeath(cmd *exec.Cmd) { setPdeathsig(cmd) }
