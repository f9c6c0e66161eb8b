package runtime

// slotTable is an open-addressing hash table of indexes, with linear
// probing; the caller compares the entries a hash leads to. Slots of an
// older generation are empty, so reset clears nothing.
type slotTable struct {
	slots []slot
	gen   uint32
	count int
}

type slot struct {
	gen  uint32
	idx  int32
	hash uint64
}

func (t *slotTable) reset() {
	if t.slots == nil {
		t.slots = make([]slot, 256)
	}
	t.gen++
	if t.gen == 0 {
		clear(t.slots)
		t.gen = 1
	}
	t.count = 0
}

// find returns the first slot to probe for hash h.
func (t *slotTable) find(h uint64) int { return int(h & uint64(len(t.slots)-1)) }

func (t *slotTable) used(i int) bool { return t.slots[i].gen == t.gen }

func (t *slotTable) next(i int) int { return (i + 1) & (len(t.slots) - 1) }

// put fills the free slot i that probing for h ended at.
func (t *slotTable) put(i int, h uint64, idx int32) {
	t.slots[i] = slot{gen: t.gen, idx: idx, hash: h}
	t.count++
	if 4*t.count > 3*len(t.slots) {
		t.grow()
	}
}

func (t *slotTable) grow() {
	old := t.slots
	t.slots = make([]slot, 2*len(old))
	for _, s := range old {
		if s.gen != t.gen {
			continue
		}
		i := t.find(s.hash)
		for t.used(i) {
			i = t.next(i)
		}
		t.slots[i] = s
	}
}
