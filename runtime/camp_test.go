package runtime_test

import (
	"context"

	"github.com/rolegen/rolegen/runtime"
)

// camp is a role with two goals that start unsatisfied: Warm (high: a
// fire burns) and Fed (normal: not hungry), and a third, Stocked (low:
// wood put by), for which the action that gives most wood a step douses
// the fire.
type campState struct {
	Wood, Food, Hunger int
	Fire               bool
}

const (
	campChop runtime.ActionID = iota
	campLight
	campForage
	campEat
	campDouse
)

const (
	campWarm runtime.GoalID = iota
	campFed
	campStocked
)

func camp() *runtime.Domain[campState] {
	const wood, food, hunger, fire = 0, 1, 2, 3
	ids := func(f ...runtime.FieldID) []runtime.FieldID { return f }
	return runtime.NewDomain(runtime.Domain[campState]{
		Name: "Camp",
		Fields: []runtime.Field{
			{Name: "Wood", Type: "int", Kind: runtime.KindInt},
			{Name: "Food", Type: "int", Kind: runtime.KindInt},
			{Name: "Hunger", Type: "int", Kind: runtime.KindInt},
			{Name: "Fire", Type: "bool", Kind: runtime.KindBool},
		},
		Actions: []runtime.Action[campState]{
			{
				Name: "Chop", Cost: 1,
				Effect: func(s campState) campState { s.Wood++; return s },
				Reads:  ids(wood), Writes: ids(wood),
				Changes: []runtime.Change{{Field: wood, Op: runtime.ChangeAdd, Num: 1}},
			},
			{
				Name: "Light", Cost: 1, PreText: "Wood >= 2",
				Pre:      func(s campState) bool { return s.Wood >= 2 },
				PreReads: ids(wood), PreParts: []runtime.Part{{Reads: ids(wood), Cmp: runtime.CmpGe, Field: wood, Num: 2}},
				Effect: func(s campState) campState { s.Wood -= 2; s.Fire = true; return s },
				Reads:  ids(wood), Writes: ids(wood, fire),
				Changes:  []runtime.Change{{Field: wood, Op: runtime.ChangeAdd, Num: -2}, {Field: fire, Op: runtime.ChangeSet, Num: 1}},
				Fulfills: []runtime.GoalID{campWarm},
			},
			{
				Name: "Forage", Cost: 2,
				Effect: func(s campState) campState { s.Food++; return s },
				Reads:  ids(food), Writes: ids(food),
				Changes: []runtime.Change{{Field: food, Op: runtime.ChangeAdd, Num: 1}},
			},
			{
				Name: "Eat", Cost: 1, PreText: "Food >= 1",
				Pre:      func(s campState) bool { return s.Food >= 1 },
				PreReads: ids(food), PreParts: []runtime.Part{{Reads: ids(food), Cmp: runtime.CmpGe, Field: food, Num: 1}},
				Effect: func(s campState) campState { s.Food--; s.Hunger -= 30; return s },
				Reads:  ids(food, hunger), Writes: ids(food, hunger),
				Changes:  []runtime.Change{{Field: food, Op: runtime.ChangeAdd, Num: -1}, {Field: hunger, Op: runtime.ChangeAdd, Num: -30}},
				Fulfills: []runtime.GoalID{campFed},
			},
			{
				Name: "Douse", Cost: 1, PreText: "Fire",
				Pre:      func(s campState) bool { return s.Fire },
				PreReads: ids(fire), PreParts: []runtime.Part{{Reads: ids(fire), Cmp: runtime.CmpEq, Field: fire, Num: 1}},
				Effect: func(s campState) campState { s.Fire = false; s.Wood += 2; return s },
				Reads:  ids(wood, fire), Writes: ids(wood, fire),
				Changes: []runtime.Change{{Field: wood, Op: runtime.ChangeAdd, Num: 2}, {Field: fire, Op: runtime.ChangeSet}},
			},
		},
		Goals: []runtime.Goal[campState]{
			{
				Name: "Warm", Priority: runtime.High, CondText: "Fire",
				Cond:  func(s campState) bool { return s.Fire },
				Reads: ids(fire), Parts: []runtime.Part{{Reads: ids(fire), Cmp: runtime.CmpEq, Field: fire, Num: 1}},
			},
			{
				Name: "Fed", Priority: runtime.Normal, CondText: "Hunger < 10",
				Cond:  func(s campState) bool { return s.Hunger < 10 },
				Reads: ids(hunger), Parts: []runtime.Part{{Reads: ids(hunger), Cmp: runtime.CmpLt, Field: hunger, Num: 10}},
			},
			{
				Name: "Stocked", Priority: runtime.Low, CondText: "Wood >= 3",
				Cond:  func(s campState) bool { return s.Wood >= 3 },
				Reads: ids(wood), Parts: []runtime.Part{{Reads: ids(wood), Cmp: runtime.CmpGe, Field: wood, Num: 3}},
			},
		},
		Number: func(s *campState, f runtime.FieldID) float64 {
			switch f {
			case wood:
				return float64(s.Wood)
			case food:
				return float64(s.Food)
			case hunger:
				return float64(s.Hunger)
			case fire:
				if s.Fire {
					return 1
				}
			}
			return 0
		},
	})
}

// campRole performs the camp's actions by their effects.
type campRole struct {
	campState
	d         *runtime.Domain[campState]
	performed []string
}

func (r *campRole) PlanState() campState { return r.campState }

func (r *campRole) Perform(_ context.Context, a runtime.ActionID) error {
	r.campState = r.d.Apply(a, r.campState)
	r.performed = append(r.performed, r.d.ActionName(a))
	return nil
}
