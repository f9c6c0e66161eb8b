// Package graph renders small labelled graphs as Graphviz DOT or Mermaid
// flowcharts, deterministically (nodes and edges in the order given).
package graph

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Shape is how a node is drawn.
type Shape uint8

// Shapes.
const (
	Box     Shape = iota // an action, a step
	Ellipse              // a goal
	Note                 // a state
	Plain                // a state field: a small borderless label
)

// Node is a vertex; ID must be unique in its graph.
type Node struct {
	ID    string
	Label string
	Shape Shape
	// Bold marks a node of interest (a satisfied goal, a failed step).
	Bold bool
	// Cluster, when set, draws the node in a box with that label, with
	// the other nodes of the same cluster.
	Cluster string
}

// Edge is a directed edge.
type Edge struct {
	From, To string
	Label    string
	Dashed   bool
	// Loose edges do not pull their ends into ranks (Graphviz
	// constraint=false): a back edge drawn without reshaping the layout.
	Loose bool
}

// Graph is a directed graph.
type Graph struct {
	Name  string
	Nodes []Node
	Edges []Edge
}

// Format is an output format.
type Format string

// Formats.
const (
	DOT     Format = "dot"
	Mermaid Format = "mermaid"
)

// ParseFormat accepts dot and mermaid.
func ParseFormat(s string) (Format, error) {
	switch Format(strings.ToLower(s)) {
	case DOT:
		return DOT, nil
	case Mermaid:
		return Mermaid, nil
	}
	return "", fmt.Errorf("unknown graph format %q (want dot or mermaid)", s)
}

// Write renders g in format f.
func (g *Graph) Write(w io.Writer, f Format) error {
	var b strings.Builder
	switch f {
	case DOT:
		g.dot(&b)
	case Mermaid:
		g.mermaid(&b)
	default:
		return fmt.Errorf("unknown graph format %q (want dot or mermaid)", f)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// clusters lists the cluster labels of g in the order of their first
// node.
func (g *Graph) clusters() []string {
	var out []string
	for _, n := range g.Nodes {
		if n.Cluster != "" && !slices.Contains(out, n.Cluster) {
			out = append(out, n.Cluster)
		}
	}
	return out
}

func (g *Graph) dot(b *strings.Builder) {
	fmt.Fprintf(b, "digraph %s {\n", dotID(g.Name))
	b.WriteString("\trankdir=LR;\n\tgraph [fontname=\"Helvetica\"];\n\tnode [fontname=\"Helvetica\"];\n\tedge [fontname=\"Helvetica\", fontsize=10];\n")
	node := func(indent string, n Node) {
		shape := map[Shape]string{Box: "box", Ellipse: "ellipse", Note: "note", Plain: "plaintext"}[n.Shape]
		attrs := fmt.Sprintf("label=%s, shape=%s", dotID(n.Label), shape)
		switch n.Shape {
		case Box:
			attrs += ", style=rounded"
		case Plain:
			attrs += ", fontsize=11"
		}
		if n.Bold {
			attrs += ", penwidth=2"
		}
		fmt.Fprintf(b, "%s%s [%s];\n", indent, dotID(n.ID), attrs)
	}
	for _, n := range g.Nodes {
		if n.Cluster == "" {
			node("\t", n)
		}
	}
	for i, c := range g.clusters() {
		fmt.Fprintf(b, "\tsubgraph \"cluster_%d\" {\n\t\tlabel=%s;\n\t\tstyle=rounded;\n\t\tcolor=gray;\n", i, dotID(c))
		for _, n := range g.Nodes {
			if n.Cluster == c {
				node("\t\t", n)
			}
		}
		b.WriteString("\t}\n")
	}
	for _, e := range g.Edges {
		var attrs []string
		if e.Label != "" {
			attrs = append(attrs, "label="+dotID(e.Label))
		}
		if e.Dashed {
			attrs = append(attrs, "style=dashed")
		}
		if e.Loose {
			attrs = append(attrs, "constraint=false")
		}
		fmt.Fprintf(b, "\t%s -> %s", dotID(e.From), dotID(e.To))
		if len(attrs) > 0 {
			fmt.Fprintf(b, " [%s]", strings.Join(attrs, ", "))
		}
		b.WriteString(";\n")
	}
	b.WriteString("}\n")
}

// dotID quotes s as a DOT string.
func dotID(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

func (g *Graph) mermaid(b *strings.Builder) {
	b.WriteString("flowchart LR\n")
	ids := map[string]string{}
	for i, n := range g.Nodes {
		ids[n.ID] = fmt.Sprintf("n%d", i)
	}
	node := func(indent string, n Node) {
		label := mermaidText(n.Label)
		switch n.Shape {
		case Ellipse:
			fmt.Fprintf(b, "%s%s([\"%s\"])\n", indent, ids[n.ID], label)
		case Note:
			fmt.Fprintf(b, "%s%s[/\"%s\"/]\n", indent, ids[n.ID], label)
		case Plain:
			fmt.Fprintf(b, "%s%s{{\"%s\"}}\n", indent, ids[n.ID], label)
		default:
			fmt.Fprintf(b, "%s%s[\"%s\"]\n", indent, ids[n.ID], label)
		}
	}
	for _, n := range g.Nodes {
		if n.Cluster == "" {
			node("\t", n)
		}
	}
	for i, c := range g.clusters() {
		fmt.Fprintf(b, "\tsubgraph c%d [\"%s\"]\n", i, mermaidText(c))
		for _, n := range g.Nodes {
			if n.Cluster == c {
				node("\t\t", n)
			}
		}
		b.WriteString("\tend\n")
	}
	for _, e := range g.Edges {
		arrow := "-->"
		if e.Dashed {
			arrow = "-.->"
		}
		if e.Label != "" {
			fmt.Fprintf(b, "\t%s %s|\"%s\"| %s\n", ids[e.From], arrow, mermaidText(e.Label), ids[e.To])
		} else {
			fmt.Fprintf(b, "\t%s %s %s\n", ids[e.From], arrow, ids[e.To])
		}
	}
	for _, n := range g.Nodes {
		if n.Bold {
			fmt.Fprintf(b, "\tstyle %s stroke-width:3px\n", ids[n.ID])
		}
	}
}

// mermaidText escapes a label for a quoted Mermaid string.
func mermaidText(s string) string {
	r := strings.NewReplacer(`"`, "#quot;", "\n", "<br/>", "<", "#lt;", ">", "#gt;")
	return r.Replace(s)
}
