package runtime_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
)

func TestWritePlanGraph(t *testing.T) {
	d := soldierDomain()
	p, err := runtime.NewBackwardChainer(d).Plan(context.Background(), soldierState{})
	require.NoError(t, err)
	var b strings.Builder
	require.NoError(t, d.WritePlanGraph(&b, &p, runtime.Mermaid))
	assert.Equal(t, `flowchart LR
	n0["1. FetchMagazine<br/>cost 1"]
	n1["2. Reload<br/>cost 2"]
	n2(["Armed"])
	n0 --> n1
	n1 -.-> n2
	style n2 stroke-width:3px
`, b.String())
}

func TestWriteGraph(t *testing.T) {
	var b strings.Builder
	require.NoError(t, soldierDomain().WriteGraph(&b, runtime.DOT))
	assert.Contains(t, b.String(), `"goal:Armed" [label="Armed\nAmmo > 10\npriority high", shape=ellipse];`)
	assert.Contains(t, b.String(), `"action:Reload" -> "goal:Armed" [label="fulfills"];`)
	assert.Contains(t, b.String(), `"action:FetchMagazine" -> "field:Magazines";`)
	assert.Contains(t, b.String(), `"field:Magazines" -> "action:Reload" [style=dashed, constraint=false];`)
	assert.Error(t, soldierDomain().WriteGraph(&b, "png"))

	b.Reset()
	require.NoError(t, soldierDomain().WriteGraphView(&b, runtime.DOT, runtime.ViewFull))
	assert.Contains(t, b.String(), `"action:FetchMagazine" -> "action:Reload" [label="Magazines", style=dashed];`)
	b.Reset()
	require.NoError(t, soldierDomain().WriteGraphView(&b, runtime.Mermaid, runtime.ViewGoals))
	assert.NotContains(t, b.String(), "-.->")
	assert.Error(t, soldierDomain().WriteGraphView(&b, runtime.DOT, "tangled"))
}
