package graph

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rolegen/rolegen/internal/fieldset"
)

// Domain is what a domain graph shows, as plain data: the generator fills
// it from its model, the runtime from a generated domain.
type Domain struct {
	Name    string
	Fields  []string
	Actions []Action
	Goals   []Goal
}

// Action is an action of a Domain.
type Action struct {
	Name string
	Cost float64
	// CostText is the cost when it depends on the state (Cost is then
	// its lower bound), CostReads the fields it reads; "" and nil for a
	// constant cost.
	CostText  string
	CostReads []int
	Pre       string
	Post      string
	PreReads  []int
	Writes    []int
	Fulfills  []int
	Guarded   bool
}

// Goal is a goal of a Domain.
type Goal struct {
	Name     string
	Cond     string
	Priority int
	Reads    []int
}

// View chooses what a domain graph draws besides goals, actions and
// "fulfills" edges.
type View uint8

// Views.
const (
	// Goals draws only the "fulfills" edges; the actions that fulfill no
	// goal stand apart, boxed together. Legible at any size.
	Goals View = iota + 1
	// Fields draws the state fields as nodes: an edge from each action
	// to the fields it writes, and dashed edges from each field to the
	// preconditions and goals that read it, except for a field most
	// preconditions read (where the agent is), whose node says so.
	// Edges grow with the sum of writers and readers of each field, not
	// their product.
	Fields
	// Full draws a dashed edge, labelled with the fields, from each action
	// to every goal and precondition that reads what it writes: every
	// relation the planners use, for small roles.
	Full
)

// Views lists the views by name, in the order help text gives them.
var Views = []struct {
	Name string
	View View
}{{"goals", Goals}, {"fields", Fields}, {"full", Full}}

// ParseView accepts goals, fields and full.
func ParseView(s string) (View, error) {
	for _, v := range Views {
		if strings.EqualFold(s, v.Name) {
			return v.View, nil
		}
	}
	return 0, fmt.Errorf("unknown graph view %q (want goals, fields or full)", s)
}

// PriorityName names a goal priority as goal tags write it: low, normal,
// high, critical, or the number.
func PriorityName(p int) string {
	if p >= 0 && p < 4 {
		return [...]string{"low", "normal", "high", "critical"}[p]
	}
	return strconv.Itoa(p)
}

// FromDomain draws d in view v: a node per goal (its name, condition and
// priority) and per action (name, cost, pre and post), an edge from an
// action to each goal it fulfills, and the edges of the view.
func FromDomain(d Domain, v View) *Graph {
	g := &Graph{Name: d.Name}
	for _, goal := range d.Goals {
		g.Nodes = append(g.Nodes, Node{
			ID:    "goal:" + goal.Name,
			Label: fmt.Sprintf("%s\n%s\npriority %s", goal.Name, goal.Cond, PriorityName(goal.Priority)),
			Shape: Ellipse,
		})
	}
	for _, a := range d.Actions {
		label := a.Name + "\ncost " + strconv.FormatFloat(a.Cost, 'g', -1, 64)
		if a.CostText != "" {
			label = a.Name + "\ncost " + a.CostText
		}
		if a.Pre != "" {
			label += "\npre " + a.Pre
		}
		if a.Post != "" {
			label += "\npost " + a.Post
		}
		n := Node{ID: "action:" + a.Name, Label: label, Shape: Box, Bold: a.Guarded}
		if v == Goals && len(a.Fulfills) == 0 && len(d.Goals) > 0 {
			n.Cluster = "actions that fulfill no goal"
		}
		g.Nodes = append(g.Nodes, n)
	}
	for _, a := range d.Actions {
		for _, gi := range a.Fulfills {
			if gi >= 0 && gi < len(d.Goals) {
				g.Edges = append(g.Edges, Edge{From: "action:" + a.Name, To: "goal:" + d.Goals[gi].Name, Label: "fulfills"})
			}
		}
	}
	switch v {
	case Fields:
		fieldEdges(g, d)
	case Full:
		fullEdges(g, d)
	}
	return g
}

