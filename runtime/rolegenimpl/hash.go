package rolegenimpl

import (
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/rolegen/rolegen/runtime/internal/fmix"
)

// The state hash functions rolegen generates (runtime.Domain.Hash) add
// to HashStart each field's share (HashLane, one lane a field) and finish
// the sum with HashMix. The lanes do not wait on each other: a state's
// fields are multiplied side by side, where a running hash would take
// them one after the other (a search hashes every state it reaches, and
// the chain of a nine-field state took it longer than its table
// lookup). They are small enough to inline, fixed (the same hash on every
// run and machine), and treat equal values alike: +0 and -0 hash the
// same, as they compare equal.

// HashStart is the hash of a state before its first field.
const HashStart uint64 = 0x243f6a8885a308d3

// HashLane is the share in a state's hash of the field in lane i, of
// value v (a word: an integer, a float's HashFloatBits, a string's
// HashString, bools gathered with HashBit): v times the lane's own odd
// multiplier, which a constant i makes a constant. Two states whose
// fields differ collide only where the differences, each times its
// lane's multiplier, add up to a multiple of 2^64: the multipliers are
// hashes of their lanes, so that no small differences in a few fields do
// (+1, -2, +1 would, with multipliers in arithmetic progression).
func HashLane(v, i uint64) uint64 { return v * (fmix.Mix64(i+hashLaneSeed) | 1) }

// hashLaneSeed keeps lane 0's multiplier from being Mix64(0), which is 0.
const hashLaneSeed = 0x13198a2e03707344

// HashFloatBits is a float's word for HashLane: its bits, with -0 as +0.
func HashFloatBits(v float64) uint64 {
	if v == 0 {
		v = 0
	}
	return math.Float64bits(v)
}

const (
	hashMul1 = 0x9e3779b97f4a7c15
	hashMul2 = 0xbf58476d1ce4e5b9
)

// hashWord folds a word into h: HashString's running hash.
func hashWord(h, v uint64) uint64 {
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

// HashString is a string's word for HashLane: its length and its bytes,
// eight at a time, folded into HashStart. The last 1 to 7 bytes go in
// one word without a loop: two 4-byte loads that overlap from 4 on, the
// first, middle and last byte below that; for a given length, either
// takes every byte.
func HashString(s string) uint64 {
	h := hashWord(HashStart, uint64(len(s)))
	for len(s) >= 8 {
		h = hashWord(h, binary.LittleEndian.Uint64([]byte(s[:8])))
		s = s[8:]
	}
	var tail uint64
	switch n := len(s); {
	case n >= 4:
		tail = uint64(binary.LittleEndian.Uint32([]byte(s[:4]))) | uint64(binary.LittleEndian.Uint32([]byte(s[n-4:])))<<32
	case n > 0:
		tail = uint64(s[0]) | uint64(s[n/2])<<8 | uint64(s[n-1])<<16
	}
	return hashWord(h, tail)
}

// HashMix finishes a hash (MurmurHash3's fmix64): every bit of h affects
// every bit of the result, so its low bits can index a table.
func HashMix(h uint64) uint64 { return fmix.Mix64(h) }
