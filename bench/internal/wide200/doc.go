package wide200

//go:generate go run ../widegen -n 200 -o role.go
//go:generate go run github.com/rolegen/rolegen/cmd/rolegen
