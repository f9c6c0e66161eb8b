package llm

import (
	"bytes"
	"encoding/json"
	"slices"
	"time"
)

// Status is the state of a run.
type Status string

// Run statuses. A run is running until it ends in one of the others.
const (
	StatusRunning          Status = "running"
	StatusCompleted        Status = "completed"
	StatusFailed           Status = "failed"
	StatusCancelled        Status = "cancelled"
	StatusAwaitingApproval Status = "awaiting_approval"
	StatusRejected         Status = "rejected"
	// StatusApproved: a person approved the plan of a run that awaited
	// approval (Planner.Decide); Resume runs it.
	StatusApproved Status = "approved"
)

// StepStatus is the state of one step record.
type StepStatus string

// Step statuses.
const (
	// StepRunning: started, completion not (yet) recorded.
	StepRunning StepStatus = "running"
	StepDone    StepStatus = "done"
	StepFailed  StepStatus = "failed"
	// StepSkipped: never started (beyond the step budget, or left when the
	// run ended, was cancelled or replanned).
	StepSkipped   StepStatus = "skipped"
	StepCancelled StepStatus = "cancelled"
	// StepInterrupted: found running in a checkpoint by Resume; the process
	// died during the step, which runs again.
	StepInterrupted StepStatus = "interrupted"
)

// StepRecord is what happened to one step of one plan of a run.
type StepRecord struct {
	// Revision is the plan the step belongs to (Plan.Revision).
	Revision int             `json:"revision"`
	Step     Step            `json:"step"`
	Status   StepStatus      `json:"status"`
	Output   json.RawMessage `json:"output,omitempty"`
	// Error is the failure's text; Err the failure itself (not kept by
	// checkpoints).
	Error string `json:"error,omitempty"`
	Err   error  `json:"-"`
	// Note says why a step was skipped or interrupted.
	Note     string    `json:"note,omitempty"`
	Started  time.Time `json:"started,omitzero"`
	Finished time.Time `json:"finished,omitzero"`
}

// Purposes of model calls (Call.Purpose).
const (
	CallPlan    = "plan"
	CallReplan  = "replan"
	CallRetry   = "retry"
	CallReflect = "reflect"
)

// Call is the token usage of one model call.
type Call struct {
	Purpose string `json:"purpose"`
	Usage   Usage  `json:"usage"`
}

// Result is the outcome of a run.
type Result struct {
	RunID  string
	Status Status
	// Plan is the last plan of the run.
	Plan *Plan
	// Steps records every step of every plan of the run, in the order they
	// started (steps never started come last, skipped).
	Steps []StepRecord
	// Replans counts the plans made after the first.
	Replans int
	// Usage sums Calls.
	Usage Usage
	Calls []Call
	// Err is the error the run ended with (also returned).
	Err error
}

// Succeeded reports whether the last plan completed, whatever was
// replanned before.
func (r *Result) Succeeded() bool { return r.Status == StatusCompleted }

// Output returns the output of a completed step of the last plan.
func (r *Result) Output(stepID string) (json.RawMessage, bool) {
	if r.Plan == nil {
		return nil, false
	}
	for _, rec := range slices.Backward(r.Steps) {
		if rec.Revision == r.Plan.Revision && rec.Step.ID == stepID && rec.Status == StepDone {
			return rec.Output, true
		}
	}
	return nil, false
}

// failedResult is the result of a run that failed before it began (an
// invalid run id, a run another runner owns, a store that cannot load).
func failedResult(runID string, err error) (*Result, error) {
	return &Result{RunID: runID, Status: StatusFailed, Err: err}, err
}

func errorText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// normalizeOutput drops empty and null outputs.
func normalizeOutput(out json.RawMessage) json.RawMessage {
	t := bytes.TrimSpace(out)
	if len(t) == 0 || string(t) == "null" {
		return nil
	}
	return slices.Clone(t)
}
