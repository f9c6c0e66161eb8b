// Package gardener tends beds: watering needs the can in hand, hoeing
// the hoe and the beds, so a plan for both goes to two places on two
// fields (where the gardener is and what the gardener holds); the can is
// filled at the well. Written to measure the estimate's places apart.
package gardener

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Gardener tends the beds.
type Gardener struct {
	At      string `plan:"state"` // shed, beds, well
	Hands   string `plan:"state"` // empty, can, hoe
	Water   int    `plan:"state; min=0; max=4"`
	Watered int    `plan:"state"`
	Weeded  int    `plan:"state"`
	Stamina int    `plan:"state; min=0; max=10"`

	Tended struct{} `plan:"goal=Watered >= 3 && Weeded >= 2"`
}

//plan:action pre="At != 'shed'" post="At = 'shed'" cost=2
func (g *Gardener) ToShed() { g.At = "shed" }

//plan:action pre="At != 'beds'" post="At = 'beds'" cost=2
func (g *Gardener) ToBeds() { g.At = "beds" }

//plan:action pre="At == 'beds'" post="At = 'well'" cost=1
func (g *Gardener) ToWell() { g.At = "well" }

//plan:action pre="At == 'shed'" post="Hands = 'can'"
func (g *Gardener) TakeCan() { g.Hands = "can" }

//plan:action pre="At == 'shed'" post="Hands = 'hoe'"
func (g *Gardener) TakeHoe() { g.Hands = "hoe" }

//plan:action pre="At == 'well' && Hands == 'can' && Water < 4" post="Water = 4"
func (g *Gardener) Fill() { g.Water = 4 }

//plan:action pre="Hands == 'can' && Water >= 1" post="Water -= 1, Watered += 1"
func (g *Gardener) Pour() { g.Water--; g.Watered++ }

//plan:action pre="At == 'beds' && Hands == 'hoe' && Stamina >= 2" post="Weeded += 1, Stamina -= 2" cost=2
func (g *Gardener) Hoe() { g.Weeded++; g.Stamina -= 2 }

//plan:action pre="At == 'shed' && Stamina < 10" post="Stamina = 10" cost=3
func (g *Gardener) Rest() { g.Stamina = 10 }
