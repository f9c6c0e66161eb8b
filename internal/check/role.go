package check

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rolegen/rolegen/exprlang"
	"github.com/rolegen/rolegen/internal/annot"
	"github.com/rolegen/rolegen/internal/fieldset"
	"github.com/rolegen/rolegen/internal/model"
	"github.com/rolegen/rolegen/internal/suggest"
)

// origin is a struct whose annotations a role takes: the role itself
// (empty path) or a struct embedded in it by value.
type origin struct {
	tn   *types.TypeName
	path []string
	// pos is the embedding field, for problems in a struct of another
	// package (whose annotations have no positions here).
	pos     token.Pos
	foreign bool
}

func (o *origin) pkg() *types.Package { return o.tn.Pkg() }

// goalEntry ties a model goal to the struct field that declares it.
type goalEntry struct {
	item   *item
	origin *origin
}

type roleBuild struct {
	c       *checker
	r       *model.Role
	tn      *types.TypeName
	origins []*origin
	// fields[i] declares r.Fields[i]; goals likewise.
	fields []*item
	goals  []goalEntry
	ok     bool
}

// role builds the model of role tn; nil when it has problems.
func (c *checker) role(tn *types.TypeName) *model.Role {
	si := c.structOf(tn)
	if si.generic {
		c.errorf(tn.Pos(), token.NoPos, "%s has type parameters; a role must be a non-generic struct type", tn.Name())
		return nil
	}
	file := c.Fset.Position(tn.Pos()).Filename
	r := &model.Role{
		Name: tn.Name(),
		Doc:  strings.TrimSpace(si.doc),
		File: filepath.Join(filepath.Dir(file), strings.ToLower(tn.Name())+"_plan.go"),
	}
	b := &roleBuild{c: c, r: r, tn: tn, ok: true}
	b.walk(&origin{tn: tn}, nil)
	b.nameFields()
	b.nameGoals()
	for _, o := range b.origins {
		b.checkGoals(o)
	}
	for _, o := range b.origins {
		b.actions(o)
	}
	if !b.ok {
		return nil
	}
	r.SetNames()
	return r
}

// walk collects, in field order, the state fields and goals of o and of
// the structs it embeds.
func (b *roleBuild) walk(o *origin, stack []*types.TypeName) {
	if slices.Contains(stack, o.tn) {
		return
	}
	b.origins = append(b.origins, o)
	si := b.c.structOf(o.tn)
	for _, it := range si.items {
		path := append(slices.Clip(o.path), it.v.Name())
		switch it.kind {
		case itemState:
			if !it.valid {
				b.ok = false
				continue
			}
			if o.foreign && !it.v.Exported() {
				b.c.errorf(o.pos, token.NoPos, "state field %s of %s is not exported; generated code in package %s cannot read it",
					it.v.Name(), o.tn.Name(), b.c.Pkg.Name())
				b.ok = false
				continue
			}
			b.fields = append(b.fields, it)
			b.r.Fields = append(b.r.Fields, &model.Field{
				Path: path, Type: it.ref, Kind: it.typ.Kind, Doc: it.doc, Min: it.min, Max: it.max,
			})
		case itemGoal:
			b.goals = append(b.goals, goalEntry{item: it, origin: o})
			b.r.Goals = append(b.r.Goals, &model.Goal{Path: path, Doc: it.doc, Priority: it.priority})
		case itemEmbed:
			child := &origin{tn: it.embedded, path: path, pos: o.pos, foreign: o.foreign}
			if it.embedded.Pkg() != b.c.Pkg {
				child.foreign = true
				if !o.foreign {
					child.pos = it.pos
				}
			}
			b.walk(child, append(stack, o.tn))
		}
	}
}

// visible reports whether the role sees obj under its own name (Go's
// promotion: the shallowest, unambiguous one).
func (b *roleBuild) visible(obj types.Object) bool {
	found, _, _ := types.LookupFieldOrMethod(b.tn.Type(), true, b.c.Pkg, obj.Name())
	return found == obj
}

