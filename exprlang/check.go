package exprlang

import (
	"cmp"
	"fmt"
	"go/constant"
	"go/token"
	"slices"
	"strings"

	"github.com/rolegen/rolegen/internal/suggest"
)

// Condition parses and checks a condition: the result is a boolean
// expression whose nodes all carry their types.
func Condition(src string, scope Scope) (Expr, ErrorList) {
	e, err := ParseCondition(src)
	if err != nil {
		return nil, err.(ErrorList)
	}
	if errs := CheckCondition(src, e, scope); len(errs) > 0 {
		return nil, errs
	}
	return e, nil
}

// Effects parses and checks the effects of a post.
func Effects(src string, scope Scope) ([]*Effect, ErrorList) {
	effs, err := ParseEffects(src)
	if err != nil {
		return nil, err.(ErrorList)
	}
	if errs := CheckEffects(src, effs, scope); len(errs) > 0 {
		return nil, errs
	}
	return effs, nil
}

// Cost parses and checks the cost of an action: the result is an integer
// or floating-point expression whose nodes all carry their types. A
// constant cost has a Value; the caller checks that it is positive.
func Cost(src string, scope Scope) (Expr, ErrorList) {
	e, err := ParseCost(src)
	if err != nil {
		return nil, err.(ErrorList)
	}
	if errs := CheckCost(src, e, scope); len(errs) > 0 {
		return nil, errs
	}
	return e, nil
}

// CheckCost types every node of e, parsed from src, against scope and
// requires the whole to be a number: of an integer or floating-point type,
// which generated code converts to float64 as Go does.
func CheckCost(src string, e Expr, scope Scope) ErrorList {
	c := &checker{src: src, scope: scope}
	c.expr(e)
	if t := e.Type(); t.IsValid() && !t.Kind.IsNumeric() {
		c.errorf(e, "cost must be a number, but %s is %s", c.text(e), c.describe(e))
	}
	c.errs.sort()
	return c.errs
}

// CheckCondition types every node of e, parsed from src, against scope
// and requires the whole to be boolean.
func CheckCondition(src string, e Expr, scope Scope) ErrorList {
	c := &checker{src: src, scope: scope}
	c.expr(e)
	if t := e.Type(); t.IsValid() && !t.Kind.IsBoolean() {
		c.errorf(e, "condition must be boolean, but %s is %s", c.text(e), c.describe(e))
	}
	c.errs.sort()
	return c.errs
}

// CheckEffects types the effects of a post, parsed from src, against
// scope: each target a state field assigned once, each value assignable to
// it.
func CheckEffects(src string, effs []*Effect, scope Scope) ErrorList {
	c := &checker{src: src, scope: scope}
	seen := map[string]bool{}
	for _, eff := range effs {
		c.effect(eff, seen)
	}
	c.errs.sort()
	return c.errs
}

type checker struct {
	src   string
	scope Scope
	errs  ErrorList
}

func (c *checker) errorf(at Expr, format string, args ...any) {
	c.errs = append(c.errs, errorf(at.Pos(), at.End(), format, args...))
}

func (c *checker) errorAt(off, end int, format string, args ...any) {
	c.errs = append(c.errs, errorf(off, end, format, args...))
}

// text is the source of e, as the user wrote it.
func (c *checker) text(e Expr) string {
	if e.Pos() >= 0 && e.End() <= len(c.src) && e.Pos() <= e.End() {
		return c.src[e.Pos():e.End()]
	}
	return "expression"
}

// describe says what kind of value e is, for messages: "int",
// "untyped string constant".
func (c *checker) describe(e Expr) string {
	t := e.Type()
	if e.Value() != nil && t.Kind.IsUntyped() {
		return t.String() + " constant"
	}
	return t.String()
}

func (c *checker) expr(e Expr) {
	switch e := e.(type) {
	case *Ident:
		c.ident(e)
	case *BasicLit:
		c.basicLit(e)
	case *BoolLit:
		e.set(Basic(UntypedBool), constant.MakeBool(e.Val))
	case *Paren:
		c.expr(e.X)
		e.set(e.X.Type(), e.X.Value())
	case *Unary:
		c.unary(e)
	case *Binary:
		c.binary(e)
	}
}

