// Package courier delivers parcels from the depot to two towns by van;
// the van burns fuel, fuel costs coins, and coins come from deliveries.
package courier

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Courier drives parcels out of the depot.
type Courier struct {
	At        string `plan:"state"` // depot, north or south
	Parcels   int    `plan:"state; min=0; max=4"`
	Delivered int    `plan:"state"`
	Coins     int    `plan:"state"`
	Fuel      int    `plan:"state; min=0; max=9"`
	Rested    bool   `plan:"state"`

	// Done: the day's round delivered.
	Done struct{} `plan:"goal=Delivered >= 6"`
	// Solvent: money for tomorrow's fuel.
	Solvent struct{} `plan:"goal=Coins >= 8"`
	// Alert: fit to drive.
	Alert struct{} `plan:"goal=Rested; priority=high"`
}

// Load takes a parcel into the van.
//
//plan:action pre="At == 'depot' && Parcels < 4" post="Parcels += 1"
func (c *Courier) Load() { c.Parcels++ }

// DriveNorth drives to the north town.
//
//plan:action pre="At != 'north' && Fuel >= 2 && Rested" post="At = 'north', Fuel -= 2" cost=3
func (c *Courier) DriveNorth() { c.At = "north"; c.Fuel -= 2 }

// DriveSouth drives to the south town, further.
//
//plan:action pre="At != 'south' && Fuel >= 3 && Rested" post="At = 'south', Fuel -= 3" cost=4
func (c *Courier) DriveSouth() { c.At = "south"; c.Fuel -= 3 }

// DriveBack drives back to the depot.
//
//plan:action pre="At != 'depot' && Fuel >= 2" post="At = 'depot', Fuel -= 2" cost=3
func (c *Courier) DriveBack() { c.At = "depot"; c.Fuel -= 2 }

// WalkBack walks back to the depot, slowly.
//
//plan:action pre="At != 'depot'" post="At = 'depot', Rested = false" cost=12
func (c *Courier) WalkBack() { c.At = "depot"; c.Rested = false }

// DeliverNorth hands over a parcel in the north town.
//
//plan:action pre="At == 'north' && Parcels >= 1" post="Parcels -= 1, Delivered += 1, Coins += 2"
func (c *Courier) DeliverNorth() { c.Parcels--; c.Delivered++; c.Coins += 2 }

// DeliverSouth hands over a parcel in the south town, for more.
//
//plan:action pre="At == 'south' && Parcels >= 1" post="Parcels -= 1, Delivered += 1, Coins += 3"
func (c *Courier) DeliverSouth() { c.Parcels--; c.Delivered++; c.Coins += 3 }

// BuyFuel fills up two units at the depot pump.
//
//plan:action pre="At == 'depot' && Coins >= 3 && Fuel < 8" post="Fuel += 2, Coins -= 3"
func (c *Courier) BuyFuel() { c.Fuel += 2; c.Coins -= 3 }

// SortMail sorts mail at the depot for a coin.
//
//plan:action pre="At == 'depot'" post="Coins += 1" cost=3
func (c *Courier) SortMail() { c.Coins++ }

// Nap naps in the depot's back room.
//
//plan:action pre="At == 'depot' && !Rested" post="Rested = true" cost=5 fulfills=Alert
func (c *Courier) Nap() { c.Rested = true }

// Coffee buys a coffee in town.
//
//plan:action pre="At != 'depot' && Coins >= 2 && !Rested" post="Rested = true, Coins -= 2" cost=1
func (c *Courier) Coffee() { c.Rested = true; c.Coins -= 2 }