func (b *roleBuild) nameFields() {
	names := b.names("state field", len(b.r.Fields), func(i int) ([]string, types.Object) {
		return b.r.Fields[i].Path, b.fields[i].v
	})
	for i, f := range b.r.Fields {
		f.Name = names[i]
	}
}

func (b *roleBuild) nameGoals() {
	names := b.names("goal", len(b.r.Goals), func(i int) ([]string, types.Object) {
		return b.r.Goals[i].Path, b.goals[i].item.v
	})
	for i, g := range b.r.Goals {
		g.Name = names[i]
	}
}

// names gives each of n fields its name in the generated code: its own
// where the role sees it (Go's promotion), else its path joined
// (SoldierHealth), which must not be taken.
func (b *roleBuild) names(what string, n int, field func(int) ([]string, types.Object)) []string {
	names := make([]string, n)
	taken := map[string]bool{}
	for i := range n {
		if path, obj := field(i); b.visible(obj) {
			names[i] = path[len(path)-1]
			taken[names[i]] = true
		}
	}
	for i := range n {
		if names[i] != "" {
			continue
		}
		path, _ := field(i)
		names[i] = strings.Join(path, "")
		if taken[names[i]] {
			b.c.errorf(b.tn.Pos(), token.NoPos, "%s %s is shadowed in %s and the name %s is taken; rename one of them",
				what, strings.Join(path, "."), b.tn.Name(), names[i])
			b.ok = false
		}
		taken[names[i]] = true
	}
	return names
}

// reportExpr reports condition errors at their characters; at the
// embedding field for text of another package (which has no positions
// here: what names it there, "goal" or "pre of action Heal"), else at decl,
// the annotated field or method. Errors that follow from a mistake
// reported elsewhere are not reported again.
func (b *roleBuild) reportExpr(o *origin, t annot.Text, errs exprlang.ErrorList, what string, decl token.Pos) {
	for _, e := range errs {
		if e.Cascade {
			continue
		}
		pos := t.Pos(e.Offset)
		switch {
		case pos.IsValid():
			b.c.errorf(pos, t.Pos(e.End), "%s", e.Msg)
		case o.foreign:
			b.foreignError(o, what, "%s", e.Msg)
		default:
			b.c.errorf(decl, token.NoPos, "%s: %s", what, e.Msg)
		}
	}
}

// checkWrap reports a constant step of action a (post text t) that
// Go's arithmetic wraps: on a saturating integer field, one that can
// pass the end of the field's type from a value within the field's range
// and its precondition, as the arithmetic wraps before the effect clamps
// (an int8 at 100 plus 30 is -126, clamped to the range's min, not its
// max); on an unsigned field that no range clamps, one that takes the
// field below 0 where the precondition allows it.
func (b *roleBuild) checkWrap(o *origin, t annot.Text, a *model.Action, decl token.Pos) {
	var assume []exprlang.Expr
	if a.Pre != nil {
		assume = exprlang.Conjuncts(a.Pre)
	}
	for _, e := range a.Effects {
		idx := e.Field.Symbol.Index
		it, fld := b.fields[idx], b.r.Fields[idx]
		step, ok := constantStep(e)
		if !ok {
			continue
		}
		least, most, ok := intLimits(it.v.Type())
		if !ok || step == 0 || !fld.Saturates() && (least != 0 || step > 0) {
			continue // only an unsigned field that no range clamps wraps going down
		}
		in := exprlang.Bounds(e.Field, assume)
		name := types.TypeString(it.v.Type(), types.RelativeTo(b.c.Pkg))
		var msg string
		switch {
		case !fld.Saturates():
			// An unsigned field that no range clamps wraps below 0 to its
			// type's largest value, which every plan would then believe.
			if max(in.Min, it.lo, least)+step >= 0 {
				continue
			}
			msg = fmt.Sprintf("%s can take %s below 0, as the precondition does not keep %s >= %v: a %s wraps to its largest value (add %s >= %v to pre, or make %s signed)",
				effectText(e, t), fld.Name, fld.Name, -step, name, fld.Name, -step, fld.Name)
		case step > 0 && fld.Max != "" && min(in.Max, it.hi)+step > most:
			msg = fmt.Sprintf("%s can pass %v, the largest %s, before it is clamped to %s: Go's arithmetic wraps first (give %s a wider type, or a max of at most %v)",
				effectText(e, t), most, name, fld.Max, fld.Name, most-step)
		case step < 0 && fld.Min != "" && max(in.Min, it.lo)+step < least:
			msg = fmt.Sprintf("%s can pass below %v, the smallest %s, before it is clamped to %s: Go's arithmetic wraps first (give %s a wider type, or a min of at least %v)",
				effectText(e, t), least, name, fld.Min, fld.Name, least-step)
		default:
			continue
		}
		switch pos := t.Pos(e.Pos()); {
		case pos.IsValid():
			b.c.errorf(pos, t.Pos(e.End()), "%s", msg)
		case o.foreign:
			b.foreignError(o, "post", "%s", msg)
		default:
			b.c.errorf(decl, token.NoPos, "%s", msg)
		}
		b.ok = false
	}
}

