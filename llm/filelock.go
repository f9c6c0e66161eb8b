//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || windows

package llm

import (
	"errors"
	"io"
	"io/fs"
	"os"
)

// lockFile opens (creating it if needed) the file at path and takes an
// exclusive lock on it without waiting: errLocked when another open file
// holds it, else an error naming path. Closing the returned file releases
// the lock.
//
// The file locked must still be the one at path: a file removed (or
// replaced) between the open and the lock is a lock on nothing, which a
// runner locking the new file would not see; then it starts over.
func lockFile(path string) (io.Closer, error) {
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, err
		}
		if err := tryLock(f); err != nil {
			_ = f.Close()
			if err != errLocked {
				err = &fs.PathError{Op: lockOp, Path: path, Err: err}
			}
			return nil, err
		}
		locked, err := f.Stat()
		if err != nil {
			_ = f.Close()
			return nil, err
		}
		now, err := os.Stat(path)
		if err == nil && os.SameFile(locked, now) {
			return f, nil
		}
		_ = f.Close()
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
}
