package llm

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
)

// MessageRole is who speaks a message of a conversation.
type MessageRole string

// Message roles, as chat completion APIs name them.
const (
	RoleSystem    MessageRole = "system"
	RoleUser      MessageRole = "user"
	RoleAssistant MessageRole = "assistant"
)

// Message is one message of a conversation with a model.
type Message struct {
	Role    MessageRole `json:"role"`
	Content string      `json:"content"`
}

// Request is what a Model is asked.
type Request struct {
	Messages []Message
	// Schema is the JSON Schema the reply must follow, sent as a strict
	// structured-output format; nil asks for free text.
	Schema json.RawMessage
	// SchemaName names the schema for APIs that want a name ("plan",
	// "reflection").
	SchemaName string
	// Temperature is always sent, 0 included.
	Temperature float64
	// MaxTokens caps the reply; 0 leaves the server's default.
	MaxTokens int
	// N asks for that many replies at once (the chat completions API's
	// n) when it is more than 1 (see WithCandidates). A Model that cannot
	// answer with several returns one, and the planner asks again for the
	// others.
	N int

	// purpose is what the planner asks for (Call.Purpose), for its
	// observer.
	purpose string
}

// Usage counts the tokens of one model call or of many.
type Usage struct {
	PromptTokens     int `json:"promptTokens"`
	CompletionTokens int `json:"completionTokens"`
	TotalTokens      int `json:"totalTokens"`
}

// Add returns the sum of u and v.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		PromptTokens:     u.PromptTokens + v.PromptTokens,
		CompletionTokens: u.CompletionTokens + v.CompletionTokens,
		TotalTokens:      u.TotalTokens + v.TotalTokens,
	}
}

// normalized fills TotalTokens from the parts when a server left it out.
func (u Usage) normalized() Usage {
	if u.TotalTokens == 0 {
		u.TotalTokens = u.PromptTokens + u.CompletionTokens
	}
	return u
}

// Response is a model's reply.
type Response struct {
	Text  string
	Usage Usage
	// FinishReason is the server's reason for ending the reply ("stop",
	// "length", ...), when it gives one.
	FinishReason string
	// Alternatives are the replies after the first, when the request asked
	// for several (Request.N); Usage counts them all.
	Alternatives []Choice
}

// Choice is one of several replies to a request.
type Choice struct {
	Text         string
	FinishReason string
}

// Model is a language model that answers a conversation. Implementations
// must be safe for concurrent use when a Planner is shared between
// goroutines. The adapter for OpenAI-compatible servers is in package
// llm/openai.
type Model interface {
	Complete(ctx context.Context, req Request) (Response, error)
}

// ModelFunc adapts a function to Model.
type ModelFunc func(ctx context.Context, req Request) (Response, error)

// Complete calls f.
func (f ModelFunc) Complete(ctx context.Context, req Request) (Response, error) { return f(ctx, req) }

// Reply is one scripted answer of a ScriptedModel.
type Reply struct {
	Text  string
	Usage Usage
	// FinishReason is the reply's finish reason; "stop" when empty.
	FinishReason string
	// Err, when set, is returned instead of a response.
	Err error
	// Alternatives are more replies, given with this one when the request
	// asks for several (Request.N), up to as many as it asks: the model
	// then behaves as a server that supports n.
	Alternatives []string
}

// ReplyText is a scripted reply with the given text and no usage.
func ReplyText(text string) Reply { return Reply{Text: text} }

// ReplyError is a scripted failure of the model call.
func ReplyError(err error) Reply { return Reply{Err: err} }

// ScriptedModel is a Model for tests and examples: it answers with its
// replies in order, records every request, and fails with
// ErrScriptExhausted when asked once too often. It is safe for concurrent
// use.
type ScriptedModel struct {
	mu       sync.Mutex
	replies  []Reply
	next     int
	requests []Request
}

// NewScriptedModel returns a model that answers with replies in order.
func NewScriptedModel(replies ...Reply) *ScriptedModel {
	return &ScriptedModel{replies: slices.Clone(replies)}
}

// ScriptedReplies returns a model that answers with the given texts in
// order.
func ScriptedReplies(texts ...string) *ScriptedModel {
	m := &ScriptedModel{}
	for _, t := range texts {
		m.replies = append(m.replies, ReplyText(t))
	}
	return m
}

// Add appends replies to the script.
func (m *ScriptedModel) Add(replies ...Reply) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.replies = append(m.replies, replies...)
}

// Complete records req and returns the next scripted reply.
func (m *ScriptedModel) Complete(ctx context.Context, req Request) (Response, error) {
	if err := ctx.Err(); err != nil {
		return Response{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	req.Messages = slices.Clone(req.Messages)
	req.Schema = slices.Clone(req.Schema)
	m.requests = append(m.requests, req)
	if m.next >= len(m.replies) {
		return Response{}, ErrScriptExhausted
	}
	r := m.replies[m.next]
	m.next++
	if r.Err != nil {
		return Response{}, r.Err
	}
	finish := r.FinishReason
	if finish == "" {
		finish = "stop"
	}
	resp := Response{Text: r.Text, Usage: r.Usage.normalized(), FinishReason: finish}
	for _, alt := range r.Alternatives[:min(len(r.Alternatives), max(req.N-1, 0))] {
		resp.Alternatives = append(resp.Alternatives, Choice{Text: alt, FinishReason: "stop"})
	}
	return resp, nil
}

// Requests returns a copy of the requests received so far.
func (m *ScriptedModel) Requests() []Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.requests)
}

// Remaining reports how many scripted replies are left.
func (m *ScriptedModel) Remaining() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.replies) - m.next
}
