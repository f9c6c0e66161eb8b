package runtime_test

import (
	"context"
	"fmt"

	"github.com/rolegen/rolegen/runtime"
)

// A plan holds action IDs; its domain names them.
func ExampleDomain_Format() {
	d := campDomain()
	p, err := runtime.NewBackwardChainer(d).Plan(context.Background(), CampState{Axe: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.Format(p))
	fmt.Println(d.Names(p.Steps), d.GoalNames(p.Goals))
	// Output:
	// [ChopWood ChopWood LightFire] (cost 3, goals Warm)
	// [ChopWood ChopWood LightFire] [Warm]
}
