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
	// room is how many more states the current generation may insert
	// before the table grows (it stays at most half full).
	room int
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
	t.room = len(t.slots) / 2
}

// hashOf is the hash of key *k: the domain's generated Hash, which
// hashes field by field, or hash/maphash over the key's memory.
func (a *AStar[S]) hashOf(k *S) uint64 {
	if a.hash != nil {
		return a.hash(k)
	}
	return maphash.Comparable(a.table.seed, *k)
}

// fold is the part of a state's hash the table keeps.
func fold(h uint64) uint32 { return uint32(h ^ h>>32) }

// find returns the node of key *k (a state without its inert fields: see
// Domain.Key), whose hash is fold(its hash), or -1 with the slot where it
// belongs. (A method of the search, as it reads the search's states.)
func (a *AStar[S]) find(k *S, hash uint32) (node int32, slot uint32) {
	t := &a.table
	mask := uint32(len(t.slots) - 1)
	for i := hash & mask; ; i = (i + 1) & mask {
		sl := &t.slots[i]
		if sl.gen != t.gen {
			return -1, i
		}
		if sl.hash == hash && a.states[sl.node] == *k {
			return sl.node, i
		}
	}
}

// reserve makes room for one more state, before the find whose slot
// insert fills (growing moves the slots).
func (t *stateTable) reserve() {
	if t.room <= 0 {
		t.grow()
	}
}

// insert fills the slot find returned for a new node, after reserve.
func (t *stateTable) insert(slot, hash uint32, node int32) {
	t.slots[slot] = stateSlot{gen: t.gen, hash: hash, node: node}
	t.room--
}

// grow doubles the table, moving the current generation's slots. Not
// inlined: inline, its loop would crowd Search.Add's registers for a call
// that a search makes a few times at most.
//
//go:noinline
func (t *stateTable) grow() {
	old := t.slots
	t.slots = make([]stateSlot, 2*len(old))
	t.room += len(old) / 2 // the new half, less the old
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
