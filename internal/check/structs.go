package check

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/rolegen/rolegen/exprlang"
	"github.com/rolegen/rolegen/internal/annot"
	"github.com/rolegen/rolegen/internal/model"
	"github.com/rolegen/rolegen/internal/suggest"
)

// structInfo is what a struct type declares itself: state fields, goals
// and embedded structs, in field order.
type structInfo struct {
	name    *types.TypeName
	spec    *ast.TypeSpec   // nil for a struct of another package
	ast     *ast.StructType // nil for a struct of another package
	doc     string
	generic bool
	read    bool
	items   []*item
}

type itemKind uint8

const (
	itemState itemKind = iota + 1
	itemGoal
	itemEmbed
)

// item is one field of a struct that matters to rolegen.
type item struct {
	kind itemKind
	v    *types.Var
	doc  string
	// pos is where the field is declared, for diagnostics about it.
	pos token.Pos

	// state
	typ   exprlang.Type
	ref   model.TypeRef
	valid bool
	// min and max end a saturating number's range, as written ("" for
	// none: see stateRange), lo and hi their values.
	min, max string
	lo, hi   float64

	// goal
	cond     annot.Text
	priority int

	// embed
	embedded *types.TypeName
}

// structOf returns what the struct type tn declares, reading it once.
func (c *checker) structOf(tn *types.TypeName) *structInfo {
	si, ok := c.structs[tn]
	if !ok {
		// A struct of another package: read from its type alone.
		si = &structInfo{name: tn}
		c.structs[tn] = si
	}
	if !si.read {
		si.read = true
		c.readStruct(si)
	}
	return si
}

func (c *checker) readStruct(si *structInfo) {
	st, ok := si.name.Type().Underlying().(*types.Struct)
	if !ok {
		return
	}
	local := si.ast != nil
	// Map each types.Var to its *ast.Field, for tags with positions.
	astField := map[*types.Var]*ast.Field{}
	if local {
		for _, f := range si.ast.Fields.List {
			if len(f.Names) == 0 {
				if v, ok := c.Info.Defs[embeddedIdent(f.Type)].(*types.Var); ok {
					astField[v] = f
				}
				continue
			}
			for _, n := range f.Names {
				if v, ok := c.Info.Defs[n].(*types.Var); ok {
					astField[v] = f
				}
			}
		}
	}
	for i := range st.NumFields() {
		v := st.Field(i)
		var tag annot.Text
		pos, typePos := v.Pos(), v.Pos()
		if f := astField[v]; f != nil {
			typePos = f.Type.Pos()
		}
		if f := astField[v]; f != nil && f.Tag != nil {
			lit := annot.NewText(f.Tag.Value, f.Tag.ValuePos)
			unq, err := lit.Unquote()
			if err != nil {
				c.errorf(f.Tag.ValuePos, token.NoPos, "malformed struct tag: %v", err)
				c.reported[v] = true
				continue
			}
			tag = unq
		} else if !local {
			tag = annot.NewText(st.Tag(i), token.NoPos)
		}
		before := len(c.diags)
		it := c.readField(si, v, tag, pos, typePos, local)
		if len(c.diags) > before && (it == nil || it.kind == itemState && !it.valid) {
			// The field's declaration is reported: a condition or
			// fulfills that names it is not reported again.
			c.reported[v] = true
		}
		if it != nil {
			if local {
				it.doc = c.fieldDoc[v]
			}
			si.items = append(si.items, it)
		}
	}
}

func embeddedIdent(e ast.Expr) *ast.Ident {
	switch t := e.(type) {
	case *ast.Ident:
		return t
	case *ast.StarExpr:
		return embeddedIdent(t.X)
	case *ast.SelectorExpr:
		return t.Sel
	case *ast.IndexExpr:
		return embeddedIdent(t.X)
	case *ast.IndexListExpr:
		return embeddedIdent(t.X)
	}
	return nil
}

