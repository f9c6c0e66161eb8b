package rolegenimpl

import (
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/rolegen/rolegen/runtime/internal/fmix"
)

// The state hash functions rolegen generates (runtime.Domain.Hash) fold
// each field into a running hash with these helpers and finish with
// HashMix. They are small enough to inline, fixed (the same hash on every
// run and machine), and treat equal values alike: +0 and -0 hash the
// same, as they compare equal.

// HashStart is the hash of a state before its first field.
const HashStart uint64 = 0x243f6a8885a308d3

const (
	hashMul1 = 0x9e3779b97f4a7c15
	hashMul2 = 0xbf58476d1ce4e5b9
)

// HashWord folds an integer (or the bits of any word) into h.
func HashWord(h, v uint64) uint64 {
	return bits.RotateLeft64((h^v)*hashMul1, 29) * hashMul2
}

// HashBit returns 1<<i when b is set and 0 otherwise: generated hash
// functions gather bools into words with it.
func HashBit(b bool, i uint) uint64 {
	var v uint64
	if b {
		v = 1
	}
	return v << i
}

// HashFloat folds a float into h; -0 hashes as +0.
func HashFloat(h uint64, v float64) uint64 {
	if v == 0 {
		v = 0
	}
	return HashWord(h, math.Float64bits(v))
}

// HashString folds a string into h, eight bytes at a time, and its length.
// The last 1 to 7 bytes go in one word without a loop: two 4-byte loads
// that overlap from 4 on, the first, middle and last byte below that;
// for a given length, either takes every byte.
func HashString(h uint64, s string) uint64 {
	h = HashWord(h, uint64(len(s)))
	for len(s) >= 8 {
		h = HashWord(h, binary.LittleEndian.Uint64([]byte(s[:8])))
		s = s[8:]
	}
	var tail uint64
	switch n := len(s); {
	case n >= 4:
		tail = uint64(binary.LittleEndian.Uint32([]byte(s[:4]))) | uint64(binary.LittleEndian.Uint32([]byte(s[n-4:])))<<32
	case n > 0:
		tail = uint64(s[0]) | uint64(s[n/2])<<8 | uint64(s[n-1])<<16
	}
	return HashWord(h, tail)
}

// HashMix finishes a hash (MurmurHash3's fmix64): every bit of h affects
// every bit of the result, so its low bits can index a table.
func HashMix(h uint64) uint64 { return fmix.Mix64(h) }
