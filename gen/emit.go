package gen

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
	"golang.org/x/tools/imports"

	"github.com/rolegen/rolegen/exprlang"
	"github.com/rolegen/rolegen/internal/genfile"
	"github.com/rolegen/rolegen/internal/model"
	"github.com/rolegen/rolegen/runtime/rolegenimpl"
)

const (
	runtimePath = "github.com/rolegen/rolegen/runtime"
	implPath    = "github.com/rolegen/rolegen/runtime/rolegenimpl"
	contextPath = "context"
	jsonPath    = "encoding/json"
)

// emitter writes the file of one role: each method below emits one group
// of declarations, in the order of the file.
type emitter struct {
	pkg  *model.Package
	r    *model.Role
	f    *jen.File
	expr exprEmitter
	// consts are the names of the package's own constants that the role's
	// conditions, effects and costs use: a local variable of a generated
	// function must not hide one (local).
	consts map[string]bool
}

// emitRole renders the generated file of role r.
func emitRole(pkg *model.Package, r *model.Role) ([]byte, error) {
	f := jen.NewFilePathName(pkg.Path, pkg.Name)
	// imports.Process below formats the file: jennifer need not too.
	f.NoFormat = true
	f.HeaderComment(genfile.Header)
	for _, imp := range [...]struct{ path, name string }{{runtimePath, "runtime"}, {implPath, "rolegenimpl"}, {contextPath, "context"}, {jsonPath, "json"}} {
		if pkg.Declares(imp.name) {
			// The package declares the name itself: import under another.
			f.ImportAlias(imp.path, "rolegen"+imp.name)
		} else {
			f.ImportName(imp.path, imp.name)
		}
	}
	importConstants(f, pkg, r)
	e := &emitter{pkg: pkg, r: r, f: f, expr: exprEmitter{role: r}, consts: ownConstants(pkg, r)}
	e.versionCheck()
	e.stateType()
	e.planState()
	e.updatePlanState()
	e.ids()
	e.domain()
	e.functions()
	e.enabled()
	e.search()
	e.satisfied()
	e.replay()
	e.numberFunc()
	e.textFunc()
	e.hashFunc()
	e.keyFunc()
	e.changedFunc()
	e.perform()
	e.performJSON()
	e.performStep()
	e.argActions()
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, fmt.Errorf("rendering %s: %w", r.Name, err)
	}
	// Format, grouping the standard library's imports apart as goimports
	// does; FormatOnly adds and removes nothing.
	out, err := imports.Process(r.File, buf.Bytes(), &imports.Options{FormatOnly: true, Comments: true, TabIndent: true, TabWidth: 8})
	if err != nil {
		return nil, fmt.Errorf("formatting %s: %w", r.Name, err)
	}
	return out, nil
}

// importConstants names the imports of the packages whose constants r's
// conditions, effects and costs use (time in time.Hour) by the packages'
// own names, which a path does not always tell (math/rand/v2 is rand).
// A name the role's package declares, or that another import has, is left
// to jennifer, which picks an alias.
func importConstants(f *jen.File, pkg *model.Package, r *model.Role) {
	taken := map[string]string{"runtime": runtimePath, "context": contextPath, "json": jsonPath}
	for _, id := range constants(r) {
		if id.Symbol.PkgPath == pkg.Path {
			continue
		}
		path, name := id.Symbol.PkgPath, id.Symbol.PkgName
		if _, ok := taken[name]; ok || pkg.Declares(name) {
			continue
		}
		taken[name] = path
		f.ImportName(path, name)
	}
}

// ownConstants returns the names of pkg's constants that r's conditions,
// effects and costs use.
func ownConstants(pkg *model.Package, r *model.Role) map[string]bool {
	names := map[string]bool{}
	for _, id := range constants(r) {
		if id.Symbol.PkgPath == pkg.Path {
			names[id.Name] = true
		}
	}
	return names
}

// constants returns the constants r's conditions, effects and costs name,
// in the order they appear (goals, then each action's precondition,
// effects and cost).
func constants(r *model.Role) []*exprlang.Ident {
	var out []*exprlang.Ident
	visit := func(e exprlang.Expr) {
		if e == nil {
			return
		}
		exprlang.Walk(e, func(n exprlang.Expr) bool {
			if id, ok := n.(*exprlang.Ident); ok && id.Symbol.Kind == exprlang.Const {
				out = append(out, id)
			}
			return true
		})
	}
	for _, g := range r.Goals {
		visit(g.Cond)
	}
	for _, a := range r.Actions {
		visit(a.Pre)
		for _, eff := range a.Effects {
			visit(eff.Value)
		}
		visit(a.CostExpr)
	}
	return out
}

