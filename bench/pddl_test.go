package bench

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/bench/internal/blocks8"
	"github.com/rolegen/rolegen/bench/internal/goapdeep"
	"github.com/rolegen/rolegen/runtime"
)

var update = flag.Bool("update", false, "rewrite the PDDL problem files under testdata/pddl from the roles")

// The PDDL files under testdata/pddl are the anchor problems for Fast
// Downward (BENCHMARKS.md, "Anchors"). The domains are written by hand;
// the problems are rendered here from the roles, so that they cannot
// drift from what rolegen plans, and compared with the committed files
// (go test -run TestPDDL -update rewrites them). Each folder also holds
// the plan Fast Downward found (sas_plan, as it writes it), which the
// tests run in the role.

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
	b.WriteString("; Generated from bench/internal/blocks8 by TestPDDL; do not edit.\n")
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

// deepValues are the values hunger, food and fatigue take in the deep
// problem: multiples of 5 from 0 to 100 (kelindar/goap clamps to 0..100).
func deepValues() []int {
	var vs []int
	for v := 0; v <= 100; v += 5 {
		vs = append(vs, v)
	}
	return vs
}

// goapdeepProblem renders the deep problem: the start state and, for each
// action, the table of how it moves each value, from kelindarDeep (the
// clamped semantics, which TestGoapDeepMatchesClampedSemantics checks
// against the role). Each action's change to one field depends only on
// that field, and its precondition reads one field, so the tables are
// per field: a value an action cannot start from is not in its table.
func goapdeepProblem() string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("; Generated from bench/internal/goapdeep by TestPDDL; do not edit.\n")
	p("; kelindar/goap's deep: hunger 80, no food, not tired; more than 80 food.\n")
	p("(define (problem goapdeep)\n  (:domain goapdeep)\n  (:objects")
	for _, v := range deepValues() {
		p(" n%d", v)
	}
	p(" - num)\n  (:init\n")
	s := goapdeep.Start
	p("    (hunger n%d) (food n%d) (tired n%d)\n", s.Hunger, s.Food, s.Tired)
	type table struct {
		name   string
		action runtime.ActionID
		// state puts v in the field, the others where the action's
		// precondition does not depend on them; field reads the field.
		state func(v int) goapdeep.ForagerState
		field func(goapdeep.ForagerState) int
	}
	hunger := func(s goapdeep.ForagerState) int { return s.Hunger }
	food := func(s goapdeep.ForagerState) int { return s.Food }
	tired := func(s goapdeep.ForagerState) int { return s.Tired }
	for _, tb := range []table{
		{"eat-hunger", goapdeep.ForagerEat, func(v int) goapdeep.ForagerState { return goapdeep.ForagerState{Hunger: v, Food: 5} }, hunger},
		{"eat-food", goapdeep.ForagerEat, func(v int) goapdeep.ForagerState { return goapdeep.ForagerState{Food: v} }, food},
		{"forage-hunger", goapdeep.ForagerForage, func(v int) goapdeep.ForagerState { return goapdeep.ForagerState{Hunger: v} }, hunger},
		{"forage-food", goapdeep.ForagerForage, func(v int) goapdeep.ForagerState { return goapdeep.ForagerState{Food: v} }, food},
		{"forage-tired", goapdeep.ForagerForage, func(v int) goapdeep.ForagerState { return goapdeep.ForagerState{Tired: v} }, tired},
		{"sleep-tired", goapdeep.ForagerSleep, func(v int) goapdeep.ForagerState { return goapdeep.ForagerState{Tired: v} }, tired},
	} {
		p("   ")
		for _, v := range deepValues() {
			if next, ok := kelindarDeep(tb.state(v), tb.action); ok {
				p(" (%s n%d n%d)", tb.name, v, tb.field(next))
			}
		}
		p("\n")
	}
	stocked := goapdeep.ForagerDomain.Goals[goapdeep.ForagerGoalStocked].Cond
	for _, rich := range []bool{true, false} {
		p("   ")
		for _, v := range deepValues() {
			if stocked(goapdeep.ForagerState{Food: v}) == rich {
				p(" (%s n%d)", map[bool]string{true: "rich", false: "poor"}[rich], v)
			}
		}
		p("\n")
	}
	p("  )\n  (:goal (stocked)))\n")
	return b.String()
}

// checkGolden compares got with the file at path, or rewrites the file
// with -update.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(want), got, "%s is out of date: go test -run TestPDDL -update", path)
}

// readPlan reads a plan as Fast Downward writes it (sas_plan: one
// "(action arg ...)" a line, then a "; cost = N (unit cost)" comment).
func readPlan(t *testing.T, path string) [][]string {
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

func TestPDDLBlocks8(t *testing.T) {
	dir := filepath.Join("testdata", "pddl", "blocks8")
	checkGolden(t, filepath.Join(dir, "problem.pddl"), blocks8Problem(t))

	// Fast Downward's plan is a plan of the role, as short as rolegen's.
	names := map[string]string{"pick-up": "Pickup", "put-down": "Putdown", "stack": "Stack", "unstack": "Unstack"}
	var theirs []string
	for _, step := range readPlan(t, filepath.Join(dir, "sas_plan")) {
		name := names[step[0]]
		require.NotEmpty(t, name, step[0])
		theirs = append(theirs, name+strings.ToUpper(strings.Join(step[1:], "")))
	}
	d := blocks8.WorldDomain
	end, err := d.Simulate(blocks8.Start, actionIDs(t, d, theirs...))
	require.NoError(t, err)
	assert.True(t, d.Goals[blocks8.WorldGoalSolved].Cond(end))
	p := checkPlan(t, blocks8Case())
	assert.Len(t, theirs, len(p.Steps))
}

func TestPDDLGoapDeep(t *testing.T) {
	dir := filepath.Join("testdata", "pddl", "goapdeep")
	checkGolden(t, filepath.Join(dir, "problem.pddl"), goapdeepProblem())

	// Fast Downward's plan, its numbers dropped, is a plan of the role,
	// as short as rolegen's.
	names := map[string]string{"eat": "Eat", "forage": "Forage", "forage-stocked": "Forage", "sleep": "Sleep"}
	var theirs []string
	for _, step := range readPlan(t, filepath.Join(dir, "sas_plan")) {
		name := names[step[0]]
		require.NotEmpty(t, name, step[0])
		theirs = append(theirs, name)
	}
	d := goapdeep.ForagerDomain
	end, err := d.Simulate(goapdeep.Start, actionIDs(t, d, theirs...))
	require.NoError(t, err)
	assert.True(t, d.Goals[goapdeep.ForagerGoalStocked].Cond(end))
	p := checkPlan(t, goapDeepCase())
	assert.Len(t, theirs, len(p.Steps))
}
