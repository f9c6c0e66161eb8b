// Package openai adapts any server speaking the OpenAI chat completions
// API — OpenAI, Ollama, vLLM, the llama.cpp server — to llm.Model, with
// the official SDK github.com/openai/openai-go/v3.
//
// The base URL and the API key come from the options, else from the
// environment variables OPENAI_BASE_URL and OPENAI_API_KEY (as the SDK
// reads them); the model name from New's argument, else OPENAI_MODEL.
// Local servers need no key:
//
//	m := openai.New("llama3.1", openai.WithBaseURL("http://localhost:11434/v1"))
//	planner := llm.NewPlanner(trip.TravelerDomain, m)
//
// A request with a schema (every planning request: the domain's generated
// plan schema) is sent as a strict json_schema response format. The
// temperature is always sent, 0 included: the SDK omits an unset
// param.Opt, and param.NewOpt(0) is set.
//
// A request for several replies (llm.WithCandidates) is sent with the
// API's n, which OpenAI and vLLM answer with that many choices; a server
// that answers with one (Ollama) gets a call for each of the others from
// the planner. The llama.cpp server refuses any n but 1 ("Only one
// completion choice is allowed"): give it WithoutN, and the planner makes
// one call a reply.
package openai

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"

	"github.com/rolegen/rolegen/llm"
)

// ErrRefused is returned (wrapped) when the model refuses to answer.
var ErrRefused = errors.New("model refused")

// ErrNoChoice is returned (wrapped) for a completion without a choice.
var ErrNoChoice = errors.New("completion has no choice")

// Model is an llm.Model on a chat completions endpoint. It is safe for
// concurrent use.
type Model struct {
	client          oai.Client
	name            string
	legacyMaxTokens bool
	withoutN        bool
}

type config struct {
	requestOptions  []option.RequestOption
	legacyMaxTokens bool
	withoutN        bool
}

// Option configures a Model.
type Option func(*config)

// WithBaseURL sets the server's base URL ("http://localhost:11434/v1" for
// Ollama, "http://localhost:8080/v1" for llama.cpp), overriding
// OPENAI_BASE_URL.
func WithBaseURL(url string) Option {
	return func(c *config) { c.requestOptions = append(c.requestOptions, option.WithBaseURL(url)) }
}

// WithAPIKey sets the API key, overriding OPENAI_API_KEY.
func WithAPIKey(key string) Option {
	return func(c *config) { c.requestOptions = append(c.requestOptions, option.WithAPIKey(key)) }
}

// WithMaxRetries sets how many times the SDK retries a failed request
// (connection errors, 408, 409, 429, 5xx); the SDK's default is 2.
func WithMaxRetries(n int) Option {
	return func(c *config) { c.requestOptions = append(c.requestOptions, option.WithMaxRetries(max(n, 0))) }
}

// WithRequestTimeout bounds each attempt of a request.
func WithRequestTimeout(d time.Duration) Option {
	return func(c *config) { c.requestOptions = append(c.requestOptions, option.WithRequestTimeout(d)) }
}

// WithHTTPClient sets the HTTP client (default http.DefaultClient).
func WithHTTPClient(client option.HTTPClient) Option {
	return func(c *config) { c.requestOptions = append(c.requestOptions, option.WithHTTPClient(client)) }
}

// WithRequestOptions passes options to the SDK as they are (headers,
// middleware, organization...).
func WithRequestOptions(opts ...option.RequestOption) Option {
	return func(c *config) { c.requestOptions = append(c.requestOptions, opts...) }
}

// WithLegacyMaxTokens sends llm.Request.MaxTokens as max_tokens, for older
// servers that do not know max_completion_tokens.
func WithLegacyMaxTokens() Option { return func(c *config) { c.legacyMaxTokens = true } }

// WithoutN never sends the API's n: every call asks for one reply, and a
// planner that wants several (llm.WithCandidates) makes a call for each.
// For servers that refuse n (the llama.cpp server).
func WithoutN() Option { return func(c *config) { c.withoutN = true } }

