package gen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/rolegen/rolegen/exprlang"
	"github.com/rolegen/rolegen/internal/model"
	"github.com/rolegen/rolegen/internal/schema"
)

// domain emits the domain variable.
func (e *emitter) domain() {
	r := e.r
	dom := []jen.Code{kv("Name", jen.Lit(r.Name))}
	if len(r.Fields) > 0 {
		var fields []jen.Code
		for _, fld := range r.Fields {
			fields = append(fields, e.fieldLit(fld))
		}
		dom = append(dom, kv("Fields", jen.Index().Add(e.rt("Field")).Custom(multi, fields...)))
	}
	if len(r.Actions) > 0 {
		var actions []jen.Code
		for _, a := range r.Actions {
			actions = append(actions, e.actionLit(a))
		}
		dom = append(dom, kv("Actions", jen.Index().Add(e.rt("Action")).Types(e.state()).Custom(multi, actions...)))
	}
	if len(r.Goals) > 0 {
		var goals []jen.Code
		for _, g := range r.Goals {
			goals = append(goals, e.goalLit(g))
		}
		dom = append(dom, kv("Goals", jen.Index().Add(e.rt("Goal")).Types(e.state()).Custom(multi, goals...)))
	}
	if r.EnabledFunc != "" {
		dom = append(dom, kv("Enabled", jen.Id(r.EnabledFunc)))
	}
	if r.SearchFunc != "" {
		dom = append(dom, kv("Search", jen.Id(r.SearchFunc)))
	}
	if r.SatisfiedFunc != "" {
		dom = append(dom, kv("Satisfied", jen.Id(r.SatisfiedFunc)))
	}
	if r.ReplayFunc != "" {
		dom = append(dom, kv("Replay", jen.Id(r.ReplayFunc)))
	}
	dom = append(dom, kv("Number", jen.Id(r.NumberFunc)))
	if r.TextFunc != "" {
		dom = append(dom, kv("Text", jen.Id(r.TextFunc)))
	}
	dom = append(dom, kv("Hash", jen.Id(r.HashFunc)))
	if r.KeyFunc != "" {
		dom = append(dom, kv("Key", jen.Id(r.KeyFunc)))
	}
	if r.ChangedFunc != "" {
		dom = append(dom, kv("Changed", jen.Id(r.ChangedFunc)))
	}
	e.comment(fmt.Sprintf("%s is the planning domain of %s: its state fields, actions and goals with\ntheir conditions and effects as Go functions, in declaration order.", r.DomainVar, r.Name))
	e.f.Var().Id(r.DomainVar).Op("=").Add(e.rt("NewDomain")).Call(
		e.rt("Domain").Types(e.state()).Custom(multi, dom...),
	)
	e.f.Line()
}

// fieldLit is the runtime.Field of a state field.
func (e *emitter) fieldLit(fld *model.Field) jen.Code {
	items := []jen.Code{
		kv("Name", jen.Lit(fld.Name)),
		kv("Type", jen.Lit(e.typeText(fld.Type))),
		kv("Kind", e.rt(fieldKind(fld.Kind))),
	}
	if fld.Saturates() {
		var rg []jen.Code
		if fld.Min != "" {
			rg = append(rg, kv("Min", jen.Op(fld.Min)))
		}
		if fld.Max != "" {
			rg = append(rg, kv("Max", jen.Op(fld.Max)))
		}
		if fld.Min != "" {
			rg = append(rg, kv("HasMin", jen.True()))
		}
		if fld.Max != "" {
			rg = append(rg, kv("HasMax", jen.True()))
		}
		items = append(items, kv("Range", e.rt("Range").Values(rg...)))
	}
	return jen.Values(items...)
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

// actionLit is the runtime.Action of an action; fields at their zero
// value are left out.
func (e *emitter) actionLit(a *model.Action) jen.Code {
	items := []jen.Code{kv("Name", jen.Lit(a.Name))}
	if a.Doc != "" {
		items = append(items, kv("Description", jen.Lit(a.Doc)))
	}
	if a.Pre != nil {
		items = append(items, kv("Pre", jen.Id(a.PreFunc)), kv("PreText", jen.Lit(a.PreText)))
	}
	if len(a.Effects) > 0 {
		items = append(items, kv("Effect", jen.Id(a.EffectFunc)), kv("EffectText", jen.Lit(a.EffectText)))
	}
	items = append(items, kv("Cost", number(a.Cost)))
	if a.CostFunc != "" {
		items = append(items, kv("CostOf", jen.Id(a.CostFunc)), kv("CostText", jen.Lit(a.CostText)))
	}
	items = append(items, kv("Value", number(a.Value)), kv("Weight", number(a.Weight)))
	if len(a.Tags) > 0 {
		items = append(items, kv("Tags", jen.Index().String().ValuesFunc(func(g *jen.Group) {
			for _, t := range a.Tags {
				g.Lit(t)
			}
		})))
	}
	if len(a.PreReads) > 0 {
		items = append(items, kv("PreReads", e.fieldIDs(a.PreReads)))
	}
	if a.Pre != nil {
		items = append(items, kv("PreParts", e.parts(conditionParts(a.PreParts))))
		if a.UnmetFunc != "" {
			items = append(items, kv("PreUnmet", jen.Id(a.UnmetFunc)))
		}
	}
	if len(a.Reads) > 0 {
		items = append(items, kv("Reads", e.fieldIDs(a.Reads)))
	}
	if len(a.Writes) > 0 {
		items = append(items, kv("Writes", e.fieldIDs(a.Writes)), kv("Changes", e.changes(effectChanges(a.Effects))))
	}
	if len(a.Fulfills) > 0 {
		items = append(items, kv("Fulfills", jen.Index().Add(e.rt("GoalID")).ValuesFunc(func(g *jen.Group) {
			for _, gi := range a.Fulfills {
				g.Id(e.r.Goals[gi].Const)
			}
		})))
	}
	if a.Guarded {
		items = append(items, kv("Guarded", jen.True()))
	}
	if a.Durative() {
		items = append(items, kv("Durative", jen.True()))
	}
	if a.Uninterruptible {
		items = append(items, kv("Uninterruptible", jen.True()))
	}
	if a.ArgsSchema != nil {
		items = append(items, kv("Args", str(string(schema.Compact(a.ArgsSchema)))))
	}
	if a.TakesArgs() {
		items = append(items, kv("CheckArgs", e.impl("ArgsChecker").Types(typeCode(a.Args)).Call(jen.Lit(e.r.Name), jen.Lit(a.Name))))
	}
	return jen.Custom(multi, items...)
}

// goalLit is the runtime.Goal of a goal.
func (e *emitter) goalLit(g *model.Goal) jen.Code {
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
		items = append(items, kv("Reads", e.fieldIDs(g.Reads)))
	}
	items = append(items, kv("Parts", e.parts(conditionParts(g.Parts))))
	if g.UnmetFunc != "" {
		items = append(items, kv("Unmet", jen.Id(g.UnmetFunc)))
	}
	return jen.Custom(multi, items...)
}

// priority names the priorities that have a name.
func (e *emitter) priority(p int) jen.Code {
	if p >= 0 && p < 4 {
		return e.rt([...]string{"Low", "Normal", "High", "Critical"}[p])
	}
	return jen.Lit(p)
}

func (e *emitter) fieldIDs(ids []int) jen.Code {
	return jen.Index().Add(e.rt("FieldID")).ValuesFunc(func(g *jen.Group) {
		for _, id := range ids {
			g.Lit(id)
		}
	})
}
