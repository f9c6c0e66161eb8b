package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/runtime"
	"github.com/rolegen/rolegen/runtime/rolegenimpl"
)

// orderArgs has an argument of each kind whose JSON a schema checks less
// strictly than encoding/json decodes it.
type orderArgs struct {
	Count uint      `json:"count"`
	Code  int       `json:"code,string"`
	Blob  []byte    `json:"blob"`
	Point [3]int    `json:"point"`
	Seat  *seat     `json:"seat"`
	When  time.Time `json:"when"`
}

type seat struct {
	Row uint8 `json:"row"`
}

// orderSchema is the argument schema rolegen generates for orderArgs.
const orderSchema = `{"type":"object","properties":{"count":{"type":"integer","minimum":0},"code":{"type":"string","pattern":"^-?(0|[1-9][0-9]*)$"},"blob":{"type":"string","description":"base64","pattern":"^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"},"point":{"type":"array","minItems":3,"maxItems":3,"items":{"type":"integer"}},"seat":{"anyOf":[{"type":"object","properties":{"row":{"type":"integer","minimum":0,"maximum":255}},"required":["row"],"additionalProperties":false},{"type":"null"}]},"when":{"type":"string","format":"date-time"}},"required":["count","code","blob","point","seat","when"],"additionalProperties":false}`

type shopState struct{ Ordered bool }

var shop = func() *runtime.Domain[shopState] {
	actions := []runtime.Action[shopState]{{
		Name: "Order", Cost: 1, Value: 1, Weight: 1,
		Effect:    func(s shopState) shopState { s.Ordered = true; return s },
		Writes:    []runtime.FieldID{0},
		Args:      orderSchema,
		CheckArgs: rolegenimpl.ArgsChecker[orderArgs]("Shop", "Order"),
	}}
	return runtime.NewDomain(runtime.Domain[shopState]{
		Name:    "Shop",
		Fields:  []runtime.Field{{Name: "Ordered", Type: "bool", Kind: runtime.KindBool}},
		Actions: actions,
	})
}()

const validOrder = `{"count":2,"code":"42","blob":"AQID","point":[1,2,3],"seat":{"row":7},"when":"2026-02-28T10:00:00Z"}`

func orderPlan(args string) string { return planJSON(step("o1", "Order", args)) }

// Every argument is checked before any step runs as the action will
// decode it: the error names the step, the argument and Go's reason (or,
// for what decoding lets through, the schema's).
func TestArgumentsAreCheckedAsGoDecodesThem(t *testing.T) {
	p := llm.NewPlanner(shop, nil)
	for _, tc := range []struct {
		name, from, to string
		path, reason   string
		decoding       bool // Go's decoding refuses them (else the schema)
	}{
		{"negative uint", `"count":2`, `"count":-1`, "/count", "cannot unmarshal number -1 into Go struct field orderArgs.count of type uint", true},
		{"fraction for an integer", `"count":2`, `"count":2.5`, "/count", "cannot unmarshal number 2.5", true},
		{"not a number in a string int", `"code":"42"`, `"code":"abc"`, "/code", `invalid use of ,string struct tag, trying to unmarshal "abc" into int`, true},
		{"non-base64 bytes", `"blob":"AQID"`, `"blob":"%%%"`, "/blob", "illegal base64 data at input byte 0", true},
		{"wrong-length array", `[1,2,3]`, `[1,2]`, "/point", "minItems: got 2, want 3", false},
		{"too long array", `[1,2,3]`, `[1,2,3,4]`, "/point", "maxItems: got 4, want 3", false},
		{"array element", `[1,2,3]`, `[1,"x",3]`, "/point/1", "cannot unmarshal string into Go struct field orderArgs.point of type int", true},
		{"field of a pointer", `{"row":7}`, `{"row":300}`, "/seat/row", "cannot unmarshal number 300 into Go struct field seat.seat.row of type uint8", true},
		{"unknown field in a pointer", `{"row":7}`, `{"row":7,"col":1}`, "/seat/col", `unknown field "col"`, true},
		{"invalid date", `2026-02-28`, `2026-02-31`, "/when", `parsing time "2026-02-31T10:00:00Z": day out of range`, true},
		{"not a date", `"2026-02-28T10:00:00Z"`, `"Friday"`, "/when", `parsing time "Friday"`, true},
		{"unknown field", `"count":2`, `"count":2,"extra":true`, "/extra", `unknown field "extra"`, true},
		{"missing field", `"count":2,`, ``, "", "missing property 'count'", false},
		{"not an object", validOrder, `[1]`, "", "want a JSON object", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Contains(t, validOrder, tc.from)
			plan, err := llm.ParsePlan(orderPlan(strings.Replace(validOrder, tc.from, tc.to, 1)))
			require.NoError(t, err)
			err = p.Validate(plan)
			var ve *llm.ValidationError
			require.ErrorAs(t, err, &ve)
			assert.ErrorIs(t, err, llm.ErrInvalidArgs)
			assert.Equal(t, "o1", ve.StepID)
			assert.Equal(t, "Order", ve.Capability)
			assert.Equal(t, tc.path, ve.Path)
			assert.Contains(t, ve.Detail, tc.reason)
			if tc.path != "" {
				assert.True(t, strings.HasPrefix(ve.Detail, fmt.Sprintf("at '%s': ", tc.path)), ve.Detail)
			}
			assert.NotContains(t, ve.Detail, "\n", "one line for the model")
			if tc.decoding {
				var ae *runtime.ArgsError
				assert.True(t, errors.As(err, &ae), "Unwrap gives decoding's error: %v", err)
			} else {
				var se *jsonschema.ValidationError
				assert.True(t, errors.As(err, &se), "Unwrap gives the schema's error: %v", err)
			}
		})
	}
}