// local returns name, or name followed by underscores, for a local
// variable of a generated function that evaluates the role's conditions:
// one that hides none of the package's constants they use.
func (e *emitter) local(name string) string {
	for e.consts[name] {
		name += "_"
	}
	return name
}

// multi renders a composite literal's elements one per line.
var multi = jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}

func kv(key string, value jen.Code) jen.Code { return jen.Id(key).Op(":").Add(value) }

func number(f float64) jen.Code { return jen.Op(strconv.FormatFloat(f, 'g', -1, 64)) }

// str renders s as a raw string literal when that is possible and reads
// better.
func str(s string) jen.Code {
	if strings.ContainsAny(s, "`\r") || !strings.ContainsAny(s, `"\`) {
		return jen.Lit(s)
	}
	return jen.Op("`" + s + "`")
}

func (e *emitter) rt(name string) *jen.Statement { return jen.Qual(runtimePath, name) }

// impl names what only generated code calls (package rolegenimpl).
func (e *emitter) impl(name string) *jen.Statement { return jen.Qual(implPath, name) }

func (e *emitter) state() *jen.Statement { return jen.Id(e.r.StateType) }

func typeCode(t model.TypeRef) jen.Code {
	if t.PkgPath == "" {
		return jen.Id(t.Name)
	}
	return jen.Qual(t.PkgPath, t.Name)
}

// typeText is the type as the role's package writes it.
func (e *emitter) typeText(t model.TypeRef) string {
	if t.PkgPath == "" || t.PkgPath == e.pkg.Path {
		return t.Name
	}
	return t.PkgName + "." + t.Name
}

func (e *emitter) comment(text string) {
	for _, line := range strings.Split(text, "\n") {
		e.f.Comment(line)
	}
}

// versionCheck emits the check that the runtime the file builds against
// runs the code of this generator's version (rolegenimpl.MinVersion): a
// file left from an older rolegen, or written by a newer one than the
// module requires, fails to compile at a line whose message says what to
// do, before the calls that no longer match.
func (e *emitter) versionCheck() {
	v := jen.Lit(rolegenimpl.MaxVersion)
	e.f.Comment("This file builds with the runtime of the rolegen that wrote it.")
	e.f.Const().Defs(
		jen.Id("_").Op("=").Add(e.impl("GoGenerateAgain")).Call(jen.Add(v).Op("-").Add(e.impl("MinVersion"))),
		jen.Id("_").Op("=").Add(e.impl("RequireNewerRolegen")).Call(e.impl("MaxVersion").Op("-").Add(v)),
	)
	e.f.Line()
}

// stateType emits the state struct.
func (e *emitter) stateType() {
	r := e.r
	e.comment(fmt.Sprintf("%s is the planning state of %s: its plan:\"state\" fields, copied by value.", r.StateType, r.Name))
	e.f.Type().Id(r.StateType).StructFunc(func(g *jen.Group) {
		for _, fld := range r.Fields {
			if fld.Doc != "" {
				for _, line := range strings.Split(fld.Doc, "\n") {
					g.Comment(line)
				}
			}
			g.Id(fld.Name).Add(typeCode(fld.Type))
		}
	})
	e.f.Line()
}

// planState emits the method that extracts the state.
func (e *emitter) planState() {
	r := e.r
	e.f.Comment("PlanState returns the planning state of r.")
	e.f.Func().Params(jen.Id("r").Op("*").Id(r.Name)).Id(model.MethodPlanState).Params().Add(e.state()).Block(
		jen.Return(e.state().CustomFunc(multi, func(g *jen.Group) {
			for _, fld := range r.Fields {
				sel := jen.Id("r")
				for _, p := range fld.Path {
					sel = sel.Dot(p)
				}
				g.Add(kv(fld.Name, sel))
			}
		})),
	)
	e.f.Line()
}

// updatePlanState emits UpdatePlanState, which an agent reads the live
// state with once a tick: PlanState and the comparison with the state of
// the tick before (the domain's Changed) in one pass over the fields.
func (e *emitter) updatePlanState() {
	r := e.r
	e.f.Comment("UpdatePlanState writes the planning state of r into *s and returns the")
	e.f.Comment(fmt.Sprintf("fields in which it differs from what *s held (%s.Changed):", r.DomainVar))
	e.f.Comment("bit f for field f, and bit 63 for any field from the 63rd on.")
	e.f.Func().Params(jen.Id("r").Op("*").Id(r.Name)).Id(model.MethodUpdatePlanState).Params(jen.Id("s").Op("*").Add(e.state())).Uint64().BlockFunc(func(g *jen.Group) {
		g.Var().Id("w").Uint64()
		for i, fld := range r.Fields {
			sel := jen.Id("r")
			for _, p := range fld.Path {
				sel = sel.Dot(p)
			}
			g.If(jen.Id("s").Dot(fld.Name).Op("!=").Add(sel)).Block(
				jen.Id("s").Dot(fld.Name).Op("=").Add(sel.Clone()),
				jen.Id("w").Op("|=").Lit(1).Op("<<").Lit(min(i, 63)),
			)
		}
		g.Return(jen.Id("w"))
	})
	e.f.Line()
}

// ids emits the ActionID and GoalID constants.
func (e *emitter) ids() {
	r := e.r
	if len(r.Actions) > 0 {
		e.comment(fmt.Sprintf("The actions of %s, in declaration order: indexes of %s.Actions.", r.Name, r.DomainVar))
		e.iotaConsts(e.rt("ActionID"), len(r.Actions), func(i int) string { return r.Actions[i].Const })
	}
	if len(r.Goals) > 0 {
		e.comment(fmt.Sprintf("The goals of %s, in declaration order: indexes of %s.Goals.", r.Name, r.DomainVar))
		e.iotaConsts(e.rt("GoalID"), len(r.Goals), func(i int) string { return r.Goals[i].Const })
	}
}

// iotaConsts emits n constants of type typ numbered from 0.
func (e *emitter) iotaConsts(typ jen.Code, n int, name func(int) string) {
	e.f.Const().DefsFunc(func(g *jen.Group) {
		g.Id(name(0)).Add(typ).Op("=").Iota()
		for i := 1; i < n; i++ {
			g.Id(name(i))
		}
	})
	e.f.Line()
}

// functions emits the conditions, effects and costs as plain Go functions
// of the state.
func (e *emitter) functions() {
	for _, a := range e.r.Actions {
		if a.Pre != nil {
			e.condFunc(a.PreFunc, a.Pre)
			e.unmetFunc(a.UnmetFunc, a.PreParts)
		}
		if len(a.Effects) > 0 {
			e.f.Func().Id(a.EffectFunc).Params(jen.Id("s").Add(e.state())).Add(e.state()).Block(
				e.expr.effects(a.Effects),
				jen.Return(jen.Id("s")),
			)
			e.f.Line()
		}
		if a.CostExpr != nil {
			e.f.Func().Id(a.CostFunc).Params(jen.Id("s").Add(e.state())).Float64().Block(
				jen.Return(e.expr.float64(a.CostExpr)),
			)
			e.f.Line()
		}
	}
	for _, g := range e.r.Goals {
		e.condFunc(g.CondFunc, g.Cond)
		e.unmetFunc(g.UnmetFunc, g.Parts)
	}
}

func (e *emitter) condFunc(name string, cond exprlang.Expr) {
	e.f.Func().Id(name).Params(jen.Id("s").Add(e.state())).Bool().Block(
		jen.Return(e.expr.expr(cond)),
	)
	e.f.Line()
}

// unmetFunc emits the unmet mask of a conjunction; nothing for a single
// conjunct (no name).
func (e *emitter) unmetFunc(name string, parts []model.Part) {
	if name == "" {
		return
	}
	e.f.Func().Id(name).Params(jen.Id("s").Add(e.state())).Uint64().Block(e.expr.unmet(parts)...)
	e.f.Line()
}

// enabled emits the function that tests every precondition in one call,
// one bit per action: actions without a precondition start set.
func (e *emitter) enabled() {
	r := e.r
	if r.EnabledFunc == "" {
		return
	}
	conds := make([]exprlang.Expr, len(r.Actions))
	for i, a := range r.Actions {
		conds[i] = a.Pre
	}
	e.bitsFunc(r.EnabledFunc, conds)
}

// satisfied emits the function that tests every goal at once (an agent
// looks at all its goals with one call).
func (e *emitter) satisfied() {
	r := e.r
	if r.SatisfiedFunc == "" {
		return
	}
	conds := make([]exprlang.Expr, len(r.Goals))
	for i, g := range r.Goals {
		conds[i] = g.Cond
	}
	e.bitsFunc(r.SatisfiedFunc, conds)
}

// replay emits the function that applies a sequence of actions to a
// state while their preconditions hold, each action's precondition and
// effects inline (an agent checks the rest of its plan with it).
func (e *emitter) replay() {
	r := e.r
	if r.ReplayFunc == "" {
		return
	}
	i, a, steps := e.local("i"), e.local("a"), e.local("steps")
	e.f.Func().Id(r.ReplayFunc).Params(jen.Id("s").Op("*").Add(e.state()), jen.Id(steps).Index().Add(e.rt("ActionID"))).Int().Block(
		jen.For(jen.List(jen.Id(i), jen.Id(a)).Op(":=").Range().Id(steps)).Block(
			jen.Switch(jen.Id(a)).BlockFunc(func(g *jen.Group) {
				for _, act := range r.Actions {
					var body []jen.Code
					if act.Pre != nil {
						body = append(body, jen.If(jen.Op("!").Parens(e.expr.expr(act.Pre))).Block(jen.Return(jen.Id(i))))
					}
					if len(act.Effects) > 0 {
						body = append(body, e.expr.effects(act.Effects))
					}
					g.Case(jen.Id(act.Const)).Block(body...)
				}
				g.Default().Block(jen.Return(jen.Id(i)))
			}),
		),
		jen.Return(jen.Len(jen.Id(steps))),
	)
	e.f.Line()
}

// bitsFunc emits function name(s, bits), which sets bit i%64 of
// bits[i/64] when conds[i] holds in *s (always, for a nil condition).
func (e *emitter) bitsFunc(name string, conds []exprlang.Expr) {
	bits, w := e.local("bits"), e.local("w")
	words := (len(conds) + 63) / 64
	body := []jen.Code{jen.Id("_").Op("=").Id(bits).Index(jen.Lit(words - 1))}
	for wi := range words {
		var always uint64
		var tests []jen.Code
		for i := wi * 64; i < min(len(conds), (wi+1)*64); i++ {
			if conds[i] == nil {
				always |= 1 << (i % 64)
				continue
			}
			tests = append(tests, jen.If(e.expr.expr(conds[i])).Block(
				jen.Id(w).Op("|=").Lit(1).Op("<<").Lit(i%64),
			))
		}
		init := jen.Lit(0)
		if always != 0 {
			init = jen.Op(fmt.Sprintf("%#x", always))
		}
		assign := ":="
		if wi > 0 {
			assign = "="
		}
		body = append(body, jen.Id(w).Op(assign).Uint64().Parens(init))
		body = append(body, tests...)
		body = append(body, jen.Id(bits).Index(jen.Lit(wi)).Op("=").Id(w))
	}
	e.f.Func().Id(name).Params(jen.Id("s").Op("*").Add(e.state()), jen.Id(bits).Index().Uint64()).Block(body...)
	e.f.Line()
}

// maxInlineHash is the most statements a state's hash may take for the
// search loop to hash each successor inline; a larger one is called, so
// that a role of many fields and actions keeps one line an action.
const maxInlineHash = 10

// search emits A*'s search loop for the role (Domain.Search): for each
// state runtime.Search.Next gives, each action in declaration order
// whose precondition holds and that has effects makes the state after
// them, as a key (inert fields zero), and gives it to Add with its hash
// and the values of the fields the search's estimate reads. The effect,
// key and field reader are called directly, so the compiler inlines
// what it can, and a small hash is written out inline (the hash function
// is too large to inline, and inline its inert fields are constants).
func (e *emitter) search() {
	r := e.r
	if r.SearchFunc == "" {
		return
	}
	x, ok, f0, f1 := e.local("x"), e.local("ok"), e.local("f0"), e.local("f1")
	s := "s" // the name conditions read the state by
	// The values of the fields the estimate reads, from the field reader.
	value := func(f string) jen.Code { return jen.Id(r.NumberFunc).Call(jen.Op("&").Id("n"), jen.Id(f)) }
	var loop []jen.Code
	for _, a := range r.Actions {
		if a.EffectFunc == "" {
			continue // the state does not change
		}
		step := []jen.Code{jen.Id("n").Op(":=").Id(a.EffectFunc).Call(jen.Id(s))}
		if r.KeyFunc != "" {
			step = append(step, jen.Id("n").Op("=").Id(r.KeyFunc).Call(jen.Op("&").Id("n")))
		}
		hash := jen.Id(r.HashFunc).Call(jen.Op("&").Id("n"))
		if fold := e.hashFields("n"); len(fold) <= maxInlineHash {
			step = append(step, fold...)
			hash = e.impl("HashMix").Call(jen.Id("h"))
		}
		step = append(step, jen.If(jen.Op("!").Id(x).Dot("Add").Call(
			jen.Op("&").Id("n"), hash, jen.Id(a.Const), value(f0), value(f1),
		)).Block(jen.Return()))
		if a.Pre == nil {
			loop = append(loop, jen.Block(step...))
			continue
		}
		loop = append(loop, jen.If(e.expr.expr(a.Pre)).Block(step...))
	}
	e.f.Func().Id(r.SearchFunc).Params(
		jen.Id(x).Op("*").Add(e.rt("Search").Types(e.state())),
	).Block(
		jen.List(jen.Id(f0), jen.Id(f1)).Op(":=").Id(x).Dot("Fields").Call(),
		jen.For(
			jen.List(jen.Id(s), jen.Id(ok)).Op(":=").Id(x).Dot("Next").Call(),
			jen.Id(ok),
			jen.List(jen.Id(s), jen.Id(ok)).Op("=").Id(x).Dot("Next").Call(),
		).Block(loop...),
	)
	e.f.Line()
}
