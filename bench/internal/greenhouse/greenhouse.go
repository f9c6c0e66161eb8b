// Package greenhouse keeps a glasshouse warm and its soil moist, and
// sells its tomatoes: float temperature and tiredness, walks whose cost
// grows with tiredness, a goal with ||, cash from crates sold at 7.
// Written from the README by a new user in a scratch module (its first
// version's methods did nothing, which a crowd's agents reported as stale
// preconditions), and measured there before it was added here: the
// chainer planned every pair; its p90 fell from 1.180 to 1.069 when the
// flow began to count whole runs (see BENCHMARKS.md).
package greenhouse

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

import "github.com/rolegen/rolegen/runtime"

// Place is where the grower is.
type Place string

// The places.
const (
	Shed   Place = "shed"
	House  Place = "glasshouse"
	Market Place = "market"
)

// MaxTank is what the water tank holds.
const MaxTank = 20

// Grower tends the glasshouse.
type Grower struct {
	Where  Place   `plan:"state"`
	Temp   float64 `plan:"state"`
	Wood   int     `plan:"state"`
	Water  int     `plan:"state"`
	Soil   int     `plan:"state"` // moisture 0..10
	Ripe   int     `plan:"state"`
	Crates int     `plan:"state"`
	Cash   int     `plan:"state"`
	Tired  float64 `plan:"state"`
	Alarm  bool    `plan:"state"`
	Vent   bool    `plan:"state"`

	// Warm plants grow.
	Warm struct{} `plan:"goal=Temp >= 18.5 && !Alarm; priority=high"`
	// Moist soil.
	Moist struct{} `plan:"goal=Soil >= 6 || Soil % 2 == 1 && Soil > 3"`
	// Rich enough for the winter.
	Rich struct{} `plan:"goal=Cash >= 30; priority=low"`
}

//plan:action pre="Where != Shed" post="Where = Shed, Tired += 0.5" cost="1 + Tired / 4"
func (g *Grower) GoShed() { g.Where = Shed; g.Tired += 0.5 }

//plan:action pre="Where != House" post="Where = House, Tired += 0.5" cost="1 + Tired / 4"
func (g *Grower) GoHouse() { g.Where = House; g.Tired += 0.5 }

//plan:action pre="Where != Market && Crates > 0" post="Where = Market, Tired += 1.5" cost="3 + Tired / 2"
func (g *Grower) GoMarket() { g.Where = Market; g.Tired += 1.5 }

//plan:action pre="Where == Shed && Wood < 6" post="Wood += 2, Tired += 1" cost=2
func (g *Grower) Chop() { g.Wood += 2; g.Tired++ }

//plan:action pre="Where == Shed && Water < MaxTank" post="Water = MaxTank" cost=1
func (g *Grower) Pump() { g.Water = MaxTank }

//plan:action pre="Where == House && Wood >= 1 && Temp < 30" post="Wood--, Temp += 4.5, Vent = false" cost=1 fulfills=Warm
func (g *Grower) Stoke() { g.Wood--; g.Temp += 4.5; g.Vent = false }

//plan:action pre="Where == House && Alarm" post="Alarm = false, Temp -= 2" cost=1
func (g *Grower) Silence() { g.Alarm = false; g.Temp -= 2 }

//plan:action pre="Where == House && Water >= 4 && Soil <= 8" post="Water -= 4, Soil += 2" cost=1
func (g *Grower) Sprinkle() { g.Water -= 4; g.Soil += 2 }

//plan:action pre="Where == House && Temp >= 18.5 && Soil >= 4" post="Ripe += 3, Soil -= 3, Tired += 1" cost=3
func (g *Grower) Harvest() { g.Ripe += 3; g.Soil -= 3; g.Tired++ }

//plan:action pre="Where == House && Ripe >= 3" post="Ripe -= 3, Crates++" cost=1
func (g *Grower) Pack() { g.Ripe -= 3; g.Crates++ }

//plan:action pre="Where == Market && Crates >= 1" post="Crates--, Cash += 7" cost=1
func (g *Grower) Sell() { g.Crates--; g.Cash += 7 }

//plan:action pre="Where == Shed && Tired > 0" post="Tired = 0" cost=4
func (g *Grower) Nap(t runtime.Step) runtime.Status {
	if t.Ticks < 3 {
		return runtime.Running
	}
	g.Tired = 0
	return runtime.Done
}
