package llm

import (
	"context"
	"encoding/json"
	"runtime/debug"
	"time"
)

// local is the in-process driver: the run's context, its target, the
// planner's approver, hook, reflector and store, and goroutines for the
// steps of a DAG. A plan in order runs each step in the engine's
// goroutine.
type local[S comparable] struct {
	// ctx is the run's: the caller's, then the one the observer returned
	// for the run's start.
	ctx context.Context
	p   *Planner[S]
	t   Target[S]
	// steps holds the contexts the observer returned for the steps
	// started, by record, while they differ from the run's; carried is
	// what the observer keeps of the run's context in checkpoints.
	steps   map[int]context.Context
	carried map[string]string
	// results receives the steps of a DAG as they end; last is the step
	// run in order by Start.
	results chan TaskResult
	last    TaskResult
}

func (p *Planner[S]) local(ctx context.Context, t Target[S]) *local[S] {
	return &local[S]{ctx: ctx, p: p, t: t}
}

func (l *local[S]) Now() time.Time { return time.Now() }
func (l *local[S]) Err() error     { return l.ctx.Err() }
func (l *local[S]) State() S       { return l.t.PlanState() }

func (l *local[S]) Plan(req PlanRequest[S]) (PlanReply, error) { return l.p.MakePlan(l.ctx, req) }

func (l *local[S]) HasApprover() bool { return l.p.cfg.approver != nil }

func (l *local[S]) Approve(plan *Plan) (Decision, error) {
	return l.p.cfg.approver.Approve(l.ctx, plan.Clone())
}

// Start runs a step of a plan in order before it returns; a step of a DAG
// runs in a goroutine of its own, which always reports to Wait.
func (l *local[S]) Start(task Task) {
	if !l.p.cfg.dag {
		l.last = TaskResult{Record: task.Record}
		l.last.Output, l.last.Err = l.exec(task)
		return
	}
	if l.results == nil {
		l.results = make(chan TaskResult, l.p.cfg.concurrency)
	}
	go func() {
		// Sent even when the step ends its goroutine with runtime.Goexit,
		// so that Wait never waits forever.
		res := TaskResult{Record: task.Record, Err: &PanicError{}}
		defer func() { l.results <- res }()
		res.Output, res.Err = l.exec(task)
	}()
}

func (l *local[S]) Wait() TaskResult {
	if !l.p.cfg.dag {
		return l.last
	}
	return <-l.results
}

// exec runs a step on the target with the outputs it may see; a panic in
// the step becomes a *PanicError.
func (l *local[S]) exec(task Task) (out json.RawMessage, err error) {
	defer func() {
		if v := recover(); v != nil {
			out, err = nil, &PanicError{Value: v, Stack: debug.Stack()}
		}
	}()
	return l.t.Exec(withStepInputs(l.stepContext(task.Record), task.Inputs), task.Step, task.Inputs)
}

// stepContext is the context of the step of record idx.
func (l *local[S]) stepContext(idx int) context.Context {
	if ctx, ok := l.steps[idx]; ok {
		return ctx
	}
	return l.ctx
}

// Observe reports ev to the planner's observer. The run's start makes the
// run's context; a step's start makes the step's, which its end is
// reported with and then forgets.
func (l *local[S]) Observe(ev Event) {
	o := l.p.cfg.observer
	switch ev.Kind {
	case EventRunStart:
		l.carried = ev.Resumes
		l.ctx = o.Observe(l.ctx, ev)
		if c, ok := o.(ContextCarrier); ok {
			if carried := c.Carry(l.ctx); carried != nil {
				l.carried = carried
			}
		}
	case EventStepStart:
		if ctx := o.Observe(l.ctx, ev); !sameContext(ctx, l.ctx) {
			if l.steps == nil {
				l.steps = map[int]context.Context{}
			}
			l.steps[ev.RecordIndex] = ctx
		}
	case EventStepEnd:
		o.Observe(l.stepContext(ev.RecordIndex), ev)
		delete(l.steps, ev.RecordIndex)
	default:
		o.Observe(l.ctx, ev)
	}
}

func (l *local[S]) OnStep(rec StepRecord) Directive {
	if h := l.p.cfg.onStep; h != nil {
		return h(l.ctx, rec)
	}
	return Continue()
}

func (l *local[S]) Reflect(req ReflectRequest) (Directive, Usage, error) {
	return l.p.cfg.reflector.Reflect(l.ctx, req)
}

// Save ignores the cancellation of the run's context: the state of a
// cancelled run must be recorded too.
func (l *local[S]) Save(cp *Checkpoint) error {
	if l.carried != nil {
		cp.Trace = l.carried
	}
	return l.p.cfg.store.Save(context.WithoutCancel(l.ctx), cp)
}

func (l *local[S]) checkpointless() bool { return l.p.cfg.store == nil }

// sameContext reports whether a and b are the same context; == panics
// on a context whose dynamic type is not comparable, which is then
// another context.
func sameContext(a, b context.Context) (same bool) {
	defer func() {
		if recover() != nil {
			same = false
		}
	}()
	return a == b
}
