//go:build race

package runtime_test

// raceEnabled: the race detector allocates for its own bookkeeping, so
// allocation counts are not compared under it.
const raceEnabled = true
