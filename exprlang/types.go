package exprlang

import (
	"go/constant"
	"go/token"
	"math"
)

// Kind is the underlying kind of a [Type].
type Kind uint8

// The kinds of the language: Go's boolean, numeric and string kinds, and
// the kinds of untyped constants.
const (
	Invalid Kind = iota
	Bool
	Int
	Int8
	Int16
	Int32
	Int64
	Uint
	Uint8
	Uint16
	Uint32
	Uint64
	Uintptr
	Float32
	Float64
	String

	UntypedBool
	UntypedInt
	UntypedRune
	UntypedFloat
	UntypedString
)

var kindNames = [...]string{
	Invalid:       "invalid type",
	Bool:          "bool",
	Int:           "int",
	Int8:          "int8",
	Int16:         "int16",
	Int32:         "int32",
	Int64:         "int64",
	Uint:          "uint",
	Uint8:         "uint8",
	Uint16:        "uint16",
	Uint32:        "uint32",
	Uint64:        "uint64",
	Uintptr:       "uintptr",
	Float32:       "float32",
	Float64:       "float64",
	String:        "string",
	UntypedBool:   "untyped bool",
	UntypedInt:    "untyped int",
	UntypedRune:   "untyped rune",
	UntypedFloat:  "untyped float",
	UntypedString: "untyped string",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "invalid type"
}

// IsBoolean reports whether k is bool or untyped bool.
func (k Kind) IsBoolean() bool { return k == Bool || k == UntypedBool }

// IsInteger reports whether k is an integer kind, typed or untyped.
func (k Kind) IsInteger() bool {
	return (k >= Int && k <= Uintptr) || k == UntypedInt || k == UntypedRune
}

// IsUnsigned reports whether k is an unsigned integer kind.
func (k Kind) IsUnsigned() bool { return k >= Uint && k <= Uintptr }

// IsFloat reports whether k is a floating-point kind, typed or untyped.
func (k Kind) IsFloat() bool { return k == Float32 || k == Float64 || k == UntypedFloat }

// IsNumeric reports whether k is an integer or floating-point kind.
func (k Kind) IsNumeric() bool { return k.IsInteger() || k.IsFloat() }

// IsString reports whether k is string or untyped string.
func (k Kind) IsString() bool { return k == String || k == UntypedString }

// IsOrdered reports whether values of kind k can be compared with < <= > >=.
func (k Kind) IsOrdered() bool { return k.IsNumeric() || k.IsString() }

// IsUntyped reports whether k is the kind of an untyped constant.
func (k Kind) IsUntyped() bool { return k >= UntypedBool }

// Type is the type of a state field, a constant or an expression: a
// predeclared type (Name empty), a named type whose underlying type is one
// of the predeclared kinds (type Stance int), or an untyped constant kind.
type Type struct {
	Kind Kind
	// Name is the name of a named type as Go code in the role's package
	// writes it: "Stance", or "time.Duration" for another package's type.
	Name string
	// PkgPath is the import path of a named type's package.
	PkgPath string
}

// Basic returns the predeclared type of kind k.
func Basic(k Kind) Type { return Type{Kind: k} }

// Named returns the named type pkgPath.name with underlying kind k; name is
// how the role's package writes it (qualified when pkgPath is another
// package).
func Named(name, pkgPath string, k Kind) Type {
	return Type{Kind: k, Name: name, PkgPath: pkgPath}
}

// String returns the type as Go writes it.
func (t Type) String() string {
	if t.Name != "" {
		return t.Name
	}
	return t.Kind.String()
}

// IsValid reports whether t is a real type (not the type of an erroneous
// expression).
func (t Type) IsValid() bool { return t.Kind != Invalid }

// Identical reports whether t and u are the same type, as Go decides it.
func (t Type) Identical(u Type) bool {
	return t.Kind == u.Kind && t.Name == u.Name && t.PkgPath == u.PkgPath
}

// representable reports whether the constant v can be represented as a
// value of kind k, and returns it converted (an integral float becomes an
// int for an integer kind). why explains a failure: "overflows" or
// "truncated".
func representable(v constant.Value, k Kind) (constant.Value, string, bool) {
	switch {
	case k.IsBoolean():
		return v, "", v.Kind() == constant.Bool
	case k.IsString():
		return v, "", v.Kind() == constant.String
	case k.IsInteger():
		if v.Kind() != constant.Int && v.Kind() != constant.Float {
			return v, "", false
		}
		iv := constant.ToInt(v)
		if iv.Kind() != constant.Int {
			return v, "truncated", false
		}
		if k.IsUntyped() {
			return iv, "", true
		}
		if !fitsInteger(iv, k) {
			return v, "overflows", false
		}
		return iv, "", true
	case k.IsFloat():
		if v.Kind() != constant.Int && v.Kind() != constant.Float {
			return v, "", false
		}
		fv := constant.ToFloat(v)
		switch k {
		case Float32:
			f, _ := constant.Float64Val(fv)
			if math.IsInf(f, 0) || math.Abs(f) > math.MaxFloat32 {
				return v, "overflows", false
			}
		case Float64:
			f, _ := constant.Float64Val(fv)
			if math.IsInf(f, 0) {
				return v, "overflows", false
			}
		}
		return fv, "", true
	}
	return v, "", false
}

func fitsInteger(v constant.Value, k Kind) bool {
	var bits uint = 64
	switch k {
	case Int8, Uint8:
		bits = 8
	case Int16, Uint16:
		bits = 16
	case Int32, Uint32:
		bits = 32
	}
	if k.IsUnsigned() {
		if constant.Sign(v) < 0 {
			return false
		}
		limit := constant.Shift(constant.MakeUint64(1), token.SHL, bits)
		return constant.Compare(v, token.LSS, limit)
	}
	limit := constant.Shift(constant.MakeInt64(1), token.SHL, bits-1)
	return constant.Compare(v, token.LSS, limit) &&
		constant.Compare(v, token.GEQ, constant.UnaryOp(token.SUB, limit, 0))
}
