package llm

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/rolegen/rolegen/runtime"
)

// Executor runs one step of a plan and returns its output (nil for none).
// inputs holds the outputs of the steps the step may see: in order mode
// every earlier completed step of the plan, in DAG mode only its
// dependencies (steps that returned no output are absent). With WithDAG and
// a concurrency above 1 an executor is called from several goroutines at
// once. It should return soon after ctx is done.
type Executor func(ctx context.Context, step Step, inputs map[string]json.RawMessage) (json.RawMessage, error)

// Performer is what rolegen generates on a role for LLM plans: PerformJSON
// decodes the typed arguments strictly, calls the action's method and
// encodes its result.
type Performer interface {
	PerformJSON(ctx context.Context, a runtime.ActionID, args json.RawMessage) (json.RawMessage, error)
}

// Role is a generated role as a run needs it: its state and PerformJSON.
type Role[S comparable] interface {
	PlanState() S
	Performer
}

// Target is what a run acts on: the live state, read between steps (never
// while a step runs), and the executor of steps.
type Target[S comparable] interface {
	PlanState() S
	Exec(ctx context.Context, step Step, inputs map[string]json.RawMessage) (json.RawMessage, error)
}

// StepInputs returns the outputs of the steps the running step may see,
// keyed by step ID, as its Executor receives them: in order mode every
// earlier completed step of the plan, in DAG mode only its dependencies.
// It is how a generated role's action method, which takes only a context
// and its typed arguments, reads what earlier steps returned:
//
//	func (a *Agent) Notify(ctx context.Context, in NotifyArgs) error {
//		for id, out := range llm.StepInputs(ctx) { ... }
//	}
//
// Outside a run it returns nil. The map is the step's own; it may be kept.
func StepInputs(ctx context.Context) map[string]json.RawMessage {
	in, _ := ctx.Value(stepInputsKey{}).(map[string]json.RawMessage)
	return in
}

type stepInputsKey struct{}

func withStepInputs(ctx context.Context, in map[string]json.RawMessage) context.Context {
	return context.WithValue(ctx, stepInputsKey{}, in)
}

// PerformerExecutor runs steps through p.PerformJSON; the action's method
// reads the outputs of the steps it may see with StepInputs.
func PerformerExecutor(p Performer) Executor {
	return func(ctx context.Context, step Step, inputs map[string]json.RawMessage) (json.RawMessage, error) {
		return p.PerformJSON(withStepInputs(ctx, inputs), step.Action, step.Args)
	}
}

// RoleTarget runs steps on a generated role: PlanState for the state,
// PerformJSON for the steps.
func RoleTarget[S comparable](r Role[S]) Target[S] { return roleTarget[S]{r} }

type roleTarget[S comparable] struct{ r Role[S] }

func (t roleTarget[S]) PlanState() S { return t.r.PlanState() }

func (t roleTarget[S]) Exec(ctx context.Context, step Step, inputs map[string]json.RawMessage) (json.RawMessage, error) {
	return t.r.PerformJSON(withStepInputs(ctx, inputs), step.Action, step.Args)
}

// FuncTarget runs steps with exec and tracks the state symbolically: it
// starts at state and applies the effects of each step that succeeds. Use
// it when the world has no PlanState of its own. It is safe for concurrent
// use.
func FuncTarget[S comparable](d *runtime.Domain[S], state S, exec Executor) Target[S] {
	return &funcTarget[S]{d: d, state: state, exec: exec}
}

type funcTarget[S comparable] struct {
	d     *runtime.Domain[S]
	exec  Executor
	mu    sync.Mutex
	state S
}

func (t *funcTarget[S]) PlanState() S {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.state
}

func (t *funcTarget[S]) Exec(ctx context.Context, step Step, inputs map[string]json.RawMessage) (json.RawMessage, error) {
	out, err := t.exec(ctx, step, inputs)
	if err == nil && step.Action >= 0 && int(step.Action) < len(t.d.Actions) {
		t.mu.Lock()
		t.state = t.d.Apply(step.Action, t.state)
		t.mu.Unlock()
	}
	return out, err
}
