package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	oai "github.com/openai/openai-go/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/llm/openai"
	"github.com/rolegen/rolegen/runtime"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// The domain of the plan schema example: BookFlight with typed arguments,
// Ping without.

type state struct{ Booked bool }

const flightArgs = `{"type":"object","properties":{"from":{"type":"string"},"to":{"type":"string"},"seats":{"type":"integer"}},"required":["from","to","seats"],"additionalProperties":false}`

var domain = runtime.NewDomain(runtime.Domain[state]{
	Name: "Traveler",
	Actions: []runtime.Action[state]{
		{
			Name: "BookFlight", Description: "Books a flight.", Cost: 1, Args: flightArgs,
			Effect: func(s state) state { s.Booked = true; return s }, EffectText: "Booked = true",
		},
		{Name: "Ping", Cost: 1},
	},
})

const plan = `{"steps":[{"id":"f","capability":"BookFlight","args":{"from":"Oslo","to":"Paris","seats":2},"dependsOn":[]},{"id":"p","capability":"Ping","args":{},"dependsOn":["f"]}]}`

// server speaks the chat completions wire format and records requests.
type server struct {
	*httptest.Server
	mu      sync.Mutex
	bodies  [][]byte
	headers []http.Header
	paths   []string
	// status, when set, is the HTTP status of every answer (an error).
	status int
	// content and refusal are the assistant message of every answer.
	content, refusal string
	noChoice         bool
	// finish is the finish_reason of every answer ("stop" when empty).
	finish string
	// choices answers a request's n with that many choices, up to
	// choices (content, then "other 1", "other 2", …), when set.
	choices int
}

func newServer(t *testing.T) *server {
	s := &server{content: plan}
	s.Server = httptest.NewServer(http.HandlerFunc(s.handle))
	t.Cleanup(s.Close)
	return s
}