// effectText is the source of effect e in post text t.
func effectText(e *exprlang.Effect, t annot.Text) string {
	if end := e.End(); e.Pos() >= 0 && end <= len(t.S) {
		return strings.TrimSpace(t.S[e.Pos():end])
	}
	return e.Field.Name
}

// intLimits are the least and the most value integer type t holds (int,
// uint and uintptr at 32 bits, so that the check holds on every
// platform); false for any other type.
func intLimits(t types.Type) (least, most float64, ok bool) {
	bt, _ := t.Underlying().(*types.Basic)
	if bt == nil || bt.Info()&types.IsInteger == 0 {
		return 0, 0, false
	}
	bits := intBits(bt, 32)
	if bt.Info()&types.IsUnsigned != 0 {
		return 0, math.Ldexp(1, bits) - 1, true
	}
	return -math.Ldexp(1, bits-1), math.Ldexp(1, bits-1) - 1, true
}

// foreignError reports a mistake in the annotations of o, a struct of
// another package, at the field that embeds it.
func (b *roleBuild) foreignError(o *origin, what, format string, args ...any) {
	b.c.errorf(o.pos, token.NoPos, "%s of embedded %s.%s: %s", what, o.pkg().Name(), o.tn.Name(), fmt.Sprintf(format, args...))
}

func (b *roleBuild) checkGoals(o *origin) {
	sc := &originScope{b: b, o: o}
	for i, ge := range b.goals {
		if ge.origin != o {
			continue
		}
		g := b.r.Goals[i]
		sc.at = ge.item.pos
		cond, errs := exprlang.Condition(ge.item.cond.S, sc)
		if len(errs) > 0 {
			b.reportExpr(o, ge.item.cond, errs, "goal", ge.item.pos)
			b.ok = false
			continue
		}
		if e := exprlang.Contradiction(ge.item.cond.S, cond); e != nil {
			b.reportExpr(o, ge.item.cond, exprlang.ErrorList{e}, "goal", ge.item.pos)
			b.ok = false
			continue
		}
		g.Cond, g.CondText = cond, strings.TrimSpace(ge.item.cond.S)
		g.Reads = exprlang.Reads(cond)
		g.Parts = model.Parts(cond)
	}
}

