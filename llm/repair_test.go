package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/runtime"
	"github.com/rolegen/rolegen/runtime/rolegenimpl"
)

// A carpenter, written by hand the way rolegen generates a role: a saw
// fetched from afar costs more the farther it is (a state-dependent
// cost), painting takes arguments, selling is guarded.

type woodState struct {
	Wood, Planks    int
	Saw, Table      bool
	Painted         bool
	Distance, Money int
}

const (
	wWood runtime.FieldID = iota
	wPlanks
	wSaw
	wTable
	wPainted
	wDistance
	wMoney
)

const (
	aChop runtime.ActionID = iota
	aFetchSaw
	aBuySaw
	aSawPlank
	aBuild
	aPaint
	aSell
)

const (
	gFurnished runtime.GoalID = iota
	gFinished
	gRich
)

const colorArgs = `{"type":"object","properties":{"color":{"type":"string"}},"required":["color"],"additionalProperties":false}`

type paintArgs struct {
	Color string `json:"color"`
}

type woodRole struct{}

func woodDomain() *runtime.Domain[woodState] {
	ids := func(f ...runtime.FieldID) []runtime.FieldID { return f }
	actions := []runtime.Action[woodState]{
		aChop: {
			Name: "ChopWood", Description: "Chops a log.",
			Effect: func(s woodState) woodState { s.Wood++; return s }, EffectText: "Wood += 1",
			Cost: 1, Reads: ids(wWood), Writes: ids(wWood),
		},
		aFetchSaw: {
			Name: "FetchSaw", Description: "Walks to the saw: the farther, the dearer.",
			Effect: func(s woodState) woodState { s.Saw = true; return s }, EffectText: "Saw = true",
			Cost: 1, CostOf: func(s woodState) float64 { return 1 + float64(s.Distance) }, CostText: "1 + Distance",
			Reads: ids(wDistance), Writes: ids(wSaw),
		},
		aBuySaw: {
			Name: "BuySaw", Description: "Buys a saw.",
			Pre: func(s woodState) bool { return s.Money >= 5 }, PreText: "Money >= 5",
			Effect: func(s woodState) woodState { s.Saw, s.Money = true, s.Money-5; return s }, EffectText: "Saw = true, Money -= 5",
			Cost: 3, PreReads: ids(wMoney), Reads: ids(wMoney), Writes: ids(wSaw, wMoney),
		},
		aSawPlank: {
			Name: "SawPlank", Description: "Saws a plank from a log.",
			Pre: func(s woodState) bool { return s.Wood >= 1 && s.Saw }, PreText: "Wood >= 1 && Saw",
			Effect: func(s woodState) woodState { s.Wood--; s.Planks++; return s }, EffectText: "Wood -= 1, Planks += 1",
			Cost: 1, PreReads: ids(wWood, wSaw), Reads: ids(wWood, wPlanks, wSaw), Writes: ids(wWood, wPlanks),
		},
		aBuild: {
			Name: "Build", Description: "Builds a table of two planks.",
			Pre: func(s woodState) bool { return s.Planks >= 2 }, PreText: "Planks >= 2",
			Effect: func(s woodState) woodState { s.Planks -= 2; s.Table = true; return s }, EffectText: "Planks -= 2, Table = true",
			Cost: 2, PreReads: ids(wPlanks), Reads: ids(wPlanks), Writes: ids(wPlanks, wTable), Fulfills: []runtime.GoalID{gFurnished},
		},
		aPaint: {
			Name: "Paint", Description: "Paints the table.",
			Pre: func(s woodState) bool { return s.Table }, PreText: "Table",
			Effect: func(s woodState) woodState { s.Painted = true; return s }, EffectText: "Painted = true",
			Cost: 1, PreReads: ids(wTable), Reads: ids(wTable), Writes: ids(wPainted), Args: colorArgs,
			CheckArgs: rolegenimpl.ArgsChecker[paintArgs]("Carpenter", "Paint"),
		},
		aSell: {
			Name: "Sell", Description: "Sells the table.",
			Pre: func(s woodState) bool { return s.Table }, PreText: "Table",
			Effect: func(s woodState) woodState { s.Table, s.Money = false, s.Money+20; return s }, EffectText: "Table = false, Money += 20",
			Cost: 1, PreReads: ids(wTable), Reads: ids(wTable, wMoney), Writes: ids(wTable, wMoney), Guarded: true,
		},
	}
	return runtime.NewDomain(runtime.Domain[woodState]{
		Name: "Carpenter",
		Fields: []runtime.Field{
			{Name: "Wood", Type: "int", Kind: runtime.KindInt}, {Name: "Planks", Type: "int", Kind: runtime.KindInt},
			{Name: "Saw", Type: "bool", Kind: runtime.KindBool}, {Name: "Table", Type: "bool", Kind: runtime.KindBool},
			{Name: "Painted", Type: "bool", Kind: runtime.KindBool}, {Name: "Distance", Type: "int", Kind: runtime.KindInt},
			{Name: "Money", Type: "int", Kind: runtime.KindInt},
		},
		Actions: actions,
		Goals: []runtime.Goal[woodState]{
			gFurnished: {Name: "Furnished", Cond: func(s woodState) bool { return s.Table }, CondText: "Table", Reads: ids(wTable)},
			gFinished: {Name: "Finished", Cond: func(s woodState) bool { return s.Table && s.Painted }, CondText: "Table && Painted",
				Reads: ids(wTable, wPainted)},
			gRich: {Name: "Rich", Cond: func(s woodState) bool { return s.Money >= 20 }, CondText: "Money >= 20", Reads: ids(wMoney)},
		},
	})
}

