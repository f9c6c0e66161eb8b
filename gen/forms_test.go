package gen

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/exprlang"
	"github.com/rolegen/rolegen/internal/model"
)

// A conjunct that orders sums of numeric fields times constants (or
// floats divided by constants) has the form of a Sum; one the runtime would read wrongly (a float32, an
// unsigned subtraction that wraps), or that is no such sum, has none.
func TestSumForms(t *testing.T) {
	// Fields of agreeScope: Ammo 0 and Magazines 1 (int), Speed 2
	// (float64), Stance 5 (a named int), Count 7 (uint), Ratio 8
	// (float32), Shift 9 (time.Duration).
	cases := []struct {
		cond string
		want *sum
	}{
		{"Ammo + Magazines*30 >= 60", &sum{terms: []term{{0, 1}, {1, 30}}, cmp: "CmpGe", num: 60}},
		{"Ammo + Magazines >= MaxAmmo", &sum{terms: []term{{0, 1}, {1, 1}}, cmp: "CmpGe", num: 30}},
		{"10 <= Ammo - Magazines + 3", &sum{terms: []term{{0, -1}, {1, 1}}, cmp: "CmpLe", num: -7}},
		{"(Magazines * 2) * 3 + Ammo < Limit", &sum{terms: []term{{0, 1}, {1, 6}}, cmp: "CmpLt", num: 100}},
		{"Speed * 2.5 > Half", &sum{terms: []term{{2, 2.5}}, cmp: "CmpGt", num: 0.5}},
		{"-Ammo < -3", &sum{terms: []term{{0, -1}}, cmp: "CmpLt", num: -3}},
		{"Count + 1 > 3", &sum{terms: []term{{7, 1}}, cmp: "CmpGt", num: 2}},
		{"Shift * 2 > time.Second", &sum{terms: []term{{9, 2}}, cmp: "CmpGt", num: 1e9}},
		{"Speed / 4 > 1", &sum{terms: []term{{2, 0.25}}, cmp: "CmpGt", num: 1}},
		{"1 < (Speed - 3) / 0.5", &sum{terms: []term{{2, -2}}, cmp: "CmpLt", num: -7}},
		{"Count - 1 > 0", nil},        // wraps at 0
		{"Ratio * 2 > 1", nil},        // float32
		{"Ammo / 2 > 1", nil},         // an integer's quotient truncates
		{"Ammo % 3 >= 1", nil},        // not a sum
		{"Ammo * Magazines > 1", nil}, // not linear
		{"Ammo + Magazines == 4", nil},
		{"Ammo - Ammo > 1", nil}, // no field left
		{"Mode + 'x' > 'y'", nil},
	}
	scope, _ := agreeScope(t)
	for _, c := range cases {
		e, err := exprlang.ParseCondition(c.cond)
		require.NoError(t, err, c.cond)
		require.Empty(t, exprlang.CheckCondition(c.cond, e, scope), c.cond)
		assert.Equal(t, c.want, sumComparison(e), c.cond)
	}
	// A comparison of one field keeps its form, and has no sum.
	e, err := exprlang.ParseCondition("Ammo > 10")
	require.NoError(t, err)
	require.Empty(t, exprlang.CheckCondition("Ammo > 10", e, scope))
	ps := conditionParts([]model.Part{{Conds: []exprlang.Expr{e}, Reads: []int{0}}})
	require.Len(t, ps, 1)
	assert.Equal(t, "CmpGt", ps[0].cmp)
	assert.Nil(t, ps[0].sum)
}

// An effect that adds a constant times another numeric field has the form
// ChangeAddTimes, with the constant and that field; one that multiplies
// its own field, or two fields, or adds more than that, has none.
func TestTimesForms(t *testing.T) {
	// Fields of agreeScope: Ammo 0 and Magazines 1 (int), Speed 2
	// (float64).
	cases := []struct {
		post string
		want change
	}{
		{"Ammo += 7 * Magazines", change{field: 0, op: "ChangeAddTimes", num: 7, by: 1}},
		{"Ammo += Magazines * 7", change{field: 0, op: "ChangeAddTimes", num: 7, by: 1}},
		{"Ammo += (Magazines)", change{field: 0, op: "ChangeAddTimes", num: 1, by: 1}},
		{"Ammo -= 2 * Magazines", change{field: 0, op: "ChangeAddTimes", num: -2, by: 1}},
		{"Ammo = Ammo + MaxAmmo * Magazines", change{field: 0, op: "ChangeAddTimes", num: 30, by: 1}},
		{"Ammo = 3 * Magazines + Ammo", change{field: 0, op: "ChangeAddTimes", num: 3, by: 1}},
		{"Ammo = Ammo - Magazines", change{field: 0, op: "ChangeAddTimes", num: -1, by: 1}},
		{"Speed += 0.5 * Speed", change{field: 2, op: "ChangeOther"}},
		{"Ammo += Ammo", change{field: 0, op: "ChangeOther"}},
		{"Ammo += Magazines * Magazines", change{field: 0, op: "ChangeOther"}},
		{"Ammo += 2 * Magazines + 1", change{field: 0, op: "ChangeOther"}},
		{"Ammo = Magazines - Ammo", change{field: 0, op: "ChangeOther"}},
		{"Ammo = 2 * Magazines", change{field: 0, op: "ChangeOther"}},
	}
	scope, _ := agreeScope(t)
	for _, c := range cases {
		effs, err := exprlang.ParseEffects(c.post)
		require.NoError(t, err, c.post)
		require.Empty(t, exprlang.CheckEffects(c.post, effs, scope), c.post)
		assert.Equal(t, []change{c.want}, effectChanges(effs), c.post)
	}
}
