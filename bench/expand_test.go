package bench

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/bench/internal/homestead"
	"github.com/rolegen/rolegen/bench/internal/miner"
	"github.com/rolegen/rolegen/bench/internal/villager"
	"github.com/rolegen/rolegen/runtime"
)

// A* runs the generated Domain.Search loop: it must search
// exactly as it does action by action (Enabled, the effects, Key, Hash),
// plan for plan and expansion for expansion.
func TestGeneratedSearchSearchesAsActionByAction(t *testing.T) {
	expandAgrees(t, homestead.VillagerDomain, homesteadStarts(60))
	expandAgrees(t, miner.MinerDomain, minerStarts(60))
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
