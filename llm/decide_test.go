package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/llm"
)

// proposed proposes reply under runID with a planner over store and
// returns the planner.
func proposed(t *testing.T, store llm.Store, runID, reply string, opts ...llm.Option) *llm.Planner[tripState] {
	t.Helper()
	p := llm.NewPlanner(trip, llm.ScriptedReplies(reply), append([]llm.Option{llm.WithStore(store)}, opts...)...)
	res, err := p.Propose(context.Background(), "go to Paris", rich, llm.WithRunID(runID))
	require.NoError(t, err)
	require.Equal(t, llm.StatusAwaitingApproval, res.Status)
	return p
}

func TestProposalKeepsTheStateItWasMadeFrom(t *testing.T) {
	store := llm.NewMemoryStore()
	proposed(t, store, "r1", goodPlan)
	cp, err := store.Load(context.Background(), "r1")
	require.NoError(t, err)
	assert.JSONEq(t, `{"Money":500,"HasFlight":false,"HasHotel":false,"Pinged":0}`, string(cp.State))
}

func TestDecideApprovesAnEditedPlanAndResumeRunsIt(t *testing.T) {
	ctx := context.Background()
	store, err := llm.NewFileStore(t.TempDir())
	require.NoError(t, err)
	p := proposed(t, store, "r1", planJSON(step("f", "BookFlight", flightParis), step("a", "Ping", "{}"), step("b", "Ping", "{}")),
		llm.WithRequireVerified(0))

	ids, err := p.Runs(ctx, llm.StatusAwaitingApproval)
	require.NoError(t, err)
	assert.Equal(t, []string{"r1"}, ids)

	cp, err := store.Load(ctx, "r1")
	require.NoError(t, err)
	dec := llm.Decision{
		Order:      []string{"b", "f", "a"},
		Args:       map[string]json.RawMessage{"f": json.RawMessage(`{"from":"Bergen","to":"Paris","seats":2}`)},
		PlanDigest: cp.Plan.Digest(),
		By:         "ada",
	}
	saved, err := p.Decide(ctx, "r1", dec)
	require.NoError(t, err)
	assert.Equal(t, llm.StatusApproved, saved.Status)
	require.NotNil(t, saved.Decided)
	assert.Equal(t, "ada", saved.Decided.Decision.By)
	assert.Equal(t, cp.Plan.Digest(), saved.Decided.Digest)
	assert.True(t, saved.Plan.Approved)
	assert.True(t, saved.Plan.Verified)

	ids, err = p.Runs(ctx, llm.StatusAwaitingApproval)
	require.NoError(t, err)
	assert.Empty(t, ids)

	// A second decision sees the first.
	_, err = p.Decide(ctx, "r1", llm.Reject("too late"))
	var na *llm.NotAwaitingError
	require.ErrorAs(t, err, &na)
	assert.ErrorIs(t, err, llm.ErrNotAwaiting)
	assert.Equal(t, llm.StatusApproved, na.Status)
	assert.Contains(t, err.Error(), "approved by ada")

	rec := newRecorder()
	var args json.RawMessage
	rec.before = func(_ context.Context, st llm.Step) error {
		if st.ID == "f" {
			args = st.Args
		}
		return nil
	}
	res, err := p.Resume(ctx, "r1", rec.target(rich))
	require.NoError(t, err)
	assert.Equal(t, llm.StatusCompleted, res.Status)
	assert.Equal(t, []string{"b", "f", "a"}, rec.steps())
	assert.JSONEq(t, `{"from":"Bergen","to":"Paris","seats":2}`, string(args))
}

func TestDecideRefusesABadEditAndRecordsNothing(t *testing.T) {
	ctx := context.Background()
	store := llm.NewMemoryStore()
	p := proposed(t, store, "r1", goodPlan)
	before, err := store.Load(ctx, "r1")
	require.NoError(t, err)

	_, err = p.Decide(ctx, "r1", llm.EditArgs("s1", json.RawMessage(`{"from":"Oslo","to":"Paris","seats":"two"}`)))
	var ve *llm.ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, llm.InvalidArgs, ve.Kind)
	assert.Equal(t, "s1", ve.StepID)
	assert.Equal(t, "/seats", ve.Path)

	after, err := store.Load(ctx, "r1")
	require.NoError(t, err)
	assert.Equal(t, llm.StatusAwaitingApproval, after.Status)
	assert.Equal(t, before.Plan.Digest(), after.Plan.Digest())
	assert.Nil(t, after.Decided)
}