// actions adds the //plan:action methods of o.
func (b *roleBuild) actions(o *origin) {
	c := b.c
	sc := &originScope{b: b, o: o}
	for _, m := range c.methodsOf(o.tn) {
		// A method with a bad key or shape still has its conditions
		// checked, so that every problem is reported at once.
		if !m.ok {
			b.ok = false
		}
		action := "action " + m.fn.Name()
		sc.at = m.namePos
		for _, p := range m.problems {
			b.foreignError(o, action, "%s", p)
		}
		if o.foreign && !m.fn.Exported() {
			c.errorf(o.pos, token.NoPos, "action %s of %s is not exported; generated code in package %s cannot call it",
				m.fn.Name(), o.tn.Name(), c.Pkg.Name())
			b.ok = false
			continue
		}
		a := &model.Action{
			Method: m.fn.Name(),
			Path:   o.path,
			Doc:    m.doc,
			Cost:   m.cost, Value: m.value, Weight: m.weight,
			Tags:    m.tags,
			Guarded: m.guarded,
			Shape:   m.shape,

			Uninterruptible: m.uninterruptible,
		}
		a.Name = a.Method
		if !b.visible(m.fn) {
			a.Name = strings.Join(o.path, "") + a.Method
		}
		if f, ok := m.keys["pre"]; ok {
			pre, errs := exprlang.Condition(f.Value.S, sc)
			if len(errs) == 0 {
				if e := exprlang.Contradiction(f.Value.S, pre); e != nil {
					errs = exprlang.ErrorList{e}
				}
			}
			if len(errs) > 0 {
				b.reportExpr(o, f.Value, errs, "pre of "+action, m.namePos)
				b.ok = false
			} else {
				a.Pre, a.PreText = pre, strings.TrimSpace(f.Value.S)
				a.PreReads = exprlang.Reads(pre)
				a.PreParts = model.Parts(pre)
			}
		}
		postOK := true
		if f, ok := m.keys["post"]; ok {
			effs, errs := exprlang.Effects(f.Value.S, sc)
			if len(errs) > 0 {
				b.reportExpr(o, f.Value, errs, "post of "+action, m.namePos)
				b.ok = false
				postOK = false
			} else {
				a.Effects, a.EffectText = effs, strings.TrimSpace(f.Value.S)
				a.Writes = exprlang.Writes(effs)
				b.checkWrap(o, f.Value, a, m.namePos)
			}
		}
		if m.costExpr {
			b.cost(o, a, m.keys["cost"], action, m.namePos)
		}
		a.Reads = fieldset.Union(a.PreReads, exprlang.EffectReads(a.Effects), a.CostReads)
		if f, ok := m.keys["fulfills"]; ok {
			for _, part := range splitList(f.Value) {
				g, ok := b.goalIn(o, part.S)
				if !ok {
					b.unknownGoal(o, part, action)
					b.ok = false
					continue
				}
				if !slices.Contains(a.Fulfills, g) {
					a.Fulfills = append(a.Fulfills, g)
				}
				if postOK && !b.canFulfill(o, a, g, part) {
					b.ok = false
				}
			}
		}
		if m.args != nil {
			s, err := c.argsSchema(m)
			if err != nil {
				if m.namePos.IsValid() {
					c.errorf(m.namePos, m.nameEnd, "%v", err)
				} else {
					b.foreignError(o, action, "%v", err)
				}
				b.ok = false
			}
			a.Args = typeRef(m.args)
			a.ArgsSchema = s
		}
		b.r.Actions = append(b.r.Actions, a)
	}
}