// readField reads the plan tag of one field (and follows embedded
// structs).
func (c *checker) readField(si *structInfo, v *types.Var, tag annot.Text, pos, typePos token.Pos, local bool) *item {
	value, has, err := annot.TagValue(tag, "plan")
	if err != nil && local {
		c.errorText(tag, "%v", err)
	}
	if !has && local {
		c.checkTagKeyTypo(tag)
	}
	if v.Embedded() {
		if has && local {
			c.errorText(value, "an embedded struct needs no plan tag: its state fields, goals and actions are promoted")
		}
		return c.readEmbedded(v, pos, local)
	}
	if !has {
		return nil
	}
	fields, probs := annot.SplitTag(value)
	if local {
		for _, p := range probs {
			c.errorText(p.At, "%s", p.Msg)
		}
	}
	if len(fields) == 0 {
		if local && len(probs) == 0 {
			c.errorText(value, `empty plan tag: write plan:"state" or plan:"goal=CONDITION"`)
		}
		return nil
	}
	report := func(t annot.Text, format string, args ...any) {
		if local {
			c.errorText(t, format, args...)
		}
	}
	first := fields[0]
	switch {
	case first.Key.S == "state" && !first.HasValue:
		it := c.stateItem(v, pos, typePos, local)
		c.stateRange(it, fields[1:], report)
		return it
	case first.Key.S == "goal" || first.Key.S == "priority":
		return c.goalItem(v, pos, typePos, fields, report, local)
	}
	known := []string{"state", "goal", "priority"}
	if name, ok := suggest.Closest(first.Key.S, known); ok {
		report(first.Key, "unknown plan tag key %q (did you mean %q?)", first.Key.S, name)
	} else {
		report(first.Key, "unknown plan tag key %q (want state, or goal=CONDITION with an optional priority)", first.Key.S)
	}
	return nil
}

// checkTagKeyTypo reports a struct tag key one letter away from plan
// (suggest.Closest allows one edit for a name this short, so no other
// package's key, json, yaml, db or flag, is taken for it).
func (c *checker) checkTagKeyTypo(tag annot.Text) {
	pairs, _ := annot.TagPairs(tag)
	for _, p := range pairs {
		if k := p.Key.S; k != "plan" {
			if _, ok := suggest.Closest(k, []string{"plan"}); ok {
				c.errorText(p.Key, "struct tag key %q (did you mean %q?)", k, "plan")
			}
		}
	}
}

func (c *checker) stateItem(v *types.Var, pos, typePos token.Pos, local bool) *item {
	it := &item{kind: itemState, v: v, pos: pos}
	t, ref, ok := c.stateType(v.Type())
	if !ok {
		if local {
			c.errorf(typePos, token.NoPos, "state field %s has type %s; a state field must be a bool, a number, a string, or a named type of one of those",
				v.Name(), types.TypeString(v.Type(), types.RelativeTo(c.Pkg)))
		}
		return it
	}
	it.typ, it.ref, it.valid = t, ref, true
	return it
}

// stateRange reads the options of state field it's tag: min=N and max=N,
// the range every effect clamps the number into.
func (c *checker) stateRange(it *item, opts []annot.Field, report func(annot.Text, string, ...any)) {
	var lo, hi float64
	var loAt annot.Text
	seen := map[string]annot.Text{}
	for _, f := range opts {
		var end *string
		var val *float64
		switch f.Key.S {
		case "min":
			end, val, loAt = &it.min, &lo, f.Value
		case "max":
			end, val = &it.max, &hi
		default:
			if name, ok := suggest.Closest(f.Key.S, []string{"min", "max"}); ok {
				report(f.Key, "unknown plan tag key %q (did you mean %q?)", f.Key.S, name)
			} else {
				report(f.Key, "unknown plan tag key %q in a state tag (want min=N and max=N)", f.Key.S)
			}
			continue
		}
		if prev, dup := seen[f.Key.S]; dup {
			report(f.Key, "%s given twice in one plan tag (first at column %d)", f.Key.S, c.Fset.Position(prev.Pos(0)).Column)
			continue
		}
		seen[f.Key.S] = f.Key
		if !f.HasValue || f.Value.S == "" {
			report(f.Key, "%s needs a number: %s=N", f.Key.S, f.Key.S)
			continue
		}
		if !it.valid {
			continue // the type is reported
		}
		x, msg := rangeEnd(f.Value.S, it.v.Type(), types.TypeString(it.v.Type(), types.RelativeTo(c.Pkg)))
		if msg != "" {
			report(f.Value, "%s", msg)
			continue
		}
		*end, *val = f.Value.S, x
	}
	if it.min != "" && it.max != "" && lo > hi {
		report(loAt, "min %s is above max %s", it.min, it.max)
		it.min, it.max = "", ""
	}
	it.lo, it.hi = lo, hi
}

