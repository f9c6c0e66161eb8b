package exprlang

import (
	"go/constant"
)

// Expr is a node of a condition or of the right-hand side of an effect.
// Offsets are byte offsets into the source text the node was parsed from.
type Expr interface {
	// Pos is the offset of the node's first byte.
	Pos() int
	// End is the offset just past the node's last byte.
	End() int
	// Type is the node's type once checked (invalid before or on error).
	Type() Type
	// Value is the node's constant value, or nil when it is not constant.
	Value() constant.Value
	exprNode()
}

// info holds what the checker learns about a node.
type info struct {
	typ Type
	val constant.Value
}

func (i *info) Type() Type            { return i.typ }
func (i *info) Value() constant.Value { return i.val }
func (i *info) set(t Type, v constant.Value) {
	i.typ, i.val = t, v
}

// Ident names a state field or a constant: a constant of the role's
// package (MaxAmmo), or of another package when qualified (time.Hour: Pkg
// "time", Name "Hour").
type Ident struct {
	info
	// Pkg is the package name that qualifies Name, as written; "" for a
	// plain name.
	Pkg  string
	Name string
	// Offset is the offset of the first byte (of Pkg when qualified),
	// NameOffset that of Name.
	Offset, NameOffset int
	// Symbol is what the name resolved to, once checked.
	Symbol Symbol
}

// Text returns the name as written without blanks: Name, or Pkg.Name.
func (e *Ident) Text() string {
	if e.Pkg == "" {
		return e.Name
	}
	return e.Pkg + "." + e.Name
}

// BasicLit is a number or string literal.
type BasicLit struct {
	info
	// LitKind is IntLit, FloatLit or StringLit.
	LitKind LitKind
	// Raw is the literal as written.
	Raw    string
	Offset int
}

// LitKind tells the kinds of [BasicLit] apart.
type LitKind uint8

// Literal kinds.
const (
	IntLit LitKind = iota
	FloatLit
	StringLit
)

// BoolLit is true or false.
type BoolLit struct {
	info
	Val    bool
	Offset int
}

// Unary is !X or -X.
type Unary struct {
	info
	Op     Op
	X      Expr
	Offset int
}

// Binary is X Op Y.
type Binary struct {
	info
	Op       Op
	X, Y     Expr
	OpOffset int
}

// Paren is (X).
type Paren struct {
	info
	X           Expr
	Offset, Rbr int
}

func (e *Ident) Pos() int    { return e.Offset }
func (e *BasicLit) Pos() int { return e.Offset }
func (e *BoolLit) Pos() int  { return e.Offset }
func (e *Unary) Pos() int    { return e.Offset }
func (e *Binary) Pos() int   { return e.X.Pos() }
func (e *Paren) Pos() int    { return e.Offset }

func (e *Ident) End() int    { return e.NameOffset + len(e.Name) }
func (e *BasicLit) End() int { return e.Offset + len(e.Raw) }
func (e *BoolLit) End() int {
	if e.Val {
		return e.Offset + len("true")
	}
	return e.Offset + len("false")
}
func (e *Unary) End() int  { return e.X.End() }
func (e *Binary) End() int { return e.Y.End() }
func (e *Paren) End() int  { return e.Rbr + 1 }

func (*Ident) exprNode()    {}
func (*BasicLit) exprNode() {}
func (*BoolLit) exprNode()  {}
func (*Unary) exprNode()    {}
func (*Binary) exprNode()   {}
func (*Paren) exprNode()    {}

// Op is an operator.
type Op uint8

// Operators, in the order of Go's spec.
const (
	OpInvalid Op = iota
	OpOr         // ||
	OpAnd        // &&
	OpEql        // ==
	OpNeq        // !=
	OpLss        // <
	OpLeq        // <=
	OpGtr        // >
	OpGeq        // >=
	OpAdd        // +
	OpSub        // -
	OpMul        // *
	OpQuo        // /
	OpRem        // %
	OpNot        // !
)

var opText = [...]string{
	OpInvalid: "?", OpOr: "||", OpAnd: "&&", OpEql: "==", OpNeq: "!=",
	OpLss: "<", OpLeq: "<=", OpGtr: ">", OpGeq: ">=", OpAdd: "+", OpSub: "-",
	OpMul: "*", OpQuo: "/", OpRem: "%", OpNot: "!",
}

// String returns the operator as written.
func (o Op) String() string { return opText[o] }

// IsComparison reports whether o is one of == != < <= > >=.
func (o Op) IsComparison() bool { return o >= OpEql && o <= OpGeq }

func opFromText(s string) Op {
	for i, t := range opText {
		if t == s && i != int(OpInvalid) {
			return Op(i)
		}
	}
	return OpInvalid
}

// AssignOp is the operator of an effect.
type AssignOp uint8

// Effect operators.
const (
	Assign    AssignOp = iota // =
	AddAssign                 // +=
	SubAssign                 // -=
	Inc                       // ++
	Dec                       // --
)

var assignText = [...]string{Assign: "=", AddAssign: "+=", SubAssign: "-=", Inc: "++", Dec: "--"}

// String returns the operator as written.
func (o AssignOp) String() string { return assignText[o] }

// Effect is one assignment of a post: Field Op Value (Value is nil for ++
// and --).
type Effect struct {
	Field *Ident
	Op    AssignOp
	// OpOffset is the offset of the operator.
	OpOffset int
	Value    Expr
}

// Pos is the offset of the assigned field.
func (e *Effect) Pos() int { return e.Field.Pos() }

// End is the offset just past the effect.
func (e *Effect) End() int {
	if e.Value != nil {
		return e.Value.End()
	}
	return e.OpOffset + 2
}

// Walk calls f for e and every node below it, parents first; f returning
// false skips the node's children.
func Walk(e Expr, f func(Expr) bool) {
	if e == nil || !f(e) {
		return
	}
	switch e := e.(type) {
	case *Unary:
		Walk(e.X, f)
	case *Binary:
		Walk(e.X, f)
		Walk(e.Y, f)
	case *Paren:
		Walk(e.X, f)
	}
}
