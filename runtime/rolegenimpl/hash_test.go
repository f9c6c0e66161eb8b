package rolegenimpl_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rolegen/rolegen/runtime/rolegenimpl"
)

// Equal values hash alike, and the hash is fixed: a table built on one
// machine probes the same on another.
func TestHashHelpers(t *testing.T) {
	h := rolegenimpl.HashStart
	assert.Equal(t, rolegenimpl.HashFloatBits(0), rolegenimpl.HashFloatBits(math.Copysign(0, -1)), "+0 and -0")
	assert.NotEqual(t, rolegenimpl.HashFloatBits(1), rolegenimpl.HashFloatBits(2))
	assert.NotEqual(t, rolegenimpl.HashString("ab"), rolegenimpl.HashString("ab\x00"), "the length counts")
	assert.NotEqual(t, rolegenimpl.HashString("abcdefgh1"), rolegenimpl.HashString("abcdefgh2"), "the tail counts")
	assert.Equal(t, uint64(1)<<3, rolegenimpl.HashBit(true, 3))
	assert.Zero(t, rolegenimpl.HashBit(false, 3))
	assert.NotEqual(t, rolegenimpl.HashLane(1, 0), rolegenimpl.HashLane(1, 1), "each lane its multiplier")
	assert.Equal(t, uint64(0x339956f1d522a878), rolegenimpl.HashMix(h+rolegenimpl.HashLane(42, 0)+rolegenimpl.HashLane(7, 1)))
}

// No two states whose fields differ by small amounts hash alike: every
// state of six fields, each from -3 to 3 (117,649 of them), has a hash of
// its own. Lanes whose multipliers were in arithmetic progression would
// fail it: +1, -2, +1 in three lanes would cancel out.
func TestHashLanesKeepSmallDifferencesApart(t *testing.T) {
	const fields, lo, hi = 6, -3, 3
	seen := make(map[uint64][fields]int, 117649)
	var v [fields]int
	var walk func(i int)
	walk = func(i int) {
		if i == fields {
			h := rolegenimpl.HashStart
			for lane, x := range v {
				h += rolegenimpl.HashLane(uint64(x), uint64(lane))
			}
			h = rolegenimpl.HashMix(h)
			if other, ok := seen[h]; ok {
				assert.Fail(t, "two states hash alike", "%v and %v", other, v)
			}
			seen[h] = v
			return
		}
		for x := lo; x <= hi; x++ {
			v[i] = x
			walk(i + 1)
		}
	}
	walk(0)
	assert.Len(t, seen, 117649)
}

// Every byte of a string counts, whatever its length and place.
func TestHashStringReadsEveryByte(t *testing.T) {
	for n := 1; n <= 24; n++ {
		b := []byte("abcdefghijklmnopqrstuvwxyz"[:n])
		want := rolegenimpl.HashString(string(b))
		for i := range b {
			c := b[i]
			b[i] = 'A'
			assert.NotEqual(t, want, rolegenimpl.HashString(string(b)), "length %d, byte %d", n, i)
			b[i] = c
		}
	}
}

// HashString allocates nothing.
func TestHashStringDoesNotAllocate(t *testing.T) {
	s := "forest and river"
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = rolegenimpl.HashString(s[:7]) }))
}