func (c *checker) ident(e *Ident) {
	if e.Pkg != "" {
		c.qualified(e)
		return
	}
	sym, ok := c.scope.Lookup(e.Name)
	if !ok {
		c.unknown(e)
		return
	}
	c.resolved(e, sym)
}

// resolved types e, which names sym.
func (c *checker) resolved(e *Ident, sym Symbol) {
	e.Symbol = sym
	switch sym.Kind {
	case Field:
		e.set(sym.Type, nil)
	case Const:
		e.set(sym.Type, sym.Value)
	case Reported:
		c.cascade(e)
	default:
		c.errorf(e, "%s", sym.Reason)
	}
}

// qualified resolves PKG.NAME: an exported constant of the package the
// qualifier names. A mistake is reported at the part that is wrong: an
// unknown package at the qualifier, an unknown constant at its name.
func (c *checker) qualified(e *Ident) {
	pkg, ok := c.scope.Package(e.Pkg)
	if !ok {
		pkgEnd := e.Offset + len(e.Pkg)
		if sym, local := c.scope.Lookup(e.Pkg); local && sym.Kind == Field {
			c.errorAt(e.Offset, e.End(), "%s is a state field, not a package: conditions name state fields directly, without selectors", e.Pkg)
			return
		}
		if name, ok := suggest.Closest(e.Pkg, c.scope.PackageNames()); ok {
			c.errorAt(e.Offset, pkgEnd, "unknown package %q in %s (did you mean %q?)", e.Pkg, e.Text(), name)
			return
		}
		c.errorAt(e.Offset, pkgEnd, "unknown package %q in %s: a qualified name is an exported constant of a package the role's file imports, or of a standard package (time.Hour)", e.Pkg, e.Text())
		return
	}
	sym, ok := pkg.Lookup(e.Name)
	if !ok {
		var consts []string
		for _, s := range pkg.Symbols() {
			if s.Kind == Const {
				consts = append(consts, s.Name)
			}
		}
		end := e.End()
		if name, ok := suggest.Closest(e.Name, consts); ok {
			c.errorAt(e.NameOffset, end, "unknown constant %s (did you mean %s.%s?)", e.Text(), e.Pkg, name)
			return
		}
		c.errorAt(e.NameOffset, end, "package %s has no exported constant %s", e.Pkg, e.Name)
		return
	}
	c.resolved(e, sym)
}

// cascade fails e, a name whose own declaration is reported, without a
// message of its own.
func (c *checker) cascade(e Expr) {
	c.errs = append(c.errs, &Error{Offset: e.Pos(), End: e.End(), Msg: "uses a name reported at its declaration", Cascade: true})
}

func (c *checker) unknown(e *Ident) {
	switch e.Name {
	case "nil", "null", "None", "undefined":
		c.errorf(e, "%s is not a value: conditions compare state fields with numbers, strings and booleans", e.Name)
		return
	case "True", "False", "TRUE", "FALSE":
		c.errorf(e, "unknown name %q (did you mean %s?)", e.Name, strings.ToLower(e.Name))
		return
	}
	var fields, consts []string
	for _, s := range c.scope.Symbols() {
		switch s.Kind {
		case Field:
			fields = append(fields, s.Name)
		case Const:
			consts = append(consts, s.Name)
		}
	}
	// The nearest name of either kind, a field where a field and a
	// constant are as near: "woods" is the constant Woods, not the field
	// Wood.
	if name, ok := suggest.Closest(e.Name, append(fields, consts...)); ok {
		if slices.Contains(fields, name) {
			c.errorf(e, "unknown state field %q (did you mean %q?)", e.Name, name)
		} else {
			c.errorf(e, "unknown constant %q (did you mean %q?)", e.Name, name)
		}
		return
	}
	c.errorf(e, "unknown state field or constant %q", e.Name)
}

// Go's limits on untyped constants, which rolegen keeps so that what it
// accepts compiles: integer values within 512 bits, literals within
// 10,000 characters (go/types reports "constant overflow" and "excessively
// long constant").
const (
	untypedIntBits = 512
	maxLiteralLen  = 10000
)

