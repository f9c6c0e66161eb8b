//go:build !linux

package bench

import "time"

var origin = time.Now()

// threadCPU is wall time where the thread's CPU time is not at hand.
func threadCPU() time.Duration { return time.Since(origin) }