func TestDecideVerifiesAChangedPlanFromTheProposalsState(t *testing.T) {
	ctx := context.Background()
	store := llm.NewMemoryStore()
	p := proposed(t, store, "r1", planJSON(step("f", "BookFlight", flightParis), step("h", "BookHotel", hotelParis)), llm.WithRequireVerified(0))
	_, err := p.Decide(ctx, "r1", llm.ReorderSteps("h"))
	var ve *llm.VerificationError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "h", ve.StepID)
	assert.Equal(t, []llm.FieldValue{{Name: "HasFlight", Value: json.RawMessage("false")}}, ve.Fields)
	cp, err := store.Load(ctx, "r1")
	require.NoError(t, err)
	assert.Equal(t, llm.StatusAwaitingApproval, cp.Status)
}

func TestDecideRefusesADecisionOnAnotherPlan(t *testing.T) {
	ctx := context.Background()
	store := llm.NewMemoryStore()
	p := proposed(t, store, "r1", goodPlan)
	stale := llm.Approve()
	stale.PlanDigest = "0123456789abcdef0123456789abcdef"
	_, err := p.Decide(ctx, "r1", stale)
	var pc *llm.PlanChangedError
	require.ErrorAs(t, err, &pc)
	assert.ErrorIs(t, err, llm.ErrPlanChanged)
	assert.Contains(t, err.Error(), "changed since you looked")
	cp, err := store.Load(ctx, "r1")
	require.NoError(t, err)
	assert.Equal(t, cp.Plan.Digest(), pc.Digest)
	assert.Equal(t, llm.StatusAwaitingApproval, cp.Status)
}

func TestDecideRejects(t *testing.T) {
	ctx := context.Background()
	store := llm.NewMemoryStore()
	p := proposed(t, store, "r1", goodPlan)
	saved, err := p.Decide(ctx, "r1", llm.Reject("not Paris"))
	require.NoError(t, err)
	assert.Equal(t, llm.StatusRejected, saved.Status)
	assert.Contains(t, saved.Error, "not Paris")
	rec := newRecorder()
	_, err = p.Resume(ctx, "r1", rec.target(rich))
	assert.ErrorIs(t, err, llm.ErrRunFinished)
	assert.Empty(t, rec.steps())
}

// Two people deciding at once: one decision is recorded, the other is
// refused (the run is owned while the first is recorded, or it is decided).
func TestDecisionsAtOnceYieldOne(t *testing.T) {
	ctx := context.Background()
	store, err := llm.NewFileStore(t.TempDir())
	require.NoError(t, err)
	p := proposed(t, store, "r1", goodPlan)
	const n = 8
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			d := llm.Approve()
			if i%2 == 1 {
				d = llm.Reject("no")
			}
			_, errs[i] = p.Decide(ctx, "r1", d)
		})
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		if err == nil {
			won++
			continue
		}
		assert.True(t, assertRefusedAsDecided(err), "%v", err)
	}
	assert.Equal(t, 1, won)
}

func assertRefusedAsDecided(err error) bool {
	var na *llm.NotAwaitingError
	var rip *llm.RunInProgressError
	return errors.As(err, &na) || errors.As(err, &rip)
}

func TestDigestIgnoresSpacingAndEscaping(t *testing.T) {
	a, err := llm.ParsePlan(planJSON(step("s", "Search", `{ "to" : "<Paris>" }`)))
	require.NoError(t, err)
	b, err := llm.ParsePlan(planJSON(step("s", "Search", `{"to":"\u003cParis\u003e"}`)))
	require.NoError(t, err)
	assert.Equal(t, a.Digest(), b.Digest())
	c, err := llm.ParsePlan(planJSON(step("s", "Search", `{"to":"Rome"}`)))
	require.NoError(t, err)
	assert.NotEqual(t, a.Digest(), c.Digest())
	d := a.Clone()
	d.Revision = 1
	assert.NotEqual(t, a.Digest(), d.Digest())
}

