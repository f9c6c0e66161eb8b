package runtime

// openList is the open list of a best-first search: a binary min-heap of
// entries ordered by before.
type openList []openEntry

// openEntry is an entry of an open list. It carries its own f and g so the
// heap compares entries without touching the search's node array.
type openEntry struct {
	f, g float64
	node int32
}

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
func (h *openList) push(e openEntry) {
	*h = append(*h, e)
	l := *h
	i := len(l) - 1
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

// pop removes and returns the first entry; the list must not be empty.
// It moves the hole at the root down along the better child to a leaf,
// then the last entry up from there (one comparison a level on the way
// down, where the textbook sift-down makes two: the last entry of a heap
// usually belongs near the bottom).
func (h *openList) pop() openEntry {
	l := *h
	top := l[0]
	n := len(l) - 1
	last := l[n]
	l = l[:n]
	*h = l
	if n == 0 {
		return top
	}
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
