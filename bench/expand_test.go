package bench

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/bench/internal/depot"
	"github.com/rolegen/rolegen/bench/internal/homestead"
	"github.com/rolegen/rolegen/bench/internal/kitchen"
	"github.com/rolegen/rolegen/bench/internal/miner"
	"github.com/rolegen/rolegen/bench/internal/villager"
	"github.com/rolegen/rolegen/runtime"
)

// A* runs the generated Domain.Search loop: it must search
// exactly as it does action by action (Enabled, the effects, Key, Hash),
// plan for plan and expansion for expansion. The depot's and the
// kitchen's actions cost what the state makes them (the loop's costs go
// through StepCost).
func TestGeneratedSearchSearchesAsActionByAction(t *testing.T) {
	expandAgrees(t, homestead.VillagerDomain, homesteadStarts(60))
	expandAgrees(t, miner.MinerDomain, minerStarts(60))
	r := rand.New(rand.NewPCG(5, 8))
	pick := func(v ...int) int { return v[r.IntN(len(v))] }
	var keepers []depot.KeeperState
	var cooks []kitchen.CookState
	for range 60 {
		keepers = append(keepers, depot.KeeperState{Truck: r.IntN(2) == 0, Crates: pick(0, 1, 3), Shelved: pick(0, 2),
			Orders: pick(0, 1, 3), Packed: pick(0, 1), Shipped: pick(0, 1), Distance: pick(0, 5, 30)})
		cooks = append(cooks, kitchen.CookState{At: kitchen.Place(r.IntN(4)), Money: pick(0, 3, 9), Veg: pick(0, 1, 2),
			Chopped: pick(0, 2), Water: r.IntN(2) == 0, Fire: r.IntN(2) == 0, Bowls: pick(0, 1, 2), Dirty: pick(0, 1)})
	}
	expandAgrees(t, depot.KeeperDomain, keepers)
	expandAgrees(t, kitchen.CookDomain, cooks)
	expandAgrees(t, villager.VillagerDomain, villagerStarts(60))
}

func expandAgrees[S comparable](t *testing.T, d *runtime.Domain[S], starts []S) {
	t.Helper()
	require.NotNil(t, d.Search)
	plain := *d // the same tables, without the generated Search
	plain.Search = nil
	ctx := context.Background()
	with, without := runtime.NewAStar(d), runtime.NewAStar(&plain)
	var p, q runtime.Plan
	for i, s := range starts {
		for g := range d.Goals {
			err := with.PlanGoalInto(ctx, s, runtime.GoalID(g), &p)
			errq := without.PlanGoalInto(ctx, s, runtime.GoalID(g), &q)
			require.Equal(t, errq == nil, err == nil, "%s, start %d, goal %d", d.Name, i, g)
			require.Equal(t, q.Steps, p.Steps, "%s, start %d, goal %d", d.Name, i, g)
			require.Equal(t, q.Expansions, p.Expansions, "%s, start %d, goal %d", d.Name, i, g)
			require.Equal(t, q.Generated, p.Generated, "%s, start %d, goal %d", d.Name, i, g)
		}
	}
}
