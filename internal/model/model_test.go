package model

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/exprlang"
)

// scope has the int fields named, their FieldIDs in order.
func scope(names ...string) *exprlang.MapScope {
	s := &exprlang.MapScope{}
	for i, n := range names {
		s.List = append(s.List, exprlang.Symbol{Kind: exprlang.Field, Name: n, Type: exprlang.Basic(exprlang.Int), Index: i})
	}
	return s
}

func cond(t *testing.T, sc exprlang.Scope, src string) exprlang.Expr {
	t.Helper()
	e, errs := exprlang.Condition(src, sc)
	require.Empty(t, errs, src)
	return e
}

func effects(t *testing.T, sc exprlang.Scope, src string) []*exprlang.Effect {
	t.Helper()
	effs, errs := exprlang.Effects(src, sc)
	require.Empty(t, errs, src)
	return effs
}

var fieldNames = []string{"Hunger", "Food", "Clock", "Mood", "Debt"}

// role builds a role over fieldNames from a goal and actions given as
// {pre, post} pairs.
func role(t *testing.T, goal string, actions ...[2]string) *Role {
	t.Helper()
	sc := scope(fieldNames...)
	r := &Role{Name: "Cook"}
	for _, n := range fieldNames {
		r.Fields = append(r.Fields, &Field{Name: n, Kind: exprlang.Int})
	}
	g := &Goal{Name: "Fed", Cond: cond(t, sc, goal)}
	g.Reads, g.Parts = exprlang.Reads(g.Cond), Parts(g.Cond)
	r.Goals = []*Goal{g}
	for i, a := range actions {
		act := &Action{Name: fmt.Sprintf("A%d", i)}
		if a[0] != "" {
			act.Pre = cond(t, sc, a[0])
			act.PreReads, act.PreParts = exprlang.Reads(act.Pre), Parts(act.Pre)
		}
		if a[1] != "" {
			act.Effects = effects(t, sc, a[1])
		}
		r.Actions = append(r.Actions, act)
	}
	return r
}

func TestInertFields(t *testing.T) {
	for _, tc := range []struct {
		name    string
		goal    string
		actions [][2]string
		inert   []string
	}{
		{"a clock nothing reads", "Hunger < 10", [][2]string{{"", "Hunger -= 5, Clock++"}}, []string{"Food", "Clock", "Mood", "Debt"}},
		{"read by a precondition", "Hunger < 10", [][2]string{{"Food > 0", "Hunger -= 5, Food--"}}, []string{"Clock", "Mood", "Debt"}},
		{"read by an effect on a live field", "Hunger < 10", [][2]string{{"", "Hunger = Hunger - Food"}}, []string{"Clock", "Mood", "Debt"}},
		{"through a chain of effects", "Hunger < 10", [][2]string{{"", "Hunger = Food"}, {"", "Food = Mood + Debt"}}, []string{"Clock"}},
		{"an effect on an inert field reads nothing live", "Hunger < 10", [][2]string{{"", "Clock = Hunger + Mood"}}, []string{"Food", "Clock", "Mood", "Debt"}},
		{"none", "Hunger + Food + Clock + Mood + Debt > 0", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := role(t, tc.goal, tc.actions...)
			var inert []string
			for _, f := range r.InertFields() {
				inert = append(inert, fieldNames[f])
			}
			assert.Equal(t, tc.inert, inert)
		})
	}
}