var wood = woodDomain()

// woodPaintArgs is what rolegen generates for Paint: the handle
// runtime.WithArgs and llm.WithArgs take.
var woodPaintArgs = runtime.ArgAction[*woodRole, woodState, paintArgs]{Domain: wood, ID: aPaint}

// paintBlue supplies Paint's arguments to repair.
var paintBlue = llm.WithArgs(woodPaintArgs, func(woodState) (paintArgs, error) { return paintArgs{Color: "blue"}, nil })

// woodRun runs the model's single reply from s and returns the result,
// the steps performed and the model.
func woodRun(t *testing.T, s woodState, reply string, opts ...llm.Option) (*llm.Result, []string, *llm.ScriptedModel) {
	t.Helper()
	model := llm.ScriptedReplies(reply)
	var ran []string
	exec := func(_ context.Context, st llm.Step, _ map[string]json.RawMessage) (json.RawMessage, error) {
		ran = append(ran, st.ID+":"+st.Capability)
		return nil, nil
	}
	planner := llm.NewPlanner(wood, model, append([]llm.Option{llm.WithRequireVerified(0)}, opts...)...)
	res, err := planner.Run(context.Background(), "a table", llm.FuncTarget(wood, s, exec))
	require.NoError(t, err)
	return res, ran, model
}

func TestRepairBridgesAFailingPreconditionWithoutAModelCall(t *testing.T) {
	res, ran, model := woodRun(t, woodState{Wood: 2, Money: 10},
		planJSON(step("p1", "SawPlank", "{}"), step("p2", "SawPlank", "{}", "p1"), step("b", "Build", "{}", "p2")))
	assert.Equal(t, llm.StatusCompleted, res.Status)
	assert.Len(t, model.Requests(), 1, "no second model call")
	assert.Equal(t, []string{"repair-1:FetchSaw", "p1:SawPlank", "p2:SawPlank", "b:Build"}, ran)
	inserted := res.Plan.Inserted()
	require.Len(t, inserted, 1)
	assert.Equal(t, &llm.Insertion{For: "p1", Precondition: "Wood >= 1 && Saw"}, inserted[0].Inserted)
	assert.True(t, res.Plan.Verified)
	p1, _ := res.Plan.Step("p1")
	assert.Equal(t, []string{"repair-1"}, p1.DependsOn, "the step it was inserted for depends on it")
	assert.Empty(t, inserted[0].DependsOn, "it depends on what that step depended on")
	for _, rec := range res.Steps {
		if rec.Step.ID == "repair-1" {
			assert.NotNil(t, rec.Step.Inserted, "the run's records keep the marking")
		}
	}
}

