package runtime

import "math"

// flowMemo remembers, for the right-hand sides b a search met before,
// what a goal's flow makes of them: the program's value (flow.best) and
// the places its runs must go to (flowPlaces.must). Both are functions of
// the flow and b alone, which the flow's rows read from a few fields:
// states that differ elsewhere (where the role is, what else it holds)
// share them. Over the chainer's calls on the written tavern keeper in
// bench, 90 % of the values its searches asked for were of a b the same
// call had met before; the shipwright's 89 %, the armorer's 47 %. A slot
// keeps its flow and all of b, so a value found is the value computed,
// to the last bit: the estimate, and every search, is what it would be
// without the memo. A search's planner owns its memo and never empties
// it: an entry holds for as long as the domain lives.
type flowMemo[S any] struct {
	slots [flowMemoSlots]flowMemoSlot[S]
}

// flowMemoSlots is how many right-hand sides a memo keeps, a slot
// chosen by the top flowMemoShift bits of a hash of b.
const (
	flowMemoShift = 8
	flowMemoSlots = 1 << flowMemoShift
)

// flowMemoSlot is one remembered b of flow fl (nil: empty).
type flowMemoSlot[S any] struct {
	fl    *flow[S]
	b     [maxFlowRows]uint64 // the bits of b's first len(fl.rows) numbers
	value float64             // fl.best(b)
	// must is fl.at.must(b), once known (known).
	must  uint8
	known bool
}

// slot returns the slot of b (m numbers) for flow fl, and whether it
// holds them; else the caller fills it (fill).
func (mm *flowMemo[S]) slot(fl *flow[S], b *[maxFlowRows]float64, m int) (*flowMemoSlot[S], bool) {
	const prime = 0x9e3779b97f4a7c15
	var h uint64
	for _, x := range b[:m] {
		h = (h ^ math.Float64bits(x)) * prime
	}
	sl := &mm.slots[h>>(64-flowMemoShift)]
	if sl.fl != fl {
		return sl, false
	}
	for i, x := range b[:m] {
		if sl.b[i] != math.Float64bits(x) {
			return sl, false
		}
	}
	return sl, true
}

// fill makes sl the slot of b (m numbers) for flow fl, whose value is v.
func (sl *flowMemoSlot[S]) fill(fl *flow[S], b *[maxFlowRows]float64, m int, v float64) {
	sl.fl, sl.value, sl.known = fl, v, false
	for i, x := range b[:m] {
		sl.b[i] = math.Float64bits(x)
	}
}
