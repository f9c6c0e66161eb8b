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
	assert.Contains(t, b.String(), `"action:Reload" -> "goal:Armed" [label="fulfills"];`)
	assert.Contains(t, b.String(), `"action:FetchMagazine" -> "action:Reload" [label="Magazines", style=dashed];`)
	assert.Error(t, soldierDomain().WriteGraph(&b, "png"))
}
