package runtime

import (
	"fmt"
	"io"

	"github.com/rolegen/rolegen/internal/graph"
)

// GraphFormat is a graph output format: DOT (Graphviz) or Mermaid.
type GraphFormat string

// Graph formats.
const (
	DOT     GraphFormat = "dot"
	Mermaid GraphFormat = "mermaid"
)

// WriteGraph draws the domain: its goals and actions, "fulfills" edges
// from actions to goals, and dashed edges, labelled with the fields, from
// an action to each goal or precondition that reads what it writes.
func (d *Domain[S]) WriteGraph(w io.Writer, f GraphFormat) error {
	return graph.FromDomain(d.graphDomain()).Write(w, graph.Format(f))
}

func (d *Domain[S]) graphDomain() graph.Domain {
	gd := graph.Domain{Name: d.Name}
	for _, f := range d.Fields {
		gd.Fields = append(gd.Fields, f.Name)
	}
	for _, a := range d.Actions {
		ga := graph.Action{Name: a.Name, Cost: a.Cost, Pre: a.PreText, Post: a.EffectText, Guarded: a.Guarded}
		ga.PreReads = ints(a.PreReads)
		ga.Writes = ints(a.Writes)
		for _, g := range a.Fulfills {
			ga.Fulfills = append(ga.Fulfills, int(g))
		}
		gd.Actions = append(gd.Actions, ga)
	}
	for _, g := range d.Goals {
		gd.Goals = append(gd.Goals, graph.Goal{Name: g.Name, Cond: g.CondText, Priority: int(g.Priority), Reads: ints(g.Reads)})
	}
	return gd
}

func ints(ids []FieldID) []int {
	out := make([]int, len(ids))
	for i, id := range ids {
		out[i] = int(id)
	}
	return out
}

// WritePlanGraph draws plan p over the domain: its steps in order with
// their costs, and the goals it achieves.
func (d *Domain[S]) WritePlanGraph(w io.Writer, p *Plan, f GraphFormat) error {
	steps := make([]graph.Step, len(p.Steps))
	for i, a := range p.Steps {
		steps[i] = graph.Step{
			ID:    fmt.Sprint(i + 1),
			Label: fmt.Sprintf("%d. %s\ncost %g", i+1, d.ActionName(a), d.Actions[a].Cost),
		}
	}
	goals := make([]string, len(p.Goals))
	for i, g := range p.Goals {
		goals[i] = d.GoalName(g)
	}
	return graph.FromSteps(d.Name, steps, true, goals).Write(w, graph.Format(f))
}