// canFulfill reports whether action a, which lists goal g in fulfills
// (at part), can make g hold: it must write a field g's condition reads
// (else the goal holds after the action exactly when it held before), and
// must not set one to a constant that fails a conjunct of g (see
// setAgainst). Where it cannot, the fulfills is false. A goal whose
// condition failed to check, or reads no field, is left alone.
func (b *roleBuild) canFulfill(o *origin, a *model.Action, g int, part annot.Text) bool {
	goal := b.r.Goals[g]
	var msg string
	switch {
	case goal.Cond == nil || len(goal.Reads) == 0:
		return true
	case len(fieldset.Meet(a.Writes, goal.Reads)) > 0:
		if conj, eff := setAgainst(goal, a, b.r.Fields); conj != nil {
			msg = fmt.Sprintf("%s cannot fulfill %s: its post sets %s to %s, where %s's %q fails", a.Name, goal.Name,
				eff.Field.Name, eff.Value.Value().ExactString(), goal.Name, exprlang.Source(goal.CondText, conj))
			break
		}
		conj, eff := movesAway(goal, a, b.r.Fields)
		if conj == nil {
			return true
		}
		msg = fmt.Sprintf("%s cannot fulfill %s: its post only moves %s away from %s's %q (%s)", a.Name, goal.Name,
			eff.Field.Name, goal.Name, exprlang.Source(goal.CondText, conj), effectText(eff, annot.Text{S: a.EffectText}))
	case len(a.Effects) == 0:
		msg = fmt.Sprintf("%s cannot fulfill %s: %s reads %s, and %s has no post", a.Name, goal.Name, goal.Name, b.fieldNames(goal.Reads), a.Name)
	default:
		msg = fmt.Sprintf("%s cannot fulfill %s: %s reads %s, which the post of %s does not write", a.Name, goal.Name, goal.Name, b.fieldNames(goal.Reads), a.Name)
	}
	if !part.Pos(0).IsValid() {
		b.c.errorf(o.pos, token.NoPos, "%s", msg)
		return false
	}
	b.c.errorText(part, "%s", msg)
	return false
}

// fieldNames lists the names of fields ids: "A", "A and B", "A, B and C".
func (b *roleBuild) fieldNames(ids []int) string {
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = b.r.Fields[id].Name
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func typeRef(tn *types.TypeName) model.TypeRef {
	ref := model.TypeRef{Name: tn.Name()}
	if tn.Pkg() != nil {
		ref.PkgPath, ref.PkgName = tn.Pkg().Path(), tn.Pkg().Name()
	}
	return ref
}

// goalIn resolves a goal name as origin o sees it.
func (b *roleBuild) goalIn(o *origin, name string) (int, bool) {
	obj, index, _ := types.LookupFieldOrMethod(o.tn.Type(), true, o.pkg(), name)
	v, ok := obj.(*types.Var)
	if !ok {
		return 0, false
	}
	path := append(slices.Clip(o.path), selectorPath(o.tn.Type(), index)...)
	for i, g := range b.r.Goals {
		if slices.Equal(g.Path, path) && b.goals[i].item.v == v {
			return i, true
		}
	}
	return 0, false
}

func (b *roleBuild) unknownGoal(o *origin, part annot.Text, action string) {
	if obj, _, _ := types.LookupFieldOrMethod(o.tn.Type(), true, o.pkg(), part.S); obj != nil {
		if v, ok := obj.(*types.Var); ok && b.c.reported[v] {
			return // the goal's declaration is reported
		}
	}
	var names []string
	for i, g := range b.r.Goals {
		if hasPrefix(g.Path, o.path) {
			last := g.Path[len(g.Path)-1]
			if gi, ok := b.goalIn(o, last); ok && gi == i {
				names = append(names, last)
			}
		}
	}
	msg := fmt.Sprintf("unknown goal %q in fulfills", part.S)
	if name, ok := suggest.Closest(part.S, names); ok {
		msg += fmt.Sprintf(" (did you mean %q?)", name)
	} else if len(names) > 0 {
		msg += fmt.Sprintf(" (goals of %s: %s)", o.tn.Name(), strings.Join(names, ", "))
	} else {
		msg += fmt.Sprintf(" (%s has no goals)", o.tn.Name())
	}
	if !part.Pos(0).IsValid() {
		b.foreignError(o, "fulfills of "+action, "%s", msg)
		return
	}
	b.c.errorText(part, "%s", msg)
}

func hasPrefix(path, prefix []string) bool {
	return len(path) > len(prefix) && slices.Equal(path[:len(prefix)], prefix)
}

// selectorPath turns the field indexes of a lookup into field names.
func selectorPath(t types.Type, index []int) []string {
	var names []string
	for _, i := range index {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return names
		}
		f := st.Field(i)
		names = append(names, f.Name())
		t = f.Type()
	}
	return names
}