// untypedOverflow reports whether v, the value of an untyped constant
// operation or literal, is beyond Go's limits, and says so at [from, to).
func (c *checker) untypedOverflow(v constant.Value, from, to int, what string) bool {
	switch {
	case v.Kind() == constant.Unknown:
		c.errorAt(from, to, "constant result is not representable")
		return true
	case v.Kind() == constant.Int && constant.BitLen(v) > untypedIntBits:
		c.errorAt(from, to, "constant %soverflow (an untyped integer constant has at most %d bits)", what, untypedIntBits)
		return true
	}
	return false
}

func (c *checker) basicLit(e *BasicLit) {
	if len(e.Raw) > maxLiteralLen {
		c.errorf(e, "excessively long constant: %s... (%d chars)", e.Raw[:10], len(e.Raw))
		return
	}
	switch e.LitKind {
	case IntLit:
		v := constant.MakeFromLiteral(e.Raw, token.INT, 0)
		if v.Kind() == constant.Unknown {
			c.errorf(e, "malformed number %s", e.Raw)
			return
		}
		if c.untypedOverflow(v, e.Offset, e.End(), "") {
			return
		}
		e.set(Basic(UntypedInt), v)
	case FloatLit:
		v := constant.MakeFromLiteral(e.Raw, token.FLOAT, 0)
		if v.Kind() == constant.Unknown {
			c.errorf(e, "malformed number %s", e.Raw)
			return
		}
		e.set(Basic(UntypedFloat), v)
	case StringLit:
		s, err := unquote(e.Raw)
		if err != nil {
			c.errorf(e, "malformed string literal %s", e.Raw)
			return
		}
		e.set(Basic(UntypedString), constant.MakeString(s))
	}
}

func (c *checker) unary(e *Unary) {
	c.expr(e.X)
	x := e.X.Type()
	if !x.IsValid() {
		return
	}
	switch e.Op {
	case OpNot:
		if !x.Kind.IsBoolean() {
			c.errorAt(e.Offset, e.Offset+1, "operator ! not defined on %s (%s); ! negates a boolean", c.text(e.X), c.describe(e.X))
			return
		}
		var v constant.Value
		if xv := e.X.Value(); xv != nil {
			v = constant.UnaryOp(token.NOT, xv, 0)
		}
		e.set(x, v)
	case OpSub:
		if !x.Kind.IsNumeric() {
			c.errorAt(e.Offset, e.Offset+1, "operator - not defined on %s (%s)", c.text(e.X), c.describe(e.X))
			return
		}
		var v constant.Value
		if xv := e.X.Value(); xv != nil {
			v = constant.UnaryOp(token.SUB, xv, 0)
			if !x.Kind.IsUntyped() {
				if _, why, ok := representable(v, x.Kind); !ok {
					c.errorf(e, "constant %s %s %s", v, whyWord(why), x)
					return
				}
			}
		}
		e.set(x, v)
	}
}

func whyWord(why string) string {
	if why == "" {
		return "cannot be represented as"
	}
	if why == "truncated" {
		return "truncated to"
	}
	return why
}

