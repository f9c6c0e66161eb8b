package runtime_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
)

// A search's memo of its flows gives the bound the flows compute, to the
// last bit, on every state of random roles whose goals have flows (with
// places, and with reach rows): one memo for all of them, so that its
// slots are taken again and again by other right-hand sides and by the
// flows of other roles.
func TestFlowMemoGivesWhatTheFlowComputes(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(62, 0x3e30))
	var memo runtime.FlowMemo[roleState]
	bounds, flowed, filled := 0, 0, 0
	for k := range 120 {
		var rr *randomRole
		switch k % 4 {
		case 0:
			rr = newRandomChainRole(r, false)
		case 1:
			rr = newRandomChainRole(r, true)
		case 2:
			rr = newRandomReachRole(r, false)
		default:
			rr = newRandomReachRole(r, true)
		}
		bare := rr.domain()
		runtime.WithoutFlow(bare)
		for _, s := range allRoleStates() {
			want := rr.d.LowerBound(0, s)
			got, n := runtime.MemoLowerBound(rr.d, 0, s, &memo)
			require.Equal(t, math.Float64bits(want), math.Float64bits(got),
				"goal %s at %v: %g with the memo, %g without; %+v", rr.d.Goals[0].CondText, s.V, got, want, rr.actions)
			// Once more: from the memo where the first call filled it.
			again, _ := runtime.MemoLowerBound(rr.d, 0, s, &memo)
			require.Equal(t, math.Float64bits(want), math.Float64bits(again))
			bounds++
			if want > bare.LowerBound(0, s) {
				flowed++
			}
			filled = n
		}
	}
	t.Logf("%d bounds, %d of them raised by a flow; %d slots filled", bounds, flowed, filled)
	assert.Greater(t, flowed, 1000)
	assert.Greater(t, filled, 128)
}
