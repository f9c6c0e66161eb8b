package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/temporal/internal/testserver"
)

// The assistant on a real Temporal server: the first plan fails
// verification inside the model activity and is sent back, the second
// awaits approval, is approved, and its three steps run as activities,
// Book reading Search's offers and Notify the booking from their inputs.
func TestAssistantOnTemporal(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	srv, err := testserver.Start(ctx)
	require.NoError(t, err)
	defer srv.Stop()

	var out strings.Builder
	require.NoError(t, run(ctx, &out, srv.Address, scriptedModel()))
	text := out.String()
	assert.Contains(t, text, "awaiting approval:\n  search Search")
	assert.Contains(t, text, "approved\n")
	assert.Contains(t, text, `step search Search: done [{"flight":"ZRHLIS-0715","price":180,"cabin":"economy"},{"flight":"ZRHLIS-1240","price":95,"cabin":"economy"}]`)
	assert.Contains(t, text, `step book Book: done {"reference":"RG1240","flight":"ZRHLIS-1240","price":95}`)
	assert.Contains(t, text, "step tell Notify: done")
	assert.Contains(t, text, "status: completed after 0 replans; 2255 tokens in 2 calls")
}
