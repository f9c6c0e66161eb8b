package temporal

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	sdktemporal "go.temporal.io/sdk/temporal"

	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/llm/review"
)

// Review is a run as a person reviewing it sees it (QueryReview): while
// a plan awaits approval, Status is llm.StatusAwaitingApproval, Plan is
// that plan and State the workflow's state it is verified from;
// afterwards Plan is the run's plan and Decided the decision taken.
type Review struct {
	RunID   string
	Goal    string
	Status  llm.Status
	Plan    *llm.Plan
	State   json.RawMessage `json:",omitempty"`
	Since   time.Time
	Decided *llm.DecisionRecord `json:",omitempty"`
	Error   string              `json:",omitempty"`
}

// ReviewRuns serves the runs of these Plans to a review page (package
// llm/review), through client c:
//
//	page := review.New(planner, plans.ReviewRuns(c))
//
// The runs awaiting approval are the open workflows of the Plans'
// workflow type (a visibility query) whose plan awaits approval (a
// QueryReview each: fine for the tens of runs a person reviews). A
// decision is sent as the UpdateApprove update, which the workflow
// accepts only for the plan awaiting approval whose digest the decision
// names, and only when it passes the approval gate's checks; of two
// decisions at once it accepts one. A worker of the workflow must be
// running to answer the queries and take the decision.
func (p *Plans[S]) ReviewRuns(c client.Client) review.Runs { return reviewRuns[S]{p: p, c: c} }

type reviewRuns[S comparable] struct {
	p *Plans[S]
	c client.Client
}

func (r reviewRuns[S]) Awaiting(ctx context.Context) ([]string, error) {
	query := fmt.Sprintf("WorkflowType = '%s' AND ExecutionStatus = 'Running'", strings.ReplaceAll(r.p.names.workflow, "'", "''"))
	var ids []string
	var token []byte
	for {
		resp, err := r.c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: query, NextPageToken: token})
		if err != nil {
			return nil, fmt.Errorf("temporal: listing the runs: %w", err)
		}
		for _, ex := range resp.Executions {
			id := ex.GetExecution().GetWorkflowId()
			run, err := r.Run(ctx, id)
			if errors.Is(err, review.ErrUnknownRun) {
				continue // ended since it was listed
			}
			if err != nil {
				return nil, err
			}
			if run.Status == llm.StatusAwaitingApproval {
				ids = append(ids, id)
			}
		}
		token = resp.NextPageToken
		if len(token) == 0 {
			return ids, nil
		}
	}
}

func (r reviewRuns[S]) Run(ctx context.Context, runID string) (*review.Run, error) {
	v, err := r.c.QueryWorkflow(ctx, runID, "", QueryReview)
	var notFound *serviceerror.NotFound
	if errors.As(err, &notFound) {
		return nil, fmt.Errorf("temporal: run %s: %w", runID, review.ErrUnknownRun)
	}
	if err != nil {
		return nil, fmt.Errorf("temporal: run %s: %w", runID, err)
	}
	var rv Review
	if err := v.Get(&rv); err != nil {
		return nil, err
	}
	if rv.Plan != nil {
		res := &llm.Result{Plan: rv.Plan}
		r.p.resolveActions(res)
	}
	return &review.Run{
		ID: runID, Goal: rv.Goal, Status: rv.Status, Plan: rv.Plan, State: rv.State,
		Since: rv.Since, Decided: rv.Decided, Error: rv.Error,
	}, nil
}

// Decide sends d as the run's approval update; the workflow's refusal
// comes back as the llm error it stands for.
func (r reviewRuns[S]) Decide(ctx context.Context, runID string, d llm.Decision) error {
	err := r.p.Approve(ctx, r.c, runID, d)
	var app *sdktemporal.ApplicationError
	if !errors.As(err, &app) {
		return err
	}
	switch app.Type() {
	case errNotAwaiting:
		return &llm.NotAwaitingError{RunID: runID, Status: llm.StatusRunning}
	case errPlanChanged:
		return &llm.PlanChangedError{RunID: runID}
	case errInvalidDecision:
		return fmt.Errorf("temporal: run %s: %w: %s", runID, llm.ErrInvalidDecision, app.Message())
	}
	return err
}
