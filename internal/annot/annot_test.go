package annot

import (
	"go/token"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const base = token.Pos(100)

// at returns the offset of t's byte i from base.
func at(t Text, i int) int { return int(t.Pos(i) - base) }

func TestUnquoteKeepsPositions(t *testing.T) {
	lit := NewText(`"a\"b\\c\u00e9d"`, base)
	v, err := lit.Unquote()
	require.NoError(t, err)
	assert.Equal(t, "a\"b\\cé", v.S[:7])
	assert.Equal(t, 1, at(v, 0))  // a
	assert.Equal(t, 2, at(v, 1))  // \" starts at its backslash
	assert.Equal(t, 4, at(v, 2))  // b
	assert.Equal(t, 5, at(v, 3))  // \\
	assert.Equal(t, 7, at(v, 4))  // c
	assert.Equal(t, 8, at(v, 5))  // \u00e9, first byte
	assert.Equal(t, 8, at(v, 6))  // second byte of é
	assert.Equal(t, 14, at(v, 7)) // d
	assert.Equal(t, 15, at(v, len(v.S)))

	raw, err := NewText("`x\\\"y`", base).Unquote()
	require.NoError(t, err)
	assert.Equal(t, `x\"y`, raw.S)
	assert.Equal(t, 1, at(raw, 0))

	for _, bad := range []string{`"abc`, `'a'`, `"a\qb"`, "`abc", `"a"b"`} {
		_, err := NewText(bad, base).Unquote()
		assert.Error(t, err, bad)
	}
}

func TestTagValue(t *testing.T) {
	tag := NewText(`json:"ammo,omitempty" plan:"goal=Mode == 'a;b'; priority=high"`, base)
	v, ok, err := TagValue(tag, "plan")
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, `goal=Mode == 'a;b'; priority=high`, v.S)
	assert.Equal(t, 28, at(v, 0))

	fields, probs := SplitTag(v)
	require.Empty(t, probs)
	require.Len(t, fields, 2)
	assert.Equal(t, "goal", fields[0].Key.S)
	assert.Equal(t, "Mode == 'a;b'", fields[0].Value.S, "a ; inside quotes does not split")
	assert.Equal(t, "priority", fields[1].Key.S)
	assert.Equal(t, "high", fields[1].Value.S)
	assert.Equal(t, 28+len("goal=Mode == 'a;b'; priority="), at(fields[1].Value, 0))

	_, ok, err = TagValue(tag, "yaml")
	require.NoError(t, err)
	assert.False(t, ok)

	_, _, err = TagValue(NewText(`plan:"state`, base), "plan")
	assert.Error(t, err)
	_, err = TagPairs(NewText(`plan`, base))
	assert.Error(t, err)
}

func TestSplitTagEmptyEntries(t *testing.T) {
	_, probs := SplitTag(NewText("goal=A;;priority=high", base))
	require.Len(t, probs, 1)
	assert.Equal(t, "empty entry in plan tag", probs[0].Msg)
	fields, probs := SplitTag(NewText("state;", base))
	assert.Empty(t, probs, "a trailing ; is harmless")
	assert.Len(t, fields, 1)
}

func TestDirective(t *testing.T) {
	c := NewText("//plan:action pre=\"Magazines > 0\" post=`Ammo = 30` fulfills=Armed guarded cost=2", base)
	d, ok := ParseDirective(c)
	require.True(t, ok)
	assert.Equal(t, "action", d.Name.S)
	assert.Equal(t, 7, at(d.Name, 0))
	fields, probs := SplitDirective(d.Args)
	require.Empty(t, probs)
	require.Len(t, fields, 5)
	assert.Equal(t, "pre", fields[0].Key.S)
	assert.Equal(t, "Magazines > 0", fields[0].Value.S)
	assert.Equal(t, 19, at(fields[0].Value, 0))
	assert.Equal(t, "Ammo = 30", fields[1].Value.S)
	assert.Equal(t, 40, at(fields[1].Value, 0))
	assert.Equal(t, "Armed", fields[2].Value.S)
	assert.False(t, fields[3].HasValue)
	assert.Equal(t, "guarded", fields[3].Key.S)
	assert.Equal(t, "2", fields[4].Value.S)

	_, ok = ParseDirective(NewText("// plan:action", base))
	assert.False(t, ok, "a space after // makes it prose")
}