// New returns a model named name (else $OPENAI_MODEL) on the server the
// options and the environment select.
func New(name string, opts ...Option) *Model {
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	if name == "" {
		name = os.Getenv("OPENAI_MODEL")
	}
	return &Model{
		client:          oai.NewClient(cfg.requestOptions...),
		name:            name,
		legacyMaxTokens: cfg.legacyMaxTokens,
		withoutN:        cfg.withoutN,
	}
}

// Name returns the model's name.
func (m *Model) Name() string { return m.name }

// Provider returns "openai", the GenAI semantic conventions' name of the
// OpenAI API (which the servers this adapter speaks to follow), for
// telemetry.
func (m *Model) Provider() string { return "openai" }

// Complete sends one chat completion request.
func (m *Model) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	if m.name == "" {
		return llm.Response{}, errors.New("llm/openai: no model name (pass one to New or set OPENAI_MODEL)")
	}
	params := oai.ChatCompletionNewParams{
		Model:    m.name,
		Messages: make([]oai.ChatCompletionMessageParamUnion, 0, len(req.Messages)),
		// A set Opt is sent even when zero: temperature 0 reaches the
		// server instead of its default (1 for OpenAI).
		Temperature: oai.Float(req.Temperature),
	}
	for _, msg := range req.Messages {
		switch msg.Role {
		case llm.RoleSystem:
			params.Messages = append(params.Messages, oai.SystemMessage(msg.Content))
		case llm.RoleAssistant:
			params.Messages = append(params.Messages, oai.AssistantMessage(msg.Content))
		default:
			params.Messages = append(params.Messages, oai.UserMessage(msg.Content))
		}
	}
	if req.MaxTokens > 0 {
		if m.legacyMaxTokens {
			params.MaxTokens = oai.Int(int64(req.MaxTokens))
		} else {
			params.MaxCompletionTokens = oai.Int(int64(req.MaxTokens))
		}
	}
	if req.N > 1 && !m.withoutN {
		params.N = oai.Int(int64(req.N))
	}
	if req.Schema != nil {
		params.ResponseFormat = oai.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
				JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
					Name:   schemaName(req.SchemaName),
					Strict: oai.Bool(true),
					Schema: req.Schema, // json.RawMessage: sent verbatim
				},
			},
		}
	}
	resp, err := m.client.Chat.Completions.New(ctx, params)
	if err != nil {
		return llm.Response{}, fmt.Errorf("llm/openai: %w", err)
	}
	usage := llm.Usage{
		PromptTokens:     int(resp.Usage.PromptTokens),
		CompletionTokens: int(resp.Usage.CompletionTokens),
		TotalTokens:      int(resp.Usage.TotalTokens),
	}
	if len(resp.Choices) == 0 {
		return llm.Response{Usage: usage}, fmt.Errorf("llm/openai: %w", ErrNoChoice)
	}
	// The choices the model did not refuse, in order; the first is the
	// reply, the others its alternatives.
	var out llm.Response
	out.Usage = usage
	answered := false
	for _, choice := range resp.Choices {
		switch {
		case choice.Message.Refusal != "":
			continue
		case !answered:
			out.Text, out.FinishReason, answered = choice.Message.Content, choice.FinishReason, true
		default:
			out.Alternatives = append(out.Alternatives, llm.Choice{Text: choice.Message.Content, FinishReason: choice.FinishReason})
		}
	}
	if !answered {
		return llm.Response{Usage: usage}, fmt.Errorf("llm/openai: %w: %s", ErrRefused, resp.Choices[0].Message.Refusal)
	}
	return out, nil
}

// schemaName makes a response format name the API accepts: letters,
// digits, '_' and '-', at most 64.
func schemaName(name string) string {
	if name == "" {
		name = "response"
	}
	name = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			return r
		}
		return '_'
	}, name)
	if len(name) > 64 {
		name = name[:64]
	}
	return name
}
