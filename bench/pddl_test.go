package bench

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/bench/internal/goapdeep"
	"github.com/rolegen/rolegen/bench/internal/pddl"
	"github.com/rolegen/rolegen/bench/internal/plancase"
	"github.com/rolegen/rolegen/runtime"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata: the PDDL problems from the roles, the written roles' cheapest plans (TestWrittenReferences)")

// The PDDL files under testdata/pddl are the anchor problems for Fast
// Downward (BENCHMARKS.md, "Anchors"). The domains are written by hand;
// the problems are rendered here from the roles, so that they cannot
// drift from what rolegen plans, and compared with the committed files
// (go test -run TestPDDL -update rewrites them). Each folder also holds
// the plan Fast Downward found (sas_plan, as it writes it), which the
// tests run in the role. blocks8 is a synthetic role: its test is among
// the synthetic families' (internal/synthetic/testdata/pddl_test.go).

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

func TestPDDLGoapDeep(t *testing.T) {
	dir := filepath.Join("testdata", "pddl", "goapdeep")
	pddl.CheckGolden(t, filepath.Join(dir, "problem.pddl"), goapdeepProblem(), *update)

	// Fast Downward's plan, its numbers dropped, is a plan of the role,
	// as short as rolegen's.
	names := map[string]string{"eat": "Eat", "forage": "Forage", "forage-stocked": "Forage", "sleep": "Sleep"}
	var theirs []string
	for _, step := range pddl.ReadPlan(t, filepath.Join(dir, "sas_plan")) {
		name := names[step[0]]
		require.NotEmpty(t, name, step[0])
		theirs = append(theirs, name)
	}
	d := goapdeep.ForagerDomain
	end, err := d.Simulate(goapdeep.Start, plancase.ActionIDs(t, d, theirs...))
	require.NoError(t, err)
	assert.True(t, d.Goals[goapdeep.ForagerGoalStocked].Cond(end))
	p := plancase.Check(t, goapDeepCase())
	assert.Len(t, theirs, len(p.Steps))
}
