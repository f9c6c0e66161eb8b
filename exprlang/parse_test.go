package exprlang

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParsePrecedence(t *testing.T) {
	cases := map[string]string{
		"a || b && c":             "(a || (b && c))",
		"a && b || c":             "((a && b) || c)",
		"a + b * c > d":           "((a + (b * c)) > d)",
		"a - b - c":               "((a - b) - c)",
		"a - (b - c)":             "(a - (b - c))",
		"!a && b":                 "((!a) && b)",
		"-a * b":                  "((-a) * b)",
		"- -a":                    "(-(-a))",
		"a % 2 == 0":              "((a % 2) == 0)",
		"(a || b) && c":           "((a || b) && c)",
		"a == 1 || b != 2 && c":   "((a == 1) || ((b != 2) && c))",
		"x / 2 + y * 3 <= z - 1":  "(((x / 2) + (y * 3)) <= (z - 1))",
		"true && false":           "(true && false)",
		"Mode == 'idle'":          "(Mode == 'idle')",
		`Mode == "idle"`:          `(Mode == "idle")`,
		"!(a > 1)":                "(!(a > 1))",
		"a >= 1.5 && b <= .5":     "((a >= 1.5) && (b <= .5))",
		"   Ammo   >   10   ":     "(Ammo > 10)",
		"Größe > 1":               "(Größe > 1)",
		"a + b + c + d + e + f":   "(((((a + b) + c) + d) + e) + f)",
		"a && b && c || d && e":   "(((a && b) && c) || (d && e))",
		"((((a))))":               "a",
		"a * (b + c) % d":         "((a * (b + c)) % d)",
		"!!a":                     "(!(!a))",
		"a != b == false":         "", // chained comparison: a syntax error
		"a < b < c":               "",
		"a = 1":                   "",
		"a +":                     "",
		"(a":                      "",
		"a)":                      "",
		"a b":                     "",
		"":                        "",
		"a & b":                   "",
		"a, b":                    "",
		"a++":                     "",
		"Soldier.Ammo > 1":        "(Soldier.Ammo > 1)",
		"Shift < 8*time.Hour":     "(Shift < (8 * time.Hour))",
		"a.b.c":                   "",
		"a.":                      "",
		".a":                      "",
		"(a).b":                   "",
		"'unterminated == Mode":   "",
		"Ammo > 10 # comment":     "",
		"Ammo > 10 && && Ready":   "",
		"Ammo > 10 &&\nMode == 1": "((Ammo > 10) && (Mode == 1))",
	}
	for src, want := range cases {
		e, err := ParseCondition(src)
		if want == "" {
			require.Error(t, err, "%q", src)
			continue
		}
		require.NoError(t, err, "%q", src)
		require.Equal(t, want, sexpr(e), "%q", src)
	}
}

func TestParseOffsets(t *testing.T) {
	src := "Ammo > 10 && (Mode == 'idle')"
	e, err := ParseCondition(src)
	require.NoError(t, err)
	and := e.(*Binary)
	require.Equal(t, 10, and.OpOffset)
	cmp := and.X.(*Binary)
	require.Equal(t, 0, cmp.Pos())
	require.Equal(t, 9, cmp.End())
	require.Equal(t, 5, cmp.OpOffset)
	paren := and.Y.(*Paren)
	require.Equal(t, 13, paren.Pos())
	require.Equal(t, len(src), paren.End())
	str := paren.X.(*Binary).Y.(*BasicLit)
	require.Equal(t, "'idle'", src[str.Pos():str.End()])
}

func TestParseOffsetsAreBytes(t *testing.T) {
	src := "Größe > 1 && Ämter"
	e, err := ParseCondition(src)
	require.NoError(t, err)
	id := e.(*Binary).Y.(*Ident)
	require.Equal(t, "Ämter", src[id.Pos():id.End()])
}

func TestSyntaxErrors(t *testing.T) {
	cases := []struct {
		src    string
		offset int
		msg    string
	}{
		{"a < b < c", 6, `unexpected <: comparisons cannot be chained (join them with &&)`},
		{"Ammo = 10", 5, `unexpected = in condition (use == to compare)`},
		{"Ammo >", 6, `unexpected end of condition (expected an operand)`},
		{"(Ammo > 1", 9, `unexpected end of condition (expected an operand)`},
		{"Ammo > 1)", 8, `unexpected ) without a matching (`},
		{"Ammo 10", 5, `unexpected "10"`},
		{"Ammo > 1 & Ready", 9, `unexpected & (did you mean &&?)`},
		{"Ammo > 1 | Ready", 9, `unexpected | (did you mean ||?)`},
		{"Mode == 'idle", 8, `string literal not terminated`},
		{"Soldier.Ammo.Max > 1", 12, `unexpected . (a selector is a package's constant, as in time.Hour; state fields are named directly)`},
		{"(Ammo).Max > 1", 6, `unexpected . (a selector is a package's constant, as in time.Hour; state fields are named directly)`},
		{"Ammo > 1, Ready", 8, `unexpected , in condition (join conditions with &&)`},
		{"Ammo++ > 1", 4, `unexpected ++ in condition (effects belong in post)`},
		{"Ammo > 1 @", 9, `unexpected character '@'`},
		{"  ", 0, `empty condition`},
		{"Ammo > > 1", 7, `unexpected >: comparisons cannot be chained (join them with &&)`},
	}
	for _, c := range cases {
		_, err := ParseCondition(c.src)
		require.Error(t, err, c.src)
		list := err.(ErrorList)
		require.Len(t, list, 1, c.src)
		require.Equal(t, c.msg, list[0].Msg, c.src)
		require.Equal(t, c.offset, list[0].Offset, c.src)
	}
}

func TestParseEffects(t *testing.T) {
	effs, err := ParseEffects("Ammo = 30, Magazines = Magazines - 1, Count++, Speed -= 0.5, Mode += 'x', Ready--")
	require.NoError(t, err)
	require.Len(t, effs, 6)
	require.Equal(t, "Ammo", effs[0].Field.Name)
	require.Equal(t, Assign, effs[0].Op)
	require.Equal(t, "30", sexpr(effs[0].Value))
	require.Equal(t, "(Magazines - 1)", sexpr(effs[1].Value))
	require.Equal(t, Inc, effs[2].Op)
	require.Nil(t, effs[2].Value)
	require.Equal(t, SubAssign, effs[3].Op)
	require.Equal(t, AddAssign, effs[4].Op)
	require.Equal(t, Dec, effs[5].Op)
	require.Equal(t, 11, effs[1].Pos())
}

func TestEffectSyntaxErrors(t *testing.T) {
	cases := []struct {
		src    string
		offset int
		msg    string
	}{
		{"Ammo =", 6, `missing value after = in effect on Ammo`},
		{"Ammo == 30", 5, `unexpected ==: comparisons cannot be chained (join them with &&)`},
		{"Ammo = 30 Magazines = 1", 10, `unexpected "Magazines"`},
		{"30 = Ammo", 0, `unexpected "30"`},
		{"Ammo++ 1", 7, `unexpected value after Ammo++`},
		{"Ammo += ", 7, `missing value after += in effect on Ammo`},
		{"Ammo = 1,", 9, `unexpected end of post (expected an operand)`},
		{"", 0, `empty post: write at least one effect, as in Ammo = 30`},
	}
	for _, c := range cases {
		_, err := ParseEffects(c.src)
		require.Error(t, err, c.src)
		list := err.(ErrorList)
		require.Equal(t, c.msg, list[0].Msg, c.src)
		require.Equal(t, c.offset, list[0].Offset, c.src)
	}
}