func (c *checker) binary(e *Binary) {
	c.expr(e.X)
	c.expr(e.Y)
	if !e.X.Type().IsValid() || !e.Y.Type().IsValid() {
		return
	}
	opEnd := e.OpOffset + len(e.Op.String())
	switch e.Op {
	case OpAnd, OpOr:
		for _, side := range []Expr{e.X, e.Y} {
			if !side.Type().Kind.IsBoolean() {
				c.errorf(side, "operator %s not defined on %s (%s); %s joins booleans", e.Op, c.text(side), c.describe(side), e.Op)
				return
			}
		}
	}
	t, ok := c.match(e)
	if !ok {
		return
	}
	k := t.Kind
	switch {
	case e.Op == OpAnd || e.Op == OpOr:
		// checked above
	case e.Op == OpEql || e.Op == OpNeq:
		// every type of the language is comparable
	case e.Op.IsComparison():
		if !k.IsOrdered() {
			c.errorAt(e.OpOffset, opEnd, "operator %s not defined on %s (%s): only numbers and strings are ordered", e.Op, c.text(e.X), t)
			return
		}
	case e.Op == OpAdd:
		if !k.IsNumeric() && !k.IsString() {
			c.errorAt(e.OpOffset, opEnd, "operator + not defined on %s (%s)", c.text(e.X), t)
			return
		}
	case e.Op == OpRem:
		if !k.IsInteger() {
			c.errorAt(e.OpOffset, opEnd, "operator %% not defined on %s (%s): %% needs integers", c.text(e.X), t)
			return
		}
	default: // - * /
		if !k.IsNumeric() {
			c.errorAt(e.OpOffset, opEnd, "operator %s not defined on %s (%s)", e.Op, c.text(e.X), t)
			return
		}
	}
	if e.Op == OpQuo || e.Op == OpRem {
		yv := e.Y.Value()
		if yv == nil {
			c.errorf(e.Y, "divisor %s must be a constant (a state field could be zero when the plan runs)", c.text(e.Y))
			return
		}
		if constant.Sign(yv) == 0 {
			c.errorf(e.Y, "division by zero")
			return
		}
	}

	xv, yv := e.X.Value(), e.Y.Value()
	if e.Op.IsComparison() {
		var v constant.Value
		if xv != nil && yv != nil {
			v = constant.MakeBool(constant.Compare(xv, goToken(e.Op), yv))
		}
		e.set(Basic(UntypedBool), v)
		return
	}
	var v constant.Value
	if xv != nil && yv != nil {
		op := goToken(e.Op)
		if e.Op == OpQuo && k.IsInteger() {
			op = token.QUO_ASSIGN // integer division, as go/constant spells it
		}
		v = constant.BinaryOp(xv, op, yv)
		if k.IsUntyped() && c.untypedOverflow(v, e.OpOffset, e.OpOffset+len(e.Op.String()), opName(e.Op)) {
			return
		}
		if !k.IsUntyped() {
			if _, why, ok := representable(v, k); !ok {
				c.errorf(e, "constant %s %s %s", v, whyWord(why), t)
				return
			}
		}
	}
	e.set(t, v)
}

// match gives both operands of e one type, as Go does: an untyped
// constant takes the type of the other side; two typed operands must have
// identical types.
func (c *checker) match(e *Binary) (Type, bool) {
	x, y := e.X.Type(), e.Y.Type()
	opEnd := e.OpOffset + len(e.Op.String())
	switch {
	case x.Kind.IsUntyped() && y.Kind.IsUntyped():
		t, ok := untypedJoin(x, y)
		if !ok {
			c.errorAt(e.OpOffset, opEnd, "mismatched types %s and %s", x, y)
			return Type{}, false
		}
		return t, c.convert(e.X, t) && c.convert(e.Y, t)
	case x.Kind.IsUntyped():
		return y, c.convertTo(e.X, y, e.Y, e.Op)
	case y.Kind.IsUntyped():
		return x, c.convertTo(e.Y, x, e.X, e.Op)
	case !x.Identical(y):
		c.errorAt(e.OpOffset, opEnd, "mismatched types %s and %s: %s is %s, %s is %s%s",
			x, y, c.text(e.X), x, c.text(e.Y), y, cmp.Or(c.hiddenConst(e.Y, x), c.hiddenConst(e.X, y), mixHint(x, y)))
		return Type{}, false
	}
	return x, true
}

// hiddenConst explains e, a state field used where a value of type want
// was meant, when the package declares a constant of that name and type
// that the field hides (a place Mill and a flag Mill): fields win, as
// the spec says, and the constant cannot be reached.
func (c *checker) hiddenConst(e Expr, want Type) string {
	id, ok := e.(*Ident)
	if !ok || id.Pkg != "" || id.Symbol.Kind != Field {
		return ""
	}
	for _, s := range c.scope.Symbols() {
		if s.Kind == Const && s.Name == id.Name && s.Type.Identical(want) {
			return fmt.Sprintf(" (the state field %s hides the constant %s of type %s: rename one of them)", id.Name, id.Name, want)
		}
	}
	return ""
}

