package exprlang

import (
	"testing"
	"unicode/utf8"
)

// FuzzCondition: parsing and checking never panic, every error lies inside
// the input, and a condition that checks is boolean with every node typed.
func FuzzCondition(f *testing.F) {
	for _, s := range []string{
		"Ammo > 10", "Ammo > 10 && (Mode == 'idle' || !Ready)", "Stance == Crouched",
		"Speed * 2.5 >= Half", "Ammo / 0 > 1", "a < b < c", "'unterminated", "((((", "Small > 300",
		"Mode + \"x\" == 'y\\'z'", "-(-Ammo) % 3 == 1", "1e400 > Speed", "Count > -1", "nil", "Größe > 1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		e, errs := Condition(src, testScope())
		checkErrors(t, src, errs)
		if len(errs) > 0 {
			return
		}
		if !e.Type().Kind.IsBoolean() {
			t.Fatalf("%q checked but is %s", src, e.Type())
		}
		if c := Contradiction(src, e); c != nil && (c.Offset < 0 || c.End > len(src) || c.Offset > c.End) {
			t.Fatalf("%q: contradiction at [%d,%d)", src, c.Offset, c.End)
		}
		Walk(e, func(n Expr) bool {
			if !n.Type().IsValid() {
				t.Fatalf("%q: node %T at %d has no type", src, n, n.Pos())
			}
			if n.Pos() < 0 || n.End() > len(src) || n.Pos() > n.End() {
				t.Fatalf("%q: node %T spans [%d,%d)", src, n, n.Pos(), n.End())
			}
			return true
		})
	})
}

// FuzzEffects is FuzzCondition for posts.
func FuzzEffects(f *testing.F) {
	for _, s := range []string{
		"Ammo = 30, Magazines = Magazines - 1", "Count++, Small--", "Mode += 'x'", "Ammo = 1, Ammo = 2",
		"Ready = Ammo > 3", "Stance = 'prone'", "Speed -= 0.5", "= 3", "Ammo", "Ammo +=",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		effs, errs := Effects(src, testScope())
		checkErrors(t, src, errs)
		if len(errs) > 0 {
			return
		}
		seen := map[string]bool{}
		for _, eff := range effs {
			if eff.Field.Symbol.Kind != Field || seen[eff.Field.Name] {
				t.Fatalf("%q: bad target %s", src, eff.Field.Name)
			}
			seen[eff.Field.Name] = true
			if eff.Value != nil && !eff.Value.Type().IsValid() {
				t.Fatalf("%q: untyped value", src)
			}
		}
	})
}

// FuzzCost: a cost that checks is numeric, and its bounds are ordered
// (Least within them when it can be positive); a precondition bounding
// its fields is assumed half of the time.
func FuzzCost(f *testing.F) {
	for _, s := range []string{
		"2 + Ammo / 10", "Speed * 0.5 + 1", "Count % 3 + 1", "(Small + 1) * 2", "-Ammo", "Ratio * Ratio",
		"Ammo > 3", "MaxAmmo / 0", "Count - 1", "Small * 100 * 100", "Speed / 1e-300", "2 +",
	} {
		f.Add(s, false)
	}
	pre, errs := Condition("Ammo >= 2 && Small < 5 && Count > 3 && Speed >= 0.5 && Ratio <= 10", testScope())
	if len(errs) > 0 {
		f.Fatal(errs)
	}
	f.Fuzz(func(t *testing.T, src string, assume bool) {
		e, errs := Cost(src, testScope())
		checkErrors(t, src, errs)
		if len(errs) > 0 {
			return
		}
		if !e.Type().Kind.IsNumeric() {
			t.Fatalf("%q checked but is %s", src, e.Type())
		}
		var conds []Expr
		if assume {
			conds = Conjuncts(pre)
		}
		r := Bounds(e, conds)
		if !(r.Min <= r.Max) || r.Least < 0 || r.Max > 0 && r.Least > r.Max || r.Max <= 0 && r.Least != 0 {
			t.Fatalf("%q: bounds %+v", src, r)
		}
	})
}

func checkErrors(t *testing.T, src string, errs ErrorList) {
	t.Helper()
	for i, e := range errs {
		if e.Offset < 0 || e.Offset > len(src) || e.End < e.Offset || e.End > len(src) {
			t.Fatalf("%q: error %q at [%d,%d) outside the input", src, e.Msg, e.Offset, e.End)
		}
		if e.Msg == "" || !utf8.ValidString(e.Msg) && utf8.ValidString(src) {
			t.Fatalf("%q: bad message %q", src, e.Msg)
		}
		if i > 0 && errs[i-1].Offset > e.Offset {
			t.Fatalf("%q: errors not sorted", src)
		}
	}
}
