//go:build !race

package otelrolegen_test

const raceEnabled = false
