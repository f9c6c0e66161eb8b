// Package pddl reads the files of the anchor problems for Fast Downward
// under bench/testdata/pddl: the plans Fast Downward wrote, and the
// problem files the tests render from the roles and compare with the
// committed ones. bench's tests and those of the synthetic families
// (../synthetic, for blocksworld) share it.
package pddl

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// CheckGolden compares got with the file at path, or, with update,
// rewrites the file first.
func CheckGolden(t *testing.T, path, got string, update bool) {
	t.Helper()
	if update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(want), got, "%s is out of date: run the test with -update", path)
}

// ReadPlan reads a plan as Fast Downward writes it (sas_plan: one
// "(action arg ...)" a line, then a "; cost = N (unit cost)" comment):
// the steps, each its action's name and arguments.
func ReadPlan(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var steps [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, ";") {
			continue
		}
		require.True(t, strings.HasPrefix(line, "(") && strings.HasSuffix(line, ")"), line)
		steps = append(steps, strings.Fields(line[1:len(line)-1]))
	}
	require.NoError(t, sc.Err())
	return steps
}
