package gen

import (
	"context"
	"fmt"

	"github.com/rolegen/rolegen/exprlang"
	"github.com/rolegen/rolegen/internal/model"
)

// EmitCondition renders condition e, checked against state fields named
// in order, as the generator emits it: a Go expression reading s.Field.
func EmitCondition(fields []string, e exprlang.Expr) string {
	role := &model.Role{Name: "S"}
	for _, f := range fields {
		role.Fields = append(role.Fields, &model.Field{Name: f, Path: []string{f}})
	}
	x := exprEmitter{role: role}
	return fmt.Sprintf("%#v", x.expr(e))
}

// EmitCost renders cost e, a checked numeric expression over state fields
// named in order, as the generator emits it: a float64 Go expression
// reading s.Field.
func EmitCost(fields []string, e exprlang.Expr) string {
	role := &model.Role{Name: "S"}
	for _, f := range fields {
		role.Fields = append(role.Fields, &model.Field{Name: f, Path: []string{f}})
	}
	x := exprEmitter{role: role}
	return fmt.Sprintf("%#v", x.float64(e))
}

// EmitEffects renders checked effects over state fields named in order as
// the generator emits them: statements assigning s.Field.
func EmitEffects(fields []string, effs []*exprlang.Effect) string {
	role := &model.Role{Name: "S"}
	for _, f := range fields {
		role.Fields = append(role.Fields, &model.Field{Name: f, Path: []string{f}})
	}
	x := exprEmitter{role: role}
	return fmt.Sprintf("%#v", x.effects(effs))
}

// GeneratedIdents returns, per generated file, the package-level names
// the model says rolegen generates for its role.
func GeneratedIdents(ctx context.Context, opts Options, patterns ...string) (map[string][]string, error) {
	models, err := analyze(ctx, opts, patterns)
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, m := range models {
		for _, r := range m.Roles {
			out[r.File] = r.GeneratedIdents()
		}
	}
	return out, nil
}
