package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/llm/openai"
	"github.com/rolegen/rolegen/llm/review/reviewtest"
)

func Example_run() {
	if err := run(context.Background(), os.Stdout, scriptedModel(), "Fly me from Zurich to Lisbon", nil); err != nil {
		panic(err)
	}
	// Output:
	// model call 1 (912 prompt + 98 completion tokens) proposes:
	//   book Book {"passenger":"Ada Lovelace","maxPrice":150}
	//   tell Notify {"message":"Your flight to Lisbon is booked."} after book
	//   verification: llm: plan fails verification: step "book" (Book): precondition "Searched && Budget >= 100" does not hold where Searched = false, Budget = 400
	// repair: A* inserted Search before step "book" (Searched && Budget >= 100) (1 state searched, no model call)
	// the plan put to the approver:
	//   repair-1 Search {"from":"ZRH","to":"LIS","date":"2026-12-18","cabin":"economy"} (inserted by rolegen before step "book" (Searched && Budget >= 100))
	//   book Book {"passenger":"Ada Lovelace","maxPrice":150} after repair-1
	//   tell Notify {"message":"Your flight to Lisbon is booked."} after book
	// approved by the rule "book within the traveller's 150 euros" (standing in for a person)
	// step repair-1 Search: done [{"flight":"ZRHLIS-0715","price":180,"cabin":"economy"},{"flight":"ZRHLIS-1240","price":95,"cabin":"economy"}]
	// step book Book: done {"reference":"RG1240","flight":"ZRHLIS-1240","price":95}
	// step tell Notify: done
	// status: completed after 0 replans; 1010 tokens in 1 model call; 1 step inserted by repair (repair-1 Search)
	// state: {Searched:true Booked:true Notified:true Budget:305}
	// inbox: ["Your flight to Lisbon is booked. [RG1240: flight ZRHLIS-1240, 95 euros]"]
}

// With repair off the refused plan's critique goes back to the model, and
// its second plan runs.
func Example_withoutRepair() {
	if err := run(context.Background(), os.Stdout, scriptedModel(), "Fly me from Zurich to Lisbon", nil, llm.WithRepair(0)); err != nil {
		panic(err)
	}
	// Output:
	// model call 1 (912 prompt + 98 completion tokens) proposes:
	//   book Book {"passenger":"Ada Lovelace","maxPrice":150}
	//   tell Notify {"message":"Your flight to Lisbon is booked."} after book
	//   verification: llm: plan fails verification: step "book" (Book): precondition "Searched && Budget >= 100" does not hold where Searched = false, Budget = 400
	// the plan was refused by verification; the critique sent back to the model:
	//   The plan does not work when simulated from the current state: step "book" (Book): precondition "Searched && Budget >= 100" does not hold where Searched = false, Budget = 400.
	//   Reply with a corrected plan (the JSON object only).
	// model call 2 (1104 prompt + 121 completion tokens) proposes:
	//   search Search {"from":"ZRH","to":"LIS","date":"2026-12-18","cabin":"economy"}
	//   book Book {"passenger":"Ada Lovelace","maxPrice":150} after search
	//   tell Notify {"message":"Your flight to Lisbon is booked."} after book
	//   verification: every precondition holds and the goal is reached
	// the plan put to the approver:
	//   search Search {"from":"ZRH","to":"LIS","date":"2026-12-18","cabin":"economy"}
	//   book Book {"passenger":"Ada Lovelace","maxPrice":150} after search
	//   tell Notify {"message":"Your flight to Lisbon is booked."} after book
	// approved by the rule "book within the traveller's 150 euros" (standing in for a person)
	// step search Search: done [{"flight":"ZRHLIS-0715","price":180,"cabin":"economy"},{"flight":"ZRHLIS-1240","price":95,"cabin":"economy"}]
	// step book Book: done {"reference":"RG1240","flight":"ZRHLIS-1240","price":95}
	// step tell Notify: done
	// status: completed after 0 replans; 2235 tokens in 2 model calls
	// state: {Searched:true Booked:true Notified:true Budget:305}
	// inbox: ["Your flight to Lisbon is booked. [RG1240: flight ZRHLIS-1240, 95 euros]"]
}

