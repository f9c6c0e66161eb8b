// Package fieldset is the arithmetic of sets of state fields, as the
// checker, the model and the graphs hold them: slices of field indexes.
package fieldset

import "slices"

// Meet returns the fields of a that b has too, in a's order.
func Meet(a, b []int) []int {
	var out []int
	for _, x := range a {
		if slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// Union returns the fields of all the sets, sorted, each once.
func Union(sets ...[]int) []int {
	out := slices.Concat(sets...)
	slices.Sort(out)
	return slices.Compact(out)
}
