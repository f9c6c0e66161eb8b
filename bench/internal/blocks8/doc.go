package blocks8

//go:generate go run ../blocksgen -n 8 -o blocks.go
//go:generate go run github.com/rolegen/rolegen/cmd/rolegen
