package check

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"math"
	"strconv"
	"strings"

	"github.com/rolegen/rolegen/internal/annot"
	"github.com/rolegen/rolegen/internal/model"
	"github.com/rolegen/rolegen/internal/suggest"
)

// methodDecl is a method with //plan:action directives.
type methodDecl struct {
	fn *types.Func
	// namePos and nameEnd span the method's name, and recv is its
	// receiver; NoPos and nil for a method of another package, read from
	// its directives' text alone.
	namePos, nameEnd token.Pos
	recv             *ast.Field
	// keys holds the merged key=value fields of the directives.
	keys map[string]annot.Field
	doc  string
	// problems are the mistakes of a method of another package, whose
	// text has no position here: each role embedding its type reports
	// them at the embedding field.
	problems []string

	// Syntax-level results, valid when ok. costExpr: the cost is not a
	// number, so an expression of the state, which the role checks.
	cost, value, weight float64
	costExpr            bool
	tags                []string
	guarded             bool
	uninterruptible     bool
	shape               model.Shape
	args                *types.TypeName
	ok                  bool
}

// methodError reports a mistake of m in its directive text t: at t, or
// among m's problems when t has no position.
func (c *checker) methodError(m *methodDecl, t annot.Text, format string, args ...any) {
	m.ok = false
	if t.Pos(0).IsValid() {
		c.errorText(t, format, args...)
		return
	}
	m.problems = append(m.problems, fmt.Sprintf(format, args...))
}

// methodErrorAtName reports a mistake of m at its name.
func (c *checker) methodErrorAtName(m *methodDecl, format string, args ...any) {
	m.ok = false
	if m.namePos.IsValid() {
		c.errorf(m.namePos, m.nameEnd, format, args...)
		return
	}
	m.problems = append(m.problems, fmt.Sprintf(format, args...))
}

var actionKeys = []string{"pre", "post", "fulfills", "cost", "value", "weight", "tags", "guarded", "uninterruptible"}

// funcDirectives reads the //plan: directives of a function's doc comment.
func (c *checker) funcDirectives(d *ast.FuncDecl) {
	dirs := c.directives(d)
	if len(dirs) == 0 {
		return
	}
	if d.Recv == nil || len(d.Recv.List) == 0 {
		c.errorText(dirs[0].Name, "plan:action on function %s: actions are methods of a role struct", d.Name.Name)
		return
	}
	fn, _ := c.Info.Defs[d.Name].(*types.Func)
	recv := recvTypeName(c.Info, d.Recv.List[0].Type)
	if fn == nil || recv == nil {
		return
	}
	if _, isStruct := recv.Type().Underlying().(*types.Struct); !isStruct {
		c.errorText(dirs[0].Name, "plan:action on a method of %s, which is not a struct; roles are struct types", recv.Name())
		return
	}
	c.methods[recv] = append(c.methods[recv], c.method(fn, d.Name.Pos(), d.Name.End(), d.Recv.List[0], d.Doc.Text(), dirs))
}

// directives returns the //plan:action lines of a function's doc comment,
// reporting other //plan: directives.
func (c *checker) directives(d *ast.FuncDecl) []annot.Directive {
	var dirs []annot.Directive
	for _, cm := range d.Doc.List {
		dir, ok := annot.ParseDirective(annot.NewText(cm.Text, cm.Slash))
		if !ok {
			continue
		}
		if dir.Name.S != "action" {
			if name, ok := suggest.Closest(dir.Name.S, []string{"action"}); ok {
				c.errorText(dir.Name, "unknown directive plan:%s (did you mean plan:%s?)", dir.Name.S, name)
			} else {
				c.errorText(dir.Name, "unknown directive plan:%s (rolegen knows plan:action)", dir.Name.S)
			}
			continue
		}
		dirs = append(dirs, dir)
	}
	return dirs
}

