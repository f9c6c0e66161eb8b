package gen_test

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/runtime"
)

// planSchemas returns the plan schemas package llm assembles, with its
// default options, over the actions of each domain of a generated file:
// their names, descriptions and argument schemas as the file has them.
func planSchemas(t *testing.T, src []byte) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "plan.go", src, parser.SkipObjectResolution)
	require.NoError(t, err)
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.CompositeLit)
		if !ok || !isRuntimeType(lit.Type, "Domain") {
			return true
		}
		d := runtime.Domain[struct{}]{Name: "Role"}
		for _, kv := range lit.Elts {
			kv := kv.(*ast.KeyValueExpr)
			if kv.Key.(*ast.Ident).Name != "Actions" {
				continue
			}
			for _, elt := range kv.Value.(*ast.CompositeLit).Elts {
				a := runtime.Action[struct{}]{Cost: 1}
				for _, field := range elt.(*ast.CompositeLit).Elts {
					field := field.(*ast.KeyValueExpr)
					text := func() string {
						s, err := strconv.Unquote(field.Value.(*ast.BasicLit).Value)
						require.NoError(t, err)
						return s
					}
					switch field.Key.(*ast.Ident).Name {
					case "Name":
						a.Name = text()
					case "Description":
						a.Description = text()
					case "Args":
						a.Args = text()
					}
				}
				d.Actions = append(d.Actions, a)
			}
		}
		schema, err := llm.PlanSchema(runtime.NewDomain(d))
		require.NoError(t, err)
		out = append(out, string(schema))
		return false
	})
	return out
}

// isRuntimeType reports whether e is runtime.name[...].
func isRuntimeType(e ast.Expr, name string) bool {
	if ix, ok := e.(*ast.IndexExpr); ok {
		e = ix.X
	}
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "runtime" && sel.Sel.Name == name
}

// strictKeywords are the keywords the plan schema may use, each with the
// types it may appear on: those OpenAI strict mode, Ollama and llama.cpp's
// JSON-schema-to-grammar converter all accept (TestGrammarsKeepTheSchema
// runs the converter).
var strictKeywords = map[string][]string{
	"type": nil, "description": nil, "enum": nil, "anyOf": nil,
	"properties": {"object"}, "required": {"object"}, "additionalProperties": {"object"},
	"items": {"array"}, "minItems": {"array"}, "maxItems": {"array"},
	"format": {"string"}, "pattern": {"string"},
	"minimum": {"integer"}, "maximum": {"integer"},
}

// checkStrict checks the rules of OpenAI strict structured outputs that
// the spec promises, and portability to Ollama and llama.cpp: a root
// object; only the keywords of strictKeywords, each on its type; every
// object closed, with all its keys required; a single type or an anyOf
// per node; formats and patterns every target reads.
func checkStrict(t *testing.T, schema string) {
	t.Helper()
	var root map[string]any
	require.NoError(t, json.Unmarshal([]byte(schema), &root))
	require.Equal(t, "object", root["type"], "the root is an object")
	var walk func(path string, v any)
	walk = func(path string, v any) {
		m, ok := v.(map[string]any)
		require.True(t, ok, "%s is a schema object", path)
		typ, _ := m["type"].(string)
		for k := range m {
			on, known := strictKeywords[k]
			require.True(t, known, "%s uses %s", path, k)
			if on != nil {
				require.Contains(t, on, typ, "%s: %s on type %q", path, k, typ)
			}
		}
		if _, ok := m["anyOf"]; ok {
			require.Empty(t, typ, "%s: anyOf has no type beside it", path)
		} else {
			require.NotEmpty(t, typ, "%s has a single type", path)
		}
		if f, ok := m["format"]; ok {
			require.Equal(t, "date-time", f, "%s: a format every target knows", path)
		}
		if p, ok := m["pattern"].(string); ok {
			_, err := regexp.Compile(p)
			require.NoError(t, err, "%s: pattern", path)
			require.NotContains(t, p, "(?", "%s: no (?: groups or lookaround (llama.cpp refuses them)", path)
			require.True(t, strings.HasPrefix(p, "^") && strings.HasSuffix(p, "$"), "%s: pattern anchored", path)
		}
		if typ == "object" {
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
// maintained JSON Schema implementation, formats asserted as the targets
// assert them.
func validatePlan(t *testing.T, schema, plan string) error {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(schema))
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	c.AssertFormat()
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
		`{"steps":[]}`,
	} {
		require.Error(t, validatePlan(t, soldier, bad), bad)
	}
	search := `{"steps":[{"id":"s","capability":"Search","args":{"from":"ZRH","to":"LIS","date":"2026-12-01T08:00:00Z","cabin":"economy","seats":2,"tags":[]},"dependsOn":[]}]}`
	require.NoError(t, validatePlan(t, agent, search))
	require.Error(t, validatePlan(t, agent, strings.Replace(search, `"economy"`, `"first"`, 1)), "cabin is an enum")
	require.Error(t, validatePlan(t, agent, strings.Replace(search, `"seats":2`, `"seats":"2"`, 1)), "seats is an integer")
	require.Error(t, validatePlan(t, agent, strings.Replace(search, `"capability":"Search"`, `"capability":"Book"`, 1)), "Book's args differ")
}
