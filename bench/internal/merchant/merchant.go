// Package merchant trades grain and cloth between a village, a city and
// a port.
package merchant

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Merchant buys cheap and sells dear, and must not wear herself out.
type Merchant struct {
	At    string `plan:"state"` // village, city or port
	Gold  int    `plan:"state"`
	Grain int    `plan:"state"`
	Cloth int    `plan:"state"`
	Tired int    `plan:"state; min=0; max=12"`

	// Rich: savings for a shop of her own.
	Rich struct{} `plan:"goal=Gold >= 40"`
	// Fresh: not worn out.
	Fresh struct{} `plan:"goal=Tired < 6; priority=high"`
}

// ToVillage travels to the village.
//
//plan:action pre="At != 'village' && Tired < 10" post="At = 'village', Tired += 2" cost=4
func (m *Merchant) ToVillage() { m.At = "village"; m.Tired += 2 }

// ToCity travels to the city.
//
//plan:action pre="At != 'city' && Tired < 10" post="At = 'city', Tired += 2" cost=3
func (m *Merchant) ToCity() { m.At = "city"; m.Tired += 2 }

// ToPort travels to the port.
//
//plan:action pre="At != 'port' && Tired < 10" post="At = 'port', Tired += 3" cost=5
func (m *Merchant) ToPort() { m.At = "port"; m.Tired += 3 }

// BuyGrain buys a sack of grain at the village.
//
//plan:action pre="At == 'village' && Gold >= 2 && Grain < 10" post="Grain += 1, Gold -= 2"
func (m *Merchant) BuyGrain() { m.Grain++; m.Gold -= 2 }

// SellGrain sells a sack of grain in the city.
//
//plan:action pre="At == 'city' && Grain >= 1" post="Grain -= 1, Gold += 4"
func (m *Merchant) SellGrain() { m.Grain--; m.Gold += 4 }

// BuyCloth buys a bolt of cloth in the city.
//
//plan:action pre="At == 'city' && Gold >= 5 && Cloth < 5" post="Cloth += 1, Gold -= 5"
func (m *Merchant) BuyCloth() { m.Cloth++; m.Gold -= 5 }

// SellCloth sells a bolt of cloth at the port.
//
//plan:action pre="At == 'port' && Cloth >= 1" post="Cloth -= 1, Gold += 9"
func (m *Merchant) SellCloth() { m.Cloth--; m.Gold += 9 }

// Rest rests at the village inn.
//
//plan:action pre="At == 'village' && Tired > 0" post="Tired = 0" cost=2 fulfills=Fresh
func (m *Merchant) Rest() { m.Tired = 0 }

// Haul works the docks for a coin.
//
//plan:action pre="At == 'port' && Tired < 8" post="Gold += 1, Tired += 1" cost=2
func (m *Merchant) Haul() { m.Gold++; m.Tired++ }
