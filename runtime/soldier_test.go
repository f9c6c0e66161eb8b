package runtime_test

import (
	"context"
	"errors"

	"github.com/rolegen/rolegen/runtime"
)

// The soldier of the spec, written by hand the way rolegen generates it.

type soldierState struct {
	Ammo      int
	Magazines int
}

const (
	fieldAmmo runtime.FieldID = iota
	fieldMagazines
)

const (
	actFetch runtime.ActionID = iota
	actReload
)

const goalArmed runtime.GoalID = 0

func soldierDomain() *runtime.Domain[soldierState] {
	return runtime.NewDomain(runtime.Domain[soldierState]{
		Name: "Soldier",
		Fields: []runtime.Field{
			{Name: "Ammo", Type: "int", Kind: runtime.KindInt},
			{Name: "Magazines", Type: "int", Kind: runtime.KindInt},
		},
		Actions: []runtime.Action[soldierState]{
			{
				Name:       "FetchMagazine",
				Effect:     func(s soldierState) soldierState { s.Magazines = s.Magazines + 1; return s },
				EffectText: "Magazines = Magazines + 1",
				Cost:       1, Value: 1, Weight: 1,
				Reads:  []runtime.FieldID{fieldMagazines},
				Writes: []runtime.FieldID{fieldMagazines},
			},
			{
				Name:       "Reload",
				Pre:        func(s soldierState) bool { return s.Magazines > 0 },
				PreText:    "Magazines > 0",
				Effect:     func(s soldierState) soldierState { s.Ammo, s.Magazines = 30, s.Magazines-1; return s },
				EffectText: "Ammo = 30, Magazines = Magazines - 1",
				Cost:       2, Value: 1, Weight: 1,
				PreReads: []runtime.FieldID{fieldMagazines},
				Reads:    []runtime.FieldID{fieldMagazines},
				Writes:   []runtime.FieldID{fieldAmmo, fieldMagazines},
				Fulfills: []runtime.GoalID{goalArmed},
			},
		},
		Goals: []runtime.Goal[soldierState]{
			{
				Name:     "Armed",
				Priority: runtime.High,
				Cond:     func(s soldierState) bool { return s.Ammo > 10 },
				CondText: "Ammo > 10",
				Reads:    []runtime.FieldID{fieldAmmo},
			},
		},
	})
}

// soldier is a role over the domain; its methods can be made to lie about
// the world to test Think.
type soldier struct {
	soldierState
	fetchFails   bool // FetchMagazine does nothing
	reloadAmmo   int  // what Reload really loads (30 when zero)
	stealOnFetch bool // someone takes the magazine right after fetching
	performed    []string
	failWith     error
}

func (s *soldier) PlanState() soldierState { return s.soldierState }

func (s *soldier) Perform(_ context.Context, a runtime.ActionID) error {
	if s.failWith != nil {
		return s.failWith
	}
	switch a {
	case actFetch:
		s.performed = append(s.performed, "FetchMagazine")
		if !s.fetchFails && !s.stealOnFetch {
			s.Magazines++
		}
	case actReload:
		s.performed = append(s.performed, "Reload")
		s.Ammo = 30
		if s.reloadAmmo != 0 {
			s.Ammo = s.reloadAmmo
		}
		s.Magazines--
	default:
		return errors.New("unknown action")
	}
	return nil
}
