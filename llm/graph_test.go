package llm_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/runtime"
)

func TestPlanGraph(t *testing.T) {
	plan, err := llm.ParsePlan(`{"steps":[
		{"id":"a","capability":"Search","args":{"to":"LIS"},"dependsOn":[]},
		{"id":"b","capability":"Hotel","args":{},"dependsOn":[]},
		{"id":"c","capability":"Book","args":{"max":150},"dependsOn":["a","b"]}]}`)
	require.NoError(t, err)
	plan.Goal = "trip"
	var b strings.Builder
	res := &llm.Result{Steps: []llm.StepRecord{{Step: llm.Step{ID: "c"}, Status: llm.StepFailed}}}
	require.NoError(t, plan.WriteGraph(&b, runtime.Mermaid, res))
	assert.Equal(t, `flowchart LR
	n0["a: Search<br/>{#quot;to#quot;:#quot;LIS#quot;}"]
	n1["b: Hotel"]
	n2["c: Book<br/>{#quot;max#quot;:150}"]
	n0 --> n2
	n1 --> n2
	style n2 stroke-width:3px
`, b.String())
}
