package bench

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/rolegen/rolegen/bench/internal/fisher"
	"github.com/rolegen/rolegen/runtime"
)

func TestScratchTrace(t *testing.T) {
	d := fisher.FisherDomain
	s := fisherStarts()[1241]
	g, _ := d.Goal("Purse")
	var tr runtime.Trace
	bc := runtime.NewBackwardChainer(d, runtime.WithTrace(&tr))
	var p runtime.Plan
	err := bc.PlanGoalInto(context.Background(), s, g, &p)
	fmt.Println(err, p.Steps, p.Expansions, fmt.Sprintf("%+v", s))
	for _, l := range strings.Split(tr.String(), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "try") && !strings.HasPrefix(strings.TrimSpace(l), "skip") && !strings.HasPrefix(strings.TrimSpace(l), "reject") {
			fmt.Println(l)
		}
	}
}