// rangeEnd returns the value of min or max text for a field of type t
// (named name): a number literal (with an optional minus) that t holds
// exactly, or a message saying why not.
func rangeEnd(text string, t types.Type, name string) (float64, string) {
	b, _ := t.Underlying().(*types.Basic)
	if b == nil || b.Info()&types.IsNumeric == 0 || b.Info()&types.IsComplex != 0 {
		return 0, fmt.Sprintf("min and max bound a number, not a %s", name)
	}
	lit, neg := text, false
	if rest, ok := strings.CutPrefix(lit, "-"); ok {
		lit, neg = rest, true
	}
	tok := token.INT
	if strings.ContainsAny(lit, ".eEpP") && !strings.HasPrefix(lit, "0x") && !strings.HasPrefix(lit, "0X") {
		tok = token.FLOAT
	}
	v := constant.MakeFromLiteral(lit, tok, 0)
	if v.Kind() == constant.Unknown {
		return 0, fmt.Sprintf("%q is not a number", text)
	}
	if neg {
		v = constant.UnaryOp(token.SUB, v, 0)
	}
	if b.Info()&types.IsInteger != 0 {
		i := constant.ToInt(v)
		if i.Kind() != constant.Int {
			return 0, fmt.Sprintf("%s is not an integer, as %s is", text, name)
		}
		bits := intBits(b, 64) // int and uint as on a 64-bit machine
		unsigned := b.Info()&types.IsUnsigned != 0
		var fits bool
		if unsigned {
			u, exact := constant.Uint64Val(i)
			fits = exact && (bits == 64 || u < 1<<bits)
		} else {
			n, exact := constant.Int64Val(i)
			fits = exact && (bits == 64 || -1<<(bits-1) <= n && n < 1<<(bits-1))
		}
		if !fits {
			return 0, fmt.Sprintf("%s overflows %s", text, name)
		}
		v = i
	}
	x, _ := constant.Float64Val(v)
	return x, ""
}

// intBits is the width of integer type b, with int, uint and uintptr at
// word bits.
func intBits(b *types.Basic, word int) int {
	switch b.Kind() {
	case types.Int8, types.Uint8:
		return 8
	case types.Int16, types.Uint16:
		return 16
	case types.Int32, types.Uint32:
		return 32
	case types.Int64, types.Uint64:
		return 64
	}
	return word
}

func (c *checker) goalItem(v *types.Var, pos, typePos token.Pos, fields []annot.Field, report func(annot.Text, string, ...any), local bool) *item {
	it := &item{kind: itemGoal, v: v, pos: pos, priority: 1}
	seen := map[string]annot.Text{}
	hasGoal := false
	for _, f := range fields {
		if prev, dup := seen[f.Key.S]; dup {
			report(f.Key, "%s given twice in one plan tag (first at column %d)", f.Key.S, c.Fset.Position(prev.Pos(0)).Column)
			continue
		}
		seen[f.Key.S] = f.Key
		switch f.Key.S {
		case "goal":
			hasGoal = true
			if !f.HasValue || strings.TrimSpace(f.Value.S) == "" {
				report(f.Key, "goal needs a condition: goal=CONDITION")
				continue
			}
			it.cond = f.Value
		case "priority":
			if !f.HasValue || f.Value.S == "" {
				report(f.Key, "priority needs a value: low, normal, high, critical or an integer")
				continue
			}
			p, ok := parsePriority(f.Value.S)
			if !ok {
				msg := fmt.Sprintf("unknown priority %q (want low, normal, high, critical or an integer)", f.Value.S)
				if name, ok := suggest.Closest(f.Value.S, []string{"low", "normal", "high", "critical"}); ok {
					msg = fmt.Sprintf("unknown priority %q (did you mean %q?)", f.Value.S, name)
				}
				report(f.Value, "%s", msg)
				continue
			}
			it.priority = p
		case "state":
			report(f.Key, "a field is either state or a goal, not both")
		default:
			if name, ok := suggest.Closest(f.Key.S, []string{"goal", "priority"}); ok {
				report(f.Key, "unknown plan tag key %q (did you mean %q?)", f.Key.S, name)
			} else {
				report(f.Key, "unknown plan tag key %q in a goal (want goal and priority)", f.Key.S)
			}
		}
	}
	if !hasGoal {
		report(fields[0].Key, "priority without a goal: write plan:\"goal=CONDITION; priority=P\"")
		return nil
	}
	if st, ok := v.Type().Underlying().(*types.Struct); !ok || st.NumFields() != 0 {
		if local {
			c.errorf(typePos, token.NoPos, "goal field %s must have type struct{}, not %s", v.Name(), types.TypeString(v.Type(), types.RelativeTo(c.Pkg)))
		}
		return nil
	}
	if it.cond.S == "" && local {
		// Reported above, at the key; a goal of another package keeps
		// its empty condition, reported at the embedding field.
		return nil
	}
	return it
}

