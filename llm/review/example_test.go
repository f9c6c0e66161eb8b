package review_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/rolegen/rolegen/examples/assistant/travel"
	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/llm/review"
)

// A plan proposed into a store awaits a person's decision on the page,
// mounted under /review/.
func Example() {
	ctx := context.Background()
	store := llm.NewMemoryStore()
	planner := llm.NewPlanner(travel.AgentDomain, llm.ScriptedReplies(tripPlan),
		llm.WithStore(store), llm.WithRequireVerified(1))
	agent := &travel.Agent{Budget: 400}
	if _, err := planner.Propose(ctx, "Fly Ada to Lisbon", agent.PlanState(), llm.WithRunID("lisbon")); err != nil {
		panic(err)
	}

	page := review.New(planner, review.StoreRuns(planner),
		review.WithOnDecision(func(ctx context.Context, run *review.Run) {
			// An approved run is resumed here, or by any process later.
			if run.Status == llm.StatusApproved {
				_, _ = planner.Resume(ctx, run.ID, llm.RoleTarget[travel.AgentState](agent))
			}
		}))
	mux := http.NewServeMux()
	mux.Handle("/review/", http.StripPrefix("/review", page))
	srv := httptest.NewServer(mux) // loopback: no authorisation function needed
	defer srv.Close()

	resp, err := http.Get(srv.URL + "/review/")
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.Status)
	fmt.Println(strings.Contains(string(body), `<a class="goal" href="runs/lisbon">Fly Ada to Lisbon</a>`))
	// Output:
	// 200 OK
	// true
}
