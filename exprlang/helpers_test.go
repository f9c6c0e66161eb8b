package exprlang

import (
	"fmt"
	"go/constant"
	"io"
	"strings"
)

func stringsReader(s string) io.Reader { return strings.NewReader(s) }

// sexpr prints e fully parenthesized, to show the tree's shape.
func sexpr(e Expr) string {
	switch e := e.(type) {
	case *Ident:
		return e.Text()
	case *BasicLit:
		return e.Raw
	case *BoolLit:
		return fmt.Sprint(e.Val)
	case *Paren:
		return sexpr(e.X)
	case *Unary:
		return "(" + e.Op.String() + sexpr(e.X) + ")"
	case *Binary:
		return "(" + sexpr(e.X) + " " + e.Op.String() + " " + sexpr(e.Y) + ")"
	}
	return "?"
}

const (
	fAmmo = iota
	fMagazines
	fSpeed
	fReady
	fMode
	fStance
	fSmall
	fCount
	fRatio
	fShift
)

var (
	stance   = Named("Stance", "example.com/game", Int)
	duration = Named("time.Duration", "time", Int64)
)

// testScope is a role's scope: fields of every kind, an enum, constants
// typed and untyped, and a struct field without plan:"state".
func testScope() *MapScope {
	return &MapScope{List: []Symbol{
		{Kind: Field, Name: "Ammo", Type: Basic(Int), Index: fAmmo},
		{Kind: Field, Name: "Magazines", Type: Basic(Int), Index: fMagazines},
		{Kind: Field, Name: "Speed", Type: Basic(Float64), Index: fSpeed},
		{Kind: Field, Name: "Ready", Type: Basic(Bool), Index: fReady},
		{Kind: Field, Name: "Mode", Type: Basic(String), Index: fMode},
		{Kind: Field, Name: "Stance", Type: stance, Index: fStance},
		{Kind: Field, Name: "Small", Type: Basic(Int8), Index: fSmall},
		{Kind: Field, Name: "Count", Type: Basic(Uint), Index: fCount},
		{Kind: Field, Name: "Ratio", Type: Basic(Float32), Index: fRatio},
		{Kind: Const, Name: "MaxAmmo", Type: Basic(UntypedInt), Value: constant.MakeInt64(30)},
		{Kind: Const, Name: "Standing", Type: stance, Value: constant.MakeInt64(0)},
		{Kind: Const, Name: "Crouched", Type: stance, Value: constant.MakeInt64(1)},
		{Kind: Const, Name: "Prone", Type: stance, Value: constant.MakeInt64(2)},
		{Kind: Const, Name: "Half", Type: Basic(UntypedFloat), Value: constant.MakeFloat64(0.5)},
		{Kind: Const, Name: "Idle", Type: Basic(UntypedString), Value: constant.MakeString("idle")},
		{Kind: Const, Name: "Limit", Type: Basic(Int), Value: constant.MakeInt64(100)},
		{Kind: Field, Name: "Shift", Type: duration, Index: fShift},
		{Kind: Unusable, Name: "Health", Reason: `Health is not a state field (tag it plan:"state")`},
	}, Packages: map[string]*MapScope{
		"time": {List: []Symbol{
			{Kind: Const, Name: "Hour", Type: duration, Value: constant.MakeInt64(3600e9), PkgPath: "time"},
			{Kind: Const, Name: "Minute", Type: duration, Value: constant.MakeInt64(60e9), PkgPath: "time"},
			{Kind: Unusable, Name: "Now", Reason: "time.Now is a function; conditions read state fields and constants"},
		}},
		"math": {List: []Symbol{
			{Kind: Const, Name: "MaxInt8", Type: Basic(UntypedInt), Value: constant.MakeInt64(127), PkgPath: "math"},
			{Kind: Const, Name: "Pi", Type: Basic(UntypedFloat), Value: constant.MakeFloat64(3.141592653589793), PkgPath: "math"},
		}},
	}}
}