func mixHint(x, y Type) string {
	if x.Kind.IsNumeric() && y.Kind.IsNumeric() && x.Name == "" && y.Name == "" {
		return " (Go does not mix numeric types; make the fields the same type)"
	}
	return ""
}

// untypedJoin is the kind two untyped constants share: the larger numeric
// kind, or the common kind.
func untypedJoin(x, y Type) (Type, bool) {
	switch {
	case x.Kind == y.Kind:
		return x, true
	case x.Kind.IsNumeric() && y.Kind.IsNumeric():
		if x.Kind > y.Kind {
			return x, true
		}
		return y, true
	}
	return Type{}, false
}

// convertTo converts the untyped operand e of operator op to type t, the
// type of other.
func (c *checker) convertTo(e Expr, t Type, other Expr, op Op) bool {
	if !compatible(e.Type().Kind, t.Kind) {
		verb := "use"
		if op.IsComparison() {
			verb = "compare with"
		}
		if msg, ok := c.enumMismatch(e, t, c.text(other), verb); ok {
			c.errorf(e, "%s", msg)
			return false
		}
		c.errorf(e, "mismatched types %s and %s: %s is %s", t, e.Type(), c.text(other), t)
		return false
	}
	if (op == OpEql || op == OpNeq) && !c.enumLiteral(e, t, "compare with") {
		return false
	}
	return c.convert(e, t)
}

// enumLiteral reports, and returns false for, a string literal e used as
// a value of t, a named string type whose package declares two or more
// constants of it (an enum), where no constant of t has e's value: a
// misspelled value (At == "yrad", for Yard = "yard") holds in no state
// the constants describe, and nothing else would say so. A literal that
// is some constant's value, and the empty string, pass.
func (c *checker) enumLiteral(e Expr, t Type, verb string) bool {
	if t.Name == "" || !t.Kind.IsString() {
		return true
	}
	if lit, ok := unparen(e).(*BasicLit); !ok || lit.LitKind != StringLit {
		return true
	}
	v := e.Value()
	if v == nil || v.Kind() != constant.String || constant.StringVal(v) == "" {
		return true
	}
	val := constant.StringVal(v)
	consts := c.enumConstants(t)
	names, values := make([]string, 0, len(consts)), make([]string, 0, len(consts))
	for _, k := range consts {
		if k.Value == nil || k.Value.Kind() != constant.String {
			continue
		}
		if constant.StringVal(k.Value) == val {
			return true
		}
		names, values = append(names, k.Name), append(values, constant.StringVal(k.Value))
	}
	if len(names) < 2 {
		return true
	}
	hint := ""
	if near, ok := suggest.Closest(val, values); ok {
		hint = names[slices.Index(values, near)]
	} else if near, ok := suggest.Closest(val, names); ok {
		hint = near
	}
	if hint != "" {
		c.errorf(e, "%s is the value of no constant of %s (an enum); %s a constant: did you mean %s (%q)?", c.text(e), t, verb, hint, values[slices.Index(names, hint)])
	} else {
		c.errorf(e, "%s is the value of no constant of %s (an enum); %s a constant: %s", c.text(e), t, verb, constantList(names))
	}
	return false
}

// enumConstants are the constants of the named type t in scope, in the
// scope's order.
func (c *checker) enumConstants(t Type) []Symbol {
	if t.Name == "" {
		return nil
	}
	var consts []Symbol
	for _, s := range c.scope.Symbols() {
		if s.Kind == Const && s.Type.Identical(t) {
			consts = append(consts, s)
		}
	}
	return consts
}

// constantList joins names for a message, the first 8 of them.
func constantList(names []string) string {
	const most = 8
	text := strings.Join(names[:min(len(names), most)], ", ")
	if len(names) > most {
		text += fmt.Sprintf(" (and %d more)", len(names)-most)
	}
	return text
}