// fieldEdges draws the fields that some action writes, each once: the
// actions that write it point to it; it points to the preconditions,
// costs (labelled) and goals that read it.
func fieldEdges(g *Graph, d Domain) {
	for fi, name := range d.Fields {
		var writers []string
		for _, a := range d.Actions {
			if slices.Contains(a.Writes, fi) {
				writers = append(writers, a.Name)
			}
		}
		if len(writers) == 0 {
			continue
		}
		var readers []string
		for _, a := range d.Actions {
			if slices.Contains(a.PreReads, fi) {
				readers = append(readers, a.Name)
			}
		}
		id := "field:" + name
		label := name
		// A field most preconditions read (where the agent is) would tie
		// every action to it: its reads are left to the labels.
		common := len(readers) >= 4 && 2*len(readers) > len(d.Actions)
		if common {
			label += fmt.Sprintf("\n(%d preconditions read it)", len(readers))
		}
		g.Nodes = append(g.Nodes, Node{ID: id, Label: label, Shape: Plain})
		for _, w := range writers {
			g.Edges = append(g.Edges, Edge{From: "action:" + w, To: id})
		}
		if !common {
			for _, r := range readers {
				g.Edges = append(g.Edges, Edge{From: id, To: "action:" + r, Dashed: true, Loose: true})
			}
		}
		for _, a := range d.Actions {
			if slices.Contains(a.CostReads, fi) {
				g.Edges = append(g.Edges, Edge{From: id, To: "action:" + a.Name, Label: "cost", Dashed: true, Loose: true})
			}
		}
		for _, goal := range d.Goals {
			if slices.Contains(goal.Reads, fi) {
				g.Edges = append(g.Edges, Edge{From: id, To: "goal:" + goal.Name, Dashed: true})
			}
		}
	}
}

// fullEdges draws a dashed edge from an action to each goal it does not
// fulfill whose condition reads what it writes, and to each action whose
// precondition reads what it writes (the helpers backward chaining
// uses), labelled with those fields, and one labelled "cost: " and the
// fields to each action whose cost reads what it writes.
func fullEdges(g *Graph, d Domain) {
	for _, a := range d.Actions {
		for gi, goal := range d.Goals {
			if slices.Contains(a.Fulfills, gi) {
				continue
			}
			if common := fieldset.Meet(a.Writes, goal.Reads); len(common) > 0 {
				g.Edges = append(g.Edges, Edge{From: "action:" + a.Name, To: "goal:" + goal.Name, Label: names(d.Fields, common), Dashed: true})
			}
		}
	}
	for _, a := range d.Actions {
		for _, b := range d.Actions {
			if a.Name == b.Name {
				continue
			}
			if common := fieldset.Meet(a.Writes, b.PreReads); len(common) > 0 {
				g.Edges = append(g.Edges, Edge{From: "action:" + a.Name, To: "action:" + b.Name, Label: names(d.Fields, common), Dashed: true})
			}
			if common := fieldset.Meet(a.Writes, b.CostReads); len(common) > 0 {
				g.Edges = append(g.Edges, Edge{From: "action:" + a.Name, To: "action:" + b.Name, Label: "cost: " + names(d.Fields, common), Dashed: true})
			}
		}
	}
}

func names(fields []string, ids []int) string {
	var out []string
	for _, id := range ids {
		if id >= 0 && id < len(fields) {
			out = append(out, fields[id])
		}
	}
	return strings.Join(out, ", ")
}

// Step is a step of a plan graph.
type Step struct {
	ID        string
	Label     string
	DependsOn []string
	// Failed marks the step that failed, if any.
	Failed bool
}

// FromSteps draws a plan: a box per step and an edge per dependency
// (steps without dependencies follow the previous step when sequential),
// then an ellipse per goal the plan achieves, reached from its last step.
func FromSteps(name string, steps []Step, sequential bool, goals []string) *Graph {
	g := &Graph{Name: name}
	for _, s := range steps {
		g.Nodes = append(g.Nodes, Node{ID: "step:" + s.ID, Label: s.Label, Shape: Box, Bold: s.Failed})
	}
	for i, s := range steps {
		if sequential && i > 0 {
			g.Edges = append(g.Edges, Edge{From: "step:" + steps[i-1].ID, To: "step:" + s.ID})
			continue
		}
		for _, dep := range s.DependsOn {
			g.Edges = append(g.Edges, Edge{From: "step:" + dep, To: "step:" + s.ID})
		}
	}
	for _, goal := range goals {
		g.Nodes = append(g.Nodes, Node{ID: "goal:" + goal, Label: goal, Shape: Ellipse, Bold: true})
		if len(steps) > 0 {
			g.Edges = append(g.Edges, Edge{From: "step:" + steps[len(steps)-1].ID, To: "goal:" + goal, Dashed: true})
		}
	}
	return g
}
