package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
	"github.com/rolegen/rolegen/runtime/rolegenimpl"
)

// A farmer walks to the market and buys seeds there with typed arguments
// (an order), which no planner chooses: the game supplies them.

type farmState struct {
	AtMarket bool
	Gold     int
	Seeds    int
}

type seedOrder struct {
	Crop string
	Bags int
}

const (
	farmGoMarket runtime.ActionID = iota
	farmBuySeeds
)

type farmer struct {
	farmState
	bought []seedOrder
	log    []string
}

func (f *farmer) PlanState() farmState { return f.farmState }

func (f *farmer) Perform(_ context.Context, a runtime.ActionID) error {
	switch a {
	case farmGoMarket:
		f.AtMarket = true
		f.log = append(f.log, "GoMarket")
		return nil
	case farmBuySeeds:
		return rolegenimpl.NeedsArguments("Farmer", "BuySeeds")
	}
	return rolegenimpl.UnknownAction("Farmer", a)
}

func (f *farmer) BuySeeds(_ context.Context, o seedOrder) error {
	if o.Bags < 1 {
		return fmt.Errorf("an order of %d bags", o.Bags)
	}
	f.bought = append(f.bought, o)
	f.Seeds += 5
	f.Gold -= 2
	f.log = append(f.log, "BuySeeds")
	return nil
}

var farmDomain = runtime.NewDomain(runtime.Domain[farmState]{
	Name: "Farmer",
	Fields: []runtime.Field{
		{Name: "AtMarket", Type: "bool", Kind: runtime.KindBool},
		{Name: "Gold", Type: "int", Kind: runtime.KindInt},
		{Name: "Seeds", Type: "int", Kind: runtime.KindInt},
	},
	Actions: []runtime.Action[farmState]{
		{
			Name:   "GoMarket",
			Pre:    func(s farmState) bool { return !s.AtMarket },
			Effect: func(s farmState) farmState { s.AtMarket = true; return s },
			Cost:   1, Value: 1, Weight: 1,
			PreReads: []runtime.FieldID{0}, Reads: []runtime.FieldID{0}, Writes: []runtime.FieldID{0},
		},
		{
			Name:    "BuySeeds",
			Pre:     func(s farmState) bool { return s.AtMarket && s.Gold >= 2 },
			PreText: "AtMarket && Gold >= 2",
			Effect:  func(s farmState) farmState { s.Seeds += 5; s.Gold -= 2; return s },
			Cost:    1, Value: 1, Weight: 1,
			PreReads: []runtime.FieldID{0, 1}, Reads: []runtime.FieldID{0, 1, 2}, Writes: []runtime.FieldID{1, 2},
			Fulfills: []runtime.GoalID{0},
			Args:     `{"type":"object"}`,
		},
	},
	Goals: []runtime.Goal[farmState]{{
		Name: "Sown", Cond: func(s farmState) bool { return s.Seeds > 0 }, CondText: "Seeds > 0",
		Reads: []runtime.FieldID{2},
	}},
})

var farmBuySeedsArgs = rolegenimpl.NewArgAction(farmDomain, farmBuySeeds, func(ctx context.Context, f *farmer, o seedOrder) error {
	return f.BuySeeds(ctx, o)
})

func TestThinkRefusesArgumentsWithoutSupplier(t *testing.T) {
	f := &farmer{farmState: farmState{Gold: 5}}
	ran, err := runtime.Think(context.Background(), runtime.NewAStar(farmDomain), f)
	require.ErrorIs(t, err, runtime.ErrNeedsArguments)
	var nerr *runtime.NeedsArgumentsError
	require.ErrorAs(t, err, &nerr)
	assert.Equal(t, 1, nerr.Step)
	assert.EqualError(t, err, "rolegen: Farmer: step 1 (BuySeeds) takes arguments and Think has no supplier for them: give Think runtime.WithArgs(FarmerBuySeedsArgs, f)")
	assert.Empty(t, ran)
	assert.Empty(t, f.log, "no step runs before the refusal")
}

