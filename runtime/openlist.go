package runtime

import "math"

// openList is the open list of a best-first search, entries ordered by
// before: the best entry pushed since the last pop that took the slot (in
// hot), and a binary min-heap of the others. A search usually expands
// next the best of the successors it has just pushed: that one then
// never enters the heap, which saves a push and a pop of it.
type openList struct {
	hot    openEntry
	hasHot bool
	heap   minHeap
}

// minHeap is a binary min-heap of entries ordered by before: its first
// n entries. Its storage is all its length, so that a push or a pop
// stores a count, not a slice header (whose pointer the garbage collector
// would be told of on every store).
type minHeap struct {
	l []openEntry
	n int
}

// len is the number of entries.
func (o *openList) len() int {
	if o.hasHot {
		return o.heap.n + 1
	}
	return o.heap.n
}

// reset empties the list, keeping its storage.
func (o *openList) reset() {
	o.hasHot = false
	o.heap.n = 0
}

// push adds e: into the empty slot inline (the first successor pushed
// since a pop), the heap through a call.
func (o *openList) push(e openEntry) {
	if !o.hasHot {
		o.hot, o.hasHot = e, true
		return
	}
	o.pushBeside(e)
}

// pushBeside adds e to a list whose slot is taken.
func (o *openList) pushBeside(e openEntry) {
	switch {
	case e.before(&o.hot):
		o.heap.push(o.hot)
		o.hot = e
	default:
		o.heap.push(e)
	}
}

// pop removes and returns the first entry; the list must not be empty.
func (o *openList) pop() openEntry {
	if o.hasHot && (o.heap.n == 0 || o.hot.before(&o.heap.l[0])) {
		o.hasHot = false
		return o.hot
	}
	return o.heap.pop()
}

// openEntry is an entry of an open list. It carries its own f and g so the
// heap compares entries without touching the search's node array. They
// are kept as their IEEE 754 bits: for the values a search has (finite,
// not negative, not NaN) the bits order as the numbers do, and comparing
// integers takes one instruction, where a float comparison takes two
// branches for NaN.
type openEntry struct {
	f, g uint64
	node int32
}

// entry returns the entry of node with f = g + weight × h and cost so far
// g, both finite, not negative and not NaN (-0 is not: its bits order
// first).
func entry(f, g float64, node int32) openEntry {
	return openEntry{f: math.Float64bits(f), g: math.Float64bits(g), node: node}
}

// hasG reports whether the entry was made with cost so far g: an entry
// whose node was reached again more cheaply since is stale.
func (e *openEntry) hasG(g float64) bool { return e.g == math.Float64bits(g) }

// before orders an open list: lower f first, then higher g (nearer the
// goal by the estimate), then the node made first, which keeps the search
// deterministic.
func (e *openEntry) before(o *openEntry) bool {
	if e.f != o.f {
		return e.f < o.f
	}
	if e.g != o.g {
		return e.g > o.g
	}
	return e.node < o.node
}

// push adds e.
func (h *minHeap) push(e openEntry) {
	if h.n == len(h.l) {
		h.grow()
	}
	l := h.l
	i := h.n
	h.n++
	for i > 0 {
		parent := (i - 1) / 2
		if !e.before(&l[parent]) {
			break
		}
		l[i] = l[parent]
		i = parent
	}
	l[i] = e
}

// grow doubles the heap's storage. Not inlined: push calls it a few
// times a search at most.
//
//go:noinline
func (h *minHeap) grow() {
	l := make([]openEntry, max(64, 2*len(h.l)))
	copy(l, h.l[:h.n])
	h.l = l
}

// pop removes and returns the first entry; the heap must not be empty.
// It moves the hole at the root down along the better child to a leaf,
// then the last entry up from there (one comparison a level on the way
// down, where the textbook sift-down makes two: the last entry of a heap
// usually belongs near the bottom).
func (h *minHeap) pop() openEntry {
	h.n--
	n := h.n
	l := h.l[:n+1]
	top, last := l[0], l[n]
	if n == 0 {
		return top
	}
	l = l[:n]
	i := 0
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if r := c + 1; r < n && l[r].before(&l[c]) {
			c = r
		}
		l[i] = l[c]
		i = c
	}
	for i > 0 {
		parent := (i - 1) / 2
		if !last.before(&l[parent]) {
			break
		}
		l[i] = l[parent]
		i = parent
	}
	l[i] = last
	return top
}

// minF is the least f on the list, +Inf when it is empty (a stale entry
// may make it lower than the least live one).
func (o *openList) minF() float64 {
	f := math.Inf(1)
	if o.heap.n > 0 {
		f = math.Float64frombits(o.heap.l[0].f)
	}
	if o.hasHot {
		f = min(f, math.Float64frombits(o.hot.f))
	}
	return f
}

// reorder recomputes the order key of every live entry with key (stale
// entries, for which key reports false, are dropped) and makes the heap
// again: all entries go into the heap, the slot is emptied.
func (o *openList) reorder(key func(e *openEntry) bool) {
	h := &o.heap
	k := 0
	for i := range h.n {
		// Keyed in place: the address of a copy, passed to a function
		// value, would move each copy to the heap.
		if key(&h.l[i]) {
			h.l[k] = h.l[i]
			k++
		}
	}
	h.n = k
	if o.hasHot {
		o.hasHot = false
		if key(&o.hot) {
			h.push(o.hot)
		}
	}
	for i := h.n/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

// down moves the entry at i down to where it belongs.
func (h *minHeap) down(i int) {
	l, n := h.l, h.n
	e := l[i]
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if r := c + 1; r < n && l[r].before(&l[c]) {
			c = r
		}
		if !l[c].before(&e) {
			break
		}
		l[i] = l[c]
		i = c
	}
	l[i] = e
}
