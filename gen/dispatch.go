package gen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/rolegen/rolegen/internal/model"
)

// call is the method call of action a on r.
func call(a *model.Action, args ...jen.Code) *jen.Statement {
	sel := jen.Id("r")
	for _, p := range a.Path {
		sel = sel.Dot(p)
	}
	return sel.Dot(a.Method).Call(args...)
}

// dispatch emits a method of the role with a switch on its action a:
// caseBody writes the case of each action, and an unknown action returns
// unknown.
func (e *emitter) dispatch(name string, params, results []jen.Code, caseBody func(c *jen.Group, a *model.Action), unknown ...jen.Code) {
	e.f.Func().Params(jen.Id("r").Op("*").Id(e.r.Name)).Id(name).Params(params...).Params(results...).
		BlockFunc(func(g *jen.Group) {
			if len(e.r.Actions) > 0 {
				g.Switch(jen.Id("a")).BlockFunc(func(sw *jen.Group) {
					for _, a := range e.r.Actions {
						sw.Case(jen.Id(a.Const)).BlockFunc(func(c *jen.Group) { caseBody(c, a) })
					}
				})
			}
			g.Return(unknown...)
		})
}

func (e *emitter) unknownAction() jen.Code {
	return e.impl("UnknownAction").Call(jen.Lit(e.r.Name), jen.Id("a"))
}

// perform emits Perform: actions without arguments call their method.
func (e *emitter) perform() {
	e.f.Comment("Perform runs action a by calling its method. Actions that take typed")
	e.f.Comment("arguments run through PerformJSON, or through runtime.Think with")
	e.f.Comment("runtime.WithArgs.")
	params := []jen.Code{jen.Id("ctx").Qual(contextPath, "Context"), jen.Id("a").Add(e.rt("ActionID"))}
	e.dispatch(model.MethodPerform, params, []jen.Code{jen.Error()}, func(c *jen.Group, a *model.Action) {
		switch a.Shape {
		case model.ShapeNone:
			c.Add(call(a))
			c.Return(jen.Nil())
		case model.ShapeErr:
			c.Return(call(a))
		case model.ShapeCtxErr:
			c.Return(call(a, jen.Id("ctx")))
		case model.ShapeStep, model.ShapeCtxStep, model.ShapeCtxStepErr:
			c.Return(e.runSteps(a))
		default:
			c.Return(e.impl("NeedsArguments").Call(jen.Lit(e.r.Name), jen.Lit(a.Name)))
		}
	}, e.unknownAction())
	e.f.Line()
}

// stepCall is the call of a durative action's method with Step t, as an
// expression of two values, (runtime.Status, error).
func stepCall(a *model.Action) []jen.Code {
	switch a.Shape {
	case model.ShapeStep:
		return []jen.Code{call(a, jen.Id("t")), jen.Nil()}
	case model.ShapeCtxStep:
		return []jen.Code{call(a, jen.Id("ctx"), jen.Id("t")), jen.Nil()}
	}
	return []jen.Code{call(a, jen.Id("ctx"), jen.Id("t"))}
}

// runSteps is the call that runs a durative action to its end, for
// Perform and PerformJSON, whose callers expect a finished action.
func (e *emitter) runSteps(a *model.Action) jen.Code {
	return e.impl("RunSteps").Call(jen.Id("ctx"), jen.Lit(e.r.Name), jen.Lit(a.Name),
		jen.Func().Params(jen.Id("t").Add(e.rt("Step"))).Params(e.rt("Status"), jen.Error()).Block(
			jen.Return(stepCall(a)...),
		))
}

// performStep emits PerformStep, what an agent calls once a tick: an
// action that takes ticks gets one call with t; any other action runs
// whole and is done (or failed, when it returns an error).
func (e *emitter) performStep() {
	e.f.Line()
	e.f.Comment("PerformStep runs one tick of action a, for a runtime.Agent: an action that")
	e.f.Comment("takes ticks is called once with t and says whether it runs on; any other")
	e.f.Comment("action runs whole and is done, or failed when it returns an error.")
	params := []jen.Code{jen.Id("ctx").Qual(contextPath, "Context"), jen.Id("a").Add(e.rt("ActionID")), jen.Id("t").Add(e.rt("Step"))}
	failed := e.rt("Failed")
	e.dispatch(model.MethodPerformStep, params, []jen.Code{e.rt("Status"), jen.Error()}, func(c *jen.Group, a *model.Action) {
		done := e.rt("Done")
		switch a.Shape {
		case model.ShapeNone:
			c.Add(call(a))
			c.Return(done, jen.Nil())
		case model.ShapeErr:
			c.Return(done, call(a))
		case model.ShapeCtxErr:
			c.Return(done, call(a, jen.Id("ctx")))
		case model.ShapeStep, model.ShapeCtxStep, model.ShapeCtxStepErr:
			c.Return(stepCall(a)...)
		default:
			c.Return(failed, e.impl("NeedsArguments").Call(jen.Lit(e.r.Name), jen.Lit(a.Name)))
		}
	}, failed, e.unknownAction())
}

// performJSON emits PerformJSON: actions with arguments decode them,
// call their method and encode its result.
func (e *emitter) performJSON() {
	raw := jen.Qual(jsonPath, "RawMessage")
	e.f.Comment("PerformJSON runs action a with its arguments as JSON (ignored by actions")
	e.f.Comment("without arguments) and returns its result as JSON (nil when it has none).")
	params := []jen.Code{jen.Id("ctx").Qual(contextPath, "Context"), jen.Id("a").Add(e.rt("ActionID")), jen.Id("args").Add(raw)}
	e.dispatch(model.MethodPerformJSON, params, []jen.Code{raw, jen.Error()}, func(c *jen.Group, a *model.Action) {
		switch a.Shape {
		case model.ShapeNone:
			c.Add(call(a))
			c.Return(jen.Nil(), jen.Nil())
		case model.ShapeErr:
			c.Return(jen.Nil(), call(a))
		case model.ShapeCtxErr:
			c.Return(jen.Nil(), call(a, jen.Id("ctx")))
		case model.ShapeStep, model.ShapeCtxStep, model.ShapeCtxStepErr:
			c.Return(jen.Nil(), e.runSteps(a))
		default:
			c.Var().Id("in").Add(typeCode(a.Args))
			c.If(jen.Err().Op(":=").Add(e.impl("DecodeArgs")).Call(jen.Lit(e.r.Name), jen.Lit(a.Name), jen.Id("args"), jen.Op("&").Id("in")), jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Nil(), jen.Err()),
			)
			if a.Shape == model.ShapeArgsErr {
				c.Return(jen.Nil(), call(a, jen.Id("ctx"), jen.Id("in")))
				return
			}
			c.List(jen.Id("out"), jen.Err()).Op(":=").Add(call(a, jen.Id("ctx"), jen.Id("in")))
			c.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))
			c.Return(e.impl("EncodeResult").Call(jen.Lit(e.r.Name), jen.Lit(a.Name), jen.Id("out")))
		}
	}, jen.Nil(), e.unknownAction())
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
			jen.Id(a.ArgsVar).Op("=").Add(e.impl("NewArgAction")).Call(
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
