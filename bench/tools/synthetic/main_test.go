package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"write"}, {"write", "a", "b"}, {"bench"}} {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, 2, run(t.Context(), args, &stdout, &stderr), "%q", args)
		assert.Contains(t, stderr.String(), "usage:", "%q", args)
		assert.Empty(t, stdout.String())
	}
}

// write refuses a directory that holds anything, before it generates.
func TestWriteKeepsWhatIsThere(t *testing.T) {
	dir := t.TempDir()
	mine := filepath.Join(dir, "mine.txt")
	assert.NoError(t, os.WriteFile(mine, []byte("keep"), 0o644))
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 1, run(t.Context(), []string{"write", dir}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "is not empty")
	entries, err := os.ReadDir(dir)
	assert.NoError(t, err)
	assert.Len(t, entries, 1)
}
