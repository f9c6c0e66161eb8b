package openai_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/openai/openai-go/v3/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/llm/openai"
)

// WithRequestOptions passes the SDK's options as they are: here a header.
func TestRequestOptionsReachTheWire(t *testing.T) {
	srv := newServer(t)
	m := srv.model(t, openai.WithRequestOptions(option.WithHeader("X-Team", "planners")))
	_, err := m.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}})
	require.NoError(t, err)
	srv.mu.Lock()
	defer srv.mu.Unlock()
	require.Len(t, srv.headers, 1)
	assert.Equal(t, "planners", srv.headers[0].Get("X-Team"))
}

// WithRequestTimeout bounds an attempt: a server that never answers
// fails the call once the timeout has passed, not when the caller's
// context ends.
func TestRequestTimeoutBoundsAnAttempt(t *testing.T) {
	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done(): // the client gave up
		case <-release:
		}
	}))
	t.Cleanup(slow.Close)
	t.Cleanup(func() { close(release) }) // before Close, which waits for the handler
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	m := openai.New("test-model",
		openai.WithBaseURL(slow.URL+"/v1"),
		openai.WithAPIKey("test-key"),
		openai.WithMaxRetries(0),
		openai.WithHTTPClient(&http.Client{Transport: tr}),
		openai.WithRequestTimeout(100*time.Millisecond))
	start := time.Now()
	_, err := m.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}})
	require.Error(t, err)
	assert.True(t, errors.Is(err, context.DeadlineExceeded), "got %v", err)
	assert.Less(t, time.Since(start), 5*time.Second, "the timeout ended the call, not the server")
}