// method reads the keys of an action's directives; fn is the method,
// namePos and nameEnd span its name and recv is its receiver (NoPos and nil
// for another package's), doc is its doc comment.
func (c *checker) method(fn *types.Func, namePos, nameEnd token.Pos, recv *ast.Field, doc string, dirs []annot.Directive) *methodDecl {
	m := &methodDecl{fn: fn, namePos: namePos, nameEnd: nameEnd, recv: recv, keys: map[string]annot.Field{}, doc: strings.TrimSpace(doc), cost: 1, value: 1, weight: 1, ok: true}
	for _, dir := range dirs {
		fields, probs := annot.SplitDirective(dir.Args)
		for _, p := range probs {
			c.methodError(m, p.At, "%s", p.Msg)
		}
		for _, f := range fields {
			if prev, dup := m.keys[f.Key.S]; dup {
				if pp := c.Fset.Position(prev.Key.Pos(0)); pp.IsValid() {
					c.methodError(m, f.Key, "key %s given twice for action %s (first at line %d, column %d)", f.Key.S, fn.Name(), pp.Line, pp.Column)
				} else {
					c.methodError(m, f.Key, "key %s given twice for action %s", f.Key.S, fn.Name())
				}
				continue
			}
			c.actionKey(m, f)
			m.keys[f.Key.S] = f
		}
	}
	c.methodShape(m)
	c.uninterruptible(m)
	c.receiver(m)
	return m
}

// uninterruptible reports the key on an action whose method finishes
// when it returns: nothing can interrupt it, so the key would promise
// nothing.
func (c *checker) uninterruptible(m *methodDecl) {
	f, ok := m.keys["uninterruptible"]
	if !ok || !m.uninterruptible || m.shape == shapeUnknown || durativeShape(m.shape) {
		return
	}
	c.methodError(m, f.Key, "uninterruptible on %s, whose method finishes when it returns: only an action that takes ticks, func(runtime.Step) runtime.Status, can be interrupted",
		m.fn.Name())
}

// shapeUnknown marks a method whose shape was reported as wrong.
const shapeUnknown model.Shape = 255

func durativeShape(s model.Shape) bool {
	return s == model.ShapeStep || s == model.ShapeCtxStep || s == model.ShapeCtxStepErr
}

// receiver reports an action with a post whose method has a value
// receiver: the method changes a copy, so what the post promises never
// reaches the role. Without a post (an action that writes no state) a
// value receiver is fine.
func (c *checker) receiver(m *methodDecl) {
	post, ok := m.keys["post"]
	if !ok || strings.TrimSpace(post.Value.S) == "" {
		return // no post, or one already reported as empty
	}
	if _, isPtr := types.Unalias(m.fn.Signature().Recv().Type()).(*types.Pointer); isPtr {
		return
	}
	recv := m.recv
	if recv == nil {
		c.methodErrorAtName(m, "%s has a post but a value receiver: what it changes is lost when it returns; use a pointer receiver",
			m.fn.Name())
		return
	}
	var b strings.Builder
	b.WriteByte('(')
	if len(recv.Names) > 0 && recv.Names[0].Name != "_" {
		b.WriteString(recv.Names[0].Name + " ")
	}
	b.WriteString("*" + types.ExprString(ast.Unparen(recv.Type)) + ")")
	c.errorf(recv.Type.Pos(), recv.Type.End(), "%s has a post but a value receiver: what it changes is lost when it returns; use a pointer receiver, %s",
		m.fn.Name(), b.String())
	m.ok = false
}

func recvTypeName(info *types.Info, e ast.Expr) *types.TypeName {
	switch t := e.(type) {
	case *ast.StarExpr:
		return recvTypeName(info, t.X)
	case *ast.ParenExpr:
		return recvTypeName(info, t.X)
	case *ast.IndexExpr:
		return recvTypeName(info, t.X)
	case *ast.IndexListExpr:
		return recvTypeName(info, t.X)
	case *ast.Ident:
		tn, _ := info.Uses[t].(*types.TypeName)
		return tn
	}
	return nil
}