func parsePriority(s string) (int, bool) {
	switch s {
	case "low":
		return 0, true
	case "normal":
		return 1, true
	case "high":
		return 2, true
	case "critical":
		return 3, true
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// readEmbedded follows an embedded field: a struct by value contributes
// its items; a pointer is not followed (it could be nil when planning).
func (c *checker) readEmbedded(v *types.Var, pos token.Pos, local bool) *item {
	t := types.Unalias(v.Type())
	if p, ok := t.(*types.Pointer); ok {
		if n, ok := types.Unalias(p.Elem()).(*types.Named); ok && local {
			if _, isStruct := n.Underlying().(*types.Struct); isStruct && c.declaresPlan(n.Obj()) {
				c.errorf(pos, token.NoPos, "%s is embedded by pointer; embed it by value for rolegen to use its state, goals and actions", n.Obj().Name())
			}
		}
		return nil
	}
	n, ok := t.(*types.Named)
	if !ok {
		return nil
	}
	if _, ok := n.Underlying().(*types.Struct); !ok {
		return nil
	}
	if n.TypeArgs().Len() > 0 {
		return nil
	}
	return &item{kind: itemEmbed, v: v, pos: pos, embedded: n.Obj()}
}

// declaresPlan reports whether struct tn (or a struct it embeds) has any
// rolegen annotation.
func (c *checker) declaresPlan(tn *types.TypeName) bool {
	si := c.structOf(tn)
	for _, it := range si.items {
		if it.kind != itemEmbed || c.declaresPlan(it.embedded) {
			return true
		}
	}
	return len(c.methodsOf(tn)) > 0
}

// isRole reports whether struct tn declares a goal or an action, itself
// or through an embedded struct.
func (c *checker) isRole(tn *types.TypeName, seen []*types.TypeName) bool {
	for _, s := range seen {
		if s == tn {
			return false
		}
	}
	si := c.structOf(tn)
	if len(c.methodsOf(tn)) > 0 {
		return true
	}
	for _, it := range si.items {
		switch it.kind {
		case itemGoal:
			return true
		case itemEmbed:
			if c.isRole(it.embedded, append(seen, tn)) {
				return true
			}
		}
	}
	return false
}

// stateType converts the type of a state field.
func (c *checker) stateType(t types.Type) (exprlang.Type, model.TypeRef, bool) {
	et, ok := c.exprType(t)
	if !ok || et.Kind.IsUntyped() {
		return exprlang.Type{}, model.TypeRef{}, false
	}
	ref := model.TypeRef{Name: et.Kind.String()}
	if n, isNamed := types.Unalias(t).(*types.Named); isNamed {
		if n.TypeArgs().Len() > 0 {
			return exprlang.Type{}, model.TypeRef{}, false
		}
		ref = typeRef(n.Obj())
	}
	return et, ref, true
}

// exprType converts a Go type to the condition language's types.
func (c *checker) exprType(t types.Type) (exprlang.Type, bool) {
	t = types.Unalias(t)
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return exprlang.Type{}, false
	}
	k, ok := basicKinds[b.Kind()]
	if !ok {
		return exprlang.Type{}, false
	}
	n, isNamed := t.(*types.Named)
	if !isNamed || n.Obj().Pkg() == nil {
		return exprlang.Basic(k), true
	}
	obj := n.Obj()
	name := obj.Name()
	if obj.Pkg() != c.Pkg {
		name = obj.Pkg().Name() + "." + name
	}
	return exprlang.Named(name, obj.Pkg().Path(), k), true
}

var basicKinds = map[types.BasicKind]exprlang.Kind{
	types.Bool: exprlang.Bool, types.Int: exprlang.Int, types.Int8: exprlang.Int8,
	types.Int16: exprlang.Int16, types.Int32: exprlang.Int32, types.Int64: exprlang.Int64,
	types.Uint: exprlang.Uint, types.Uint8: exprlang.Uint8, types.Uint16: exprlang.Uint16,
	types.Uint32: exprlang.Uint32, types.Uint64: exprlang.Uint64, types.Uintptr: exprlang.Uintptr,
	types.Float32: exprlang.Float32, types.Float64: exprlang.Float64, types.String: exprlang.String,
	types.UntypedBool: exprlang.UntypedBool, types.UntypedInt: exprlang.UntypedInt,
	types.UntypedRune: exprlang.UntypedRune, types.UntypedFloat: exprlang.UntypedFloat,
	types.UntypedString: exprlang.UntypedString,
}
