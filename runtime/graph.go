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

// GraphView chooses what WriteGraph draws besides goals, actions and
// "fulfills" edges.
type GraphView string

// Graph views.
const (
	// ViewGoals draws only the "fulfills" edges.
	ViewGoals GraphView = "goals"
	// ViewFields draws the state fields as nodes: an edge from each action
	// to the fields it writes, dashed edges from each field to the
	// preconditions and goals that read it.
	ViewFields GraphView = "fields"
	// ViewFull draws a dashed edge, labelled with the fields, from each
	// action to every goal and precondition that reads what it writes.
	ViewFull GraphView = "full"
)

// WriteGraph draws the domain in view ViewFields: its goals (with their
// priorities) and actions, "fulfills" edges from actions to goals, and
// the state fields between the actions that write them and the
// preconditions and goals that read them.
func (d *Domain[S]) WriteGraph(w io.Writer, f GraphFormat) error {
	return d.WriteGraphView(w, f, ViewFields)
}

// WriteGraphView draws the domain as WriteGraph does, in view v.
func (d *Domain[S]) WriteGraphView(w io.Writer, f GraphFormat, v GraphView) error {
	view, err := graph.ParseView(string(v))
	if err != nil {
		return err
	}
	return graph.FromDomain(d.graphDomain(), view).Write(w, graph.Format(f))
}

func (d *Domain[S]) graphDomain() graph.Domain {
	gd := graph.Domain{Name: d.Name}
	for _, f := range d.Fields {
		gd.Fields = append(gd.Fields, f.Name)
	}
	for _, a := range d.Actions {
		ga := graph.Action{Name: a.Name, Cost: a.Cost, CostText: a.CostText, Pre: a.PreText, Post: a.EffectText, Guarded: a.Guarded}
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
		cost := fmt.Sprint(d.Actions[a].Cost)
		if d.Actions[a].CostText != "" {
			cost = d.Actions[a].CostText
		}
		steps[i] = graph.Step{
			ID:    fmt.Sprint(i + 1),
			Label: fmt.Sprintf("%d. %s\ncost %s", i+1, d.ActionName(a), cost),
		}
	}
	goals := make([]string, len(p.Goals))
	for i, g := range p.Goals {
		goals[i] = d.GoalName(g)
	}
	return graph.FromSteps(d.Name, steps, true, goals).Write(w, graph.Format(f))
}
