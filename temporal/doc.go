// Package temporal runs rolegen's LLM plans (package llm) as Temporal
// workflows, so that a plan survives worker crashes and redeploys, waits
// hours for a person's approval, and retries slow and flaky steps under
// per-action policies.
//
// The workflow is driven by the same llm.Engine as Planner.Run: the same
// validation and verification before anything runs, precondition checks
// before each step, OnStep continue/abort/replan, bounded replanning, the
// token budget, the approval gate, guarded actions, the DAG's concurrency
// limit, llm.StepInputs and the same records. What differs is who acts:
//
//   - the model is asked for plans in an activity (Planner.MakePlan on a
//     worker, retried by Temporal when the model's server fails); the
//     workflow validates and verifies each plan again before it runs;
//   - each step is an activity that calls the role's generated PerformJSON
//     on a worker, with the timeouts and retry policy of its action (by
//     action, by tag, or the default);
//   - the approval gate waits for an update (or signal) carrying an
//     llm.Decision, with a timeout set per run or by the worker's policy;
//   - the live state is the workflow's: it starts from the state the run
//     was started with and takes the effect of every step done (as
//     llm.FuncTarget does), so it is the same on every worker and in every
//     replay;
//   - the workflow's history is the checkpoint: no llm.Store is used.
//
// Build a Plans over a planner, register it on every worker (Register),
// start runs with Start and approve them with Approve:
//
//	plans := temporal.New(planner, temporal.WithPerformer(func(ctx context.Context, runID string) (llm.Performer, error) {
//		return &Agent{}, nil
//	}))
//	plans.Register(w) // w is a worker.Worker on the task queue
//	run, err := plans.Start(ctx, c, "rolegen", "Fly me to Lisbon", agent.PlanState())
//	err = plans.Approve(ctx, c, run.GetID(), llm.Approve())
//	res, err := plans.Result(ctx, c, run.GetID())
//
// With the planner's observer (llm.WithObserver, otelrolegen.Telemetry)
// the workflow reports the run's events from workflow code when it is not
// replaying, under the span of Temporal's OpenTelemetry interceptor
// (go.temporal.io/sdk/contrib/opentelemetry) when the worker has it, and
// the plan activity reports the plan's: a run is one trace across
// workers (README.md, "Traces").
//
// Workflow code must be deterministic: a hook given with WithOnStep runs
// in it, so it must not do I/O or read clocks. A planner with a reflector
// (llm.WithReflector) cannot run on Temporal: its run fails with an error
// saying so.
package temporal
