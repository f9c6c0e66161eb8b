// Package fmix is the 64-bit hash finaliser the runtime's tables and the
// generated code's hashes share.
package fmix

// Mix64 finishes a hash (MurmurHash3's fmix64): every bit of h affects
// every bit of the result, so its low bits can index a table.
func Mix64(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}
