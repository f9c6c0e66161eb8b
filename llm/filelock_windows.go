//go:build windows

package llm

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

const lockOp = "LockFileEx"

// tryLock takes an exclusive LockFileEx lock on all of f without waiting:
// errLocked when another handle holds it.
// The lock belongs to f's handle: another handle on the file, in this
// process or another, conflicts with it; it ends when f is closed or the
// process dies.
func tryLock(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var lerr error
	if err := rc.Control(func(h uintptr) {
		var ol windows.Overlapped
		lerr = windows.LockFileEx(windows.Handle(h),
			windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY,
			0, ^uint32(0), ^uint32(0), &ol)
	}); err != nil {
		return err
	}
	if errors.Is(lerr, windows.ERROR_LOCK_VIOLATION) {
		return errLocked
	}
	return lerr
}
