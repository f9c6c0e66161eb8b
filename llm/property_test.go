package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/llm"
)

// fate is what a step of a random run does when it is executed.
type fate uint8

const (
	fateOK fate = iota
	fateFail
	fatePanic
	fateCancel // cancels the run's context, then returns its error
)

// randomRun is one random scenario: the plans the model answers with (one
// per revision, step IDs unique across them), what each step does, and
// what the OnStep hook answers after it.
type randomRun struct {
	plans     []string
	deps      map[string][]string
	fates     map[string]fate
	hook      map[string]llm.DirectiveKind
	dag       bool
	limit     int
	maxReplan int
}

func newRandomRun(r *rand.Rand) *randomRun {
	rr := &randomRun{
		deps:      map[string][]string{},
		fates:     map[string]fate{},
		hook:      map[string]llm.DirectiveKind{},
		dag:       r.IntN(2) == 0,
		limit:     1 + r.IntN(4),
		maxReplan: r.IntN(3),
	}
	for rev := 0; rev <= rr.maxReplan; rev++ {
		n := 1 + r.IntN(7)
		steps := make([]string, n)
		for i := range n {
			id := fmt.Sprintf("r%ds%d", rev, i)
			var deps []string
			for j := range i {
				if r.IntN(3) == 0 {
					deps = append(deps, fmt.Sprintf("r%ds%d", rev, j))
				}
			}
			rr.deps[id] = deps
			switch x := r.IntN(100); {
			case x < 8:
				rr.fates[id] = fateFail
			case x < 11:
				rr.fates[id] = fatePanic
			case x < 13:
				rr.fates[id] = fateCancel
			}
			switch x := r.IntN(100); {
			case x < 4:
				rr.hook[id] = llm.DirectiveReplan
			case x < 6:
				rr.hook[id] = llm.DirectiveAbort
			}
			capability := "Ping"
			if r.IntN(2) == 0 {
				capability = "Search"
			}
			args := "{}"
			if capability == "Search" {
				args = searchParis
			}
			steps[i] = step(id, capability, args, deps...)
		}
		rr.plans = append(rr.plans, planJSON(steps...))
	}
	return rr
}

// observer is the executor of a random run: it checks, as steps run, that
// no step runs twice, that a step starts only after its dependencies
// succeeded, that it sees the outputs it should, and that no more steps
// run at once than the limit.
type observer struct {
	rr     *randomRun
	cancel context.CancelFunc

	mu        sync.Mutex
	ran       map[string]int
	succeeded map[string]bool
	order     []string // succeeded steps, in the order they returned
	running   int
	most      int
	problems  []string
}

func (o *observer) exec(ctx context.Context, st llm.Step, inputs map[string]json.RawMessage) (json.RawMessage, error) {
	o.mu.Lock()
	o.ran[st.ID]++
	if o.ran[st.ID] > 1 {
		o.problems = append(o.problems, st.ID+" ran twice")
	}
	for _, d := range o.rr.deps[st.ID] {
		if !o.succeeded[d] {
			o.problems = append(o.problems, fmt.Sprintf("%s started before its dependency %s succeeded", st.ID, d))
		}
	}
	for id := range inputs {
		if !o.succeeded[id] {
			o.problems = append(o.problems, fmt.Sprintf("%s saw the output of %s, which did not succeed", st.ID, id))
		}
		if o.rr.dag && !slices.Contains(o.rr.deps[st.ID], id) {
			o.problems = append(o.problems, fmt.Sprintf("%s saw the output of %s, not a dependency", st.ID, id))
		}
		if id[:2] != st.ID[:2] {
			o.problems = append(o.problems, fmt.Sprintf("%s saw the output of %s, of another revision", st.ID, id))
		}
	}
	if !o.rr.dag {
		// In order, a step sees every earlier step of its plan that returned.
		for _, id := range o.order {
			if _, ok := inputs[id]; !ok && id[:2] == st.ID[:2] {
				o.problems = append(o.problems, fmt.Sprintf("%s did not see the output of %s", st.ID, id))
			}
		}
	}
	if !sameOutputs(llm.StepInputs(ctx), inputs) {
		o.problems = append(o.problems, st.ID+": StepInputs differs from the executor's inputs")
	}
	o.running++
	o.most = max(o.most, o.running)
	o.mu.Unlock()
	defer func() {
		o.mu.Lock()
		o.running--
		o.mu.Unlock()
	}()

	switch o.rr.fates[st.ID] {
	case fateFail:
		return nil, errors.New("failed on purpose")
	case fatePanic:
		panic("panicked on purpose")
	case fateCancel:
		o.cancel()
		return nil, ctx.Err()
	}
	o.mu.Lock()
	o.succeeded[st.ID] = true
	o.order = append(o.order, st.ID)
	o.mu.Unlock()
	return json.RawMessage(`"` + st.ID + `"`), nil
}

