package runtime

// ProvedUnreachable reports whether the relaxed reachability (reach.go)
// proves that goal g cannot hold from s, for the external tests.
func ProvedUnreachable[S comparable](d *Domain[S], g GoalID, s S) bool {
	r := newReach(d)
	return d.unreachable(g, &s, &r)
}
