package runtime

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// The open list pops its entries in the order of their numbers (f up,
// then g down, then node up), whatever the mix of pushes and pops, ties
// and values: the reference is a sorted slice of the same entries,
// compared as floats. Its minF is always the least f on it. Now and then
// it is ordered again (reorder) with new values of f, some entries
// dropped.
func TestOpenListOrder(t *testing.T) {
	type ref struct {
		f, g float64
		node int32
	}
	less := func(a, b ref) int {
		switch {
		case a.f != b.f:
			if a.f < b.f {
				return -1
			}
			return 1
		case a.g != b.g:
			if a.g > b.g {
				return -1
			}
			return 1
		}
		return int(a.node - b.node)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		var o openList
		var want []ref
		node := int32(0)
		for op := range 400 {
			least := math.Inf(1)
			for _, w := range want {
				least = min(least, w.f)
			}
			require.Equal(t, least, o.minF(), "round %d, op %d: the least f", round, op)
			if rng.IntN(60) == 0 {
				// Ordered again: every fifth node's entry stale, the
				// others' estimates (f - g) weighed twice.
				o.reorder(func(e *openEntry) bool {
					f, g := fromBits(e.f), fromBits(e.g)
					e.f = math.Float64bits(g + 2*(f-g))
					return e.node%5 != 0
				})
				kept := want[:0]
				for _, w := range want {
					if w.node%5 != 0 {
						w.f = w.g + 2*(w.f-w.g)
						kept = append(kept, w)
					}
				}
				want = kept
				continue
			}
			if len(want) > 0 && rng.IntN(3) == 0 {
				slices.SortFunc(want, less)
				e := o.pop()
				require.Equal(t, want[0], ref{f: fromBits(e.f), g: fromBits(e.g), node: e.node}, "round %d, op %d", round, op)
				want = want[1:]
				continue
			}
			// Few distinct values, so that ties are common; some not
			// integers, some large.
			g := float64(rng.IntN(6)) * []float64{1, 0.25, 1e9}[round%3]
			f := g + float64(rng.IntN(4))*0.5
			o.push(entry(f, g, node))
			want = append(want, ref{f: f, g: g, node: node})
			node++
		}
		require.Equal(t, len(want), o.len())
		for len(want) > 0 {
			slices.SortFunc(want, less)
			e := o.pop()
			require.Equal(t, want[0].node, e.node)
			want = want[1:]
		}
		require.Zero(t, o.len())
	}
}

func fromBits(b uint64) float64 { return math.Float64frombits(b) }