func TestRefusedRepliesAreKeptOnThePlan(t *testing.T) {
	wrong := planJSON(step("h", "BookHotel", hotelParis), step("f", "BookFlight", flightParis))
	p := llm.NewPlanner(trip, llm.ScriptedReplies("no plan here", wrong, goodPlan),
		llm.WithRequireVerified(1))
	res, err := p.Propose(context.Background(), "go", rich)
	require.NoError(t, err)
	require.Len(t, res.Plan.Refused, 2)
	assert.Equal(t, llm.CheckParse, res.Plan.Refused[0].Check)
	assert.Empty(t, res.Plan.Refused[0].Steps)
	assert.Equal(t, llm.CheckVerification, res.Plan.Refused[1].Check)
	assert.Contains(t, res.Plan.Refused[1].Critique, `step "h" (BookHotel): precondition "HasFlight" does not hold`)
	require.Len(t, res.Plan.Refused[1].Steps, 2)
	assert.Equal(t, "h", res.Plan.Refused[1].Steps[0].ID)
}

func TestFileStoreListsRunsByStatus(t *testing.T) {
	ctx := context.Background()
	store, err := llm.NewFileStore(t.TempDir())
	require.NoError(t, err)
	proposed(t, store, "b", goodPlan)
	proposed(t, store, "a", goodPlan)
	_, err = llm.NewPlanner(trip, llm.ScriptedReplies(goodPlan), llm.WithStore(store)).
		Run(ctx, "go", newRecorder().target(rich), llm.WithRunID("c"))
	require.NoError(t, err)
	ids, err := store.ListRuns(ctx, llm.StatusAwaitingApproval)
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b"}, ids)
	ids, err = store.ListRuns(ctx, llm.StatusCompleted)
	require.NoError(t, err)
	assert.Equal(t, []string{"c"}, ids)
}

// A revision of a plan approved by hand awaits approval again: Decide
// approves it, and Resume runs it after the steps done before.
func TestDecideARevisionAwaitingApproval(t *testing.T) {
	ctx := context.Background()
	store := llm.NewMemoryStore()
	p := llm.NewPlanner(trip, llm.ScriptedReplies(threePings, planJSON(step("q1", "Ping", "{}"), step("q2", "Ping", "{}"))), llm.WithStore(store))
	proposed, err := p.Propose(ctx, "ping", rich, llm.WithRunID("hand"))
	require.NoError(t, err)
	_, err = p.Decide(ctx, "hand", llm.Decision{PlanDigest: proposed.Plan.Digest()})
	require.NoError(t, err)
	rec := newRecorder()
	rec.fail["p2"] = errors.New("busy")
	res, err := p.Resume(ctx, "hand", rec.target(rich))
	require.NoError(t, err)
	require.Equal(t, llm.StatusAwaitingApproval, res.Status)
	require.Equal(t, 1, res.Plan.Revision)

	ids, err := p.Runs(ctx, llm.StatusAwaitingApproval)
	require.NoError(t, err)
	assert.Equal(t, []string{"hand"}, ids)
	_, err = p.Decide(ctx, "hand", llm.Decision{PlanDigest: proposed.Plan.Digest()})
	assert.ErrorIs(t, err, llm.ErrPlanChanged, "the decision on revision 0 does not decide revision 1")
	_, err = p.Decide(ctx, "hand", llm.Decision{Order: []string{"q2"}, PlanDigest: res.Plan.Digest()})
	require.NoError(t, err)
	res, err = p.Resume(ctx, "hand", rec.target(rich))
	require.NoError(t, err)
	assert.Equal(t, llm.StatusCompleted, res.Status)
	assert.Equal(t, []string{"0/p1:done", "0/p2:failed", "0/p3:skipped", "1/q2:done", "1/q1:done"}, statuses(res))
}
