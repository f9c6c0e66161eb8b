package exprlang

import (
	"go/constant"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestConditionsThatCheck(t *testing.T) {
	for _, src := range []string{
		"Ammo > 10",
		"Ammo > 10 && Magazines > 0",
		"Ammo < MaxAmmo",
		"Ammo + Magazines*30 >= MaxAmmo",
		"Stance == Crouched",
		"Stance != 2",
		"Stance > Standing",
		"Mode == 'idle'",
		`Mode == "idle" || Mode == Idle`,
		"Mode + 'x' == 'idlex'",
		"Mode < 'b'",
		"Speed > 1.5",
		"Speed * 2 > 3",
		"Speed > Half",
		"Speed >= 1e3",
		"Ready",
		"!Ready",
		"Ready == true",
		"Ready != (Ammo > 1)",
		"true",
		"Ammo % 2 == 0",
		"Ammo / 3 > 1",
		"-Ammo < 0",
		"Small < 127",
		"Small > -128",
		"Count > 0",
		"Ratio < 0.25",
		"Ammo < Limit",
		"Ammo > 10 / 4",
		"MaxAmmo > 10",
		"(Ammo > 1) && (Magazines < 2 || Ready)",
		"1_000 > Ammo",
		"Speed > 1",
		"Shift < 8*time.Hour",
		"Shift >= time.Hour + 30*time.Minute",
		"Small <= math.MaxInt8",
		"Speed < math.Pi",
		"Ammo < math.MaxInt8 * 2",
		"time . Hour > Shift",
	} {
		e, errs := Condition(src, testScope())
		require.Empty(t, errs, "%q: %v", src, errs)
		require.True(t, e.Type().Kind.IsBoolean(), src)
	}
}

// Each case is one mistake: its message and the exact byte offset of the
// wrong character.
func TestConditionErrors(t *testing.T) {
	cases := []struct {
		src    string
		offset int
		msg    string
	}{
		{"Amo > 10", 0, `unknown state field "Amo" (did you mean "Ammo"?)`},
		{"Ammo > MaxAmo", 7, `unknown constant "MaxAmo" (did you mean "MaxAmmo"?)`},
		{"Ammo > 1 && Zebra", 12, `unknown state field or constant "Zebra"`},
		{"Health > 10", 0, `Health is not a state field (tag it plan:"state")`},
		{"Ammo == nil", 8, `nil is not a value: conditions compare state fields with numbers, strings and booleans`},
		{"Ready == True", 9, `unknown name "True" (did you mean true?)`},
		{"Ammo == 'ten'", 8, `mismatched types int and untyped string: Ammo is int`},
		{"Ammo > Speed", 5, `mismatched types int and float64: Ammo is int, Speed is float64 (Go does not mix numeric types; make the fields the same type)`},
		{"Stance == 'crouched'", 10, `Stance is an enum (type Stance); compare with a constant: Crouched`},
		{"Stance != 'flying'", 10, `Stance is an enum (type Stance); compare with a constant: Standing, Crouched, Prone`},
		{"Stance + 'x' > 1", 9, `Stance is an enum (type Stance); use a constant: Standing, Crouched, Prone`},
		{"Stance == Ammo", 7, `mismatched types Stance and int: Stance is Stance, Ammo is int`},
		{"Ready > false", 6, `operator > not defined on Ready (bool): only numbers and strings are ordered`},
		{"!Ammo", 0, `operator ! not defined on Ammo (int); ! negates a boolean`},
		{"-Ready", 0, `operator - not defined on Ready (bool)`},
		{"Ammo", 0, `condition must be boolean, but Ammo is int`},
		{"Ammo + 1", 0, `condition must be boolean, but Ammo + 1 is int`},
		{"'idle'", 0, `condition must be boolean, but 'idle' is untyped string constant`},
		{"Ammo > 1 && Magazines", 12, `operator && not defined on Magazines (int); && joins booleans`},
		{"Ammo / Magazines > 1", 7, `divisor Magazines must be a constant (a state field could be zero when the plan runs)`},
		{"Ammo % 0 == 1", 7, `division by zero`},
		{"Ammo / (2 - 2) > 1", 7, `division by zero`},
		{"Speed % 2 > 1", 6, `operator % not defined on Speed (float64): % needs integers`},
		{"Small > 300", 8, `300 (untyped int constant) overflows int8`},
		{"Count > -1", 8, `-1 (untyped int constant) overflows uint`},
		{"Ammo > 1.5", 7, `1.5 (untyped float constant) truncated to int`},
		{"Ammo * 0.5 > 1", 7, `0.5 (untyped float constant) truncated to int`},
		{"Ratio > 1e40", 8, `1e40 (untyped float constant) overflows float32`},
		{"Mode - 'x' == ''", 5, `operator - not defined on Mode (string)`},
		{"Ready + Ready", 6, `operator + not defined on Ready (bool)`},
		{"1 == 'a'", 2, `mismatched types untyped int and untyped string`},
		{"Mode == Crouched", 5, `mismatched types string and Stance: Mode is string, Crouched is Stance`},
		{"Ammo > Limit * 100000000000000000", 7, `constant 10000000000000000000 overflows int`},
		{"Ammo == 99999999999999999999", 8, `99999999999999999999 (untyped int constant) overflows int`},
		// Go keeps untyped integer constants within 512 bits.
		{"10000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000 < 0", 0, `constant overflow (an untyped integer constant has at most 512 bits)`},
		{"100000000000000000000000000000000000000000000000000000000000000000000000000000000 * 100000000000000000000000000000000000000000000000000000000000000000000000000000000 < 0", 82, `constant multiplication overflow (an untyped integer constant has at most 512 bits)`},
		{"Speed < 1" + strings.Repeat("0", 10001), 8, `excessively long constant: 1000000000... (10002 chars)`},
		// Qualified names: the wrong part, named; types as Go types them.
		{"Shift < 8*time.Hours", 15, `unknown constant time.Hours (did you mean time.Hour?)`},
		{"Shift < 8*tme.Hour", 10, `unknown package "tme" in tme.Hour (did you mean "time"?)`},
		{"Shift < 8*clock.Hour", 10, `unknown package "clock" in clock.Hour: a qualified name is an exported constant of a package the role's file imports, or of a standard package (time.Hour)`},
		{"Shift < time.Second", 13, `package time has no exported constant Second`},
		{"Shift < time.Now", 8, `time.Now is a function; conditions read state fields and constants`},
		{"Ammo < time.Hour", 5, `mismatched types int and time.Duration: Ammo is int, time.Hour is time.Duration`},
		{"Small < math.MaxInt8 + 1", 8, `math.MaxInt8 + 1 (untyped int constant) overflows int8`},
		{"Ammo.Max > 1", 0, `Ammo is a state field, not a package: conditions name state fields directly, without selectors`},
	}
	for _, c := range cases {
		_, errs := Condition(c.src, testScope())
		require.NotEmpty(t, errs, c.src)
		require.Equal(t, c.msg, errs[0].Msg, c.src)
		require.Equal(t, c.offset, errs[0].Offset, c.src)
	}
}

func TestConditionReportsEveryError(t *testing.T) {
	_, errs := Condition("Amo > 1 && Magazins > 0 && Mode == 3", testScope())
	require.Len(t, errs, 3)
	require.Equal(t, 0, errs[0].Offset)
	require.Equal(t, 11, errs[1].Offset)
	require.Equal(t, 35, errs[2].Offset)
	require.Contains(t, errs[1].Msg, `did you mean "Magazines"`)
}

func TestTypesAndConstants(t *testing.T) {
	e, errs := Condition("Stance == Crouched && Ammo + 2*3 > MaxAmmo", testScope())
	require.Empty(t, errs)
	and := e.(*Binary)
	left := and.X.(*Binary)
	require.True(t, left.X.Type().Identical(stance))
	require.True(t, left.Y.Type().Identical(stance))
	require.Equal(t, Const, left.Y.(*Ident).Symbol.Kind)
	right := and.Y.(*Binary)
	sum := right.X.(*Binary)
	require.Equal(t, Basic(Int), sum.Type())
	// The untyped 2*3 takes the type of Ammo and keeps its value.
	prod := sum.Y.(*Binary)
	require.Equal(t, Basic(Int), prod.Type())
	require.Equal(t, int64(6), constantInt(t, prod.Value()))
	require.Equal(t, Basic(Int), right.Y.Type())
	require.Equal(t, []int{fAmmo, fStance}, Reads(e))
}

func TestConstantFolding(t *testing.T) {
	e, errs := Condition("Ammo > 7 / 2", testScope())
	require.Empty(t, errs)
	require.Equal(t, int64(3), constantInt(t, e.(*Binary).Y.Value()), "integer division, as in Go")
	e, errs = Condition("Speed > 7 / 2.0", testScope())
	require.Empty(t, errs)
	require.Equal(t, "3.5", e.(*Binary).Y.Value().String())
	e, errs = Condition("1 < 2 && !false", testScope())
	require.Empty(t, errs)
	require.Equal(t, constant.MakeBool(true), e.Value())
}

func constantInt(t *testing.T, v constant.Value) int64 {
	t.Helper()
	require.NotNil(t, v)
	i, ok := constant.Int64Val(v)
	require.True(t, ok)
	return i
}

func TestEffectsThatCheck(t *testing.T) {
	effs, errs := Effects("Ammo = 30, Magazines = Magazines - 1, Speed += 0.5, Mode += 'x', Count++, Small--, Stance = Crouched, Ready = Ammo > 3", testScope())
	require.Empty(t, errs)
	require.Len(t, effs, 8)
	require.Equal(t, []int{fAmmo, fMagazines, fSpeed, fReady, fMode, fStance, fSmall, fCount}, Writes(effs))
	require.Equal(t, []int{fAmmo, fMagazines, fSpeed, fMode, fSmall, fCount}, EffectReads(effs))
}

func TestEffectErrors(t *testing.T) {
	cases := []struct {
		src    string
		offset int
		msg    string
	}{
		{"Amo = 30", 0, `unknown state field "Amo" (did you mean "Ammo"?)`},
		{"Ammo = 30, Ammo = 1", 11, `Ammo is assigned twice in one post; effects are simultaneous, so write one assignment`},
		{"MaxAmmo = 3", 0, `cannot assign to constant MaxAmmo; effects assign state fields`},
		{"Health = 3", 0, `Health is not a state field (tag it plan:"state")`},
		{"Ammo = 'full'", 7, `cannot assign 'full' (untyped string constant) to Ammo (int)`},
		{"Ammo = Speed", 7, `cannot assign Speed (float64) to Ammo (int) (Go does not mix numeric types; make the fields the same type)`},
		{"Stance = 'prone'", 9, `Stance is an enum (type Stance); assign a constant: Prone`},
		{"Stance = Ammo", 9, `cannot assign Ammo (int) to Stance (Stance)`},
		{"Ready++", 5, `Ready++ needs a number, but Ready is bool`},
		{"Mode -= 'x'", 5, `operator -= not defined on Mode (string)`},
		{"Ammo = 1.5", 7, `1.5 (untyped float constant) truncated to int`},
		{"Small = 200", 8, `200 (untyped int constant) overflows int8`},
		{"Ammo = Ammo / Magazines", 14, `divisor Magazines must be a constant (a state field could be zero when the plan runs)`},
		{"Ready = Ammo", 8, `cannot assign Ammo (int) to Ready (bool)`},
		{"Ammo += Speed", 8, `cannot assign Speed (float64) to Ammo (int) (Go does not mix numeric types; make the fields the same type)`},
		{"Ammo = nil", 7, `nil is not a value: conditions compare state fields with numbers, strings and booleans`},
	}
	for _, c := range cases {
		_, errs := Effects(c.src, testScope())
		require.NotEmpty(t, errs, c.src)
		require.Equal(t, c.msg, errs[0].Msg, c.src)
		require.Equal(t, c.offset, errs[0].Offset, c.src)
	}
}

// A name whose declaration is already reported fails a condition or post
// with Cascade errors only, so a caller prints the mistake once; other
// mistakes in the same text are still reported.
func TestReportedNameCascades(t *testing.T) {
	scope := testScope()
	scope.List = append(scope.List, Symbol{Kind: Reported, Name: "Gold"})

	e, errs := Condition("Gold >= 3 && Ammo > 1", scope)
	require.Nil(t, e)
	require.Len(t, errs, 1)
	require.True(t, errs[0].Cascade)
	require.Equal(t, 0, errs[0].Offset)

	_, errs = Condition("Gold > 0 && Amo > 1", scope)
	require.Len(t, errs, 2)
	require.True(t, errs[0].Cascade)
	require.False(t, errs[1].Cascade)
	require.Equal(t, `unknown state field "Amo" (did you mean "Ammo"?)`, errs[1].Msg)

	_, errs = Effects("Gold -= 3, Ammo = Gold", scope)
	require.Len(t, errs, 2)
	for _, err := range errs {
		require.True(t, err.Cascade, err.Msg)
	}
}

// TestUnknownNameSuggestsTheNearestOfEitherKind: a name nearer a
// constant than any field is suggested the constant (a place written in
// lower case beside a field whose name is one letter from it).
func TestUnknownNameSuggestsTheNearestOfEitherKind(t *testing.T) {
	place := Named("Place", "example.com/inn", Int)
	scope := &MapScope{List: []Symbol{
		{Kind: Field, Name: "At", Type: place, Index: 0},
		{Kind: Field, Name: "Wood", Type: Basic(Int), Index: 1},
		{Kind: Const, Name: "Woods", Type: place, Value: constant.MakeInt64(2)},
	}}
	for _, c := range []struct{ src, msg string }{
		{"At == woods", `unknown constant "woods" (did you mean "Woods"?)`},
		{"At == Wods", `unknown constant "Wods" (did you mean "Woods"?)`},
		{"wood > 1", `unknown state field "wood" (did you mean "Wood"?)`},
		{"Woo > 1", `unknown state field "Woo" (did you mean "Wood"?)`},
	} {
		_, errs := Condition(c.src, scope)
		require.Len(t, errs, 1, c.src)
		require.Equal(t, c.msg, errs[0].Msg, c.src)
	}
}
