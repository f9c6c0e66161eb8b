package wide50

//go:generate go run ../widegen -n 50 -o role.go
//go:generate go run github.com/rolegen/rolegen/cmd/rolegen