// enumMismatch explains an untyped constant e used with what, a value of
// the named type t whose package declares constants of t (an enum):
// "Task is an enum (type Task); compare with a constant: Idle". It names
// the constant e seems to mean, else the constants of t.
func (c *checker) enumMismatch(e Expr, t Type, what, verb string) (string, bool) {
	consts := c.enumConstants(t)
	if len(consts) == 0 {
		return "", false
	}
	names := make([]string, len(consts))
	for i, k := range consts {
		names[i] = k.Name
	}
	list := names
	if hint := enumHint(e, names); hint != "" {
		list = []string{hint}
	}
	return fmt.Sprintf("%s is an enum (type %s); %s a constant: %s", what, t, verb, constantList(list)), true
}

// enumHint names the constant among names (of an enum) whose name matches
// the string e, for Stance == 'crouched'.
func enumHint(e Expr, names []string) string {
	v := e.Value()
	if v == nil || v.Kind() != constant.String {
		return ""
	}
	want := normalize(constant.StringVal(v))
	for _, name := range names {
		if normalize(name) == want {
			return name
		}
	}
	if name, ok := suggest.Closest(constant.StringVal(v), names); ok {
		return name
	}
	return ""
}

func normalize(s string) string {
	return strings.ToLower(strings.NewReplacer("_", "", "-", "", " ", "").Replace(s))
}

func compatible(from, to Kind) bool {
	switch {
	case from.IsBoolean():
		return to.IsBoolean()
	case from.IsString():
		return to.IsString()
	case from.IsNumeric():
		return to.IsNumeric()
	}
	return false
}

// convert sets the type of the untyped operand e (and of the nodes it is
// made of) to t, checking that a constant is representable.
func (c *checker) convert(e Expr, t Type) bool {
	v := e.Value()
	if v != nil {
		conv, why, ok := representable(v, t.Kind)
		if !ok {
			if why == "" {
				c.errorf(e, "cannot use %s (%s) as %s value", c.text(e), c.describe(e), t)
			} else {
				c.errorf(e, "%s (%s) %s %s", c.text(e), c.describe(e), whyWord(why), t)
			}
			return false
		}
		v = conv
	}
	setTree(e, t, v)
	return true
}

// setTree gives an untyped expression its final type, down to its leaves,
// so that every node of a checked tree has the type Go gives it.
func setTree(e Expr, t Type, v constant.Value) {
	switch n := e.(type) {
	case *Paren:
		n.set(t, v)
		setTree(n.X, t, n.X.Value())
	case *Unary:
		n.set(t, v)
		setTree(n.X, t, n.X.Value())
	case *Binary:
		n.set(t, v)
		if !n.Op.IsComparison() {
			setTree(n.X, t, n.X.Value())
			setTree(n.Y, t, n.Y.Value())
		}
	case *Ident:
		n.set(t, v)
	case *BasicLit:
		n.set(t, v)
	case *BoolLit:
		n.set(t, v)
	}
}

func goToken(op Op) token.Token {
	switch op {
	case OpOr:
		return token.LOR
	case OpAnd:
		return token.LAND
	case OpEql:
		return token.EQL
	case OpNeq:
		return token.NEQ
	case OpLss:
		return token.LSS
	case OpLeq:
		return token.LEQ
	case OpGtr:
		return token.GTR
	case OpGeq:
		return token.GEQ
	case OpAdd:
		return token.ADD
	case OpSub:
		return token.SUB
	case OpMul:
		return token.MUL
	case OpQuo:
		return token.QUO
	case OpRem:
		return token.REM
	}
	return token.ILLEGAL
}

