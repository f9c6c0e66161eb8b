package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/runtime"
)

// The soldier of the spec, as rolegen would generate it.

type SoldierState struct {
	Ammo      int
	Magazines int
}

var soldierActions = []runtime.Action[SoldierState]{
	{
		Name: "FetchMagazine", Description: "FetchMagazine picks up a magazine.",
		Effect:     func(s SoldierState) SoldierState { s.Magazines++; return s },
		EffectText: "Magazines = Magazines + 1",
		Cost:       1, Value: 1, Weight: 1,
		Reads: []runtime.FieldID{1}, Writes: []runtime.FieldID{1},
	},
	{
		Name: "Reload", Description: "Reload loads a magazine.",
		Pre:        func(s SoldierState) bool { return s.Magazines > 0 },
		PreText:    "Magazines > 0",
		Effect:     func(s SoldierState) SoldierState { s.Ammo, s.Magazines = 30, s.Magazines-1; return s },
		EffectText: "Ammo = 30, Magazines = Magazines - 1",
		Cost:       2, Value: 1, Weight: 1,
		PreReads: []runtime.FieldID{1}, Reads: []runtime.FieldID{1},
		Writes: []runtime.FieldID{0, 1}, Fulfills: []runtime.GoalID{0},
	},
}

var SoldierDomain = runtime.NewDomain(runtime.Domain[SoldierState]{
	Name: "Soldier",
	Fields: []runtime.Field{
		{Name: "Ammo", Type: "int", Kind: runtime.KindInt},
		{Name: "Magazines", Type: "int", Kind: runtime.KindInt},
	},
	Actions: soldierActions,
	Goals: []runtime.Goal[SoldierState]{{
		Name: "Armed", Priority: runtime.High, CondText: "Ammo > 10",
		Cond:  func(s SoldierState) bool { return s.Ammo > 10 },
		Reads: []runtime.FieldID{0},
	}},
})

// Plan with a model (scripted here), check the plan symbolically, repair
// it, run it.
func Example() {
	// The plan reloads before it has a magazine: verification catches it,
	// and A* over the role's actions finds the missing step.
	model := llm.ScriptedReplies(`{"steps":[{"id":"reload","capability":"Reload","args":{},"dependsOn":[]}]}`)
	planner := llm.NewPlanner(SoldierDomain, model, llm.WithRequireVerified(1))

	exec := func(_ context.Context, st llm.Step, _ map[string]json.RawMessage) (json.RawMessage, error) {
		fmt.Println("perform", st.Capability)
		return nil, nil
	}
	res, err := planner.Run(context.Background(), "Be armed: Ammo > 10", llm.FuncTarget(SoldierDomain, SoldierState{}, exec))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Status, "after", len(res.Calls), "model call")
	for _, st := range res.Plan.Inserted() {
		fmt.Println("inserted", st.ID, st.Capability, st.Inserted)
	}
	// Output:
	// perform FetchMagazine
	// perform Reload
	// completed after 1 model call
	// inserted repair-1 FetchMagazine before step "reload" (Magazines > 0)
}

// Without repair, a plan that fails verification goes back to the model
// with the critique.
func ExampleWithRepair() {
	model := llm.ScriptedReplies(
		`{"steps":[{"id":"reload","capability":"Reload","args":{},"dependsOn":[]}]}`,
		"```json\n"+`{"steps":[
			{"id":"fetch","capability":"FetchMagazine","args":{},"dependsOn":[]},
			{"id":"reload","capability":"Reload","args":{},"dependsOn":["fetch"]}]}`+"\n```",
	)
	planner := llm.NewPlanner(SoldierDomain, model, llm.WithRequireVerified(1), llm.WithRepair(0))

	exec := func(_ context.Context, st llm.Step, _ map[string]json.RawMessage) (json.RawMessage, error) {
		fmt.Println("perform", st.Capability)
		return nil, nil
	}
	res, err := planner.Run(context.Background(), "Be armed: Ammo > 10", llm.FuncTarget(SoldierDomain, SoldierState{}, exec))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Status, "after", len(res.Calls), "model calls")
	last := model.Requests()[1].Messages
	fmt.Println(last[len(last)-1].Content)
	// Output:
	// perform FetchMagazine
	// perform Reload
	// completed after 2 model calls
	// The plan does not work when simulated from the current state: step "reload" (Reload): precondition "Magazines > 0" does not hold where Magazines = 0.
	// Reply with a corrected plan (the JSON object only).
}

