package main

import (
	"os"
	goruntime "runtime"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rolegen/rolegen/examples/arena/world"
)

// The totals and the checksum depend on the seed only: not on GOMAXPROCS
// nor on how many workers share the agents.
func TestDeterministicAcrossGOMAXPROCS(t *testing.T) {
	defer goruntime.GOMAXPROCS(goruntime.GOMAXPROCS(0))
	var results []world.Stats
	for _, procs := range []int{1, 2} {
		goruntime.GOMAXPROCS(procs)
		for _, workers := range []int{1, procs, 3} {
			st, _ := run(700, 40, 42, workers)
			results = append(results, st)
		}
	}
	for _, st := range results[1:] {
		assert.Equal(t, results[0], st)
	}
	other, _ := run(700, 40, 43, 2)
	assert.NotEqual(t, results[0].Checksum, other.Checksum, "another seed gives another world")
}

// A short run, seed 1: what the agents did and the checksum.
func Example() {
	st, _ := run(200, 20, 1, goruntime.GOMAXPROCS(0))
	report(os.Stdout, st)
	// Output:
	// plans: 4000 (steps 1638, idle 2992, partial 13)
	// performed: Forage 78 Eat 314 Rest 68 Scavenge 170 Fight 318 Flee 37 Hide 10
	// checksum: f9caf0fd754cd4a6
}
