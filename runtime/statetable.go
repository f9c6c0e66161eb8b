package runtime

import "hash/maphash"

// stateTable is A*'s hash table from states to nodes: open addressing
// with linear probing, the states themselves staying in AStar.states. A
// slot belongs to the current search only when it carries the search's
// generation, so a new search starts with an empty table without
// clearing it, and reuses its storage. (A map[S]int32 would do the same
// job, but clear(map) draws a new hash seed, so a large map reorganises
// itself, and allocates, on every search.)
type stateTable struct {
	seed  maphash.Seed
	slots []stateSlot // power-of-two length
	gen   uint32      // the current search's generation, from 1
	count int         // slots of the current generation
}

type stateSlot struct {
	gen  uint32 // generation that filled the slot; stale when not current
	hash uint32 // the state's hash: its low bits are the home slot
	node int32
}

// reset empties the table for a new search.
func (t *stateTable) reset() {
	if len(t.slots) == 0 {
		t.seed = maphash.MakeSeed()
		t.slots = make([]stateSlot, 1024)
	}
	t.gen++
	if t.gen == 0 { // wrapped: old stamps could look current
		clear(t.slots)
		t.gen = 1
	}
	t.count = 0
}

// find returns the node of s, or -1 with the slot where s belongs and its
// hash. States with the same key (Domain.Key: the state without its inert
// fields) are one node. The domain's generated Hash hashes field by field;
// without it, hash/maphash hashes the state's memory. (A method of the
// search, as it reads the search's states.)
func (a *AStar[S]) find(s S) (node int32, slot uint32, hash uint32) {
	t := &a.table
	a.probe = s // a field: the address of s would make every call allocate it
	if a.key != nil {
		a.probe = a.key(&a.probe)
	}
	var h uint64
	if a.hash != nil {
		h = a.hash(&a.probe)
	} else {
		h = maphash.Comparable(t.seed, a.probe)
	}
	hash = uint32(h ^ h>>32)
	mask := uint32(len(t.slots) - 1)
	for i := hash & mask; ; i = (i + 1) & mask {
		sl := &t.slots[i]
		if sl.gen != t.gen {
			return -1, i, hash
		}
		if sl.hash == hash && a.sameKey(sl.node) {
			return sl.node, i, hash
		}
	}
}

// sameKey reports whether the state of node n has the key in a.probe.
func (a *AStar[S]) sameKey(n int32) bool {
	if a.key != nil {
		return a.key(&a.states[n]) == a.probe
	}
	return a.states[n] == a.probe
}

// insert fills the slot find returned for a new node.
func (t *stateTable) insert(slot, hash uint32, node int32) {
	t.slots[slot] = stateSlot{gen: t.gen, hash: hash, node: node}
	t.count++
	if 2*t.count > len(t.slots) {
		t.grow()
	}
}

// grow doubles the table, moving the current generation's slots.
func (t *stateTable) grow() {
	old := t.slots
	t.slots = make([]stateSlot, 2*len(old))
	mask := uint32(len(t.slots) - 1)
	for _, sl := range old {
		if sl.gen != t.gen {
			continue
		}
		i := sl.hash & mask
		for t.slots[i].gen == t.gen {
			i = (i + 1) & mask
		}
		t.slots[i] = sl
	}
}
