package gen_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// grammarScript is llama.cpp's JSON-schema-to-grammar converter
// (examples/json_schema_to_grammar.py in a llama.cpp checkout; it needs
// only Python's standard library), which llama-server applies to a
// response format and Ollama links as its C++ twin.
const grammarScript = "LLAMACPP_JSON_SCHEMA_TO_GRAMMAR"

// toGrammar converts a JSON Schema with llama.cpp's converter, or skips
// the test when python3 or the script is not here.
func toGrammar(t *testing.T, schema string) string {
	t.Helper()
	script := os.Getenv(grammarScript)
	if script == "" {
		t.Skipf("set %s to llama.cpp's examples/json_schema_to_grammar.py to run this test", grammarScript)
	}
	if _, err := os.Stat(script); err != nil {
		t.Skipf("%s: %v", grammarScript, err)
	}
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	cmd := exec.Command(python, script, "-")
	cmd.Stdin = strings.NewReader(schema)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	require.NoError(t, cmd.Run(), "the converter refuses the schema:\n%s", stderr.String())
	return out.String()
}

// grammarRegexp turns a GBNF grammar without recursion (what a schema
// without $ref converts to) into an equivalent anchored regular
// expression, rule references inlined.
func grammarRegexp(t *testing.T, grammar string) *regexp.Regexp {
	t.Helper()
	rules := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(grammar), "\n") {
		name, body, ok := strings.Cut(line, " ::= ")
		require.True(t, ok, "grammar line %q", line)
		rules[name] = body
	}
	done := map[string]string{}
	var expand func(name string, stack []string) string
	expand = func(name string, stack []string) string {
		if re, ok := done[name]; ok {
			return re
		}
		require.NotContains(t, stack, name, "rule %s is recursive", name)
		body, ok := rules[name]
		require.True(t, ok, "no rule %s", name)
		var b strings.Builder
		for i := 0; i < len(body); {
			switch c := body[i]; {
			case c == ' ':
				i++
			case c == '"':
				j := i + 1
				for body[j] != '"' {
					if body[j] == '\\' {
						j++
					}
					j++
				}
				lit, err := strconv.Unquote(body[i : j+1])
				require.NoError(t, err, "literal %s", body[i:j+1])
				b.WriteString("(?:" + regexp.QuoteMeta(lit) + ")")
				i = j + 1
			case c == '[':
				j := i + 1
				for body[j] != ']' {
					if body[j] == '\\' {
						j++
					}
					j++
				}
				b.WriteString(charClass(body[i : j+1]))
				i = j + 1
			case c == '{':
				j := strings.IndexByte(body[i:], '}')
				b.WriteString(body[i : i+j+1])
				i += j + 1
			case strings.ContainsRune("()|?*+", rune(c)):
				if c == '(' {
					b.WriteString("(?:")
				} else {
					b.WriteByte(c)
				}
				i++
			default:
				j := i
				for j < len(body) && (body[j] == '-' || body[j] >= '0' && body[j] <= '9' || body[j] >= 'a' && body[j] <= 'z' || body[j] >= 'A' && body[j] <= 'Z') {
					j++
				}
				require.Greater(t, j, i, "unexpected %q in rule %s", body[i:], name)
				b.WriteString("(?:" + expand(body[i:j], append(stack, name)) + ")")
				i = j
			}
		}
		done[name] = b.String()
		return done[name]
	}
	re, err := regexp.Compile(`^(?:` + expand("root", nil) + `)$`)
	require.NoError(t, err)
	return re
}

// charClass rewrites a GBNF character class in Go's syntax.
func charClass(class string) string {
	return regexp.MustCompile(`\\U([0-9A-Fa-f]{8})|\\u([0-9A-Fa-f]{4})`).ReplaceAllStringFunc(class, func(esc string) string {
		return fmt.Sprintf(`\x{%s}`, strings.TrimLeft(esc[2:], "0"))
	})
}

// TestGrammarsKeepTheSchema converts every generated plan schema with
// llama.cpp's converter and checks, through the grammar it gives, that no
// keyword of the schema was dropped: the plans the grammar admits are
// exactly those the schema validates, the refusals of every bound
// included.
func TestGrammarsKeepTheSchema(t *testing.T) {
	if os.Getenv(grammarScript) == "" {
		t.Skipf("set %s to llama.cpp's examples/json_schema_to_grammar.py to run this test", grammarScript)
	}
	files := generateGolden(t)
	var shop string
	for path, content := range files {
		for _, s := range planSchemas(t, content) {
			re := grammarRegexp(t, toGrammar(t, s))
			assert.False(t, re.MatchString(`{"steps":[]}`), "%s: at least one step", path)
			if strings.HasSuffix(path, "argtypes/shop_plan.go") {
				shop = s
			}
		}
	}
	require.NotEmpty(t, shop)
	re := grammarRegexp(t, toGrammar(t, shop))
	valid := `{"note":"hi","count":2,"level":-3,"code":"42","urgent":"true","ratio":"0.5","size":"2","blob":"AQID","point":[1,2,3],"seat":{"row":7,"letter":"C"},"limit":null,"when":"2026-02-28T10:00:00Z","tags":["a"]}`
	plan := func(args string) string {
		return `{"steps":[{"id":"1","capability":"Order","args":` + args + `,"dependsOn":[]}]}`
	}
	for _, c := range []struct {
		name, from, to string
		ok             bool
	}{
		{"valid", "", "", true},
		{"seat null", `{"row":7,"letter":"C"}`, `null`, true},
		{"limit set", `"limit":null`, `"limit":5`, true},
		{"negative uint", `"count":2`, `"count":-1`, false},
		{"int8 overflow", `"level":-3`, `"level":128`, false},
		{"int8 underflow", `"level":-3`, `"level":-129`, false},
		{"uint8 overflow", `"row":7`, `"row":256`, false},
		{"string int not a number", `"code":"42"`, `"code":"abc"`, false},
		{"string int unquoted", `"code":"42"`, `"code":42`, false},
		{"string bool", `"urgent":"true"`, `"urgent":"yes"`, false},
		{"string float", `"ratio":"0.5"`, `"ratio":"half"`, false},
		{"string enum", `"size":"2"`, `"size":"3"`, false},
		{"base64", `"blob":"AQID"`, `"blob":"%%%"`, false},
		{"base64 padding", `"blob":"AQID"`, `"blob":"AQI"`, false},
		{"short array", `[1,2,3]`, `[1,2]`, false},
		{"long array", `[1,2,3]`, `[1,2,3,4]`, false},
		{"not a date", `"2026-02-28T10:00:00Z"`, `"tomorrow"`, false},
		{"unknown field", `"tags":["a"]`, `"tags":["a"],"extra":1`, false},
		{"missing field", `,"tags":["a"]`, ``, false},
		{"null for int", `"count":2`, `"count":null`, false},
	} {
		args := valid
		if c.from != "" || c.to != "" {
			require.Contains(t, args, c.from, c.name)
			args = strings.Replace(args, c.from, c.to, 1)
		}
		doc := plan(args)
		assert.Equal(t, c.ok, re.MatchString(doc), "%s: the grammar", c.name)
		assert.Equal(t, c.ok, validatePlan(t, shop, doc) == nil, "%s: the schema", c.name)
	}
	// The grammar's dates take day 31 in any month: what no schema
	// keyword can mend, the planner refuses by decoding the arguments as
	// the action will (runtime.Action.CheckArgs).
	feb31 := plan(strings.Replace(valid, "2026-02-28", "2026-02-31", 1))
	assert.True(t, re.MatchString(feb31))
	assert.Error(t, validatePlan(t, shop, feb31))
}
