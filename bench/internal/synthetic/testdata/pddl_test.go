package synthetic

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/bench/internal/pddl"
	"github.com/rolegen/rolegen/bench/internal/plancase"
	"github.com/rolegen/rolegen/bench/synthetic/blocks8"
	"github.com/rolegen/rolegen/runtime"
)

var update = flag.Bool("update", false, "rewrite bench's testdata/pddl/blocks8/problem.pddl from the role")

// Fast Downward's blocksworld anchor (bench/testdata/pddl/blocks8; bench's
// pddl_test.go says how the anchor files are made and checked).

// blocksAtom is the PDDL atom of a blocksgen fact field: OnAB is (on a b),
// OnTableA (ontable a), ClearA (clear a), HoldingA (holding a).
func blocksAtom(t *testing.T, field string) string {
	t.Helper()
	for _, p := range []string{"OnTable", "Clear", "Holding"} {
		if b, ok := strings.CutPrefix(field, p); ok && len(b) == 1 {
			return "(" + strings.ToLower(p+" "+b) + ")"
		}
	}
	if field == "HandEmpty" {
		return "(handempty)"
	}
	b, ok := strings.CutPrefix(field, "On")
	require.True(t, ok && len(b) == 2, "not a blocksgen fact: %s", field)
	return "(on " + strings.ToLower(b[:1]+" "+b[1:]) + ")"
}

// blocks8Problem renders blocks8's start state and Solved goal as a PDDL
// problem.
func blocks8Problem(t *testing.T) string {
	d := blocks8.WorldDomain
	var b strings.Builder
	b.WriteString("; Generated from bench's synthetic role blocks8 (internal/blocksgen) by TestPDDLBlocks8; do not edit.\n")
	b.WriteString("; The tower A on B on ... on H reversed, as BenchmarkPlan/blocksworld8 plans it.\n")
	b.WriteString("(define (problem blocks8)\n  (:domain blocksworld)\n  (:objects a b c d e f g h)\n  (:init")
	s := blocks8.Start
	for i, f := range d.Fields {
		if d.Number(&s, runtime.FieldID(i)) != 0 {
			b.WriteString("\n    " + blocksAtom(t, f.Name))
		}
	}
	b.WriteString(")\n  (:goal (and")
	for conj := range strings.SplitSeq(d.Goals[blocks8.WorldGoalSolved].CondText, " && ") {
		b.WriteString("\n    " + blocksAtom(t, conj))
	}
	b.WriteString(")))\n")
	return b.String()
}

func TestPDDLBlocks8(t *testing.T) {
	dir := filepath.Join(benchDir, "testdata", "pddl", "blocks8")
	pddl.CheckGolden(t, filepath.Join(dir, "problem.pddl"), blocks8Problem(t), *update)

	// Fast Downward's plan is a plan of the role, as short as rolegen's.
	names := map[string]string{"pick-up": "Pickup", "put-down": "Putdown", "stack": "Stack", "unstack": "Unstack"}
	var theirs []string
	for _, step := range pddl.ReadPlan(t, filepath.Join(dir, "sas_plan")) {
		name := names[step[0]]
		require.NotEmpty(t, name, step[0])
		theirs = append(theirs, name+strings.ToUpper(strings.Join(step[1:], "")))
	}
	d := blocks8.WorldDomain
	end, err := d.Simulate(blocks8.Start, plancase.ActionIDs(t, d, theirs...))
	require.NoError(t, err)
	assert.True(t, d.Goals[blocks8.WorldGoalSolved].Cond(end))
	p := plancase.Check(t, blocks8Case())
	assert.Len(t, theirs, len(p.Steps))
}