func (s *server) handle(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.bodies = append(s.bodies, body)
	s.headers = append(s.headers, r.Header.Clone())
	s.paths = append(s.paths, r.URL.Path)
	status, content, refusal, noChoice, finish, most := s.status, s.content, s.refusal, s.noChoice, s.finish, s.choices
	s.mu.Unlock()
	var req struct {
		N int `json:"n"`
	}
	_ = json.Unmarshal(body, &req)
	if finish == "" {
		finish = "stop"
	}

	w.Header().Set("Content-Type", "application/json")
	if status != 0 {
		w.Header().Set("Retry-After-Ms", "1") // keep SDK retries fast
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"error":{"message":"status %d from the test server","type":"server_error","param":null,"code":null}}`, status)
		return
	}
	var choices []any
	if !noChoice {
		msg := map[string]any{"role": "assistant", "content": content, "refusal": nil}
		if refusal != "" {
			msg["content"], msg["refusal"] = nil, refusal
		}
		choices = append(choices, map[string]any{"index": 0, "message": msg, "finish_reason": finish, "logprobs": nil})
		for i := 1; i < min(req.N, most); i++ {
			other := map[string]any{"role": "assistant", "content": fmt.Sprintf("other %d", i), "refusal": nil}
			choices = append(choices, map[string]any{"index": i, "message": other, "finish_reason": "stop", "logprobs": nil})
		}
	} else {
		choices = []any{}
	}
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-test", "object": "chat.completion", "created": 1, "model": "test-model",
		"choices": choices,
		"usage":   map[string]any{"prompt_tokens": 123, "completion_tokens": 45, "total_tokens": 168},
	})
}

// body returns the i-th request body decoded.
func (s *server) body(t *testing.T, i int) map[string]any {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	require.Greater(t, len(s.bodies), i)
	var m map[string]any
	require.NoError(t, json.Unmarshal(s.bodies[i], &m))
	return m
}

func (s *server) requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.bodies)
}

// model returns an adapter on the test server with its own transport,
// closed at the end of the test so no connection goroutine outlives it.
func (s *server) model(t *testing.T, opts ...openai.Option) *openai.Model {
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	base := []openai.Option{
		openai.WithBaseURL(s.URL + "/v1"),
		openai.WithAPIKey("test-key"),
		openai.WithMaxRetries(0),
		openai.WithHTTPClient(&http.Client{Transport: tr}),
	}
	return openai.New("test-model", append(base, opts...)...)
}

func TestPlanRequestOnTheWire(t *testing.T) {
	srv := newServer(t)
	p := llm.NewPlanner(domain, srv.model(t), llm.WithMaxTokens(512))
	res, err := p.Propose(context.Background(), "Fly to Paris", state{})
	require.NoError(t, err)
	require.Len(t, res.Plan.Steps, 2)
	assert.Equal(t, llm.Usage{PromptTokens: 123, CompletionTokens: 45, TotalTokens: 168}, res.Usage)
	assert.Equal(t, []llm.Call{{Purpose: llm.CallPlan, Usage: res.Usage}}, res.Calls)

	require.Equal(t, 1, srv.requests())
	assert.Equal(t, "/v1/chat/completions", srv.paths[0])
	assert.Equal(t, "Bearer test-key", srv.headers[0].Get("Authorization"))

	raw := string(srv.bodies[0])
	assert.Contains(t, raw, `"temperature":0`)
	sent, err := llm.PlanSchema(domain)
	require.NoError(t, err)
	assert.Contains(t, raw, `"schema":`+string(sent), "the schema is sent verbatim with the planner's bounds, key order (capability before args) included")

	body := srv.body(t, 0)
	assert.Equal(t, "test-model", body["model"])
	temp, ok := body["temperature"]
	require.True(t, ok, "temperature 0 is on the wire")
	assert.Equal(t, 0.0, temp)
	assert.Equal(t, 512.0, body["max_completion_tokens"])
	assert.NotContains(t, body, "max_tokens")

	msgs := body["messages"].([]any)
	require.Len(t, msgs, 2)
	assert.Equal(t, "system", msgs[0].(map[string]any)["role"])
	assert.Contains(t, msgs[0].(map[string]any)["content"], "planner of the role Traveler")
	assert.Equal(t, "user", msgs[1].(map[string]any)["role"])
	assert.Contains(t, msgs[1].(map[string]any)["content"], "Goal: Fly to Paris")
	assert.Contains(t, msgs[1].(map[string]any)["content"], "- BookFlight: Books a flight.")

	rf := body["response_format"].(map[string]any)
	assert.Equal(t, "json_schema", rf["type"])
	js := rf["json_schema"].(map[string]any)
	assert.Equal(t, true, js["strict"])
	assert.Equal(t, "plan", js["name"])
	schema, err := json.Marshal(js["schema"])
	require.NoError(t, err)
	assert.JSONEq(t, string(sent), string(schema), "the generated plan schema is sent with the planner's bounds on its steps")

	// The enum of action names and the typed arguments are there.
	branches := js["schema"].(map[string]any)["properties"].(map[string]any)["steps"].(map[string]any)["items"].(map[string]any)["anyOf"].([]any)
	var names []any
	for _, b := range branches {
		props := b.(map[string]any)["properties"].(map[string]any)
		names = append(names, props["capability"].(map[string]any)["enum"].([]any)...)
	}
	assert.Equal(t, []any{"BookFlight", "Ping"}, names)
	flight := branches[0].(map[string]any)["properties"].(map[string]any)["args"].(map[string]any)
	assert.Equal(t, "integer", flight["properties"].(map[string]any)["seats"].(map[string]any)["type"])
	assert.Equal(t, false, flight["additionalProperties"])
}

func TestConversationAndOptionsOnTheWire(t *testing.T) {
	srv := newServer(t)
	m := srv.model(t, openai.WithLegacyMaxTokens())
	_, err := m.Complete(context.Background(), llm.Request{
		Messages: []llm.Message{
			{Role: llm.RoleSystem, Content: "sys"},
			{Role: llm.RoleUser, Content: "plan"},
			{Role: llm.RoleAssistant, Content: "garbage"},
			{Role: llm.RoleUser, Content: "again"},
		},
		Temperature: 0.25,
		MaxTokens:   64,
	})
	require.NoError(t, err)
	body := srv.body(t, 0)
	assert.Equal(t, 0.25, body["temperature"])
	assert.Equal(t, 64.0, body["max_tokens"])
	assert.NotContains(t, body, "max_completion_tokens")
	assert.NotContains(t, body, "response_format", "no schema, no response format")
	var roles, contents []string
	for _, m := range body["messages"].([]any) {
		roles = append(roles, m.(map[string]any)["role"].(string))
		contents = append(contents, m.(map[string]any)["content"].(string))
	}
	assert.Equal(t, []string{"system", "user", "assistant", "user"}, roles)
	assert.Equal(t, []string{"sys", "plan", "garbage", "again"}, contents)
}

func TestBaseURLKeyAndModelFromTheEnvironment(t *testing.T) {
	srv := newServer(t)
	t.Setenv("OPENAI_BASE_URL", srv.URL+"/v1")
	t.Setenv("OPENAI_API_KEY", "env-key")
	t.Setenv("OPENAI_MODEL", "env-model")
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	m := openai.New("", openai.WithHTTPClient(&http.Client{Transport: tr}), openai.WithMaxRetries(0))
	assert.Equal(t, "env-model", m.Name())
	resp, err := m.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}})
	require.NoError(t, err)
	assert.Equal(t, plan, resp.Text)
	assert.Equal(t, "stop", resp.FinishReason)
	assert.Equal(t, "Bearer env-key", srv.headers[0].Get("Authorization"))
	assert.Equal(t, "env-model", srv.body(t, 0)["model"])
}

func TestServerErrorsSurface(t *testing.T) {
	for _, tc := range []struct {
		status, retries, requests int
	}{
		{http.StatusInternalServerError, 0, 1},
		{http.StatusTooManyRequests, 0, 1},
		{http.StatusTooManyRequests, 2, 3},
		{http.StatusBadRequest, 2, 1}, // not retryable
	} {
		t.Run(fmt.Sprintf("%d/%d", tc.status, tc.retries), func(t *testing.T) {
			srv := newServer(t)
			srv.status = tc.status
			m := srv.model(t, openai.WithMaxRetries(tc.retries))
			res, err := llm.NewPlanner(domain, m).Propose(context.Background(), "Fly", state{})
			require.Error(t, err)
			var apiErr *oai.Error
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, tc.status, apiErr.StatusCode)
			assert.Equal(t, llm.StatusFailed, res.Status)
			assert.Equal(t, tc.requests, srv.requests())
		})
	}
}

func TestRefusalAndEmptyCompletion(t *testing.T) {
	srv := newServer(t)
	srv.refusal = "I cannot help with that."
	resp, err := srv.model(t).Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}})
	assert.ErrorIs(t, err, openai.ErrRefused)
	assert.ErrorContains(t, err, "I cannot help")
	assert.Equal(t, 168, resp.Usage.TotalTokens, "a refusal still costs tokens")

	srv = newServer(t)
	srv.noChoice = true
	_, err = srv.model(t).Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}})
	assert.ErrorIs(t, err, openai.ErrNoChoice)
}

func TestMissingModelName(t *testing.T) {
	t.Setenv("OPENAI_MODEL", "")
	_, err := openai.New("", openai.WithBaseURL("http://127.0.0.1:1")).Complete(context.Background(), llm.Request{})
	assert.ErrorContains(t, err, "no model name")
}

func TestCancelledRequest(t *testing.T) {
	srv := newServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := srv.model(t).Complete(ctx, llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}})
	assert.True(t, errors.Is(err, context.Canceled), "got %v", err)
}

// A whole run with the adapter: plan, execute, usage.
func TestRunThroughTheAdapter(t *testing.T) {
	srv := newServer(t)
	var ran []string
	exec := func(_ context.Context, st llm.Step, _ map[string]json.RawMessage) (json.RawMessage, error) {
		ran = append(ran, st.Capability+" "+string(st.Args))
		return nil, nil
	}
	res, err := llm.NewPlanner(domain, srv.model(t), llm.WithRequireVerified(0)).
		Run(context.Background(), "Fly to Paris", llm.FuncTarget(domain, state{}, exec))
	require.NoError(t, err)
	assert.True(t, res.Succeeded())
	assert.Equal(t, []string{`BookFlight {"from":"Oslo","to":"Paris","seats":2}`, "Ping {}"}, ran)
	assert.Equal(t, 168, res.Usage.TotalTokens)
}

// A reply the server cut at max_completion_tokens reaches the planner as
// such: the run's error matches ErrTruncatedReply.
func TestTruncatedReplyThroughTheAdapter(t *testing.T) {
	srv := newServer(t)
	srv.content, srv.finish = plan[:60], "length"
	m := srv.model(t)
	resp, err := m.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}, MaxTokens: 16})
	require.NoError(t, err)
	assert.Equal(t, "length", resp.FinishReason)

	_, err = llm.NewPlanner(domain, m, llm.WithMaxTokens(16)).
		Run(context.Background(), "Fly to Paris", llm.FuncTarget(domain, state{}, nil))
	assert.ErrorIs(t, err, llm.ErrTruncatedReply)
}

// A request for several replies sends n, and the choices come back as the
// reply and its alternatives; WithoutN never sends it.
func TestSeveralRepliesWithN(t *testing.T) {
	srv := newServer(t)
	srv.choices = 3
	req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}, N: 3}
	resp, err := srv.model(t).Complete(context.Background(), req)
	require.NoError(t, err)
	assert.Equal(t, float64(3), srv.body(t, 0)["n"])
	assert.Equal(t, plan, resp.Text)
	assert.Equal(t, []llm.Choice{{Text: "other 1", FinishReason: "stop"}, {Text: "other 2", FinishReason: "stop"}}, resp.Alternatives)
	assert.Equal(t, 168, resp.Usage.TotalTokens, "one usage for the call")

	_, err = srv.model(t, openai.WithoutN()).Complete(context.Background(), req)
	require.NoError(t, err)
	assert.NotContains(t, srv.body(t, 1), "n")
	_, err = srv.model(t).Complete(context.Background(), llm.Request{Messages: req.Messages})
	require.NoError(t, err)
	assert.NotContains(t, srv.body(t, 2), "n", "one reply: no n")

	// Candidates through the adapter: three replies in one call.
	srv = newServer(t)
	srv.choices = 3
	res, err := llm.NewPlanner(domain, srv.model(t), llm.WithCandidates(3)).
		Propose(context.Background(), "Fly to Paris", state{})
	require.NoError(t, err)
	assert.Equal(t, 1, srv.requests())
	assert.Len(t, res.Calls, 1)
	assert.Equal(t, "f", res.Plan.Steps[0].ID, "the only readable candidate")

	// A server that gives one choice whatever n: one call a candidate.
	srv = newServer(t)
	res, err = llm.NewPlanner(domain, srv.model(t), llm.WithCandidates(3)).
		Propose(context.Background(), "Fly to Paris", state{})
	require.NoError(t, err)
	assert.Equal(t, 3, srv.requests())
	assert.Equal(t, float64(3), srv.body(t, 0)["n"])
	assert.Equal(t, float64(2), srv.body(t, 1)["n"])
	assert.NotContains(t, srv.body(t, 2), "n")
	assert.Equal(t, 3*168, res.Usage.TotalTokens)
}
