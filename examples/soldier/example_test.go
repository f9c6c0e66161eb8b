package main

import (
	"context"
	"fmt"

	"github.com/rolegen/rolegen/runtime"
)

// A soldier without ammunition or magazines fetches a magazine, then
// reloads.
func Example() {
	s := &Soldier{}
	planner := runtime.NewBackwardChainer(SoldierDomain)
	plan, err := planner.Plan(context.Background(), s.PlanState())
	if err != nil {
		panic(err)
	}
	fmt.Println(SoldierDomain.Format(plan))

	ran, err := runtime.Think(context.Background(), planner, s)
	fmt.Println(SoldierDomain.Names(ran), err)
	fmt.Printf("%+v\n", s.PlanState())
	// Output:
	// [FetchMagazine Reload] (cost 3, goals Armed)
	// [FetchMagazine Reload] <nil>
	// {Ammo:30 Magazines:0}
}

func ExampleSoldier_PlanState() {
	s := &Soldier{Ammo: 5, Magazines: 2}
	fmt.Printf("%+v\n", s.PlanState())
	// Output: {Ammo:5 Magazines:2}
}

func Example_run() {
	if err := run(context.Background()); err != nil {
		panic(err)
	}
	// Output:
	// state:  {Ammo:0 Magazines:0}
	// plan:   [FetchMagazine Reload] (cost 3, goals Armed)
	// ran:    [FetchMagazine Reload]
	// state:  {Ammo:30 Magazines:0}
	// armed:  true
}
