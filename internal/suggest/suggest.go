// Package suggest finds the name a user most likely meant.
package suggest

import (
	"strings"
	"unicode/utf8"
)

// Closest returns the candidate nearest to name, when one is near enough to
// be a likely typo: the same letters in another case, or an edit distance of
// at most one for short names and a third of the length, rounded to the
// nearest, for longer ones (two for "Loafs", meant as "Loaves").
// Ties go to the earlier candidate, so the result is deterministic when the
// candidates are.
func Closest(name string, candidates []string) (string, bool) {
	best, bestDist := "", -1
	lower := strings.ToLower(name)
	for _, c := range candidates {
		if c == name {
			continue
		}
		if strings.ToLower(c) == lower {
			return c, true
		}
		d := distance(lower, strings.ToLower(c))
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	if bestDist < 0 {
		return "", false
	}
	limit := max(1, (utf8.RuneCountInString(name)+1)/3)
	if bestDist > limit {
		return "", false
	}
	return best, true
}

// distance is the Damerau-Levenshtein distance (optimal string alignment)
// between a and b, counted in runes: a swap of two neighbours is one edit.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
