package gen_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"
)

var schemaConst = regexp.MustCompile("(?m)^const _\\w+_planSchema = `(.*)`$")

// planSchemas extracts the plan schemas from a generated file.
func planSchemas(t *testing.T, src []byte) []string {
	t.Helper()
	var out []string
	for _, m := range schemaConst.FindAllSubmatch(src, -1) {
		out = append(out, string(m[1]))
	}
	return out
}

// checkStrict checks the rules of OpenAI strict structured outputs that
// the spec promises, and portability to Anthropic, Ollama and llama.cpp:
// a root object; every object closed, with all its keys required; no
// $ref, oneOf, allOf, not, if/then/else, nullable types or length limits.
func checkStrict(t *testing.T, schema string) {
	t.Helper()
	var root map[string]any
	require.NoError(t, json.Unmarshal([]byte(schema), &root))
	require.Equal(t, "object", root["type"], "the root is an object")
	var walk func(path string, v any)
	walk = func(path string, v any) {
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		for _, banned := range []string{"$ref", "$defs", "oneOf", "allOf", "not", "if", "then", "else",
			"minLength", "maxLength", "minItems", "maxItems", "pattern", "contentEncoding", "nullable"} {
			require.NotContains(t, m, banned, "%s uses %s", path, banned)
		}
		if typ, ok := m["type"].(string); !ok && m["anyOf"] == nil {
			require.Failf(t, "no type", "%s has neither a single type nor anyOf", path)
		} else if typ == "object" {
			require.Equal(t, false, m["additionalProperties"], "%s is closed", path)
			props, _ := m["properties"].(map[string]any)
			require.NotNil(t, m["properties"], "%s lists its properties", path)
			var keys []string
			for k := range props {
				keys = append(keys, k)
			}
			req, ok := m["required"].([]any)
			require.True(t, ok, "%s has a required list", path)
			var reqs []string
			for _, r := range req {
				reqs = append(reqs, r.(string))
			}
			sort.Strings(keys)
			sort.Strings(reqs)
			require.Equal(t, keys, reqs, "%s requires every key", path)
			for k, p := range props {
				walk(path+"."+k, p)
			}
		}
		if items, ok := m["items"]; ok {
			walk(path+"[]", items)
		}
		if any, ok := m["anyOf"].([]any); ok {
			for i, b := range any {
				walk(fmt.Sprintf("%s|%d", path, i), b)
			}
		}
	}
	walk("$", root)

	// One branch per capability, capability before args.
	steps := root["properties"].(map[string]any)["steps"].(map[string]any)
	branches, _ := steps["items"].(map[string]any)["anyOf"].([]any)
	for _, b := range branches {
		props := b.(map[string]any)["properties"].(map[string]any)
		enum := props["capability"].(map[string]any)["enum"].([]any)
		require.Len(t, enum, 1)
	}
	require.Less(t, strings.Index(schema, `"capability"`), strings.Index(schema, `"args"`))
}

// validatePlan validates a plan document against a schema with a
// maintained JSON Schema implementation.
func validatePlan(t *testing.T, schema, plan string) error {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(schema))
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	require.NoError(t, c.AddResource("plan.json", doc))
	sch, err := c.Compile("plan.json")
	require.NoError(t, err)
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(plan))
	require.NoError(t, err)
	return sch.Validate(inst)
}

func TestPlanSchemasAreStrict(t *testing.T) {
	files := generateGolden(t)
	n := 0
	for path, content := range files {
		for _, s := range planSchemas(t, content) {
			n++
			t.Run(path, func(t *testing.T) { checkStrict(t, s) })
		}
	}
	require.GreaterOrEqual(t, n, 5)
}

func TestPlanSchemaValidatesPlans(t *testing.T) {
	files := generateGolden(t)
	var soldier, agent string
	for path, content := range files {
		switch {
		case strings.HasSuffix(path, "soldier/soldier_plan.go"):
			soldier = planSchemas(t, content)[0]
		case strings.HasSuffix(path, "assistant/agent_plan.go"):
			agent = planSchemas(t, content)[0]
		}
	}
	ok := `{"steps":[{"id":"1","capability":"FetchMagazine","args":{},"dependsOn":[]},{"id":"2","capability":"Reload","args":{},"dependsOn":["1"]}]}`
	require.NoError(t, validatePlan(t, soldier, ok))
	for _, bad := range []string{
		`{"steps":[{"id":"1","capability":"Jump","args":{},"dependsOn":[]}]}`,
		`{"steps":[{"id":"1","capability":"Reload","args":{"x":1},"dependsOn":[]}]}`,
		`{"steps":[{"id":"1","capability":"Reload","args":{}}]}`,
		`{"steps":[],"extra":true}`,
	} {
		require.Error(t, validatePlan(t, soldier, bad), bad)
	}
	search := `{"steps":[{"id":"s","capability":"Search","args":{"from":"ZRH","to":"LIS","date":"2026-12-01T08:00:00Z","cabin":"economy","seats":2,"tags":[]},"dependsOn":[]}]}`
	require.NoError(t, validatePlan(t, agent, search))
	require.Error(t, validatePlan(t, agent, strings.Replace(search, `"economy"`, `"first"`, 1)), "cabin is an enum")
	require.Error(t, validatePlan(t, agent, strings.Replace(search, `"seats":2`, `"seats":"2"`, 1)), "seats is an integer")
	require.Error(t, validatePlan(t, agent, strings.Replace(search, `"capability":"Search"`, `"capability":"Book"`, 1)), "Book's args differ")
}