// actionKey checks one key=value of a directive that needs no scope.
func (c *checker) actionKey(m *methodDecl, f annot.Field) {
	key := f.Key.S
	switch key {
	case "pre", "post", "fulfills", "tags":
		if !f.HasValue || strings.TrimSpace(f.Value.S) == "" {
			c.methodError(m, f.Key, "%s needs a value: %s=\"...\"", key, key)
			return
		}
		if key == "tags" {
			for _, part := range splitList(f.Value) {
				if !isWord(part.S) {
					c.methodError(m, part, "tag %q is not a word (letters, digits, _ and -)", part.S)
					return
				}
				m.tags = append(m.tags, part.S)
			}
		}
		return
	case "cost", "value", "weight":
		if key == "cost" && (!f.HasValue || strings.TrimSpace(f.Value.S) == "") {
			c.methodError(m, f.Key, `cost needs a value: a number, cost=2, or an expression of the state, cost="2 + Distance / 10"`)
			return
		}
		if !f.HasValue {
			c.methodError(m, f.Key, "%s needs a number: %s=2", key, key)
			return
		}
		n, err := strconv.ParseFloat(f.Value.S, 64)
		if key == "cost" && (err != nil || math.IsNaN(n) || math.IsInf(n, 0)) {
			// Not a number: an expression of the state, checked with the
			// scope of each role that has the action.
			m.costExpr = true
			return
		}
		if err != nil || math.IsNaN(n) || math.IsInf(n, 0) {
			c.methodError(m, f.Value, "%s %q is not a number", key, f.Value.S)
			return
		}
		switch {
		case key == "cost" && n <= 0:
			c.methodError(m, f.Value, "cost must be greater than 0, not %s", f.Value.S)
			return
		case key == "weight" && n < 0:
			c.methodError(m, f.Value, "weight must not be negative, not %s", f.Value.S)
			return
		}
		switch key {
		case "cost":
			m.cost = n
		case "value":
			m.value = n
		case "weight":
			m.weight = n
		}
		return
	case "guarded", "uninterruptible":
		if f.HasValue {
			c.methodError(m, f.Key, "%s is a bare key: write %s, without a value", key, key)
			return
		}
		if key == "guarded" {
			m.guarded = true
		} else {
			m.uninterruptible = true
		}
		return
	}
	if name, ok := suggest.Closest(key, actionKeys); ok {
		c.methodError(m, f.Key, "unknown key %q in plan:action (did you mean %q?)", key, name)
	} else {
		c.methodError(m, f.Key, "unknown key %q in plan:action (want one of %s)", key, strings.Join(actionKeys, ", "))
	}
}

// splitList splits a comma-separated value into trimmed parts.
func splitList(v annot.Text) []annot.Text {
	var out []annot.Text
	start := 0
	for i := 0; i <= len(v.S); i++ {
		if i == len(v.S) || v.S[i] == ',' {
			out = append(out, v.Slice(start, i).TrimSpace())
			start = i + 1
		}
	}
	return out
}

func isWord(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127) {
			return false
		}
	}
	return true
}

