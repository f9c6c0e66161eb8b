// Package randroles holds the random roles of the backward-chaining
// benchmark (see ../randgen), as rolegen generates them.
package randroles

//go:generate go run ../randgen -n 40 -seed 1 -o roles.go
//go:generate go run github.com/rolegen/rolegen/cmd/rolegen
