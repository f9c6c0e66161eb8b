package runtime

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestExactRange: a goal's one part is tested on its field's value only
// where the interval [lo, hi] says what the comparison says: a strict
// comparison of an integer field (its bound moved by one), or one that
// is not strict; not a strict comparison of a float field (x > 2 does
// not hold at 2), nor a bound past 2^53 (an integer near it converts to
// float64 with rounding).
func TestExactRange(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		name    string
		cmp     Cmp
		integer bool
		lo, hi  float64
		want    bool
	}{
		{"int >", CmpGt, true, 81, inf, true},
		{"int <", CmpLt, true, -inf, 9, true},
		{"int ==", CmpEq, true, 3, 3, true},
		{"float >", CmpGt, false, 2, inf, false},
		{"float <", CmpLt, false, -inf, 2, false},
		{"float >=", CmpGe, false, 2.5, inf, true},
		{"float <=", CmpLe, false, -inf, 2.5, true},
		{"float ==", CmpEq, false, 2.5, 2.5, true},
		{"!=", CmpNe, true, -inf, inf, false},
		{"other form", CmpNone, true, -inf, inf, false},
		{"int > 2^60", CmpGt, true, 1 << 60, inf, false},
		{"int < -2^60", CmpLt, true, -inf, -(1 << 60), false},
		{"int >= 2^53", CmpGe, true, 1 << 53, inf, true},
	} {
		b := partBound{integer: c.integer, lo: c.lo, hi: c.hi}
		assert.Equal(t, c.want, exactRange(&Part{Cmp: c.cmp}, &b), c.name)
	}
}

// TestExactField: the goal's part is tested on the field's value only for
// fields whose value Domain.Number gives as the conditions compare it.
func TestExactField(t *testing.T) {
	for _, c := range []struct {
		f    Field
		want bool
	}{
		{Field{Type: "int", Kind: KindInt}, true},
		{Field{Type: "uint8", Kind: KindUint}, true},
		{Field{Type: "Stance", Kind: KindInt}, true},
		{Field{Type: "bool", Kind: KindBool}, true},
		{Field{Type: "float64", Kind: KindFloat}, true},
		{Field{Type: "float32", Kind: KindFloat}, false},
		{Field{Type: "Celsius", Kind: KindFloat}, false},
		{Field{Type: "string", Kind: KindString}, false},
	} {
		assert.Equal(t, c.want, exactField(&c.f), c.f.Type)
	}
}
