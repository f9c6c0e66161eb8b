package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"runtime/debug"
	"time"
)

// runInOrder runs the plan's pending steps one at a time in dependency
// order (ties by step order); each sees the outputs of every step of the
// plan done before it.
func (r *run[S]) runInOrder(ctx context.Context, plan *Plan) outcome {
	for _, i := range order(plan) {
		st := plan.Steps[i]
		if r.done[st.ID] {
			continue
		}
		if err := ctx.Err(); err != nil {
			return outcome{kind: outCancelled, err: err}
		}
		idx, err := r.startStep(ctx, plan, st)
		if err != nil {
			return outcome{kind: outFatal, err: err}
		}
		var out json.RawMessage
		if err = r.livePrecondition(st, i); err == nil {
			out, err = r.exec(ctx, st, maps.Clone(r.outputs))
		}
		if o, stop := r.finishStep(ctx, idx, out, err); stop {
			return o
		}
		if r.reflectDue() {
			if o, stop := r.reflect(ctx, plan); stop {
				return o
			}
		}
	}
	return outcome{kind: outCompleted}
}

// exec runs a step on the target with the outputs it may see; a panic in
// the step becomes a *PanicError.
func (r *run[S]) exec(ctx context.Context, st Step, inputs map[string]json.RawMessage) (out json.RawMessage, err error) {
	defer func() {
		if v := recover(); v != nil {
			out, err = nil, &PanicError{Value: v, Stack: debug.Stack()}
		}
	}()
	return r.t.Exec(withStepInputs(ctx, inputs), st, inputs)
}

// livePrecondition checks the step's precondition in the live state
// (unless WithoutLivePreconditions); it must not be called while a step
// runs.
func (r *run[S]) livePrecondition(st Step, index int) error {
	if !r.p.cfg.livePre {
		return nil
	}
	d := r.p.d
	if d.Applicable(st.Action, r.t.PlanState()) {
		return nil
	}
	return d.StaleError(st.Action, index)
}

// runDAG runs the plan's pending steps as a DAG on dependsOn, at most
// WithDAG's concurrency at once; each step sees only its dependencies'
// outputs. Steps started while none runs have their preconditions checked
// in the live state. The calling goroutine schedules, records, checkpoints and calls
// the hooks, so those never run concurrently; it returns only once every
// step it launched has returned, so no goroutine outlives it. After a
// failure or a directive other than Continue it starts no more steps and
// waits for those in flight; reflection waits until none is in flight.
func (r *run[S]) runDAG(ctx context.Context, plan *Plan) outcome {
	type result struct {
		idx int
		out json.RawMessage
		err error
	}
	limit := r.p.cfg.concurrency
	results := make(chan result, limit)
	started := make([]bool, len(plan.Steps))
	inflight := 0
	var stop *outcome
	reflectPending := false
	for {
		if stop == nil && ctx.Err() != nil {
			stop = &outcome{kind: outCancelled, err: ctx.Err()}
		}
		if stop == nil && reflectPending && inflight == 0 {
			reflectPending = false
			if o, s := r.reflect(ctx, plan); s {
				stop = &o
			}
		}
		// The steps ready to start, in plan order, up to the limit.
		var wave []int
		for i := 0; stop == nil && !reflectPending && i < len(plan.Steps) && inflight+len(wave) < limit; i++ {
			st := plan.Steps[i]
			if !started[i] && !st.Skipped && !r.done[st.ID] && r.depsDone(st) {
				wave = append(wave, i)
			}
		}
		// A wave that starts while no step runs is checked in the live
		// state first (reading it while a step runs would race with the
		// step): the first step whose precondition fails is recorded
		// failed, and none of the wave starts.
		stale, staleAt := error(nil), -1
		if inflight == 0 {
			for _, i := range wave {
				if err := r.livePrecondition(plan.Steps[i], i); err != nil {
					stale, staleAt = err, i
					break
				}
			}
		}
		for _, i := range wave {
			if staleAt >= 0 && i != staleAt {
				continue
			}
			st := plan.Steps[i]
			started[i] = true
			idx, err := r.startStep(ctx, plan, st)
			if err != nil {
				stop = &outcome{kind: outFatal, err: err}
				break
			}
			if i == staleAt {
				if o, s := r.finishStep(ctx, idx, nil, stale); s {
					stop = &o
				}
				break
			}
			inputs := make(map[string]json.RawMessage, len(st.DependsOn))
			for _, dep := range st.DependsOn {
				if out, ok := r.outputs[dep]; ok {
					inputs[dep] = out
				}
			}
			inflight++
			go func() {
				// Sent even when the step ends its goroutine with
				// runtime.Goexit, so the scheduler never waits forever.
				res := result{idx: idx, err: &PanicError{}}
				defer func() { results <- res }()
				res.out, res.err = r.exec(ctx, st, inputs)
			}()
		}
		if inflight == 0 {
			break
		}
		res := <-results
		inflight--
		// The first reason to stop wins, unless a later one is fatal (a
		// panic, a failed checkpoint): that one must not be replanned away.
		o, s := r.finishStep(ctx, res.idx, res.out, res.err)
		if s && (stop == nil || o.kind == outFatal && stop.kind != outFatal) {
			stop = &o
		}
		if stop == nil && r.reflectDue() {
			reflectPending = true
		}
	}
	if stop != nil {
		return *stop
	}
	for _, st := range plan.Steps {
		if !st.Skipped && !r.done[st.ID] {
			return outcome{kind: outFailed, err: fmt.Errorf("llm: step %q could not be scheduled", st.ID)}
		}
	}
	return outcome{kind: outCompleted}
}

