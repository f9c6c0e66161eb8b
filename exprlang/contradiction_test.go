package exprlang

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestContradiction(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"Ammo > 7 && Ammo < 3", "Ammo < 3 contradicts Ammo > 7: no value of Ammo satisfies both; this condition holds in no state"},
		{"Ready && Ammo > 1 && !Ready", "!Ready contradicts Ready: no value of Ready satisfies both; this condition holds in no state"},
		{"Mode == 'a' && (Mode == Idle)", "Mode == Idle contradicts Mode == 'a': no value of Mode satisfies both; this condition holds in no state"},
		{"Count < 0", "Count < 0 never holds: Count is a uint; this condition holds in no state"},
		{"0 > Count", "0 > Count never holds: Count is a uint; this condition holds in no state"},
		{"Small >= 1 && Small <= 2 && Small != 1 && Small != 2", "Small != 2 contradicts Small >= 1 && Small <= 2 && Small != 1: no value of Small satisfies all of them; this condition holds in no state"},
		{"Ready != true && Ready != false", "Ready != false contradicts Ready != true: no value of Ready satisfies both; this condition holds in no state"},
		{"Stance == Crouched && Stance == Prone", "Stance == Prone contradicts Stance == Crouched: no value of Stance satisfies both; this condition holds in no state"},
		{"Small > 126 && Small != 127", "Small != 127 contradicts Small > 126: no value of Small satisfies both; this condition holds in no state"},
		// Holds somewhere.
		{"Ammo > 3 && Ammo < 5", ""},
		{"Ammo > 7 || Ammo < 3", ""},
		{"Ready && (Ammo > 1 || !Ready)", ""},
		{"Mode != 'a' && Mode != 'b'", ""},
		{"Mode < 'b' && Mode > 'c'", ""},   // orderings of strings: not seen
		{"Speed > 2.0 && Speed < 1.0", ""}, // floats: not seen
		{"Ammo + Magazines > 7 && Ammo < 3", ""},
		{"Count >= 0", ""},
		{"Small >= 1 && Small <= 2 && Small != 1", ""},
	} {
		e, errs := Condition(c.src, testScope())
		require.Empty(t, errs, c.src)
		got := Contradiction(c.src, e)
		if c.want == "" {
			assert.Nil(t, got, c.src)
			continue
		}
		require.NotNil(t, got, c.src)
		assert.Equal(t, c.want, got.Msg, c.src)
		at := c.src[got.Offset:got.End]
		assert.True(t, strings.HasPrefix(got.Msg, at+" "), "%s: the error stands at %q", c.src, at)
	}
}

// On random conjunctions of comparisons of an int8 field with constants,
// Contradiction reports exactly those that no value of the field
// satisfies (every value tried).
func TestContradictionIsExactOnOneField(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 63))
	ops := []string{"==", "!=", "<", "<=", ">", ">="}
	holdsFor := func(v int, op string, k int, flipped bool) bool {
		a, b := v, k
		if flipped {
			a, b = k, v
		}
		switch op {
		case "==":
			return a == b
		case "!=":
			return a != b
		case "<":
			return a < b
		case "<=":
			return a <= b
		case ">":
			return a > b
		}
		return a >= b
	}
	reported := 0
	for range 4000 {
		n := 1 + rng.IntN(4)
		var parts []string
		type cmp struct {
			op      string
			k       int
			flipped bool
		}
		var cmps []cmp
		for range n {
			c := cmp{ops[rng.IntN(len(ops))], -128 + rng.IntN(256), rng.IntN(2) == 0}
			if rng.IntN(2) == 0 { // near the ends, where few values are left
				c.k = []int{-128, -127, 126, 127, 0, 1}[rng.IntN(6)]
			}
			cmps = append(cmps, c)
			if c.flipped {
				parts = append(parts, fmt.Sprintf("%d %s Small", c.k, c.op))
			} else {
				parts = append(parts, fmt.Sprintf("Small %s %d", c.op, c.k))
			}
		}
		src := strings.Join(parts, " && ")
		e, errs := Condition(src, testScope())
		require.Empty(t, errs, src)
		some := false
		for v := -128; v <= 127 && !some; v++ {
			all := true
			for _, c := range cmps {
				all = all && holdsFor(v, c.op, c.k, c.flipped)
			}
			some = all
		}
		got := Contradiction(src, e)
		assert.Equal(t, !some, got != nil, src)
		if got != nil {
			reported++
		}
	}
	assert.Greater(t, reported, 400, "enough contradictions among them to tell")
}
