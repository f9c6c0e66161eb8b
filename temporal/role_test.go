package temporal_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.temporal.io/sdk/activity"

	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/runtime"
)

// A courier role, written by hand the way rolegen generates it: pack,
// ship, notify; Work for wide plans, Fail for plans that fail.

type courierState struct {
	Packed   bool
	Shipped  bool
	Notified bool
	Worked   int
}

const (
	fPacked runtime.FieldID = iota
	fShipped
	fNotified
	fWorked
)

const (
	aPack runtime.ActionID = iota
	aShip
	aNotify
	aWork
	aFail
)

const workArgs = `{"type":"object","properties":{"ms":{"type":"integer"}},"required":["ms"],"additionalProperties":false}`

func courierDomain() *runtime.Domain[courierState] {
	actions := []runtime.Action[courierState]{
		{
			Name: "Pack", Description: "Packs the parcel.",
			Effect:     func(s courierState) courierState { s.Packed = true; return s },
			EffectText: "Packed = true", Cost: 1, Value: 1, Weight: 1,
			Writes: []runtime.FieldID{fPacked},
		},
		{
			Name: "Ship", Description: "Ships the parcel; slow.",
			Pre: func(s courierState) bool { return s.Packed }, PreText: "Packed",
			Effect:     func(s courierState) courierState { s.Shipped = true; return s },
			EffectText: "Shipped = true", Cost: 1, Value: 1, Weight: 1, Tags: []string{"slow"},
			PreReads: []runtime.FieldID{fPacked}, Reads: []runtime.FieldID{fPacked}, Writes: []runtime.FieldID{fShipped},
		},
		{
			Name: "Notify", Description: "Tells the customer.",
			Pre: func(s courierState) bool { return s.Shipped }, PreText: "Shipped",
			Effect:     func(s courierState) courierState { s.Notified = true; return s },
			EffectText: "Notified = true", Cost: 1, Value: 1, Weight: 1, Guarded: true,
			PreReads: []runtime.FieldID{fShipped}, Reads: []runtime.FieldID{fShipped}, Writes: []runtime.FieldID{fNotified},
		},
		{
			Name: "Work", Description: "Works for a while.",
			Effect:     func(s courierState) courierState { s.Worked++; return s },
			EffectText: "Worked++", Cost: 1, Value: 1, Weight: 1, Args: workArgs,
			Reads: []runtime.FieldID{fWorked}, Writes: []runtime.FieldID{fWorked},
		},
		{
			Name: "Fail", Description: "Always fails.",
			Cost: 1, Value: 1, Weight: 1,
		},
	}
	return runtime.NewDomain(runtime.Domain[courierState]{
		Name: "Courier",
		Fields: []runtime.Field{
			{Name: "Packed", Type: "bool", Kind: runtime.KindBool},
			{Name: "Shipped", Type: "bool", Kind: runtime.KindBool},
			{Name: "Notified", Type: "bool", Kind: runtime.KindBool},
			{Name: "Worked", Type: "int", Kind: runtime.KindInt},
		},
		Actions: actions,
		Goals: []runtime.Goal[courierState]{{
			Name: "Delivered", Priority: runtime.Normal,
			Cond:     func(s courierState) bool { return s.Shipped && s.Notified },
			CondText: "Shipped && Notified",
			Reads:    []runtime.FieldID{fShipped, fNotified},
		}},
	})
}

var courier = courierDomain()

// step renders a plan step as the model writes it.
func step(id, capability, args string, deps ...string) string {
	if deps == nil {
		deps = []string{}
	}
	d, _ := json.Marshal(deps)
	return fmt.Sprintf(`{"id":%q,"capability":%q,"args":%s,"dependsOn":%s}`, id, capability, args, d)
}

func planJSON(steps ...string) string { return `{"steps":[` + strings.Join(steps, ",") + `]}` }

// replies is a model that answers the n-th plan request of a run (0: the
// first plan, n: the n-th replan) with replies[n], the last reply for
// later ones. It keeps no state, so every worker process answers alike,
// and an activity retried elsewhere gets the same answer.
func replies(rs ...string) llm.Model {
	return llm.ModelFunc(func(_ context.Context, req llm.Request) (llm.Response, error) {
		n := 0
		for _, m := range req.Messages {
			if _, after, ok := strings.Cut(m.Content, "This is replan "); ok {
				fmt.Sscanf(after, "%d", &n)
			}
		}
		return llm.Response{Text: rs[min(n, len(rs)-1)], Usage: llm.Usage{PromptTokens: 100 + n, CompletionTokens: 10}}, nil
	})
}

// flaky is m whose first call fails.
func flaky(m llm.Model) llm.Model {
	var calls atomic.Int32
	return llm.ModelFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
		if calls.Add(1) == 1 {
			return llm.Response{}, errors.New("model server: 503 busy")
		}
		return m.Complete(ctx, req)
	})
}

// candidates answers a request for several plans (the API's n) with rs,
// in one reply.
func candidates(rs ...string) llm.Model {
	return llm.ModelFunc(func(_ context.Context, req llm.Request) (llm.Response, error) {
		resp := llm.Response{Text: rs[0], Usage: llm.Usage{PromptTokens: 100, CompletionTokens: 10 * len(rs)}}
		for _, r := range rs[1:min(len(rs), max(req.N, 1))] {
			resp.Alternatives = append(resp.Alternatives, llm.Choice{Text: r})
		}
		return resp, nil
	})
}

// courierRole performs the courier's actions: it returns the action and
// the attempt, writes a line for each start and end to a file of
// markers when given one, and keeps the highest number of steps in
// flight at once across every worker of the process.
type courierRole struct {
	markers string
	// hang makes the first attempt of this action block until the
	// process dies.
	hang string
	// fail makes these actions fail.
	fail map[string]bool

	mu    sync.Mutex
	steps []string
}

// ran returns the actions performed, in order.
func (c *courierRole) ran() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.steps...)
}

var (
	inflight, maxInflight atomic.Int32
	markMu                sync.Mutex
)

func (c *courierRole) mark(line string) {
	if c.markers == "" {
		return
	}
	markMu.Lock()
	defer markMu.Unlock()
	f, err := os.OpenFile(c.markers, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	fmt.Fprintf(f, "%s pid=%d\n", line, os.Getpid())
	_ = f.Sync()
}

func (c *courierRole) PerformJSON(ctx context.Context, a runtime.ActionID, args json.RawMessage) (json.RawMessage, error) {
	name := courier.Actions[a].Name
	attempt := int32(1)
	if activity.IsActivity(ctx) {
		attempt = activity.GetInfo(ctx).Attempt
	}
	n := inflight.Add(1)
	defer inflight.Add(-1)
	for {
		m := maxInflight.Load()
		if n <= m || maxInflight.CompareAndSwap(m, n) {
			break
		}
	}
	c.mark(fmt.Sprintf("start %s %d", name, attempt))
	c.mu.Lock()
	c.steps = append(c.steps, name)
	c.mu.Unlock()
	if name == c.hang && attempt == 1 {
		<-make(chan struct{}) // until the process is killed
	}
	switch {
	case c.fail[name]:
		return nil, fmt.Errorf("%s is out of order", name)
	case a == aWork:
		var in struct{ MS int }
		if err := json.Unmarshal(args, &in); err != nil {
			return nil, err
		}
		select {
		case <-time.After(time.Duration(in.MS) * time.Millisecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	c.mark(fmt.Sprintf("done %s %d", name, attempt))
	inputs := len(llm.StepInputs(ctx))
	return json.RawMessage(fmt.Sprintf(`{"action":%q,"inputs":%d}`, name, inputs)), nil
}
