package main

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/rolegen/rolegen/runtime"
)

func main() {
	if err := run(context.Background()); err != nil {
		log.SetFlags(0)
		log.Fatal(err)
	}
}

func run(ctx context.Context) error {
	s := &Soldier{}
	planner := runtime.NewBackwardChainer(SoldierDomain)

	fmt.Fprintf(os.Stdout, "state:  %+v\n", s.PlanState())
	plan, err := planner.Plan(ctx, s.PlanState())
	if err != nil {
		return err
	}
	fmt.Printf("plan:   %s\n", SoldierDomain.Format(plan))

	ran, err := runtime.Think(ctx, planner, s)
	if err != nil {
		return err
	}
	fmt.Printf("ran:    %v\n", SoldierDomain.Names(ran))
	fmt.Printf("state:  %+v\n", s.PlanState())
	fmt.Printf("armed:  %v\n", SoldierDomain.Holds(SoldierGoalArmed, s.PlanState()))
	return nil
}
