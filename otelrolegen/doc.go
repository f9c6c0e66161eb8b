// Package otelrolegen records what rolegen's planners do as OpenTelemetry
// traces and metrics, with the OpenTelemetry API only: no SDK is linked
// unless the program wires one.
//
// # LLM runs
//
// One option of the llm planner traces every run and counts it:
//
//	planner := llm.NewPlanner(d, model, otelrolegen.Telemetry())
//
// The tracer and meter providers are the global ones
// (otel.SetTracerProvider, otel.SetMeterProvider) unless
// WithTracerProvider and WithMeterProvider give others. With no provider
// set, a run records nothing and allocates nothing more than a run
// without the option.
//
// Each run is a tree of spans:
//
//	run Traveler                      rolegen.run.id, rolegen.goal, rolegen.run.status, rolegen.run.replans, tokens
//	├── plan                          rolegen.plan.revision 0, the calls, checks and retries made for one plan
//	│   ├── chat gpt-4o-mini          GenAI semantic conventions: gen_ai.operation.name, gen_ai.request.model,
//	│   │                             gen_ai.usage.input_tokens, gen_ai.usage.output_tokens, gen_ai.response.finish_reasons
//	│   ├── validate                  the plan's validation (its error, if any)
//	│   ├── verify                    the symbolic simulation; a failed one has its critique as the event "critique"
//	│   ├── repair                    A* bridging what failed (llm.WithRepair): rolegen.repair.inserted, one
//	│   │                             "Search before step \"book\" (…)" a bridge, rolegen.repair.expansions; or its error
//	│   ├── verify                    the repaired plan
//	│   ├── chat gpt-4o-mini          a retry with the critique, when repair found nothing (rolegen.call.purpose "retry")
//	│   ├── validate
//	│   └── verify
//	│                                 with llm.WithCandidates(k): a "candidate" span for each of the k plans
//	│                                 (rolegen.candidate.index, .cost, .verified, .chosen, .why: why it lost),
//	│                                 holding its validate, verify and repair
//	├── approve                       the gate's decision (rolegen.approval.decision), as long as a person took
//	├── step Search                   rolegen.step.id, rolegen.action, rolegen.step.attempt, rolegen.step.status, the error
//	├── step Book
//	├── plan                          rolegen.plan.revision 1, after the run's event "replan" (why: failure, critique)
//	│   └── …
//	└── step Notify
//
// A run resumed from a checkpoint (llm.Planner.Resume, or Execute of a
// run that awaited approval) has rolegen.run.resumed and a link to the
// span of the runner it goes on from: the observer keeps the run's W3C
// trace context in the checkpoint (llm.Checkpoint.Trace). Action methods
// get the step's span in their context, so the spans they start nest
// under it.
//
// The metrics (counters and histograms):
//
//	rolegen.llm.runs              {run}    runs ended, by rolegen.domain and rolegen.run.status
//	rolegen.llm.steps             {step}   steps ended, by rolegen.domain, rolegen.action and rolegen.step.status
//	rolegen.llm.step.duration     s        the same, their durations
//	rolegen.llm.replans           {replan} replans, by rolegen.domain
//	gen_ai.client.token.usage     {token}  tokens of each model call, by gen_ai.token.type (input, output), model and purpose
//	gen_ai.client.operation.duration  s    model-call latency, by model and error.type
//
// On Temporal (module github.com/rolegen/rolegen/temporal), the same
// option on the planner makes the same spans: the workflow's (run,
// approve, step, replan) under the workflow span of Temporal's
// OpenTelemetry interceptor, the plan's in the plan activity, so that a
// run crossing workers is one trace.
//
// # Symbolic planners
//
// The planners of package runtime run in frame loops and do not pay for
// tracing. A runtime.Stats given to them (runtime.WithStats,
// runtime.WithThinkStats) counts their calls and durations by planner,
// goal and outcome without allocating; RegisterStats reports them as
// OpenTelemetry metrics whenever the meter provider's reader collects,
// on the program's schedule.
package otelrolegen