func (c *checker) effect(eff *Effect, seen map[string]bool) {
	f := eff.Field
	sym, ok := c.scope.Lookup(f.Name)
	switch {
	case !ok:
		c.unknown(f)
	case sym.Kind == Const:
		c.errorf(f, "cannot assign to constant %s; effects assign state fields", f.Name)
		ok = false
	case sym.Kind == Reported:
		c.cascade(f)
		ok = false
	case sym.Kind != Field:
		c.errorf(f, "%s", sym.Reason)
		ok = false
	}
	if ok {
		f.Symbol = sym
		f.set(sym.Type, nil)
		if seen[f.Name] {
			c.errorf(f, "%s is assigned twice in one post; effects are simultaneous, so write one assignment", f.Name)
		}
		seen[f.Name] = true
	}
	if eff.Value != nil {
		c.expr(eff.Value)
	}
	if !ok || (eff.Value != nil && !eff.Value.Type().IsValid()) {
		return
	}
	ft := sym.Type
	switch eff.Op {
	case Inc, Dec:
		if !ft.Kind.IsNumeric() {
			c.errorAt(eff.OpOffset, eff.OpOffset+2, "%s%s needs a number, but %s is %s", f.Name, eff.Op, f.Name, ft)
		}
	case AddAssign, SubAssign:
		if !ft.Kind.IsNumeric() && !(eff.Op == AddAssign && ft.Kind.IsString()) {
			c.errorAt(eff.OpOffset, eff.OpOffset+2, "operator %s not defined on %s (%s)", eff.Op, f.Name, ft)
			return
		}
		c.assignable(eff.Value, ft, f.Name)
	case Assign:
		c.assignable(eff.Value, ft, f.Name)
	}
}

// assignable checks that v can be assigned to a field of type t.
func (c *checker) assignable(v Expr, t Type, field string) {
	vt := v.Type()
	if vt.Kind.IsUntyped() {
		if !compatible(vt.Kind, t.Kind) {
			if msg, ok := c.enumMismatch(v, t, field, "assign"); ok {
				c.errorf(v, "%s", msg)
				return
			}
			c.errorf(v, "cannot assign %s (%s) to %s (%s)", c.text(v), c.describe(v), field, t)
			return
		}
		if c.enumLiteral(v, t, "assign") {
			c.convert(v, t)
		}
		return
	}
	if !vt.Identical(t) {
		c.errorf(v, "cannot assign %s (%s) to %s (%s)%s", c.text(v), vt, field, t, cmp.Or(c.hiddenConst(v, t), mixHint(vt, t)))
	}
}

// Conjuncts splits a condition at its top-level && operators, through
// parentheses: a && (b && c) has the conjuncts a, b and c.
func Conjuncts(e Expr) []Expr { return operands(e, OpAnd) }

// Disjuncts splits a condition at its top-level || operators, through
// parentheses: a || (b || c) has the disjuncts a, b and c.
func Disjuncts(e Expr) []Expr { return operands(e, OpOr) }

// operands splits e at its top-level op operators, through parentheses.
func operands(e Expr, op Op) []Expr {
	switch n := e.(type) {
	case *Paren:
		return operands(n.X, op)
	case *Binary:
		if n.Op == op {
			return append(operands(n.X, op), operands(n.Y, op)...)
		}
	}
	return []Expr{e}
}

// Reads returns the state fields e reads, as their Symbol.Index, sorted
// and without repeats.
func Reads(e Expr) []int {
	var out []int
	Walk(e, func(n Expr) bool {
		if id, ok := n.(*Ident); ok && id.Symbol.Kind == Field {
			out = append(out, id.Symbol.Index)
		}
		return true
	})
	return sortedSet(out)
}

// EffectReads returns the state fields the effects read: their values, and
// the fields that += -= ++ -- update.
func EffectReads(effs []*Effect) []int {
	var out []int
	for _, eff := range effs {
		if eff.Op != Assign && eff.Field.Symbol.Kind == Field {
			out = append(out, eff.Field.Symbol.Index)
		}
		if eff.Value != nil {
			out = append(out, Reads(eff.Value)...)
		}
	}
	return sortedSet(out)
}

// Writes returns the state fields the effects assign.
func Writes(effs []*Effect) []int {
	var out []int
	for _, eff := range effs {
		if eff.Field.Symbol.Kind == Field {
			out = append(out, eff.Field.Symbol.Index)
		}
	}
	return sortedSet(out)
}

func sortedSet(xs []int) []int {
	if len(xs) == 0 {
		return nil
	}
	slices.Sort(xs)
	return slices.Compact(xs)
}

// opName names an arithmetic operator as Go's "constant ... overflow"
// message does.
func opName(op Op) string {
	switch op {
	case OpAdd:
		return "addition "
	case OpSub:
		return "subtraction "
	case OpMul:
		return "multiplication "
	case OpQuo:
		return "division "
	case OpRem:
		return "remainder "
	}
	return ""
}
