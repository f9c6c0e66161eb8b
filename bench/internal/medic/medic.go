// Package medic tends a field hospital: salve brewed in the tent from
// herbs and water, water drawn at the well, herbs from the store, and a
// walk back to the tent that costs more the further away she is (a cost
// that reads the state); written from the README by a new user after
// the cook. Her pantry's goal needs two waters left after a brew that
// takes one: a plan that draws one, brews, and walks back for two more
// costs 21, where drawing three at once costs 13.
package medic

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Medic treats the wounded.
type Medic struct {
	At       string  `plan:"state"` // tent, store, well
	Distance float64 `plan:"state; min=0; max=40"`
	Pain     int     `plan:"state; min=0; max=10"`
	Fever    int     `plan:"state; min=0; max=5"`
	Herbs    int     `plan:"state; min=0; max=6"`
	Salve    int     `plan:"state; min=0; max=3"`
	Water    int     `plan:"state; min=0; max=4"`
	Tired    int     `plan:"state; min=0; max=10"`

	// Eased: the patient's pain low.
	Eased struct{} `plan:"goal=Pain < 3; priority=high"`
	// Cooled: no fever.
	Cooled struct{} `plan:"goal=Fever == 0"`
	// Stocked: salve ready and water in the tent.
	Stocked struct{} `plan:"goal=Salve >= 2 && Water >= 2 && At == 'tent'; priority=low"`
	// Awake: not too tired.
	Awake struct{} `plan:"goal=Tired <= 6; priority=critical"`
}

// ToTent walks back to the tent.
//
//plan:action pre="At != 'tent'" post="At = 'tent', Distance = 0, Tired += 1" cost="1 + Distance / 10"
func (m *Medic) ToTent() { m.At = "tent"; m.Distance = 0; m.Tired++ }

// ToStore walks to the store.
//
//plan:action pre="At != 'store'" post="At = 'store', Distance = 20, Tired += 1" cost=3
func (m *Medic) ToStore() { m.At = "store"; m.Distance = 20; m.Tired++ }

// ToWell walks to the well.
//
//plan:action pre="At != 'well'" post="At = 'well', Distance = 30, Tired += 1" cost=4
func (m *Medic) ToWell() { m.At = "well"; m.Distance = 30; m.Tired++ }

// Gather takes herbs from the store.
//
//plan:action pre="At == 'store' && Herbs < 6" post="Herbs += 2" cost=1
func (m *Medic) Gather() { m.Herbs += 2 }

// Brew makes salve from herbs and water in the tent.
//
//plan:action pre="At == 'tent' && Herbs >= 2 && Water >= 1 && Salve < 3" post="Salve += 1, Herbs -= 2, Water -= 1" cost=2
func (m *Medic) Brew() { m.Salve++; m.Herbs -= 2; m.Water-- }

// Draw draws water.
//
//plan:action pre="At == 'well' && Water < 4" post="Water += 1" cost=1
func (m *Medic) Draw() { m.Water++ }

// Soothe applies salve.
//
//plan:action pre="At == 'tent' && Salve >= 1 && Pain > 0" post="Salve -= 1, Pain -= 4, Tired += 1" cost=1
func (m *Medic) Soothe() { m.Salve--; m.Pain -= 4; m.Tired++ }

// Chew gives the patient herbs to chew.
//
//plan:action pre="At == 'tent' && Herbs >= 1 && Pain > 0" post="Herbs -= 1, Pain -= 1" cost=1
func (m *Medic) Chew() { m.Herbs--; m.Pain-- }

// Cool cools the fever with water.
//
//plan:action pre="At == 'tent' && Water >= 1 && Fever > 0" post="Water -= 1, Fever -= 1, Tired += 1" cost=1
func (m *Medic) Cool() { m.Water--; m.Fever--; m.Tired++ }

// Rest rests in the tent.
//
//plan:action pre="At == 'tent' && Tired > 0" post="Tired = 0" cost=6
func (m *Medic) Rest() { m.Tired = 0 }

// Nap naps anywhere.
//
//plan:action pre="Tired > 0" post="Tired -= 2" cost=3
func (m *Medic) Nap() { m.Tired -= 2 }