// movesAway returns, when every conjunct of goal's condition that reads
// a field action a writes is an ordering of an integer field against a
// constant (Flour >= 3) and every effect of a on that field adds a
// constant that moves it away from holding (Flour -= 1), one such
// conjunct and effect: then a fulfills nothing, for a conjunct that
// fails before its step fails after it, and the others do not change.
// Nil otherwise, and for a saturating field (an effect clamps it into
// its range, which may move a value outside it toward holding).
func movesAway(goal *model.Goal, a *model.Action, fields []*model.Field) (exprlang.Expr, *exprlang.Effect) {
	var conj exprlang.Expr
	var away *exprlang.Effect
	for _, c := range exprlang.Conjuncts(goal.Cond) {
		if !writesAny(a, c) {
			continue
		}
		f, op, _, ok := exprlang.FieldConstant(c)
		if !ok || fields[f.Symbol.Index].Saturates() {
			return nil, nil // a conjunct of another form, which a may serve
		}
		var up bool
		switch op {
		case exprlang.OpGtr, exprlang.OpGeq:
			up = true
		case exprlang.OpLss, exprlang.OpLeq:
		default:
			return nil, nil
		}
		for _, e := range a.Effects {
			if e.Field.Symbol.Index != f.Symbol.Index {
				continue
			}
			if step, ok := constantStep(e); !ok || step == 0 || (step > 0) == up {
				return nil, nil
			}
			conj, away = c, e
		}
	}
	return conj, away
}

// writesAny reports whether action a has an effect on a field that
// expression e reads.
func writesAny(a *model.Action, e exprlang.Expr) bool {
	reads := exprlang.Reads(e)
	for _, eff := range a.Effects {
		if slices.Contains(reads, eff.Field.Symbol.Index) {
			return true
		}
	}
	return false
}

// constantStep is the constant effect e adds to its numeric field (1
// for ++, -1 for --), and false when it adds none (an assignment, or a
// value that depends on the state).
func constantStep(e *exprlang.Effect) (float64, bool) {
	switch e.Op {
	case exprlang.Inc:
		return 1, true
	case exprlang.Dec:
		return -1, true
	case exprlang.AddAssign, exprlang.SubAssign:
		v := e.Value.Value()
		if v == nil || (v.Kind() != constant.Int && v.Kind() != constant.Float) {
			return 0, false
		}
		step, _ := constant.Float64Val(constant.ToFloat(v))
		if e.Op == exprlang.SubAssign {
			step = -step
		}
		return step, true
	}
	return 0, false
}

// setAgainst returns a conjunct of goal's condition that fails in every
// state after action a, and the effect that makes it fail: one that sets
// the only field the conjunct reads to a constant for which the
// conjunct, a comparison of that field with a constant (Results >= 3,
// Mode == 'ready', Docked, !Docked), is false (Results = 1). Nil when
// there is none. Fields of float kinds are left alone (their constants
// round to the field's type before they compare), and so are saturating
// ones (the effect clamps the constant into the field's range).
func setAgainst(goal *model.Goal, a *model.Action, fields []*model.Field) (exprlang.Expr, *exprlang.Effect) {
	for _, conj := range exprlang.Conjuncts(goal.Cond) {
		f, op, c, ok := exprlang.FieldConstant(conj)
		if !ok {
			continue
		}
		field := f.Symbol.Index
		for _, e := range a.Effects {
			if e.Op != exprlang.Assign || e.Field.Symbol.Index != field || e.Value.Value() == nil || fields[field].Saturates() {
				continue
			}
			if !op.Compare(e.Value.Value(), c) {
				return conj, e
			}
		}
	}
	return nil, nil
}
