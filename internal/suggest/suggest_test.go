package suggest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestClosest(t *testing.T) {
	fields := []string{"Ammo", "Magazines", "Health", "Stance"}
	cases := []struct {
		name, want string
		ok         bool
	}{
		{"Amo", "Ammo", true},
		{"ammo", "Ammo", true},
		{"Magazine", "Magazines", true},
		{"Magzaines", "Magazines", true}, // a transposition is one edit
		{"Helth", "Health", true},
		{"Stnce", "Stance", true},
		{"Zebra", "", false},
		{"X", "", false},
		{"Stanc", "Stance", true},
		{"Helt", "", false}, // two edits from Health: too many for four letters
	}
	for _, c := range cases {
		got, ok := Closest(c.name, fields)
		assert.Equal(t, c.ok, ok, c.name)
		assert.Equal(t, c.want, got, c.name)
	}
}

func TestClosestRoundsTheThird(t *testing.T) {
	got, ok := Closest("Loafs", []string{"Coins", "Flour", "Loaves"})
	assert.True(t, ok)
	assert.Equal(t, "Loaves", got, "two edits in five letters")
}

func TestClosestPrefersEarlierOnTies(t *testing.T) {
	got, ok := Closest("Bx", []string{"Ax", "Cx"})
	assert.True(t, ok)
	assert.Equal(t, "Ax", got)
}

func TestDistance(t *testing.T) {
	assert.Equal(t, 0, distance("abc", "abc"))
	assert.Equal(t, 1, distance("abc", "acb"))
	assert.Equal(t, 3, distance("", "abc"))
	assert.Equal(t, 1, distance("héllo", "hello"))
}
