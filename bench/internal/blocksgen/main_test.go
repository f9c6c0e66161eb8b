package main

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The committed roles are what blocksgen writes now.
func TestCommittedRolesAreCurrent(t *testing.T) {
	for _, c := range []struct {
		n   int
		pkg string
	}{{6, "blocks6"}, {8, "blocks8"}} {
		want, err := generate(c.n, c.pkg)
		require.NoError(t, err)
		got, err := os.ReadFile("../" + c.pkg + "/blocks.go")
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), "%s/blocks.go is stale: run go generate ./... in bench", c.pkg)
	}
}

func TestSizes(t *testing.T) {
	for _, c := range []struct{ n, facts, actions int }{{6, 49, 72}, {8, 81, 128}} {
		src, err := generate(c.n, "p")
		require.NoError(t, err)
		s := string(src)
		assert.Equal(t, c.facts, strings.Count(s, "`plan:\"state\"`"), "facts for %d blocks", c.n)
		assert.Equal(t, c.actions, strings.Count(s, "//plan:action "), "actions for %d blocks", c.n)
	}
}