func TestParts(t *testing.T) {
	sc := scope(fieldNames...)
	for _, tc := range []struct {
		cond  string
		parts [][]int // the reads of each part
	}{
		{"Hunger < 10", [][]int{{0}}},
		{"Hunger < 10 && (Food > Mood && Debt == 0)", [][]int{{0}, {1, 3}, {4}}},
		{"Hunger < 10 || Food > 0", [][]int{{0, 1}}},
		{"Food + Hunger > Food", [][]int{{0, 1}}},
	} {
		var reads [][]int
		for _, p := range Parts(cond(t, sc, tc.cond)) {
			reads = append(reads, p.Reads)
		}
		assert.Equal(t, tc.parts, reads, tc.cond)
	}

	// From the 64th conjunct on, one part stands for the rest.
	conj := make([]string, MaxParts+6)
	for i := range conj {
		conj[i] = fmt.Sprintf("Hunger != %d", i)
	}
	conj[len(conj)-1] = "Debt == 0"
	parts := Parts(cond(t, sc, strings.Join(conj, " && ")))
	require.Len(t, parts, MaxParts)
	assert.Len(t, parts[MaxParts-1].Conds, 7)
	assert.Equal(t, []int{0, 4}, parts[MaxParts-1].Reads)
}

func TestSetNames(t *testing.T) {
	r := role(t, "Hunger < 10 && Food > 0",
		[2]string{"", "Hunger -= 5"},
		[2]string{"Food > 0 && Mood > 0", "Food--, Clock++"},
		[2]string{"Food > 0", ""},
	)
	r.Actions[2].Shape = ShapeArgsErr
	r.SetNames()
	assert.Equal(t, "CookState", r.StateType)
	assert.Equal(t, "CookDomain", r.DomainVar)
	assert.Equal(t, "_Cook_key", r.KeyFunc, "Clock and Debt are inert")
	a0, a1, a2 := r.Actions[0], r.Actions[1], r.Actions[2]
	assert.Equal(t, [6]string{"CookA0", "", "", "_Cook_effect_A0", "", ""}, [6]string{a0.Const, a0.PreFunc, a0.UnmetFunc, a0.EffectFunc, a0.CostFunc, a0.ArgsVar})
	assert.Equal(t, [6]string{"CookA1", "_Cook_pre_A1", "_Cook_unmet_A1", "_Cook_effect_A1", "", ""}, [6]string{a1.Const, a1.PreFunc, a1.UnmetFunc, a1.EffectFunc, a1.CostFunc, a1.ArgsVar})
	assert.Equal(t, [6]string{"CookA2", "_Cook_pre_A2", "", "", "", "CookA2Args"}, [6]string{a2.Const, a2.PreFunc, a2.UnmetFunc, a2.EffectFunc, a2.CostFunc, a2.ArgsVar})
	g := r.Goals[0]
	assert.Equal(t, [3]string{"CookGoalFed", "_Cook_goal_Fed", "_Cook_goalunmet_Fed"}, [3]string{g.Const, g.CondFunc, g.UnmetFunc})

	ids := r.GeneratedIdents()
	assert.NotContains(t, ids, "")
	assert.Equal(t, []string{"CookState", "CookA0", "CookA1", "CookA2", "CookGoalFed", "CookA2Args", "CookDomain"}, ids[:7])
	assert.Contains(t, ids, "_Cook_key")

	// Names follow the role: set again, none is left from before.
	r.Actions[2].Shape = ShapeNone
	r.Actions[1].Effects = nil
	r.SetNames()
	assert.Empty(t, r.Actions[2].ArgsVar)
	assert.Empty(t, r.Actions[1].EffectFunc)
	assert.NotContains(t, r.GeneratedIdents(), "CookA2Args")
}

func TestShapes(t *testing.T) {
	for shape, want := range map[Shape][2]bool{
		ShapeNone: {false, false}, ShapeErr: {false, false}, ShapeCtxErr: {false, false},
		ShapeArgsErr: {true, false}, ShapeArgsResult: {true, false},
		ShapeStep: {false, true}, ShapeCtxStep: {false, true}, ShapeCtxStepErr: {false, true},
	} {
		a := &Action{Shape: shape}
		assert.Equal(t, want, [2]bool{a.TakesArgs(), a.Durative()}, "shape %d", shape)
	}
}

func TestDeclares(t *testing.T) {
	p := &Package{Declared: []string{"Ammo", "Soldier", "runtime"}}
	assert.True(t, p.Declares("runtime"))
	assert.True(t, p.Declares("Ammo"))
	assert.False(t, p.Declares("json"))
}
