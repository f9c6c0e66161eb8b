//go:build race

package world

// raceEnabled: the race detector allocates for its own bookkeeping, so
// allocation counts are not compared under it.
const raceEnabled = true
