package graph

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func sample() *Graph {
	return &Graph{
		Name: "Soldier",
		Nodes: []Node{
			{ID: "goal:Armed", Label: "Armed\nAmmo > 10", Shape: Ellipse, Bold: true},
			{ID: "action:Reload", Label: "Reload\ncost 2", Shape: Box},
			{ID: "action:Fetch", Label: `Fetch "it"`, Shape: Box},
		},
		Edges: []Edge{
			{From: "action:Reload", To: "goal:Armed", Label: "fulfills"},
			{From: "action:Fetch", To: "action:Reload", Label: "Magazines", Dashed: true},
		},
	}
}

func TestDOT(t *testing.T) {
	var b strings.Builder
	require.NoError(t, sample().Write(&b, DOT))
	require.Equal(t, `digraph "Soldier" {
	rankdir=LR;
	graph [fontname="Helvetica"];
	node [fontname="Helvetica"];
	edge [fontname="Helvetica", fontsize=10];
	"goal:Armed" [label="Armed\nAmmo > 10", shape=ellipse, penwidth=2];
	"action:Reload" [label="Reload\ncost 2", shape=box, style=rounded];
	"action:Fetch" [label="Fetch \"it\"", shape=box, style=rounded];
	"action:Reload" -> "goal:Armed" [label="fulfills"];
	"action:Fetch" -> "action:Reload" [label="Magazines", style=dashed];
}
`, b.String())
}

func TestMermaid(t *testing.T) {
	var b strings.Builder
	require.NoError(t, sample().Write(&b, Mermaid))
	require.Equal(t, `flowchart LR
	n0(["Armed<br/>Ammo #gt; 10"])
	n1["Reload<br/>cost 2"]
	n2["Fetch #quot;it#quot;"]
	n1 -->|"fulfills"| n0
	n2 -.->|"Magazines"| n1
	style n0 stroke-width:3px
`, b.String())
}

func TestParseFormat(t *testing.T) {
	f, err := ParseFormat("Mermaid")
	require.NoError(t, err)
	require.Equal(t, Mermaid, f)
	_, err = ParseFormat("svg")
	require.EqualError(t, err, `unknown graph format "svg" (want dot or mermaid)`)
}

// A domain drawn in each view: goals with named priorities, and the
// edges the view adds.
func TestFromDomainViews(t *testing.T) {
	d := Domain{
		Name:   "Farmer",
		Fields: []string{"Location", "Gold", "Seeds"},
		Actions: []Action{
			{Name: "Walk", Cost: 1, Pre: "Gold >= 0", Post: "Location = 1", PreReads: []int{1}, Writes: []int{0}},
			{Name: "Buy", Cost: 2, Pre: "Location == 1 && Gold > 1", Post: "Seeds++, Gold -= 2", PreReads: []int{0, 1}, Writes: []int{1, 2}, Fulfills: []int{0}},
		},
		Goals: []Goal{{Name: "Sown", Cond: "Seeds > 0", Priority: 3, Reads: []int{2}}, {Name: "Far", Cond: "Location > 5", Priority: 7, Reads: []int{0}}},
	}
	draw := func(v View) string {
		var b strings.Builder
		require.NoError(t, FromDomain(d, v).Write(&b, Mermaid))
		return b.String()
	}
	nodes := `flowchart LR
	n0(["Sown<br/>Seeds #gt; 0<br/>priority critical"])
	n1(["Far<br/>Location #gt; 5<br/>priority 7"])
`
	walk := `["Walk<br/>cost 1<br/>pre Gold #gt;= 0<br/>post Location = 1"]`
	buy := `n3["Buy<br/>cost 2<br/>pre Location == 1 && Gold #gt; 1<br/>post Seeds++, Gold -= 2"]`
	require.Equal(t, nodes+"\t"+buy+"\n\tsubgraph c0 [\"actions that fulfill no goal\"]\n\t\tn2"+walk+"\n\tend\n\tn3 -->|\"fulfills\"| n0\n", draw(Goals))
	require.Equal(t, nodes+"\tn2"+walk+"\n\t"+buy+`
	n4{{"Location"}}
	n5{{"Gold"}}
	n6{{"Seeds"}}
	n3 -->|"fulfills"| n0
	n2 --> n4
	n4 -.-> n3
	n4 -.-> n1
	n3 --> n5
	n5 -.-> n2
	n5 -.-> n3
	n3 --> n6
	n6 -.-> n0
`, draw(Fields))
	require.Equal(t, nodes+"\tn2"+walk+"\n\t"+buy+`
	n3 -->|"fulfills"| n0
	n2 -.->|"Location"| n1
	n2 -.->|"Location"| n3
	n3 -.->|"Gold"| n2
`, draw(Full))

	// In DOT, precondition reads do not rank the layout, and clusters
	// are boxes.
	var b strings.Builder
	require.NoError(t, FromDomain(d, Fields).Write(&b, DOT))
	require.Contains(t, b.String(), `"field:Gold" -> "action:Walk" [style=dashed, constraint=false];`)
	b.Reset()
	require.NoError(t, FromDomain(d, Goals).Write(&b, DOT))
	require.Contains(t, b.String(), "\tsubgraph \"cluster_0\" {\n\t\tlabel=\"actions that fulfill no goal\";\n\t\tstyle=rounded;\n\t\tcolor=gray;\n\t\t\"action:Walk\" [")
}

// A cost that depends on the state shows as written, and the fields it
// reads tie it to the actions that write them.
func TestCostsThatDependOnTheState(t *testing.T) {
	d := Domain{
		Name:   "Traveller",
		Fields: []string{"Distance", "Arrived"},
		Actions: []Action{
			{Name: "Approach", Cost: 1, Post: "Distance -= 10", Writes: []int{0}},
			{Name: "Walk", Cost: 1, CostText: "2 + Distance / 10", CostReads: []int{0}, Post: "Arrived = true", Writes: []int{1}},
		},
	}
	draw := func(v View) string {
		var b strings.Builder
		require.NoError(t, FromDomain(d, v).Write(&b, Mermaid))
		return b.String()
	}
	require.Equal(t, `flowchart LR
	n0["Approach<br/>cost 1<br/>post Distance -= 10"]
	n1["Walk<br/>cost 2 + Distance / 10<br/>post Arrived = true"]
	n2{{"Distance"}}
	n3{{"Arrived"}}
	n0 --> n2
	n2 -.->|"cost"| n1
	n1 --> n3
`, draw(Fields))
	require.Contains(t, draw(Full), `n0 -.->|"cost: Distance"| n1`)
}

// A field that most preconditions read is not tied to each of them.
func TestFieldsViewLeavesCommonReadsToLabels(t *testing.T) {
	d := Domain{Name: "R", Fields: []string{"Here"}}
	for _, name := range []string{"A", "B", "C", "D", "E"} {
		d.Actions = append(d.Actions, Action{Name: name, Cost: 1, PreReads: []int{0}, Writes: []int{0}})
	}
	g := FromDomain(d, Fields)
	require.Equal(t, "Here\n(5 preconditions read it)", g.Nodes[len(g.Nodes)-1].Label)
	require.Len(t, g.Edges, 5, "one edge per writer, none per reader")
}

func TestParseView(t *testing.T) {
	v, err := ParseView("Goals")
	require.NoError(t, err)
	require.Equal(t, Goals, v)
	_, err = ParseView("all")
	require.EqualError(t, err, `unknown graph view "all" (want goals, fields or full)`)
}
