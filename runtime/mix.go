package runtime

// mix64 is a 64-bit finaliser (MurmurHash3's fmix64): every input bit
// affects every output bit, so the low bits can index a table.
func mix64(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}
