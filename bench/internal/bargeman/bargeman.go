// Package bargeman poles a barge between a quay and a town: he loads
// crates at the quay, sells them in town, buys fuel for the barge and
// the stove there. Written as a new user would, to see what Plan does
// with two goals whose cheapest plans, one after the other, cost more
// than one plan for both.
package bargeman

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Bargeman poles a barge between the quay and the town.
type Bargeman struct {
	At     string  `plan:"state"`
	Crates int     `plan:"state"`
	Coins  int     `plan:"state"`
	Fuel   float64 `plan:"state"`
	Warm   bool    `plan:"state"`

	Rich struct{} `plan:"goal=Coins >= 12; priority=high"`
	Cosy struct{} `plan:"goal=Warm; priority=low"`
	// Both asks for what Rich and Cosy ask, weighed together.
	Both struct{} `plan:"goal=Coins >= 12 && Warm; priority=low"`
}

//plan:action pre="At == \"quay\" && Crates < 4" post="Crates += 1" cost=1
func (b *Bargeman) Load() {}

//plan:action pre="At == \"quay\" && Fuel >= 1" post="At = \"town\", Fuel -= 1" cost=3
func (b *Bargeman) Downstream() {}

//plan:action pre="At == \"town\" && Fuel >= 2" post="At = \"quay\", Fuel -= 2" cost=5
func (b *Bargeman) Upstream() {}

//plan:action pre="At == \"town\" && Crates >= 1" post="Crates -= 1, Coins += 4" cost=1
func (b *Bargeman) Sell() {}

//plan:action pre="At == \"town\" && Coins >= 2" post="Coins -= 2, Fuel += 1.5" cost=1
func (b *Bargeman) BuyFuel() {}

//plan:action pre="Fuel >= 0.5 && !Warm" post="Fuel -= 0.5, Warm = true" cost=1
func (b *Bargeman) LightStove() {}
