//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris

package llm

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

const lockOp = "flock"

// tryLock takes an exclusive flock(2) on f without waiting: errLocked when
// another open file holds it. The lock belongs to f's open file
// description: another open of the file, in this process or another,
// conflicts with it; it ends when f is closed or the process dies. Go
// opens files close-on-exec, so a child process does not keep it.
func tryLock(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var lerr error
	if err := rc.Control(func(fd uintptr) {
		for {
			lerr = unix.Flock(int(fd), unix.LOCK_EX|unix.LOCK_NB)
			if lerr != unix.EINTR {
				return
			}
		}
	}); err != nil {
		return err
	}
	if errors.Is(lerr, unix.EWOULDBLOCK) {
		return errLocked
	}
	return lerr
}
