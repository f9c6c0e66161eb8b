package runtime_test

import (
	"context"
	"fmt"

	"github.com/rolegen/rolegen/runtime"
)

// CampState is the state of a camper who wants to be warm, written by hand
// the way rolegen generates it.
type CampState struct {
	Axe  bool
	Wood int
	Warm bool
}

// campDomain: buying a heater is quick but dear; making a fire takes four
// cheap steps.
func campDomain() *runtime.Domain[CampState] {
	return runtime.NewDomain(runtime.Domain[CampState]{
		Name: "Camper",
		Fields: []runtime.Field{
			{Name: "Axe", Type: "bool", Kind: runtime.KindBool},
			{Name: "Wood", Type: "int", Kind: runtime.KindInt},
			{Name: "Warm", Type: "bool", Kind: runtime.KindBool},
		},
		Actions: []runtime.Action[CampState]{
			{
				Name: "BuyHeater", Cost: 20, Value: 50, Weight: 1, Tags: []string{"shop"},
				Effect:   func(s CampState) CampState { s.Warm = true; return s },
				Writes:   []runtime.FieldID{2},
				Fulfills: []runtime.GoalID{0},
			},
			{
				Name: "GetAxe", Cost: 2, Value: 10, Weight: 1,
				Pre:    func(s CampState) bool { return !s.Axe },
				Effect: func(s CampState) CampState { s.Axe = true; return s },
				Writes: []runtime.FieldID{0},
			},
			{
				Name: "ChopWood", Cost: 1, Value: 20, Weight: 1,
				Pre:    func(s CampState) bool { return s.Axe && s.Wood < 5 },
				Effect: func(s CampState) CampState { s.Wood++; return s },
				Writes: []runtime.FieldID{1},
			},
			{
				Name: "LightFire", Cost: 1, Value: 80, Weight: 1,
				Pre:      func(s CampState) bool { return s.Wood >= 2 },
				Effect:   func(s CampState) CampState { s.Wood -= 2; s.Warm = true; return s },
				Writes:   []runtime.FieldID{1, 2},
				Fulfills: []runtime.GoalID{0},
			},
		},
		Goals: []runtime.Goal[CampState]{{
			Name: "Warm", Priority: runtime.High, CondText: "Warm",
			Cond:  func(s CampState) bool { return s.Warm },
			Reads: []runtime.FieldID{2},
		}},
	})
}

func ExampleNewAStar() {
	d := campDomain()
	planner := runtime.NewAStar(d, runtime.WithUnsatisfiedGoalsHeuristic())

	p, err := planner.Plan(context.Background(), CampState{})
	if err != nil {
		fmt.Println(err)
		return
	}
	var steps []string
	for _, a := range p.Steps {
		steps = append(steps, d.ActionName(a))
	}
	fmt.Println(steps, "cost", p.Cost, "for", d.GoalName(p.Goals[0]))

	// In a game loop, reuse the planner and the plan: no allocations.
	var plan runtime.Plan
	for _, wood := range []int{0, 2} {
		if err := planner.PlanInto(context.Background(), CampState{Axe: true, Wood: wood}, &plan); err == nil {
			fmt.Printf("wood=%d steps=%d cost=%v\n", wood, len(plan.Steps), plan.Cost)
		}
	}
	// Output:
	// [GetAxe ChopWood ChopWood LightFire] cost 5 for Warm
	// wood=0 steps=3 cost=3
	// wood=2 steps=1 cost=1
}

func ExampleNewUtility() {
	d := campDomain()
	// The default considerations: GoalUrgency(d, 8), RelativeCost(d, 1),
	// RelativeValue(d, 1) and PreconditionSatisfied(). With an axe and no
	// wood, BuyHeater and ChopWood can run. Warm fails, and BuyHeater
	// fulfills it (urgency 1); costs range from 1 to 20 and values from
	// 10 to 80:
	//   BuyHeater: (8·1 + (1 − 0.9·19/19) + (0.1 + 0.9·40/70) + 1) / 11 = 0.883
	//   ChopWood:  (8·0 + (1 − 0.9·0/19)  + (0.1 + 0.9·10/70) + 1) / 11 = 0.203
	u := runtime.NewUtility(d)
	for _, r := range u.Ranked(CampState{Axe: true}) {
		fmt.Printf("%-9s %.3f\n", d.ActionName(r.Action), r.Score)
	}

	// Custom considerations: prefer what is not bought in a shop, and value
	// wood less the more there is of it (1 − Wood/5 on a linear curve).
	// With 4 wood, Combine gives LightFire 1 × 0.28 (0.2 compensated for
	// two factors), the mean with its value 0.8 is 0.54; ChopWood gets
	// (0.28 + 0.2) / 2 = 0.24 and BuyHeater (0 + 0.5) / 2 = 0.25.
	notShop := runtime.Func(1, func(_ CampState, a *runtime.Action[CampState]) float64 {
		if len(a.Tags) > 0 && a.Tags[0] == "shop" {
			return 0
		}
		return 1
	})
	woodNeed := runtime.Curve(1, runtime.LinearCurve(-1, 1), func(s CampState) float64 { return float64(s.Wood) }, 0, 5)
	u = runtime.NewUtility(d, runtime.Combine(1, notShop, woodNeed), runtime.Value[CampState](1))
	best, _ := u.Best(CampState{Axe: true, Wood: 4})
	fmt.Println("best with 4 wood:", d.ActionName(best))
	// Output:
	// BuyHeater 0.883
	// ChopWood  0.203
	// best with 4 wood: LightFire
}
