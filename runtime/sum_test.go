package runtime_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
)

// A goal that compares a sum of fields (Pies + Soup >= 4) is estimated by
// the steps that move the sum, and by the flow of its chains of supplies,
// as a comparison of one field is: on random roles and on supply roles
// whose goal is such a sum, never above the cost to go, no step lowers it
// by more than the step's cost, and A* with it expands fewer states than
// uniform-cost search; without the sum's form, the conjunct had the
// cheapest serving action's cost whatever the state.
func TestSumsAreAdmissibleAndConsistent(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(10, 0x5a9))
	checkRandomEstimatesAgainst(t, "sums' forms", func(k int) *randomRole { return sumRole(r, k) }, func(rr *randomRole) *runtime.Domain[roleState] {
		bare := *rr
		bare.opaque = true
		return bare.domain()
	})
}

// sumRole is the k-th role of the sums' tests: half random roles, half
// supply roles, whose goal is a sum (see randomRole.withSum).
func sumRole(r *rand.Rand, k int) *randomRole {
	if k%4 < 2 {
		return newRandomRoleWithGoal(r, 3+r.IntN(2), 4+r.IntN(5), false, 2).withSum(r, 3, k)
	}
	rr := newSupplyRole(r, k%4 == 3)
	return rr.withSum(r, rr.nf, k)
}

// sumProblems are the starts of random roles whose goal is a sum that A*
// solves within 8 steps, with the optimal cost; opaque builds the roles
// without the sums' forms.
func sumProblems(seed uint64, roles, starts int, opaque bool) []roleProblem {
	r := rand.New(rand.NewPCG(seed, 0x5a7))
	return problemsOf(r, roles, starts, func(i int) *randomRole {
		rr := sumRole(r, i)
		if opaque {
			rr.opaque = true
			rr.d = rr.domain()
		}
		return rr
	})
}

// The chainer on goals that compare sums: a valid plan wherever A* finds
// one within 8 steps, within 1.2 times the cheapest at the 90th
// percentile and twice at worst, in fewer expansions. Without the sums' forms every action that writes one of
// the sum's fields served it, whichever way it moved the sum (a cook
// who sells a pie to serve four dishes), and a step that took the sum
// away from its bound counted as progress.
func TestChainerPlansSums(t *testing.T) {
	roles := 120
	if testing.Short() {
		roles = 40
	}
	problems := sumProblems(11, roles, 30, false)
	require.Greater(t, len(problems), roles)
	f := measureChainer(t, problems)
	t.Log("with the sums' forms: ", f.String())
	bare := measureChainer(t, sumProblems(11, roles, 30, true))
	t.Log("without them: ", bare.String())
	assert.GreaterOrEqual(t, float64(f.found), 0.99*float64(f.starts), "valid plans found")
	assert.LessOrEqual(t, f.percentile(0.9), 1.2, "cost / optimal at the 90th percentile")
	assert.LessOrEqual(t, f.percentile(1), 2.0, "cost / optimal at worst")
	assert.Less(t, f.expansions, bare.expansions, "expansions")
}

// A sum's relation to each action: up or down with the steps its effects
// add, either way where they add to one field and take from another
// (a range may clamp either), and nothing where they leave its fields.
func TestSumRelations(t *testing.T) {
	rr := &randomRole{nf: 3}
	add := func(steps ...int) roleAction {
		var a roleAction
		for f, k := range steps {
			if k != 0 {
				a.eff = append(a.eff, roleEffect{f: f, add: true, k: k})
			}
		}
		a.cost = 1
		return a
	}
	rr.actions = []roleAction{add(1, 0, 0), add(0, -1, 0), add(1, 1, 0), add(1, -1, 0), add(0, 0, 1), {eff: []roleEffect{{f: 1, k: 2}}, cost: 1}}
	rr.sum = &roleSum{fields: []int{0, 1}, coefs: []int{1, 2}, op: runtime.CmpGe, k: 4}
	rr.d = rr.domain()
	want := []runtime.Relation{runtime.RelAdvances, runtime.RelOpposes, runtime.RelAdvances, runtime.RelMaybe, runtime.RelNone, runtime.RelMaybe}
	for a, w := range want {
		assert.Equal(t, w, rr.d.Relation(runtime.ActionID(a), 0, 0), "action %d", a)
	}
	rr.sum.op = runtime.CmpLt
	rr.d = rr.domain()
	want[0], want[1], want[2] = runtime.RelOpposes, runtime.RelAdvances, runtime.RelOpposes
	for a, w := range want {
		assert.Equal(t, w, rr.d.Relation(runtime.ActionID(a), 0, 0), "action %d", a)
	}
}

// A disjunction's relation to each action: it achieves what achieves one
// of its comparisons, opposes what can make none of them hold (a walk
// to the mill, for V0 == 1 || V0 == 2 || V1 >= 3: where the goal fails,
// each comparison the walk does not write fails after it too), and may
// serve the rest.
func TestDisjunctionRelations(t *testing.T) {
	set := func(fk ...int) roleAction {
		a := roleAction{cost: 1}
		for i := 0; i < len(fk); i += 2 {
			a.eff = append(a.eff, roleEffect{f: fk[i], k: fk[i+1]})
		}
		return a
	}
	step := func(f, k int) roleAction {
		return roleAction{cost: 1, eff: []roleEffect{{f: f, add: true, k: k}}}
	}
	rr := &randomRole{nf: 3, anyGoal: true, goal: []roleLit{
		{f: 0, op: runtime.CmpEq, k: 1}, {f: 0, op: runtime.CmpEq, k: 2}, {f: 1, op: runtime.CmpGe, k: 3},
	}}
	rr.actions = []roleAction{set(0, 3), set(0, 2), step(0, 1), step(1, 1), set(0, 0, 1, 0), step(1, -1), step(2, 1), set(0, 4, 1, 3)}
	rr.d = rr.domain()
	want := []runtime.Relation{runtime.RelOpposes, runtime.RelAchieves, runtime.RelMaybe, runtime.RelMaybe, runtime.RelOpposes, runtime.RelOpposes, runtime.RelNone, runtime.RelAchieves}
	for a, w := range want {
		assert.Equal(t, w, rr.d.Relation(runtime.ActionID(a), 0, 0), "action %d", a)
	}
	// The chainer walks only where the goal can come to hold.
	var tr runtime.Trace
	p, err := runtime.NewBackwardChainer(rr.d, runtime.WithTrace(&tr)).PlanGoal(t.Context(), roleState{}, 0)
	require.NoError(t, err)
	assert.Equal(t, []runtime.ActionID{1}, p.Steps)
	assert.NotContains(t, tr.String(), "try A0", "a walk that cannot make the goal hold")
}
