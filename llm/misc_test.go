package llm_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/runtime"
)

func TestWithoutLivePreconditionsTrustsThePlan(t *testing.T) {
	rec := newRecorder()
	res, err := llm.NewPlanner(trip, llm.ScriptedReplies(hotelFirst), llm.WithoutLivePreconditions()).Run(context.Background(), "Paris", rec.target(rich))
	require.NoError(t, err)
	assert.Equal(t, []string{"h", "f"}, rec.steps())
	assert.False(t, res.Plan.Verified)
	assert.Contains(t, res.Plan.Critique, `precondition "HasFlight"`)
}

func TestPerformerExecutor(t *testing.T) {
	role := &travelRole{state: rich}
	exec := llm.PerformerExecutor(role)
	res, err := llm.NewPlanner(trip, llm.ScriptedReplies(goodPlan)).Run(context.Background(), "Paris", llm.FuncTarget(trip, rich, exec))
	require.NoError(t, err)
	assert.True(t, res.Succeeded())
	assert.Len(t, role.calls, 2)
}

func TestScriptedModel(t *testing.T) {
	m := llm.NewScriptedModel(llm.ReplyText("a"))
	m.Add(llm.Reply{Text: "b", Usage: llm.Usage{PromptTokens: 1, CompletionTokens: 2}})
	assert.Equal(t, 2, m.Remaining())
	ctx := context.Background()
	r, err := m.Complete(ctx, llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}})
	require.NoError(t, err)
	assert.Equal(t, "a", r.Text)
	r, err = m.Complete(ctx, llm.Request{})
	require.NoError(t, err)
	assert.Equal(t, llm.Usage{PromptTokens: 1, CompletionTokens: 2, TotalTokens: 3}, r.Usage)
	_, err = m.Complete(ctx, llm.Request{})
	assert.ErrorIs(t, err, llm.ErrScriptExhausted)
	assert.Len(t, m.Requests(), 3)

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = m.Complete(cancelled, llm.Request{})
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, llm.Usage{PromptTokens: 2, TotalTokens: 5}, llm.Usage{PromptTokens: 1, TotalTokens: 2}.Add(llm.Usage{PromptTokens: 1, TotalTokens: 3}))
}

func TestErrorTexts(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
		is   error
	}{
		{&llm.RejectedError{}, "llm: plan rejected by the approver", runtime.ErrRejected},
		{&llm.RejectedError{Reason: "too expensive"}, "llm: plan rejected by the approver: too expensive", llm.ErrRejected},
		{&llm.GuardedError{StepID: "w", Capability: "Wire"}, `llm: step "w" (Wire): plan contains a guarded action and no approver is set`, llm.ErrGuarded},
		{&llm.AbortError{Reason: "stop"}, "llm: run aborted: stop", llm.ErrAborted},
		{&llm.BudgetError{Limit: 10, Used: 12}, "llm: token budget exceeded: used 12 of 10 tokens", llm.ErrTokenBudget},
		{&llm.ValidationError{Kind: llm.EmptyPlan, Detail: "the plan has no steps"}, "llm: invalid plan: empty plan: the plan has no steps", llm.ErrEmptyPlan},
		{&llm.ParseError{Raw: "hello", Err: os.ErrInvalid}, "llm: unreadable model reply: invalid argument (reply: hello)", llm.ErrUnreadableReply},
	} {
		assert.EqualError(t, tc.err, tc.want)
		assert.ErrorIs(t, tc.err, tc.is)
	}
	assert.Equal(t, "kind(99)", llm.ValidationKind(99).String())
	assert.NotErrorIs(t, &llm.ValidationError{Kind: 99}, llm.ErrEmptyPlan)
	assert.Equal(t, []string{"continue", "adjust", "replan", "abort", "directive(9)"}, []string{
		llm.DirectiveContinue.String(), llm.DirectiveAdjust.String(), llm.DirectiveReplan.String(), llm.DirectiveAbort.String(), llm.DirectiveKind(9).String(),
	})
}

func TestStoresRejectBadCheckpoints(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	store, err := llm.NewFileStore(dir)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "torn.json"), []byte(`{"version":1,`), 0o644))
	_, err = store.Load(ctx, "torn")
	assert.ErrorContains(t, err, "corrupt checkpoint")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "future.json"), []byte(`{"version":7}`), 0o644))
	_, err = store.Load(ctx, "future")
	assert.ErrorContains(t, err, "checkpoint version 7")
	assert.Error(t, store.Save(ctx, &llm.Checkpoint{RunID: ".hidden"}))

	_, err = llm.NewFileStore(filepath.Join(dir, "torn.json", "sub"))
	assert.Error(t, err, "a file is in the way")

	mem := llm.NewMemoryStore()
	_, err = llm.NewPlanner(trip, llm.ScriptedReplies(goodPlan), llm.WithStore(mem)).Propose(ctx, "Paris", rich, llm.WithRunID("m1"))
	require.NoError(t, err)
	assert.Equal(t, []string{"m1"}, mem.Runs())
	assert.Equal(t, 1, mem.Saves())
	cp, err := mem.Load(ctx, "m1")
	require.NoError(t, err)
	assert.Equal(t, llm.StatusAwaitingApproval, cp.Status)
	assert.Empty(t, cp.Done())
	var raw map[string]json.RawMessage
	data, err := json.Marshal(cp)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &raw))
	assert.Contains(t, raw, "plan")
	assert.Contains(t, raw, "steps")
}

func TestReflectionParsing(t *testing.T) {
	d, err := llm.ParseReflection("```json\n" + `{"decision":"adjust","reason":"r","steps":[{"id":"x","capability":"Ping","args":null,"dependsOn":[]}]}` + "\n```")
	require.NoError(t, err)
	assert.Equal(t, llm.DirectiveAdjust, d.Kind)
	require.Len(t, d.Steps, 1)
	assert.Equal(t, "{}", string(d.Steps[0].Args))

	_, err = llm.ParseReflection(`{"decision":"dance","reason":"","steps":[]}`)
	assert.ErrorIs(t, err, llm.ErrUnreadableReply)
	_, err = llm.ParseReflection(`{"decision":"continue","reason":"","steps":[],"mood":"good"}`)
	assert.ErrorIs(t, err, llm.ErrUnreadableReply)

	schema := llm.ReflectionSchema(json.RawMessage(`{"type":"array"}`))
	var m map[string]any
	require.NoError(t, json.Unmarshal(schema, &m), "the reflection schema is JSON")
	assert.Equal(t, false, m["additionalProperties"])
}