func TestDirectiveProblems(t *testing.T) {
	cases := map[string]string{
		`pre="a`:                      `value of pre: string literal not terminated`,
		`pre=`:                        `missing value after pre=`,
		`pre"a"`:                      `missing = between pre and its value`,
		`"a" pre=x`:                   `value "a" has no key (write key=value)`,
		"pre=`a":                      `value of pre: string literal not terminated`,
		`pre="a\qb"`:                  `value of pre: invalid escape in string literal at "\\qb"`,
		`post="a" x="`:                `value of x: string literal not terminated`,
		`cost=1 =2`:                   `value =2 has no key (write key=value)`,
		`pre=Ammo > 10 post="Ammo--"`: `value of pre ends at the first space; quote it: pre="Ammo > 10"`,
		`pre=Ready post=x cost=2`:     ``,
		`fulfills=Fed, Rested`:        `value of fulfills ends at the first space; quote it: fulfills="Fed, Rested"`,
		`pre=Mode == "x" cost=2`:      "value of pre ends at the first space; quote it: pre=`Mode == \"x\"`",
		`fulfills=A,B,`:               ``,
	}
	for src, want := range cases {
		_, probs := SplitDirective(NewText(src, base))
		if want == "" {
			assert.Empty(t, probs, src)
			continue
		}
		require.NotEmpty(t, probs, src)
		assert.Equal(t, want, probs[0].Msg, src)
	}
}

// FuzzSplitDirective: splitting never panics, and every key and value
// keeps positions inside the comment.
func FuzzSplitDirective(f *testing.F) {
	for _, s := range []string{
		`//plan:action pre="Magazines > 0" post="Ammo = 30" fulfills=Armed cost=2`,
		"//plan:action pre=`a` guarded tags=\"a, b\"", `//plan:action "x" =y pre="\"`, `//plan:`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := NewText(s, base)
		d, ok := ParseDirective(c)
		if !ok {
			return
		}
		fields, probs := SplitDirective(d.Args)
		within := func(x Text) {
			for i := 0; i <= len(x.S); i++ {
				if p := x.Pos(i); p < base || p > base+token.Pos(len(s)) {
					t.Fatalf("%q: position %d of %q outside the comment", s, p, x.S)
				}
			}
		}
		for _, f := range fields {
			within(f.Key)
			if f.HasValue {
				within(f.Value)
			}
		}
		for _, p := range probs {
			within(p.At)
		}
	})
}

// FuzzTag: reading a plan tag never panics and keeps positions inside.
func FuzzTag(f *testing.F) {
	for _, s := range []string{
		`plan:"state"`, `json:"x" plan:"goal=A > 1; priority=high"`, `plan:"goal=M == 'a;b'"`,
		`plan:"\"x\""`, `plan:`, `plan:"`, `:"x"`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, ok, err := TagValue(NewText(s, base), "plan")
		if err != nil || !ok {
			return
		}
		fields, probs := SplitTag(v)
		for _, x := range append(probs, Problem{At: v}) {
			if p := x.At.Pos(0); p < base || p > base+token.Pos(len(s)) {
				t.Fatalf("%q: problem outside the tag", s)
			}
		}
		for _, f := range fields {
			if !f.HasValue {
				continue
			}
			if p := f.Value.Pos(len(f.Value.S)); p < base || p > base+token.Pos(len(s)) {
				t.Fatalf("%q: value outside the tag", s)
			}
		}
	})
}
