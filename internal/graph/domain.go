package graph

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
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
	Name     string
	Cost     float64
	Pre      string
	Post     string
	PreReads []int
	Writes   []int
	Fulfills []int
	Guarded  bool
}

// Goal is a goal of a Domain.
type Goal struct {
	Name     string
	Cond     string
	Priority int
	Reads    []int
}

// FromDomain draws d: a node per goal and per action, an edge from an
// action to each goal it fulfills, a dashed edge from an action to a goal
// whose condition reads what it writes, and a dashed edge from an action
// to each action whose precondition reads what it writes (the helpers
// backward chaining uses), labelled with those fields.
func FromDomain(d Domain) *Graph {
	g := &Graph{Name: d.Name}
	for _, goal := range d.Goals {
		g.Nodes = append(g.Nodes, Node{
			ID:    "goal:" + goal.Name,
			Label: fmt.Sprintf("%s\n%s\npriority %d", goal.Name, goal.Cond, goal.Priority),
			Shape: Ellipse,
		})
	}
	for _, a := range d.Actions {
		label := a.Name + "\ncost " + strconv.FormatFloat(a.Cost, 'g', -1, 64)
		if a.Pre != "" {
			label += "\npre " + a.Pre
		}
		if a.Post != "" {
			label += "\npost " + a.Post
		}
		g.Nodes = append(g.Nodes, Node{ID: "action:" + a.Name, Label: label, Shape: Box, Bold: a.Guarded})
	}
	for _, a := range d.Actions {
		for gi, goal := range d.Goals {
			switch {
			case slices.Contains(a.Fulfills, gi):
				g.Edges = append(g.Edges, Edge{From: "action:" + a.Name, To: "goal:" + goal.Name, Label: "fulfills"})
			default:
				if common := meet(a.Writes, goal.Reads); len(common) > 0 {
					g.Edges = append(g.Edges, Edge{From: "action:" + a.Name, To: "goal:" + goal.Name, Label: names(d.Fields, common), Dashed: true})
				}
			}
		}
	}
	for _, a := range d.Actions {
		for _, b := range d.Actions {
			if a.Name == b.Name {
				continue
			}
			if common := meet(a.Writes, b.PreReads); len(common) > 0 {
				g.Edges = append(g.Edges, Edge{From: "action:" + a.Name, To: "action:" + b.Name, Label: names(d.Fields, common), Dashed: true})
			}
		}
	}
	return g
}

func meet(a, b []int) []int {
	var out []int
	for _, x := range a {
		if slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
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