// The checkpoint of a run keeps the marking, and so does the plan a
// resumed run goes on with.
func TestInsertedStepsAreCheckpointed(t *testing.T) {
	store := llm.NewMemoryStore()
	res, _, _ := woodRun(t, woodState{Wood: 1, Money: 10}, planJSON(step("p", "SawPlank", "{}")), llm.WithStore(store))
	cp, err := store.Load(context.Background(), res.RunID)
	require.NoError(t, err)
	require.Len(t, cp.Plan.Inserted(), 1)
	assert.Equal(t, "p", cp.Plan.Inserted()[0].Inserted.For)
	var marked int
	for _, rec := range cp.Steps {
		if rec.Step.Inserted != nil {
			marked++
		}
	}
	assert.Equal(t, 1, marked)
}

// The bridge is the cheapest by the domain's costs, in the state it
// starts from: a near saw is fetched, a far one bought.
func TestRepairTakesTheCheapestBridgeWithStateDependentCosts(t *testing.T) {
	plan := planJSON(step("p", "SawPlank", "{}"))
	_, near, _ := woodRun(t, woodState{Wood: 1, Money: 10, Distance: 1}, plan)
	assert.Equal(t, []string{"repair-1:FetchSaw", "p:SawPlank"}, near, "FetchSaw costs 2, BuySaw 3")
	_, far, _ := woodRun(t, woodState{Wood: 1, Money: 10, Distance: 7}, plan)
	assert.Equal(t, []string{"repair-1:BuySaw", "p:SawPlank"}, far, "FetchSaw costs 8, BuySaw 3")
}

func TestRepairInsertsSeveralStepsAndChainsThem(t *testing.T) {
	res, ran, _ := woodRun(t, woodState{Saw: true, Planks: 1}, planJSON(step("b", "Build", "{}")))
	assert.Equal(t, []string{"repair-1:ChopWood", "repair-2:SawPlank", "b:Build"}, ran)
	r2, _ := res.Plan.Step("repair-2")
	assert.Equal(t, []string{"repair-1"}, r2.DependsOn)
	b, _ := res.Plan.Step("b")
	assert.Equal(t, []string{"repair-2"}, b.DependsOn)
}

// A step dropped in the middle of a DAG plan is bridged where it was:
// the bridge depends on what the failing step depended on, the failing
// step on the bridge, and the plan runs as a DAG in that order.
func TestRepairKeepsTheMeaningOfADAG(t *testing.T) {
	res, ran, _ := woodRun(t, woodState{Wood: 2, Saw: true},
		planJSON(step("c", "ChopWood", "{}"), step("p1", "SawPlank", "{}", "c"), step("b", "Build", "{}", "p1")),
		llm.WithDAG(1))
	assert.Equal(t, []string{"c:ChopWood", "p1:SawPlank", "repair-1:SawPlank", "b:Build"}, ran)
	r1, _ := res.Plan.Step("repair-1")
	assert.Equal(t, []string{"p1"}, r1.DependsOn)
	b, _ := res.Plan.Step("b")
	assert.Equal(t, []string{"p1", "repair-1"}, b.DependsOn)
}

func TestRepairCompletesThePlanToItsGoals(t *testing.T) {
	plan := planJSON(step("p1", "SawPlank", "{}"), step("p2", "SawPlank", "{}"))
	res, ran, _ := woodRun(t, woodState{Wood: 2, Saw: true}, plan, llm.WithGoals(gFinished), paintBlue)
	assert.Equal(t, []string{"p1:SawPlank", "p2:SawPlank", "repair-1:Build", "repair-2:Paint"}, ran)
	r1, _ := res.Plan.Step("repair-1")
	assert.Equal(t, []string{"p1", "p2"}, r1.DependsOn, "the completion runs after the plan's last steps")
	assert.Equal(t, "to reach goal Finished", r1.Inserted.String())
	paint, _ := res.Plan.Step("repair-2")
	assert.JSONEq(t, `{"color":"blue"}`, string(paint.Args), "the supplier gave the arguments")
}

