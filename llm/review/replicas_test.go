package review_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/llm/review"
)

// Replicas behind a load balancer: a form one replica served is accepted
// by another when both sign with the same key (WithCSRFKey), and refused
// when each has its own random key (the default).
func TestReplicasShareTheirCSRFKey(t *testing.T) {
	for _, shared := range []bool{true, false} {
		var opts []review.Option
		if shared {
			opts = append(opts, review.WithCSRFKey([]byte(strings.Repeat("k", 32))))
		}
		f := newFixture(t, opts...)
		f.propose("lisbon", "Fly me to Lisbon", tripPlan)
		other := http.NewServeMux()
		other.Handle("/review/", http.StripPrefix("/review", review.New(f.planner, review.StoreRuns(f.planner), opts...)))
		replica := httptest.NewServer(other)
		t.Cleanup(replica.Close)

		c := f.client()
		values := f.open(c, "lisbon").Form.Values()
		values.Set("do", "approve")
		req, err := http.NewRequest(http.MethodPost, replica.URL+"/review/runs/lisbon", strings.NewReader(values.Encode()))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		u, _ := url.Parse(f.server.URL)
		for _, ck := range reviewCookies(t, c, u) {
			req.AddCookie(ck)
		}
		noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := noRedirect.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		if shared {
			assert.Equal(t, http.StatusSeeOther, resp.StatusCode, "the same key: accepted")
			assert.Equal(t, llm.StatusApproved, f.checkpoint("lisbon").Status)
		} else {
			assert.Equal(t, http.StatusForbidden, resp.StatusCode, "keys of their own: refused")
			assert.Equal(t, llm.StatusAwaitingApproval, f.checkpoint("lisbon").Status)
		}
	}
}
