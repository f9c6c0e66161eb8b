// Package randclock holds the random roles of randroles with a clock: a
// Tick field that every action advances and no condition reads (see
// ../randgen).
package randclock

//go:generate go run ../randgen -n 40 -seed 1 -clock -o roles.go
//go:generate go run github.com/rolegen/rolegen/cmd/rolegen