// TestAgainstAnOpenAICompatibleServer runs the example through the OpenAI
// adapter against a local server speaking the chat completions wire
// format, as a real server would be used.
func TestAgainstAnOpenAICompatibleServer(t *testing.T) {
	plan := `{"steps":[{"id":"s","capability":"Search","args":{"from":"ZRH","to":"LIS","date":"2026-12-18","cabin":"economy"},"dependsOn":[]},` +
		`{"id":"b","capability":"Book","args":{"passenger":"Ada","maxPrice":150},"dependsOn":["s"]},` +
		`{"id":"n","capability":"Notify","args":{"message":"booked"},"dependsOn":["b"]}]}`
	var request map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		require.NoError(t, json.Unmarshal(body, &request))
		w.Header().Set("Content-Type", "application/json")
		reply := map[string]any{
			"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "local",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": plan}}},
			"usage": map[string]any{"prompt_tokens": 700, "completion_tokens": 90, "total_tokens": 790},
		}
		require.NoError(t, json.NewEncoder(w).Encode(reply))
	}))
	defer srv.Close()

	var out strings.Builder
	m := openai.New("local", openai.WithBaseURL(srv.URL), openai.WithAPIKey("test"), openai.WithMaxRetries(0))
	require.NoError(t, run(context.Background(), &out, m, "Fly me to Lisbon", nil))
	assert.Contains(t, out.String(), "status: completed after 0 replans; 790 tokens in 1 model call\n")
	assert.Contains(t, out.String(), "step b Book: done")
	assert.Contains(t, out.String(), `inbox: ["booked [RG1240: flight ZRHLIS-1240, 95 euros]"]`)

	format := request["response_format"].(map[string]any)
	assert.Equal(t, "json_schema", format["type"])
	schema := format["json_schema"].(map[string]any)
	assert.Equal(t, true, schema["strict"])
	assert.Contains(t, request, "temperature")
}

// -trace prints every span as the stdout exporter writes it, and the
// run's tree: the plan with its model call, its checks and the repair
// that inserted Search, the approval and the three steps.
func TestTrace(t *testing.T) {
	var out strings.Builder
	require.NoError(t, runTraced(context.Background(), &out, scriptedModel(), "Fly me from Zurich to Lisbon"))
	text := out.String()
	assert.Contains(t, text, `{"Name":"run Agent",`)
	assert.Contains(t, text, `{"Name":"repair",`)
	assert.Contains(t, text, `"Key":"gen_ai.usage.input_tokens","Value":{"Type":"INT64","Value":912}`)
	_, tree, ok := strings.Cut(text, "\nspans:\n")
	require.True(t, ok)
	var shape []string
	for _, line := range strings.Split(strings.TrimSpace(tree), "\n") {
		name, _, _ := strings.Cut(line, " (")
		shape = append(shape, name)
	}
	assert.Equal(t, []string{
		"run Agent",
		"  plan",
		"    chat", "    validate", "    verify", "    repair", "    verify",
		"  approve",
		"  step Search", "  step Book", "  step Notify",
	}, shape)
	assert.Contains(t, tree, `error="the plan fails verification" [critique]`)
	assert.Contains(t, tree, `repair.inserted=[Search before step "book" (Searched && Budget >= 100)]`)
	assert.Contains(t, tree, `step.id=repair-1`)
}

// With -repair=false, the trace has the retry with the critique instead.
func TestTraceWithoutRepair(t *testing.T) {
	var out strings.Builder
	require.NoError(t, runTraced(context.Background(), &out, scriptedModel(), "Fly me from Zurich to Lisbon", llm.WithRepair(0)))
	_, tree, ok := strings.Cut(out.String(), "\nspans:\n")
	require.True(t, ok)
	assert.NotContains(t, tree, "repair")
	assert.Contains(t, tree, "call.purpose=retry")
}

// -review proposes the plan, serves the review page and runs the plan as
// the person decided there: here the reviewer tells the traveller twice,
// the second time with the message edited.
func TestReviewOnThePage(t *testing.T) {
	var out strings.Builder
	pageURL := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- runReviewed(context.Background(), &out, scriptedModel(), "Fly me from Zurich to Lisbon", "127.0.0.1:0",
			func(u string) { pageURL <- u })
	}()
	var u string
	select {
	case u = <-pageURL:
	case err := <-done:
		t.Fatalf("the example ended before serving: %v\n%s", err, out.String())
	}
	runPath := u[strings.Index(u, "/review/")+len("/review/"):]
	c, err := reviewtest.NewClient(u[:strings.Index(u, "/review/")+len("/review/")])
	require.NoError(t, err)
	page, err := c.Get(runPath)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, page.Status, page.Body)
	require.NoError(t, page.Form.SetArg("tell", "message", "Booked: Lisbon on Friday."))
	page, err = c.Submit(page.Form, "approve")
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, page.Status, page.Body)
	require.NoError(t, <-done)
	assert.Contains(t, out.String(), "proposed in 1 model call:\n  repair-1 Search")
	assert.Contains(t, out.String(), `(inserted by rolegen before step "book" (Searched && Budget >= 100))`)
	assert.Contains(t, out.String(), "approved on the page; running")
	assert.Contains(t, out.String(), "step book Book: done")
	assert.Contains(t, out.String(), `inbox: ["Booked: Lisbon on Friday. [RG1240: flight ZRHLIS-1240, 95 euros]"]`)
}