// Plan-only mode: propose a plan, let a human edit and approve it, then
// run it.
func ExamplePlanner_Propose() {
	model := llm.ScriptedReplies(`{"steps":[
		{"id":"f1","capability":"FetchMagazine","args":{},"dependsOn":[]},
		{"id":"f2","capability":"FetchMagazine","args":{},"dependsOn":[]},
		{"id":"r","capability":"Reload","args":{},"dependsOn":["f1"]}]}`)
	planner := llm.NewPlanner(SoldierDomain, model)
	ctx := context.Background()

	proposed, err := planner.Propose(ctx, "Be armed", SoldierState{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(proposed.Status, len(proposed.Plan.Steps), "steps")

	// The human drops the second fetch.
	approved, err := planner.Approve(proposed.Plan, llm.RemoveSteps("f2"))
	if err != nil {
		fmt.Println(err)
		return
	}
	exec := func(_ context.Context, st llm.Step, _ map[string]json.RawMessage) (json.RawMessage, error) {
		fmt.Println("perform", st.ID)
		return nil, nil
	}
	res, err := planner.Execute(ctx, approved, llm.FuncTarget(SoldierDomain, SoldierState{}, exec))
	fmt.Println(res.Status, err)
	// Output:
	// awaiting_approval 3 steps
	// perform f1
	// perform r
	// completed <nil>
}

// A hook sees every step and may abort, replan or adjust the run.
func ExampleWithOnStep() {
	model := llm.ScriptedReplies(`{"steps":[
		{"id":"a","capability":"FetchMagazine","args":{},"dependsOn":[]},
		{"id":"b","capability":"FetchMagazine","args":{},"dependsOn":["a"]}]}`)
	hook := func(_ context.Context, rec llm.StepRecord) llm.Directive {
		fmt.Println("after", rec.Step.ID, rec.Status)
		return llm.Abort("one magazine is enough")
	}
	planner := llm.NewPlanner(SoldierDomain, model, llm.WithOnStep(hook))
	exec := func(context.Context, llm.Step, map[string]json.RawMessage) (json.RawMessage, error) { return nil, nil }
	res, err := planner.Run(context.Background(), "Stock up", llm.FuncTarget(SoldierDomain, SoldierState{}, exec))
	fmt.Println(res.Status, err)
	// Output:
	// after a done
	// failed llm: run aborted after step "a": one magazine is enough
}

// One runner per run: while a run is in progress, a second Resume of it —
// from another process, or here from inside the running step — fails at
// once and performs nothing.
func ExamplePlanner_Resume_runInProgress() {
	dir, err := os.MkdirTemp("", "runs")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	store, err := llm.NewFileStore(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	noop := func(context.Context, llm.Step, map[string]json.RawMessage) (json.RawMessage, error) { return nil, nil }
	other := llm.NewPlanner(SoldierDomain, llm.NewScriptedModel(), llm.WithStore(store))
	exec := func(ctx context.Context, st llm.Step, _ map[string]json.RawMessage) (json.RawMessage, error) {
		_, err := other.Resume(ctx, "armory", llm.FuncTarget(SoldierDomain, SoldierState{}, noop))
		fmt.Println(errors.Is(err, llm.ErrRunInProgress), err)
		fmt.Println("perform", st.ID)
		return nil, nil
	}
	model := llm.ScriptedReplies(`{"steps":[{"id":"fetch","capability":"FetchMagazine","args":{},"dependsOn":[]}]}`)
	owner := llm.NewPlanner(SoldierDomain, model, llm.WithStore(store))
	res, err := owner.Run(context.Background(), "Stock up", llm.FuncTarget(SoldierDomain, SoldierState{}, exec), llm.WithRunID("armory"))
	fmt.Println(res.Status, err)
	// Output:
	// true llm: run armory: run in progress: another runner owns it
	// perform fetch
	// completed <nil>
}