func TestValidArgumentsPass(t *testing.T) {
	p := llm.NewPlanner(shop, nil)
	for _, args := range []string{
		validOrder,
		strings.Replace(validOrder, `{"row":7}`, `null`, 1),
		strings.Replace(validOrder, `"blob":"AQID"`, `"blob":""`, 1),
		strings.Replace(validOrder, `"code":"42"`, `"code":"-7"`, 1),
	} {
		plan, err := llm.ParsePlan(orderPlan(args))
		require.NoError(t, err)
		assert.NoError(t, p.Validate(plan), args)
	}
}

// The model's retry prompt carries the step, the argument and the reason.
func TestArgumentErrorsAreFedBack(t *testing.T) {
	model := llm.ScriptedReplies(
		orderPlan(strings.Replace(validOrder, "2026-02-28", "2026-02-31", 1)),
		orderPlan(validOrder),
	)
	var performed []string
	target := llm.FuncTarget(shop, shopState{}, func(_ context.Context, st llm.Step, _ map[string]json.RawMessage) (json.RawMessage, error) {
		performed = append(performed, string(st.Args))
		return nil, nil
	})
	_, err := llm.NewPlanner(shop, model, llm.WithValidationRetries(1)).Run(context.Background(), "order", target)
	require.NoError(t, err)
	assert.Equal(t, []string{validOrder}, performed, "the refused plan never ran")
	feedback := model.Requests()[1].Messages[3].Content
	assert.Contains(t, feedback, `step "o1" (Order)`)
	assert.Contains(t, feedback, `at '/when': parsing time "2026-02-31T10:00:00Z": day out of range`)
}

// FuzzOrderArgs: whatever arguments a model sends, a plan that passes
// validation decodes as the action decodes it, and a refusal names a
// value that is in the arguments.
func FuzzOrderArgs(f *testing.F) {
	for _, s := range []string{
		validOrder, `{}`, `[]`, `null`, `{"seat":{"row":"x"}}`, `{"point":[1,[2],3]}`, `{"a/b~c":{"d":1}}`,
		strings.Replace(validOrder, "2026-02-28", "2026-13-01", 1),
	} {
		f.Add(s)
	}
	p := llm.NewPlanner(shop, nil)
	check := shop.Actions[0].CheckArgs
	f.Fuzz(func(t *testing.T, args string) {
		if !json.Valid([]byte(args)) {
			return
		}
		plan, err := llm.ParsePlan(`{"steps":[{"id":"o","capability":"Order","args":` + args + `,"dependsOn":[]}]}`)
		if err != nil {
			return
		}
		err = p.Validate(plan)
		if err == nil {
			if cerr := check(plan.Steps[0].Args); cerr != nil {
				t.Fatalf("validated arguments %s fail decoding: %v", args, cerr)
			}
			return
		}
		var ve *llm.ValidationError
		if !errors.As(err, &ve) || ve.Kind != llm.InvalidArgs {
			t.Fatalf("%s: %v", args, err)
		}
		var doc any
		dec := json.NewDecoder(strings.NewReader(string(plan.Steps[0].Args)))
		dec.UseNumber()
		require.NoError(t, dec.Decode(&doc))
		for _, part := range strings.Split(ve.Path, "/")[1:] {
			part = strings.NewReplacer("~1", "/", "~0", "~").Replace(part)
			switch v := doc.(type) {
			case map[string]any:
				next, ok := v[part]
				if !ok {
					t.Fatalf("%s: path %q: no key %q", args, ve.Path, part)
				}
				doc = next
			case []any:
				var i int
				if _, err := fmt.Sscan(part, &i); err != nil || i < 0 || i >= len(v) {
					t.Fatalf("%s: path %q: no element %q", args, ve.Path, part)
				}
				doc = v[i]
			default:
				t.Fatalf("%s: path %q goes through a scalar", args, ve.Path)
			}
		}
	})
}
