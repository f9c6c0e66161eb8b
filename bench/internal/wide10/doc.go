package wide10

//go:generate go run ../widegen -n 10 -o role.go
//go:generate go run github.com/rolegen/rolegen/cmd/rolegen
