//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || windows)

package llm

import (
	"io"
	"path/filepath"
)

// processLocks holds the run locks of every FileStore of the process on
// systems without an advisory file lock.
var processLocks keyLocks

// lockFile, on a system without flock or LockFileEx, locks path within
// this process only: errLocked when a runner of this process holds it.
func lockFile(path string) (io.Closer, error) {
	key, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if !processLocks.tryLock(key) {
		return nil, errLocked
	}
	return keyUnlocker(key), nil
}

type keyUnlocker string

func (k keyUnlocker) Close() error {
	processLocks.unlock(string(k))
	return nil
}
