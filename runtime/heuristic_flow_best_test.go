package runtime

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// best, which adds up four vertices' sums side by side, gives what dot
// gives vertex after vertex, to the last bit: random vertices of 1 to 12
// rows, 1 to 80 of them (so that every remainder of four is met),
// against right-hand sides of either sign.
func TestFlowBestIsEveryVertexInTurn(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for range 2000 {
		m := 1 + r.IntN(maxFlowRows)
		fl := &flow[struct{}]{rows: make([]flowRow, m)}
		for range (1 + r.IntN(80)) * m {
			fl.verts = append(fl.verts, r.Float64()*10)
		}
		var b [maxFlowRows]float64
		for i := range m {
			b[i] = (r.Float64() - 0.4) * 7
		}
		want := 0.0
		for k := 0; k < len(fl.verts); k += m {
			if sum := dot(&b, fl.verts[k:k+m]); sum > want {
				want = sum
			}
		}
		require.Equal(t, want, fl.best(&b))
	}
}
