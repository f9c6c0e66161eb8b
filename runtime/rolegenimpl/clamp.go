package rolegenimpl

import "cmp"

// Clamp is v within [lo, hi]: the value an effect gives a field with a
// range (plan:"state; min=0; max=100").
func Clamp[T cmp.Ordered](v, lo, hi T) T {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// AtLeast is v, or lo when v is below it: the value an effect gives a
// field with a min alone.
func AtLeast[T cmp.Ordered](v, lo T) T {
	if v < lo {
		return lo
	}
	return v
}

// AtMost is v, or hi when v is above it: the value an effect gives a
// field with a max alone.
func AtMost[T cmp.Ordered](v, hi T) T {
	if v > hi {
		return hi
	}
	return v
}