// Without a supplier an action that takes arguments is never inserted,
// and a guarded one never is: repair finds nothing, the critique says
// what it tried, and the model is asked again.
func TestRepairThatFindsNothingFallsBackToTheCritique(t *testing.T) {
	model := llm.ScriptedReplies(
		planJSON(step("p1", "SawPlank", "{}"), step("p2", "SawPlank", "{}"), step("b", "Build", "{}")),
		planJSON(step("p1", "SawPlank", "{}"), step("p2", "SawPlank", "{}"), step("b", "Build", "{}"),
			step("paint", "Paint", `{"color":"red"}`)),
	)
	var repairs []*llm.Repair
	obs := llm.ObserverFunc(func(ctx context.Context, ev llm.Event) context.Context {
		if ev.Kind == llm.EventRepair {
			repairs = append(repairs, ev.Repair)
		}
		return ctx
	})
	planner := llm.NewPlanner(wood, model, llm.WithRequireVerified(1), llm.WithGoals(gFinished), llm.WithObserver(obs))
	res, err := planner.Run(context.Background(), "a painted table", llm.FuncTarget(wood, woodState{Wood: 2, Saw: true},
		func(context.Context, llm.Step, map[string]json.RawMessage) (json.RawMessage, error) { return nil, nil }))
	require.NoError(t, err)
	assert.Len(t, res.Calls, 2)
	assert.Empty(t, res.Plan.Inserted())
	require.Len(t, repairs, 1)
	require.NotNil(t, repairs[0].Err)
	assert.Equal(t, []string{"Finished"}, repairs[0].Err.Goals)
	assert.Contains(t, repairs[0].Err.Excluded, "Paint (takes arguments: no llm.WithArgs supplier)")
	feedback := model.Requests()[1].Messages[3].Content
	assert.Contains(t, feedback, `goal Finished ("Table && Painted") does not hold after the last step`)
	assert.Contains(t, feedback, "repair found no sequence of actions it may insert that makes Finished hold after the last step")
	assert.Contains(t, feedback, "it may not insert Paint (takes arguments: no llm.WithArgs supplier)")

	// A guarded action is never inserted, whatever the approver.
	verr := verifyErr(t, woodState{Table: true}, planJSON(step("p", "Paint", `{"color":"red"}`)), llm.WithGoals(gRich), llm.WithApprover(llm.AutoApprove()))
	require.NotNil(t, verr.Repair)
	assert.Equal(t, []string{"Sell (guarded)"}, verr.Repair.Excluded)
	assert.ErrorIs(t, verr, llm.ErrUnverified)
}

// verifyErr is the *VerificationError a planner with opts ends a run
// with, when it requires verified plans and the model has no second plan.
func verifyErr(t *testing.T, s woodState, reply string, opts ...llm.Option) *llm.VerificationError {
	t.Helper()
	planner := llm.NewPlanner(wood, llm.ScriptedReplies(reply), append([]llm.Option{llm.WithRequireVerified(0)}, opts...)...)
	_, err := planner.Run(context.Background(), "goal", llm.FuncTarget(wood, s,
		func(context.Context, llm.Step, map[string]json.RawMessage) (json.RawMessage, error) { return nil, nil }))
	verr, ok := errors.AsType[*llm.VerificationError](err)
	require.True(t, ok, "%v", err)
	return verr
}

func TestRepairIsBounded(t *testing.T) {
	// Ten planks take twenty steps: more than the step budget of 8.
	verr := verifyErr(t, woodState{Saw: true}, planJSON(step("b", "Build", "{}")),
		llm.WithMaxSteps(2))
	require.NotNil(t, verr.Repair)
	assert.ErrorIs(t, verr.Repair, runtime.ErrMaxStepsExceeded)
	assert.Contains(t, verr.Error(), "every sequence found is too long for the step budget")

	// A budget of one state is spent at once.
	verr = verifyErr(t, woodState{Saw: true}, planJSON(step("b", "Build", "{}")), llm.WithRepair(1))
	require.NotNil(t, verr.Repair)
	assert.ErrorIs(t, verr.Repair, runtime.ErrSearchBudgetExceeded)
	assert.Equal(t, 1, verr.Repair.Budget)
	assert.LessOrEqual(t, verr.Repair.Expansions, 1)

	// WithRepair(0) turns it off.
	verr = verifyErr(t, woodState{Saw: true}, planJSON(step("b", "Build", "{}")), llm.WithRepair(0))
	assert.Nil(t, verr.Repair)
}

