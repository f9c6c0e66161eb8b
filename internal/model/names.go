package model

import (
	"slices"

	"github.com/rolegen/rolegen/exprlang"
)

// The methods rolegen generates on every role (runtime.Role,
// runtime.Agent and llm.Performer call them).
const (
	MethodPlanState       = "PlanState"
	MethodUpdatePlanState = "UpdatePlanState"
	MethodPerform         = "Perform"
	MethodPerformJSON     = "PerformJSON"
	MethodPerformStep     = "PerformStep"
)

// GeneratedMethods are the methods rolegen generates on every role.
var GeneratedMethods = []string{MethodPlanState, MethodUpdatePlanState, MethodPerform, MethodPerformJSON, MethodPerformStep}

// SetNames gives the role, its actions and its goals the names of the
// declarations rolegen generates for them (sqlc's Query.ConstantName is
// the pattern): the checker calls it once the role is built, the emitter
// renders the names, and the conflict checks and the loader read them
// from GeneratedIdents. A name is empty when nothing is generated for it.
func (r *Role) SetNames() {
	r.StateType = r.Name + "State"
	r.DomainVar = r.Name + "Domain"
	r.EnabledFunc, r.SearchFunc = "", ""
	if len(r.Actions) > 0 {
		r.EnabledFunc = "_" + r.Name + "_enabled"
		r.SearchFunc = "_" + r.Name + "_search"
	}
	r.NumberFunc = "_" + r.Name + "_number"
	r.TextFunc = ""
	for _, f := range r.Fields {
		if f.Kind.IsString() {
			r.TextFunc = "_" + r.Name + "_text"
		}
	}
	r.HashFunc = "_" + r.Name + "_hash"
	r.ChangedFunc = ""
	if len(r.Fields) > 0 {
		r.ChangedFunc = "_" + r.Name + "_changed"
	}
	r.SatisfiedFunc = ""
	if len(r.Goals) > 0 {
		r.SatisfiedFunc = "_" + r.Name + "_satisfied"
	}
	r.ReplayFunc = ""
	if len(r.Actions) > 0 {
		r.ReplayFunc = "_" + r.Name + "_replay"
	}
	r.KeyFunc = ""
	if len(r.InertFields()) > 0 {
		r.KeyFunc = "_" + r.Name + "_key"
	}
	// Helpers are named in stringer's style for generated helpers.
	for _, a := range r.Actions {
		a.Const = r.Name + a.Name
		a.PreFunc, a.UnmetFunc, a.EffectFunc, a.CostFunc, a.ArgsVar = "", "", "", "", ""
		if a.TakesArgs() {
			// The runtime's messages name it the same way.
			a.ArgsVar = a.Const + "Args"
		}
		if a.Pre != nil {
			a.PreFunc = "_" + r.Name + "_pre_" + a.Name
		}
		if len(a.PreParts) > 1 {
			a.UnmetFunc = "_" + r.Name + "_unmet_" + a.Name
		}
		if len(a.Effects) > 0 {
			a.EffectFunc = "_" + r.Name + "_effect_" + a.Name
		}
		if a.CostExpr != nil {
			a.CostFunc = "_" + r.Name + "_cost_" + a.Name
		}
	}
	for _, g := range r.Goals {
		g.Const = r.Name + "Goal" + g.Name
		g.CondFunc = "_" + r.Name + "_goal_" + g.Name
		g.UnmetFunc = ""
		if len(g.Parts) > 1 {
			g.UnmetFunc = "_" + r.Name + "_goalunmet_" + g.Name
		}
	}
}

// GeneratedIdents returns the package-level identifiers rolegen generates
// for the role (SetNames gave them).
func (r *Role) GeneratedIdents() []string {
	out := []string{r.StateType}
	for _, a := range r.Actions {
		out = append(out, a.Const)
	}
	for _, g := range r.Goals {
		out = append(out, g.Const)
	}
	for _, a := range r.Actions {
		out = append(out, a.ArgsVar)
	}
	out = append(out, r.DomainVar)
	for _, a := range r.Actions {
		out = append(out, a.PreFunc, a.UnmetFunc, a.EffectFunc, a.CostFunc)
	}
	for _, g := range r.Goals {
		out = append(out, g.CondFunc, g.UnmetFunc)
	}
	out = append(out, r.EnabledFunc, r.SearchFunc, r.SatisfiedFunc, r.ReplayFunc, r.NumberFunc, r.TextFunc, r.HashFunc, r.KeyFunc, r.ChangedFunc)
	return slices.DeleteFunc(out, func(s string) bool { return s == "" })
}

// MaxParts is how many conjuncts an unmet mask tells apart; the last bit
// stands for all the rest.
const MaxParts = 64

// Part is one bit of the unmet mask of a condition: the conjuncts it
// stands for (one, or every conjunct from the 64th on for the last bit)
// and the fields they read, sorted.
type Part struct {
	Conds []exprlang.Expr
	Reads []int
}

// Parts splits a condition at its top-level && operators (through
// parentheses: a && (b && c) has the parts a, b, c) into the bits of its
// unmet mask. A single conjunct is one part (and needs no unmet mask).
func Parts(cond exprlang.Expr) []Part {
	conj := exprlang.Conjuncts(cond)
	var parts []Part
	for i := 0; i < len(conj) && i < MaxParts; i++ {
		p := Part{Conds: conj[i : i+1]}
		if i == MaxParts-1 {
			p.Conds = conj[i:]
		}
		for _, c := range p.Conds {
			p.Reads = append(p.Reads, exprlang.Reads(c)...)
		}
		slices.Sort(p.Reads)
		p.Reads = slices.Compact(p.Reads)
		parts = append(parts, p)
	}
	return parts
}