// methodShape classifies the signature of an action's method.
func (c *checker) methodShape(m *methodDecl) {
	sig := m.fn.Signature()
	params, results := sig.Params(), sig.Results()
	isErr := func(t types.Type) bool { return types.Identical(t, types.Universe.Lookup("error").Type()) }
	isCtx := func(t types.Type) bool { return isNamed(t, "context", "Context") }
	isStep := func(t types.Type) bool { return isNamed(t, runtimePath, "Step") }
	isStatus := func(t types.Type) bool { return isNamed(t, runtimePath, "Status") }
	m.shape = shapeUnknown
	bad := func() {
		c.methodErrorAtName(m,
			"action %s has signature %s; an action method is func(), func() error, func(context.Context) error, func(context.Context, T) error or func(context.Context, T) (R, error) with T a named struct type, or, for an action that takes ticks, func(runtime.Step) runtime.Status, func(context.Context, runtime.Step) runtime.Status or func(context.Context, runtime.Step) (runtime.Status, error)",
			m.fn.Name(), c.typeString(sig))
	}
	if sig.Variadic() || sig.TypeParams().Len() > 0 {
		bad()
		return
	}
	// Where the Step parameter is, if any: an action that takes ticks.
	step, stepPtr := -1, false
	for i := range params.Len() {
		t := params.At(i).Type()
		if isStep(t) {
			step = i
		}
		if p, ok := types.Unalias(t).(*types.Pointer); ok && isStep(p.Elem()) {
			stepPtr = true
		}
	}
	returnsStatus := results.Len() > 0 && isStatus(results.At(0).Type())
	switch {
	case params.Len() == 0 && results.Len() == 0:
		m.shape = model.ShapeNone
	case params.Len() == 0 && results.Len() == 1 && isErr(results.At(0).Type()):
		m.shape = model.ShapeErr
	case params.Len() == 1 && isCtx(params.At(0).Type()) && results.Len() == 1 && isErr(results.At(0).Type()):
		m.shape = model.ShapeCtxErr
	case params.Len() == 1 && step == 0 && results.Len() == 1 && returnsStatus:
		m.shape = model.ShapeStep
	case params.Len() == 2 && isCtx(params.At(0).Type()) && step == 1 && results.Len() == 1 && returnsStatus:
		m.shape = model.ShapeCtxStep
	case params.Len() == 2 && isCtx(params.At(0).Type()) && step == 1 && results.Len() == 2 && returnsStatus && isErr(results.At(1).Type()):
		m.shape = model.ShapeCtxStepErr
	case step >= 0 || stepPtr || returnsStatus:
		c.durativeShapeError(m, step >= 0, stepPtr)
	case params.Len() == 2 && isCtx(params.At(0).Type()) && (results.Len() == 1 && isErr(results.At(0).Type()) ||
		results.Len() == 2 && isErr(results.At(1).Type())):
		n, ok := types.Unalias(params.At(1).Type()).(*types.Named)
		if !ok || n.TypeArgs().Len() > 0 {
			bad()
			return
		}
		if _, isStruct := n.Underlying().(*types.Struct); !isStruct {
			bad()
			return
		}
		m.args = n.Obj()
		m.shape = model.ShapeArgsErr
		if results.Len() == 2 {
			m.shape = model.ShapeArgsResult
		}
	default:
		bad()
	}
}

// durativeShapeError reports a method that takes a runtime.Step or
// returns a runtime.Status, so is meant to take ticks, in another shape
// than the three rolegen knows.
func (c *checker) durativeShapeError(m *methodDecl, takesStep, stepPtr bool) {
	sig := c.typeString(m.fn.Signature())
	want := "func(runtime.Step) runtime.Status, func(context.Context, runtime.Step) runtime.Status or func(context.Context, runtime.Step) (runtime.Status, error)"
	switch {
	case stepPtr:
		c.methodErrorAtName(m, "action %s takes a *runtime.Step; an action that takes ticks takes a runtime.Step by value: %s", m.fn.Name(), want)
		return
	case takesStep:
		c.methodErrorAtName(m, "action %s takes a runtime.Step, so it takes ticks, but has signature %s; an action that takes ticks is %s", m.fn.Name(), sig, want)
		return
	}
	c.methodErrorAtName(m, "action %s returns a runtime.Status but has signature %s; an action that takes ticks is told how long it has run: %s", m.fn.Name(), sig, want)
}

// typeString writes t as the role's package reads it: its own names bare,
// other packages' by package name (runtime.Step, context.Context).
func (c *checker) typeString(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string {
		if p == c.Pkg {
			return ""
		}
		return p.Name()
	})
}

// runtimePath is the import path of the package of runtime.Step.
const runtimePath = "github.com/rolegen/rolegen/runtime"

// isNamed reports whether t is the named type pkg.name.
func isNamed(t types.Type, pkg, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}