func (r *run[S]) depsDone(st Step) bool {
	for _, dep := range st.DependsOn {
		if !r.done[dep] {
			return false
		}
	}
	return true
}

// startStep records a step as running and checkpoints it, so that a crash
// during the step is seen by Resume (which runs it again).
func (r *run[S]) startStep(ctx context.Context, plan *Plan, st Step) (int, error) {
	r.attempted[st.ID] = true
	r.records = append(r.records, StepRecord{
		Revision: plan.Revision,
		Step:     st.clone(),
		Status:   StepRunning,
		Started:  time.Now(),
	})
	idx := len(r.records) - 1
	if err := r.save(ctx); err != nil {
		// The step does not run: its start could not be recorded.
		rec := &r.records[idx]
		rec.Status, rec.Err, rec.Error, rec.Finished = StepFailed, err, err.Error(), rec.Started
		return idx, err
	}
	return idx, nil
}

// finishStep records the end of a step, checkpoints it and asks the hook
// what next. It reports whether the plan's execution must stop, and how.
func (r *run[S]) finishStep(ctx context.Context, idx int, out json.RawMessage, err error) (outcome, bool) {
	rec := &r.records[idx]
	rec.Finished = time.Now()
	id := rec.Step.ID
	_, panicked := errors.AsType[*PanicError](err)
	switch {
	case err == nil:
		rec.Status = StepDone
		rec.Output = normalizeOutput(out)
		r.done[id] = true
		if rec.Output != nil {
			r.outputs[id] = rec.Output
		}
		r.completed++
	case ctx.Err() != nil && !panicked:
		rec.Status, rec.Err, rec.Error = StepCancelled, err, err.Error()
	default:
		rec.Status = StepFailed
		rec.Err = &StepError{StepID: id, Capability: rec.Step.Capability, Err: err}
		rec.Error = err.Error()
	}
	if serr := r.save(ctx); serr != nil {
		return outcome{kind: outFatal, err: serr}, true
	}
	if rec.Status == StepCancelled {
		return outcome{kind: outCancelled, err: ctx.Err()}, true
	}
	dir := Continue()
	if h := r.p.cfg.onStep; h != nil {
		dir = h(ctx, *rec)
	}
	if panicked {
		return outcome{kind: outFatal, err: rec.Err}, true // a bug: not replanned
	}
	if rec.Status == StepFailed && dir.Kind == DirectiveContinue {
		return outcome{kind: outFailed, err: rec.Err}, true
	}
	return r.directed(dir, id, rec.Err)
}

// directed turns a directive into an outcome; failure is the step failure
// that came with it, if any.
func (r *run[S]) directed(dir Directive, stepID string, failure error) (outcome, bool) {
	switch dir.Kind {
	case DirectiveAbort:
		return outcome{kind: outAbort, err: &AbortError{StepID: stepID, Reason: dir.Reason}}, true
	case DirectiveReplan:
		return outcome{kind: outReplan, err: failure, directive: dir}, true
	case DirectiveAdjust:
		return outcome{kind: outAdjust, err: failure, directive: dir}, true
	}
	return outcome{}, false
}

// reflectDue reports whether the reflector is due: every WithReflector
// steps done.
func (r *run[S]) reflectDue() bool {
	every := r.p.cfg.reflectEvery
	return every > 0 && r.p.cfg.reflector != nil && r.completed > r.reflected && r.completed/every > r.reflected/every
}

// reflect asks the reflector what next.
func (r *run[S]) reflect(ctx context.Context, plan *Plan) (outcome, bool) {
	r.reflected = r.completed
	req := ReflectRequest{
		Domain:       r.p.d.Name,
		Goal:         r.goal,
		State:        json.RawMessage(stateJSON(r.t.PlanState())),
		Plan:         plan.Clone(),
		Records:      r.result().Steps,
		Capabilities: r.p.capabilities(),
		StepsSchema:  r.p.stepsSchema,
		Temperature:  r.p.cfg.temperature,
		MaxTokens:    r.p.cfg.maxTokens,
	}
	if r.p.cfg.omitState {
		req.State = nil
	}
	var dir Directive
	callErr, budgetErr := r.metered(CallReflect, func() (Usage, error) {
		var usage Usage
		var err error
		dir, usage, err = r.p.cfg.reflector.Reflect(ctx, req)
		return usage, err
	})
	switch {
	case budgetErr != nil:
		return outcome{kind: outFatal, err: budgetErr}, true
	case callErr != nil && ctx.Err() != nil:
		return outcome{kind: outCancelled, err: ctx.Err()}, true
	case callErr != nil:
		return outcome{kind: outFatal, err: fmt.Errorf("llm: reflector: %w", callErr)}, true
	}
	return r.directed(dir, "", nil)
}

// save checkpoints the run when a store is configured. Saving ignores the
// cancellation of ctx: the state of a cancelled run must be recorded too.
func (r *run[S]) save(ctx context.Context) error {
	st := r.p.cfg.store
	if st == nil {
		return nil
	}
	if err := st.Save(context.WithoutCancel(ctx), r.checkpoint()); err != nil {
		return fmt.Errorf("llm: checkpoint: %w", err)
	}
	return nil
}