func TestThinkSuppliesTypedArguments(t *testing.T) {
	f := &farmer{farmState: farmState{Gold: 5}}
	var seen []farmState
	supply := func(_ context.Context, s farmState) (seedOrder, error) {
		seen = append(seen, s)
		return seedOrder{Crop: "wheat", Bags: s.Gold / 2}, nil
	}
	ran, err := runtime.Think(context.Background(), runtime.NewAStar(farmDomain), f, runtime.WithArgs(farmBuySeedsArgs, supply))
	require.NoError(t, err)
	assert.Equal(t, []runtime.ActionID{farmGoMarket, farmBuySeeds}, ran)
	assert.Equal(t, []string{"GoMarket", "BuySeeds"}, f.log)
	assert.Equal(t, []farmState{{AtMarket: true, Gold: 5}}, seen, "the supplier sees the live state before the step")
	assert.Equal(t, []seedOrder{{Crop: "wheat", Bags: 2}}, f.bought)
	assert.Equal(t, farmState{AtMarket: true, Gold: 3, Seeds: 5}, f.farmState)
}

func TestThinkSupplierAndMethodErrors(t *testing.T) {
	broke := errors.New("no gold for seeds")
	f := &farmer{farmState: farmState{Gold: 5}}
	ran, err := runtime.Think(context.Background(), runtime.NewAStar(farmDomain), f,
		runtime.WithArgs(farmBuySeedsArgs, func(context.Context, farmState) (seedOrder, error) { return seedOrder{}, broke }))
	require.ErrorIs(t, err, broke)
	var aerr *runtime.ArgsError
	require.ErrorAs(t, err, &aerr)
	assert.EqualError(t, err, "rolegen: Farmer: step 1 (BuySeeds): arguments: no gold for seeds")
	assert.Equal(t, []runtime.ActionID{farmGoMarket}, ran)

	// The method's own error.
	f = &farmer{farmState: farmState{Gold: 5}}
	_, err = runtime.Think(context.Background(), runtime.NewAStar(farmDomain), f,
		runtime.WithArgs(farmBuySeedsArgs, func(context.Context, farmState) (seedOrder, error) { return seedOrder{Bags: 0}, nil }))
	assert.EqualError(t, err, "rolegen: Farmer: step 1 (BuySeeds): an order of 0 bags")
}

// wrappedFarmer is a role of another type than the one farmBuySeedsArgs
// calls its method on.
type wrappedFarmer struct{ inner *farmer }

func (w wrappedFarmer) PlanState() farmState { return w.inner.PlanState() }
func (w wrappedFarmer) Perform(ctx context.Context, a runtime.ActionID) error {
	return w.inner.Perform(ctx, a)
}

func TestThinkRefusesASupplierForAnotherRoleType(t *testing.T) {
	f := &farmer{farmState: farmState{Gold: 5}}
	_, err := runtime.Think(context.Background(), runtime.NewAStar(farmDomain), wrappedFarmer{f},
		runtime.WithArgs(farmBuySeedsArgs, func(context.Context, farmState) (seedOrder, error) { return seedOrder{Bags: 1}, nil }))
	assert.EqualError(t, err, "rolegen: Farmer: step 1 (BuySeeds): runtime.WithArgs(FarmerBuySeedsArgs, f) calls the method on the role type it was made for, and the role given to Think has another type")
	assert.Empty(t, f.log)
}

// The runtime's own errors say "rolegen:" once, also when a role's
// Perform returns them inside a step.
func TestStepErrorsSayRolegenOnce(t *testing.T) {
	err := rolegenimpl.NeedsArguments("Farmer", "BuySeeds")
	assert.EqualError(t, err, "rolegen: Farmer.BuySeeds takes arguments: call PerformJSON, or give Think runtime.WithArgs(FarmerBuySeedsArgs, f)")
	assert.ErrorIs(t, err, runtime.ErrNeedsArguments)

	// A hand-written domain whose typed action is not marked (Args empty)
	// reaches the role's Perform.
	acts := append([]runtime.Action[farmState](nil), farmDomain.Actions...)
	acts[farmBuySeeds].Args = ""
	d := runtime.NewDomain(runtime.Domain[farmState]{Name: "Farmer", Fields: farmDomain.Fields, Actions: acts, Goals: farmDomain.Goals})
	_, err = runtime.Think(context.Background(), runtime.NewAStar(d), &farmer{farmState: farmState{Gold: 5}})
	assert.EqualError(t, err, "rolegen: Farmer: step 1 (BuySeeds): takes arguments: call PerformJSON, or give Think runtime.WithArgs(FarmerBuySeedsArgs, f)")
	assert.ErrorIs(t, err, runtime.ErrNeedsArguments)
}
