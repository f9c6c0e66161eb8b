package temporal

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"go.opentelemetry.io/otel/trace"
	"go.temporal.io/sdk/activity"
	sdktemporal "go.temporal.io/sdk/temporal"

	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/otelrolegen"
	"github.com/rolegen/rolegen/runtime"
)

// activities are the worker side of a run: the model call and the steps.
type activities[S comparable] struct{ p *Plans[S] }

// planResult is the plan activity's answer: the model's plan and calls,
// or the failure the run ends with when the model's answer was not
// acceptable after the planner's retries (unreadable, invalid,
// unverified) or the budget ran out. A failure of the model itself is the
// activity's error, retried by Temporal.
type planResult struct {
	Reply   llm.PlanReply
	Failure *Error `json:",omitempty"`
}

// plan asks the model for a plan (Planner.MakePlan).
func (a *activities[S]) plan(ctx context.Context, req llm.PlanRequest[S]) (*planResult, error) {
	reply, err := a.p.planner.MakePlan(ctx, req)
	switch {
	case err == nil:
		return &planResult{Reply: reply}, nil
	case errors.Is(err, llm.ErrInvalidPlan), errors.Is(err, llm.ErrUnreadableReply),
		errors.Is(err, llm.ErrUnverified), errors.Is(err, llm.ErrTokenBudget):
		return &planResult{Reply: llm.PlanReply{Calls: reply.Calls}, Failure: wireError(err)}, nil
	}
	return nil, err
}

// stepTask is a step for the perform activity: the run, the step and the
// outputs it may see.
type stepTask struct {
	RunID  string
	Step   llm.Step
	Inputs map[string]json.RawMessage
}

// panicType is the type of the application error of a step that panicked:
// not retried, and a *llm.PanicError in the workflow (the run fails, as
// in process, rather than replan a bug away).
const panicType = "rolegen.Panic"

// perform runs a step through the role's PerformJSON on this worker.
func (a *activities[S]) perform(ctx context.Context, t stepTask) (out json.RawMessage, err error) {
	if a.p.performer == nil {
		return nil, sdktemporal.NewNonRetryableApplicationError("temporal: this worker has no performer (WithPerformer)", "rolegen.NoPerformer", nil)
	}
	act, ok := actionNamed(a.p.planner.Domain(), t.Step.Capability)
	if !ok {
		return nil, sdktemporal.NewNonRetryableApplicationError(fmt.Sprintf("temporal: unknown capability %q", t.Step.Capability), "rolegen.UnknownCapability", nil)
	}
	t.Step.Action = act
	// The activity's span (Temporal's OpenTelemetry interceptor's, when
	// the worker has it) says which step of which run it performs, and
	// which attempt of Temporal's retry policy this is.
	if span := trace.SpanFromContext(ctx); span.IsRecording() {
		span.SetAttributes(otelrolegen.KeyRunID.String(t.RunID), otelrolegen.KeyStepID.String(t.Step.ID),
			otelrolegen.KeyAction.String(t.Step.Capability), otelrolegen.KeyStepAttempt.Int(int(activity.GetInfo(ctx).Attempt)))
	}
	perf, err := a.p.performer(ctx, t.RunID)
	if err != nil {
		return nil, err
	}
	if hb := activity.GetInfo(ctx).HeartbeatTimeout; hb > 0 {
		stop := heartbeat(ctx, hb/3)
		defer stop()
	}
	defer func() {
		if v := recover(); v != nil {
			out, err = nil, sdktemporal.NewNonRetryableApplicationError(fmt.Sprint(v), panicType, nil, string(debug.Stack()))
		}
	}()
	return llm.PerformerExecutor(perf)(ctx, t.Step, t.Inputs)
}

// heartbeat records a heartbeat every interval until stop is called.
func heartbeat(ctx context.Context, interval time.Duration) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				activity.RecordHeartbeat(ctx)
			}
		}
	}()
	return func() { close(done); <-finished }
}

func actionNamed[S comparable](d *runtime.Domain[S], name string) (runtime.ActionID, bool) {
	for i := range d.Actions {
		if d.Actions[i].Name == name {
			return runtime.ActionID(i), true
		}
	}
	return 0, false
}
