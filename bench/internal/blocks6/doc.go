package blocks6

//go:generate go run ../blocksgen -n 6 -o blocks.go
//go:generate go run github.com/rolegen/rolegen/cmd/rolegen
