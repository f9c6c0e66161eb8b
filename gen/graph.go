package gen

import (
	"context"
	"fmt"
	"io"

	"github.com/rolegen/rolegen/internal/graph"
	"github.com/rolegen/rolegen/internal/model"
)

// WriteGraphs draws the domain of every role of the packages matching
// patterns (or only the role named role) in format "dot" or "mermaid":
// goals, actions with their costs and conditions, "fulfills" edges, and
// dashed edges from an action to the goals and preconditions that read
// what it writes. Several roles give several graphs, one after another.
func WriteGraphs(ctx context.Context, opts Options, w io.Writer, format, role string, patterns ...string) error {
	f, err := graph.ParseFormat(format)
	if err != nil {
		return err
	}
	models, err := analyze(ctx, opts, patterns)
	if err != nil {
		return err
	}
	found := 0
	for _, m := range models {
		for _, r := range m.Roles {
			if role != "" && r.Name != role {
				continue
			}
			if found > 0 {
				if _, err := io.WriteString(w, "\n"); err != nil {
					return err
				}
			}
			found++
			if err := graph.FromDomain(graphDomain(r)).Write(w, f); err != nil {
				return err
			}
		}
	}
	if found == 0 {
		if role != "" {
			return fmt.Errorf("rolegen: no role named %s", role)
		}
		return fmt.Errorf("rolegen: no roles found")
	}
	return nil
}

func graphDomain(r *model.Role) graph.Domain {
	d := graph.Domain{Name: r.Name}
	for _, f := range r.Fields {
		d.Fields = append(d.Fields, f.Name)
	}
	for _, a := range r.Actions {
		d.Actions = append(d.Actions, graph.Action{
			Name: a.Name, Cost: a.Cost, Pre: a.PreText, Post: a.EffectText,
			PreReads: a.PreReads, Writes: a.Writes, Fulfills: a.Fulfills, Guarded: a.Guarded,
		})
	}
	for _, g := range r.Goals {
		d.Goals = append(d.Goals, graph.Goal{Name: g.Name, Cond: g.CondText, Priority: g.Priority, Reads: g.Reads})
	}
	return d
}
