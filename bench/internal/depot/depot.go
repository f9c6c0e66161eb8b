// Package depot is a warehouse keeper of six actions, written for the
// repair benchmark: two actions take typed arguments (which repair may
// insert only with a supplier), the truck costs more the farther it comes.
package depot

import "context"

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Keeper ships orders from crates a truck brings.
type Keeper struct {
	Truck    bool `plan:"state"` // a truck waits at the dock
	Crates   int  `plan:"state"`
	Shelved  int  `plan:"state"`
	Orders   int  `plan:"state"`
	Packed   int  `plan:"state"`
	Shipped  int  `plan:"state"`
	Distance int  `plan:"state"` // how far the truck comes from

	// Delivered: two parcels shipped.
	Delivered struct{} `plan:"goal=Shipped >= 2"`
}

// Bay is the dock a truck unloads at.
type Bay struct {
	Number int `json:"number"`
}

// Order is a customer's order.
type Order struct {
	Customer string `json:"customer"`
}

// CallTruck calls a truck; the farther, the dearer.
//
//plan:action pre="!Truck && Distance >= 0" post="Truck = true" cost="2 + Distance / 10"
func (k *Keeper) CallTruck() { k.Truck = true }

// Unload unloads the truck's two crates at a bay.
//
//plan:action pre="Truck" post="Truck = false, Crates += 2" cost=2
func (k *Keeper) Unload(_ context.Context, in Bay) error { k.Truck = false; k.Crates += 2; return nil }

// Shelve puts a crate on the shelves.
//
//plan:action pre="Crates >= 1" post="Crates -= 1, Shelved += 1"
func (k *Keeper) Shelve() { k.Crates--; k.Shelved++ }

// TakeOrder takes a customer's order.
//
//plan:action post="Orders += 1"
func (k *Keeper) TakeOrder(_ context.Context, in Order) error { k.Orders++; return nil }

// Pick packs a shelved item for an order.
//
//plan:action pre="Shelved >= 1 && Orders >= 1" post="Shelved -= 1, Orders -= 1, Packed += 1"
func (k *Keeper) Pick() { k.Shelved--; k.Orders--; k.Packed++ }

// Ship ships a parcel.
//
//plan:action pre="Packed >= 1" post="Packed -= 1, Shipped += 1" cost=3 fulfills=Delivered
func (k *Keeper) Ship() { k.Packed--; k.Shipped++ }
