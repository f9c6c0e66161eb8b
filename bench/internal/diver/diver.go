// Package diver is a pearl diver, written from the README by a new user:
// she dives from her boat for pearls, four to a bag, with air that each
// level down, each level up and each pearl use up, warms herself on the
// boat, and sells every pearl in her bag at once in port (Coins += 7 *
// Bag): a plan that fills the bag before it sails is far cheaper than one
// that sells a pearl a trip.
package diver

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Diver dives for pearls from a boat and sells them in port.
type Diver struct {
	Depth  int     `plan:"state; min=0; max=4"`
	Air    float64 `plan:"state; min=0; max=100"`
	Bag    int     `plan:"state; min=0; max=4"`
	Cold   int     `plan:"state; min=0; max=6"`
	Coins  int     `plan:"state; min=0"`
	InPort bool    `plan:"state"`
	Tank   bool    `plan:"state"`

	Breathing struct{} `plan:"goal=Air >= 20 || Depth == 0; priority=critical"`
	Warm      struct{} `plan:"goal=Cold <= 2; priority=high"`
	Rich      struct{} `plan:"goal=Coins >= 30"`
}

// Descend goes one level down; deeper is harder.
//
//plan:action pre="!InPort && Depth < 4 && Air >= 10" post="Depth += 1, Air -= 7.5" cost="1 + Depth"
func (d *Diver) Descend() { d.Depth++; d.Air -= 7.5 }

// Ascend comes one level up.
//
//plan:action pre="Depth > 0" post="Depth -= 1, Air -= 2.5" cost=1
func (d *Diver) Ascend() { d.Depth--; d.Air -= 2.5 }

// Gather picks a pearl off the bottom; the water is cold down there.
//
//plan:action pre="Depth >= 3 && Bag < 4 && Air >= 5" post="Bag += 1, Air -= 5, Cold += 1" cost=2
func (d *Diver) Gather() { d.Bag++; d.Air -= 5; d.Cold++ }

// Breathe fills the lungs at the surface.
//
//plan:action pre="Depth == 0 && Air < 100" post="Air = 100" cost=1
func (d *Diver) Breathe() { d.Air = 100 }

// Refill fills the lungs from a tank, anywhere; the tank is then empty.
//
//plan:action pre="Tank" post="Air = 100, Tank = false" cost=1
func (d *Diver) Refill() { d.Air = 100; d.Tank = false }

// WarmUp by the stove on the boat.
//
//plan:action pre="Depth == 0 && !InPort && Cold > 0" post="Cold -= 2" cost=2
func (d *Diver) WarmUp() { d.Cold -= 2 }

// Sail to port or back out.
//
//plan:action pre="Depth == 0 && !InPort" post="InPort = true" cost=4
func (d *Diver) SailIn() { d.InPort = true }

//plan:action pre="InPort" post="InPort = false" cost=4
func (d *Diver) SailOut() { d.InPort = false }

// Sell the pearls in port.
//
//plan:action pre="InPort && Bag >= 1" post="Coins += 7 * Bag, Bag = 0" cost=1
func (d *Diver) Sell() { d.Coins += 7 * d.Bag; d.Bag = 0 }

// BuyTank in port.
//
//plan:action pre="InPort && Coins >= 6 && !Tank" post="Tank = true, Coins -= 6" cost=1
func (d *Diver) BuyTank() { d.Tank = true; d.Coins -= 6 }

// Tea in port warms her up for coins.
//
//plan:action pre="InPort && Coins >= 2 && Cold > 0" post="Cold = 0, Coins -= 2" cost=1
func (d *Diver) Tea() { d.Cold = 0; d.Coins -= 2 }