func sameOutputs(a, b map[string]json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if string(b[k]) != string(v) {
			return false
		}
	}
	return true
}

// TestRandomRunsKeepTheirInvariants runs many random plans, in order and
// as DAGs, with steps that fail, panic or cancel the run and hooks that
// replan or abort, and checks what must hold whatever happens: no step
// runs twice or before its dependencies, the concurrency limit holds,
// every step of every plan ends with exactly one record, and the status
// agrees with the records.
func TestRandomRunsKeepTheirInvariants(t *testing.T) {
	for seed := range uint64(400) {
		r := rand.New(rand.NewPCG(seed, 7))
		rr := newRandomRun(r)
		ctx, cancel := context.WithCancel(context.Background())
		obs := &observer{rr: rr, cancel: cancel, ran: map[string]int{}, succeeded: map[string]bool{}}
		opts := []llm.Option{
			llm.WithMaxReplans(rr.maxReplan),
			llm.WithOnStep(func(_ context.Context, rec llm.StepRecord) llm.Directive {
				switch rr.hook[rec.Step.ID] {
				case llm.DirectiveReplan:
					return llm.Replan("hook")
				case llm.DirectiveAbort:
					return llm.Abort("hook")
				}
				return llm.Continue()
			}),
		}
		if rr.dag {
			opts = append(opts, llm.WithDAG(rr.limit))
		}
		res, err := llm.NewPlanner(trip, llm.ScriptedReplies(rr.plans...), opts...).
			Run(ctx, "ping", llm.FuncTarget(trip, rich, obs.exec))
		cancel()
		name := fmt.Sprintf("seed %d (dag %v, limit %d, replans ≤ %d)", seed, rr.dag, rr.limit, rr.maxReplan)
		require.Empty(t, obs.problems, name)
		require.NotNil(t, res, name)
		if rr.dag {
			assert.LessOrEqual(t, obs.most, rr.limit, name)
		} else {
			assert.LessOrEqual(t, obs.most, 1, name)
		}
		assert.LessOrEqual(t, res.Replans, rr.maxReplan, name)
		assert.Equal(t, res.Status == llm.StatusCompleted, err == nil, "%s: %v", name, err)

		// Every step of every plan the run used ends with exactly one
		// record; a step has a record other than skipped iff it ran.
		records := map[string][]llm.StepRecord{}
		for _, rec := range res.Steps {
			records[rec.Step.ID] = append(records[rec.Step.ID], rec)
		}
		// (A replan is counted when it begins: the last plan may be older.)
		require.NotNil(t, res.Plan, name)
		last := res.Plan.Revision
		assert.LessOrEqual(t, last, res.Replans, name)
		for rev := 0; rev <= last; rev++ {
			for i := 0; ; i++ {
				id := fmt.Sprintf("r%ds%d", rev, i)
				if _, ok := rr.deps[id]; !ok {
					break
				}
				recs := records[id]
				require.Len(t, recs, 1, "%s: records of %s", name, id)
				rec := recs[0]
				assert.NotEqual(t, llm.StepRunning, rec.Status, "%s: %s", name, id)
				assert.Equal(t, rec.Status != llm.StepSkipped, obs.ran[id] == 1, "%s: %s is %s", name, id, rec.Status)
				if rec.Status == llm.StepDone {
					assert.True(t, obs.succeeded[id], "%s: %s", name, id)
				}
				if res.Status == llm.StatusCompleted && rev == last {
					assert.Equal(t, llm.StepDone, rec.Status, "%s: %s of the last plan", name, id)
				}
			}
		}
		if errors.Is(err, context.Canceled) {
			assert.Equal(t, llm.StatusCancelled, res.Status, name)
		}
		var pe *llm.PanicError
		if errors.As(err, &pe) {
			assert.Equal(t, llm.StatusFailed, res.Status, name)
		}
	}
}
