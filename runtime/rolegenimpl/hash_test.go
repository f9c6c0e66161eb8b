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
	assert.Equal(t, rolegenimpl.HashFloat(h, 0), rolegenimpl.HashFloat(h, math.Copysign(0, -1)), "+0 and -0")
	assert.NotEqual(t, rolegenimpl.HashFloat(h, 1), rolegenimpl.HashFloat(h, 2))
	assert.NotEqual(t, rolegenimpl.HashString(h, "ab"), rolegenimpl.HashString(h, "ab\x00"), "the length counts")
	assert.NotEqual(t, rolegenimpl.HashString(h, "abcdefgh1"), rolegenimpl.HashString(h, "abcdefgh2"), "the tail counts")
	assert.Equal(t, uint64(1)<<3, rolegenimpl.HashBit(true, 3))
	assert.Zero(t, rolegenimpl.HashBit(false, 3))
	assert.Equal(t, uint64(0xc611a02fb65b2671), rolegenimpl.HashMix(rolegenimpl.HashWord(h, 42)))
}

// Every byte of a string counts, whatever its length and place.
func TestHashStringReadsEveryByte(t *testing.T) {
	h := rolegenimpl.HashStart
	for n := 1; n <= 24; n++ {
		b := []byte("abcdefghijklmnopqrstuvwxyz"[:n])
		want := rolegenimpl.HashString(h, string(b))
		for i := range b {
			c := b[i]
			b[i] = 'A'
			assert.NotEqual(t, want, rolegenimpl.HashString(h, string(b)), "length %d, byte %d", n, i)
			b[i] = c
		}
	}
}

// HashString allocates nothing.
func TestHashStringDoesNotAllocate(t *testing.T) {
	s := "forest and river"
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = rolegenimpl.HashString(rolegenimpl.HashStart, s[:7]) }))
}