// Steps beyond the step budget stay skipped: a bridge that would push a
// step the plan runs beyond it is refused.
func TestRepairKeepsWithinTheStepBudget(t *testing.T) {
	plan := planJSON(step("p1", "SawPlank", "{}"), step("c", "ChopWood", "{}"), step("p2", "SawPlank", "{}"))
	verr := verifyErr(t, woodState{Wood: 2}, plan, llm.WithMaxSteps(3))
	require.NotNil(t, verr.Repair)
	assert.Contains(t, verr.Repair.Error(), "the plan already takes the step budget of 3")

	res, ran, _ := woodRun(t, woodState{Wood: 2}, plan, llm.WithMaxSteps(4))
	assert.Equal(t, []string{"repair-1:FetchSaw", "p1:SawPlank", "c:ChopWood", "p2:SawPlank"}, ran)
	assert.Len(t, res.Plan.Steps, 4)
}

func TestWithArgsIsCheckedAgainstTheDomain(t *testing.T) {
	other := runtime.ArgAction[*woodRole, tripState, struct{ To string }]{Domain: trip, ID: 0}
	assert.PanicsWithValue(t, "llm.NewPlanner: WithArgs: a supplier over another state type than llm_test.woodState", func() {
		llm.NewPlanner(wood, llm.ScriptedReplies(), llm.WithArgs(other, func(tripState) (struct{ To string }, error) { return struct{ To string }{}, nil }))
	})
	otherDomain := runtime.ArgAction[*woodRole, woodState, paintArgs]{Domain: woodDomain(), ID: aPaint}
	assert.PanicsWithValue(t, "llm.NewPlanner: WithArgs: the action is not of domain Carpenter", func() {
		llm.NewPlanner(wood, llm.ScriptedReplies(), llm.WithArgs(otherDomain, func(woodState) (paintArgs, error) { return paintArgs{}, nil }))
	})
	noArgs := runtime.ArgAction[*woodRole, woodState, paintArgs]{Domain: wood, ID: aChop}
	assert.Panics(t, func() {
		llm.NewPlanner(wood, llm.ScriptedReplies(), llm.WithArgs(noArgs, func(woodState) (paintArgs, error) { return paintArgs{}, nil }))
	})
}

// A supplier that fails, or gives arguments the action refuses, makes the
// repair fail with its reason.
func TestRepairWithABadSupplier(t *testing.T) {
	plan := planJSON(step("b", "Build", "{}"))
	failing := llm.WithArgs(woodPaintArgs, func(woodState) (paintArgs, error) { return paintArgs{}, errors.New("no paint") })
	verr := verifyErr(t, woodState{Planks: 2}, plan, llm.WithGoals(gFinished), failing)
	require.NotNil(t, verr.Repair)
	assert.Contains(t, verr.Repair.Error(), "the arguments of Paint: no paint")
}

// Repair is deterministic: the same plan and state give the same repaired
// plan, byte for byte, every time.
func TestRepairIsDeterministic(t *testing.T) {
	var first string
	for i := range 20 {
		res, _, _ := woodRun(t, woodState{Money: 10, Distance: 2},
			planJSON(step("b", "Build", "{}")), llm.WithGoals(gFinished), paintBlue)
		b, err := json.Marshal(res.Plan.Steps)
		require.NoError(t, err)
		if i == 0 {
			first = string(b)
			continue
		}
		require.Equal(t, first, string(b))
	}
	assert.Equal(t, 6, strings.Count(first, `"inserted"`), first)
}

func ExampleWithArgs() {
	model := llm.ScriptedReplies(planJSON(step("b", "Build", "{}")))
	planner := llm.NewPlanner(wood, model, llm.WithGoals(gFinished),
		llm.WithArgs(woodPaintArgs, func(woodState) (paintArgs, error) { return paintArgs{Color: "blue"}, nil }))
	res, err := planner.Propose(context.Background(), "a painted table", woodState{Wood: 2, Saw: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, st := range res.Plan.Steps {
		if st.Inserted != nil {
			fmt.Println(st.ID, st.Capability, string(st.Args), "inserted", st.Inserted)
		} else {
			fmt.Println(st.ID, st.Capability, string(st.Args))
		}
	}
	// Output:
	// repair-1 SawPlank {} inserted before step "b" (Planks >= 2)
	// repair-2 SawPlank {} inserted before step "b" (Planks >= 2)
	// b Build {}
	// repair-3 Paint {"color":"blue"} inserted to reach goal Finished
}
