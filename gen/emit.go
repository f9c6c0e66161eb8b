package gen

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
	"golang.org/x/tools/imports"

	"github.com/rolegen/rolegen/exprlang"
	"github.com/rolegen/rolegen/internal/model"
)

const (
	runtimePath = "github.com/rolegen/rolegen/runtime"
	contextPath = "context"
	jsonPath    = "encoding/json"
)

// multi renders a composite literal's elements one per line.
var multi = jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}

func kv(key string, value jen.Code) jen.Code { return jen.Id(key).Op(":").Add(value) }

func number(f float64) jen.Code { return jen.Op(strconv.FormatFloat(f, 'g', -1, 64)) }

// emitter writes the file of one role.
type emitter struct {
	pkg  *model.Package
	r    *model.Role
	f    *jen.File
	expr exprEmitter
}

// emitRole renders the generated file of role r.
func emitRole(pkg *model.Package, r *model.Role) ([]byte, error) {
	f := jen.NewFilePathName(pkg.Path, pkg.Name)
	// imports.Process below formats the file: jennifer need not too.
	f.NoFormat = true
	f.HeaderComment(model.Header)
	for _, imp := range [...]struct{ path, name string }{{runtimePath, "runtime"}, {contextPath, "context"}, {jsonPath, "json"}} {
		if pkg.Declares(imp.name) {
			// The package declares the name itself: import under another.
			f.ImportAlias(imp.path, "rolegen"+imp.name)
		} else {
			f.ImportName(imp.path, imp.name)
		}
	}
	e := &emitter{pkg: pkg, r: r, f: f, expr: exprEmitter{role: r}}
	e.state()
	e.planState()
	e.ids()
	if err := e.domain(); err != nil {
		return nil, err
	}
	e.functions()
	e.enabled()
	e.numberFunc()
	e.hashFunc()
	e.perform()
	e.performJSON()
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

func (e *emitter) rt(name string) *jen.Statement { return jen.Qual(runtimePath, name) }

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

func (e *emitter) state() {
	r := e.r
	e.comment(fmt.Sprintf("%s is the planning state of %s: its plan:\"state\" fields, copied by value.", e.r.StateType, r.Name))
	e.f.Type().Id(e.r.StateType).StructFunc(func(g *jen.Group) {
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

func (e *emitter) planState() {
	r := e.r
	e.f.Comment("PlanState returns the planning state of r.")
	e.f.Func().Params(jen.Id("r").Op("*").Id(r.Name)).Id("PlanState").Params().Id(e.r.StateType).Block(
		jen.Return(jen.Id(e.r.StateType).CustomFunc(multi, func(g *jen.Group) {
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

func (e *emitter) ids() {
	r := e.r
	if len(r.Actions) > 0 {
		e.comment(fmt.Sprintf("The actions of %s, in declaration order: indexes of %sDomain.Actions.", r.Name, r.Name))
		e.f.Const().DefsFunc(func(g *jen.Group) {
			for i, a := range r.Actions {
				if i == 0 {
					g.Id(a.Const).Add(e.rt("ActionID")).Op("=").Iota()
				} else {
					g.Id(a.Const)
				}
			}
		})
		e.f.Line()
	}
	if len(r.Goals) > 0 {
		e.comment(fmt.Sprintf("The goals of %s, in declaration order: indexes of %sDomain.Goals.", r.Name, r.Name))
		e.f.Const().DefsFunc(func(g *jen.Group) {
			for i, goal := range r.Goals {
				if i == 0 {
					g.Id(goal.Const).Add(e.rt("GoalID")).Op("=").Iota()
				} else {
					g.Id(goal.Const)
				}
			}
		})
		e.f.Line()
	}
}

func fieldIDs(rt func(string) *jen.Statement, ids []int) jen.Code {
	return jen.Index().Add(rt("FieldID")).ValuesFunc(func(g *jen.Group) {
		for _, id := range ids {
			g.Lit(id)
		}
	})
}

// str renders s as a raw string literal when that is possible and reads
// better.
func str(s string) jen.Code {
	if strings.ContainsAny(s, "`\r") || !strings.ContainsAny(s, `"\`) {
		return jen.Lit(s)
	}
	return jen.Op("`" + s + "`")
}

func fieldKind(k exprlang.Kind) string {
	switch {
	case k.IsBoolean():
		return "KindBool"
	case k.IsUnsigned():
		return "KindUint"
	case k.IsInteger():
		return "KindInt"
	case k.IsFloat():
		return "KindFloat"
	}
	return "KindString"
}

func (e *emitter) domain() error {
	r := e.r
	state := jen.Id(e.r.StateType)
	var actions []jen.Code
	for _, a := range r.Actions {
		var items []jen.Code
		items = append(items, kv("Name", jen.Lit(a.Name)))
		if a.Doc != "" {
			items = append(items, kv("Description", jen.Lit(a.Doc)))
		}
		if a.Pre != nil {
			items = append(items, kv("Pre", jen.Id(a.PreFunc)), kv("PreText", jen.Lit(a.PreText)))
		}
		if len(a.Effects) > 0 {
			items = append(items, kv("Effect", jen.Id(a.EffectFunc)), kv("EffectText", jen.Lit(a.EffectText)))
		}
		items = append(items, kv("Cost", number(a.Cost)), kv("Value", number(a.Value)), kv("Weight", number(a.Weight)))
		if len(a.Tags) > 0 {
			items = append(items, kv("Tags", jen.Index().String().ValuesFunc(func(g *jen.Group) {
				for _, t := range a.Tags {
					g.Lit(t)
				}
			})))
		}
		if len(a.PreReads) > 0 {
			items = append(items, kv("PreReads", fieldIDs(e.rt, a.PreReads)))
		}
		if a.Pre != nil {
			items = append(items, kv("PreParts", e.parts(conditionParts(a.PreParts))))
			if a.UnmetFunc != "" {
				items = append(items, kv("PreUnmet", jen.Id(a.UnmetFunc)))
			}
		}
		if len(a.Reads) > 0 {
			items = append(items, kv("Reads", fieldIDs(e.rt, a.Reads)))
		}
		if len(a.Writes) > 0 {
			items = append(items, kv("Writes", fieldIDs(e.rt, a.Writes)), kv("Changes", e.changes(effectChanges(a.Effects))))
		}
		if len(a.Fulfills) > 0 {
			items = append(items, kv("Fulfills", jen.Index().Add(e.rt("GoalID")).ValuesFunc(func(g *jen.Group) {
				for _, gi := range a.Fulfills {
					g.Id(r.Goals[gi].Const)
				}
			})))
		}
		if a.Guarded {
			items = append(items, kv("Guarded", jen.True()))
		}
		if a.ArgsSchema != nil {
			s, err := compact(a.ArgsSchema)
			if err != nil {
				return err
			}
			items = append(items, kv("Args", str(s)))
		}
		actions = append(actions, jen.Custom(multi, items...))
	}
	var goals []jen.Code
	for _, g := range r.Goals {
		items := []jen.Code{kv("Name", jen.Lit(g.Name))}
		if g.Doc != "" {
			items = append(items, kv("Description", jen.Lit(g.Doc)))
		}
		items = append(items,
			kv("Priority", e.priority(g.Priority)),
			kv("Cond", jen.Id(g.CondFunc)),
			kv("CondText", jen.Lit(g.CondText)),
		)
		if len(g.Reads) > 0 {
			items = append(items, kv("Reads", fieldIDs(e.rt, g.Reads)))
		}
		items = append(items, kv("Parts", e.parts(conditionParts(g.Parts))))
		if g.UnmetFunc != "" {
			items = append(items, kv("Unmet", jen.Id(g.UnmetFunc)))
		}
		goals = append(goals, jen.Custom(multi, items...))
	}
	var fields []jen.Code
	for _, fld := range r.Fields {
		fields = append(fields, jen.Values(
			kv("Name", jen.Lit(fld.Name)),
			kv("Type", jen.Lit(e.typeText(fld.Type))),
			kv("Kind", e.rt(fieldKind(fld.Kind))),
		))
	}
	schema, err := compact(planSchema(r))
	if err != nil {
		return err
	}

	dom := []jen.Code{kv("Name", jen.Lit(r.Name))}
	if len(fields) > 0 {
		dom = append(dom, kv("Fields", jen.Index().Add(e.rt("Field")).Custom(multi, fields...)))
	}
	if len(actions) > 0 {
		dom = append(dom, kv("Actions", jen.Index().Add(e.rt("Action")).Types(state).Custom(multi, actions...)))
	}
	if len(goals) > 0 {
		dom = append(dom, kv("Goals", jen.Index().Add(e.rt("Goal")).Types(state).Custom(multi, goals...)))
	}
	dom = append(dom, kv("Schema", jen.Id(r.SchemaConst)))
	if r.EnabledFunc != "" {
		dom = append(dom, kv("Enabled", jen.Id(r.EnabledFunc)))
	}
	dom = append(dom, kv("Number", jen.Id(r.NumberFunc)), kv("Hash", jen.Id(r.HashFunc)))

	e.comment(fmt.Sprintf("%sDomain is the planning domain of %s: its state fields, actions and goals with\ntheir conditions and effects as Go functions, in declaration order.", r.Name, r.Name))
	e.f.Var().Id(r.DomainVar).Op("=").Add(e.rt("NewDomain")).Call(
		e.rt("Domain").Types(state).Custom(multi, dom...),
	)
	e.f.Line()
	e.comment(fmt.Sprintf("%s is the JSON Schema of an LLM plan over the actions of %s.", r.SchemaConst, r.Name))
	e.f.Const().Id(r.SchemaConst).Op("=").Add(str(schema))
	e.f.Line()
	return nil
}

// priority names the priorities that have a name.
func (e *emitter) priority(p int) jen.Code {
	if p >= 0 && p < 4 {
		return e.rt([...]string{"Low", "Normal", "High", "Critical"}[p])
	}
	return jen.Lit(p)
}

// enabled emits the function that tests every precondition in one call,
// one bit per action: actions without a precondition start set.
func (e *emitter) enabled() {
	r := e.r
	if r.EnabledFunc == "" {
		return
	}
	words := (len(r.Actions) + 63) / 64
	var body []jen.Code
	body = append(body, jen.Id("_").Op("=").Id("bits").Index(jen.Lit(words-1)))
	for w := range words {
		var always uint64
		var tests []jen.Code
		for i := w * 64; i < min(len(r.Actions), (w+1)*64); i++ {
			a := r.Actions[i]
			if a.Pre == nil {
				always |= 1 << (i % 64)
				continue
			}
			tests = append(tests, jen.If(e.expr.expr(a.Pre)).Block(
				jen.Id("w").Op("|=").Lit(1).Op("<<").Lit(i%64),
			))
		}
		init := jen.Lit(0)
		if always != 0 {
			init = jen.Op(fmt.Sprintf("%#x", always))
		}
		assign := ":="
		if w > 0 {
			assign = "="
		}
		body = append(body, jen.Id("w").Op(assign).Uint64().Parens(init))
		body = append(body, tests...)
		body = append(body, jen.Id("bits").Index(jen.Lit(w)).Op("=").Id("w"))
	}
	e.f.Func().Id(r.EnabledFunc).Params(jen.Id("s").Op("*").Id(e.r.StateType), jen.Id("bits").Index().Uint64()).Block(body...)
	e.f.Line()
}

// functions emits the conditions and effects as plain Go functions of the
// state.
func (e *emitter) functions() {
	r := e.r
	state := jen.Id(e.r.StateType)
	for _, a := range r.Actions {
		if a.Pre != nil {
			e.f.Func().Id(a.PreFunc).Params(jen.Id("s").Add(state)).Bool().Block(
				jen.Return(e.expr.expr(a.Pre)),
			)
			e.f.Line()
			if a.UnmetFunc != "" {
				e.f.Func().Id(a.UnmetFunc).Params(jen.Id("s").Add(state)).Uint64().Block(e.expr.unmet(a.PreParts)...)
				e.f.Line()
			}
		}
		if len(a.Effects) > 0 {
			e.f.Func().Id(a.EffectFunc).Params(jen.Id("s").Add(state)).Add(state).Block(
				e.expr.effects(a.Effects),
				jen.Return(jen.Id("s")),
			)
			e.f.Line()
		}
	}
	for _, g := range r.Goals {
		e.f.Func().Id(g.CondFunc).Params(jen.Id("s").Add(state)).Bool().Block(
			jen.Return(e.expr.expr(g.Cond)),
		)
		e.f.Line()
		if g.UnmetFunc != "" {
			e.f.Func().Id(g.UnmetFunc).Params(jen.Id("s").Add(state)).Uint64().Block(e.expr.unmet(g.Parts)...)
			e.f.Line()
		}
	}
}

// call is the method call of action a on r.
func call(a *model.Action, args ...jen.Code) *jen.Statement {
	sel := jen.Id("r")
	for _, p := range a.Path {
		sel = sel.Dot(p)
	}
	return sel.Dot(a.Method).Call(args...)
}

func (e *emitter) perform() {
	r := e.r
	e.f.Comment("Perform runs action a by calling its method. Actions that take typed")
	e.f.Comment("arguments run through PerformJSON, or through runtime.Think with")
	e.f.Comment("runtime.WithArgs.")
	e.f.Func().Params(jen.Id("r").Op("*").Id(r.Name)).Id("Perform").
		Params(jen.Id("ctx").Qual(contextPath, "Context"), jen.Id("a").Add(e.rt("ActionID"))).Error().
		BlockFunc(func(g *jen.Group) {
			if len(r.Actions) > 0 {
				g.Switch(jen.Id("a")).BlockFunc(func(sw *jen.Group) {
					for _, a := range r.Actions {
						sw.Case(jen.Id(a.Const)).BlockFunc(func(c *jen.Group) {
							switch a.Shape {
							case model.ShapeNone:
								c.Add(call(a))
								c.Return(jen.Nil())
							case model.ShapeErr:
								c.Return(call(a))
							case model.ShapeCtxErr:
								c.Return(call(a, jen.Id("ctx")))
							default:
								c.Return(e.rt("NeedsArguments").Call(jen.Lit(r.Name), jen.Lit(a.Name)))
							}
						})
					}
				})
			}
			g.Return(e.rt("UnknownAction").Call(jen.Lit(r.Name), jen.Id("a")))
		})
	e.f.Line()
}

func (e *emitter) performJSON() {
	r := e.r
	raw := jen.Qual(jsonPath, "RawMessage")
	e.f.Comment("PerformJSON runs action a with its arguments as JSON (ignored by actions")
	e.f.Comment("without arguments) and returns its result as JSON (nil when it has none).")
	e.f.Func().Params(jen.Id("r").Op("*").Id(r.Name)).Id("PerformJSON").
		Params(jen.Id("ctx").Qual(contextPath, "Context"), jen.Id("a").Add(e.rt("ActionID")), jen.Id("args").Add(raw)).
		Params(raw, jen.Error()).
		BlockFunc(func(g *jen.Group) {
			if len(r.Actions) > 0 {
				g.Switch(jen.Id("a")).BlockFunc(func(sw *jen.Group) {
					for _, a := range r.Actions {
						sw.Case(jen.Id(a.Const)).BlockFunc(func(c *jen.Group) {
							switch a.Shape {
							case model.ShapeNone:
								c.Add(call(a))
								c.Return(jen.Nil(), jen.Nil())
							case model.ShapeErr:
								c.Return(jen.Nil(), call(a))
							case model.ShapeCtxErr:
								c.Return(jen.Nil(), call(a, jen.Id("ctx")))
							default:
								c.Var().Id("in").Add(typeCode(a.Args))
								c.If(jen.Err().Op(":=").Add(e.rt("DecodeArgs")).Call(jen.Lit(r.Name), jen.Lit(a.Name), jen.Id("args"), jen.Op("&").Id("in")), jen.Err().Op("!=").Nil()).Block(
									jen.Return(jen.Nil(), jen.Err()),
								)
								if a.Shape == model.ShapeArgsErr {
									c.Return(jen.Nil(), call(a, jen.Id("ctx"), jen.Id("in")))
									return
								}
								c.List(jen.Id("out"), jen.Err()).Op(":=").Add(call(a, jen.Id("ctx"), jen.Id("in")))
								c.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))
								c.Return(e.rt("EncodeResult").Call(jen.Lit(r.Name), jen.Lit(a.Name), jen.Id("out")))
							}
						})
					}
				})
			}
			g.Return(jen.Nil(), e.rt("UnknownAction").Call(jen.Lit(r.Name), jen.Id("a")))
		})
}

// argActions declares, for each action that takes typed arguments, the
// runtime.ArgAction that runtime.WithArgs takes: it calls the method with
// the arguments a supplier gives, typed.
func (e *emitter) argActions() {
	r := e.r
	var defs []jen.Code
	for _, a := range r.Actions {
		if !a.TakesArgs() {
			continue
		}
		params := []jen.Code{jen.Id("ctx").Qual(contextPath, "Context"), jen.Id("r").Op("*").Id(r.Name), jen.Id("in").Add(typeCode(a.Args))}
		var body []jen.Code
		if a.Shape == model.ShapeArgsErr {
			body = append(body, jen.Return(call(a, jen.Id("ctx"), jen.Id("in"))))
		} else {
			body = append(body,
				jen.List(jen.Id("_"), jen.Err()).Op(":=").Add(call(a, jen.Id("ctx"), jen.Id("in"))),
				jen.Return(jen.Err()),
			)
		}
		defs = append(defs,
			jen.Comment(fmt.Sprintf("%s runs %s with the arguments runtime.WithArgs supplies.", a.ArgsVar, a.Name)),
			jen.Id(a.ArgsVar).Op("=").Add(e.rt("NewArgAction")).Call(
				jen.Id(r.DomainVar), jen.Id(a.Const),
				jen.Func().Params(params...).Error().Block(body...),
			),
		)
	}
	if len(defs) == 0 {
		return
	}
	e.f.Line()
	e.comment(fmt.Sprintf("The actions of %s that take typed arguments, for runtime.Think: planners do\nnot choose arguments, so runtime.WithArgs gives Think, for each, a function of\nthe state that does.", r.Name))
	e.f.Var().Defs(defs...)
}
