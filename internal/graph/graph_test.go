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
