package gen

import (
	"context"
	"fmt"
	"io"

	"github.com/rolegen/rolegen/internal/graph"
	"github.com/rolegen/rolegen/internal/model"
)

// GraphOptions says what WriteGraphs draws.
type GraphOptions struct {
	// Format is "dot" (default) or "mermaid".
	Format string
	// Role, when set, draws only the role of that name.
	Role string
	// View is "goals" (only "fulfills" edges), "fields" (the default:
	// state fields as nodes, with edges from their writers to their
	// readers) or "full" (an edge from each action to every goal and
	// precondition that reads what it writes).
	View string
}

// WriteGraphs draws the domain of every role of the packages matching
// patterns (or only the role g.Role): goals with their priorities,
// actions with their costs and conditions, "fulfills" edges, and the
// edges of g.View. Several roles give several graphs, one after another.
func WriteGraphs(ctx context.Context, opts Options, w io.Writer, g GraphOptions, patterns ...string) error {
	if g.Format == "" {
		g.Format = "dot"
	}
	if g.View == "" {
		g.View = "fields"
	}
	f, err := graph.ParseFormat(g.Format)
	if err != nil {
		return err
	}
	view, err := graph.ParseView(g.View)
	if err != nil {
		return err
	}
	role := g.Role
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
			if err := graph.FromDomain(graphDomain(r), view).Write(w, f); err != nil {
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
			Name: a.Name, Cost: a.Cost, CostText: a.CostText, CostReads: a.CostReads, Pre: a.PreText, Post: a.EffectText,
			PreReads: a.PreReads, Writes: a.Writes, Fulfills: a.Fulfills, Guarded: a.Guarded,
		})
	}
	for _, g := range r.Goals {
		d.Goals = append(d.Goals, graph.Goal{Name: g.Name, Cond: g.CondText, Priority: g.Priority, Reads: g.Reads})
	}
	return d
}
