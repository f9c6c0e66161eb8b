// Package hunter hunts in the forest with a bow, cures hides at camp and
// trades in the village.
package hunter

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Hunter lives off the forest.
type Hunter struct {
	At      string `plan:"state"` // camp, forest or village
	Bow     bool   `plan:"state"`
	Arrows  int    `plan:"state; min=0; max=12"`
	Meat    int    `plan:"state; min=0; max=5"`
	Hides   int    `plan:"state"`
	Leather int    `plan:"state"`
	Coins   int    `plan:"state"`
	Stamina int    `plan:"state; min=0; max=10"`

	// Prosperous: savings for the winter.
	Prosperous struct{} `plan:"goal=Coins >= 25"`
	// Fed: stamina to go on.
	Fed struct{} `plan:"goal=Stamina >= 5; priority=high"`
	// Stocked: leather for boots.
	Stocked struct{} `plan:"goal=Leather >= 2"`
}

// ToForest walks to the forest.
//
//plan:action pre="At != 'forest' && Stamina >= 1" post="At = 'forest', Stamina -= 1" cost=2
func (h *Hunter) ToForest() { h.At = "forest"; h.Stamina-- }

// ToCamp walks to camp.
//
//plan:action pre="At != 'camp'" post="At = 'camp'" cost=2
func (h *Hunter) ToCamp() { h.At = "camp" }

// ToVillage walks to the village.
//
//plan:action pre="At != 'village' && Stamina >= 1" post="At = 'village', Stamina -= 1" cost=3
func (h *Hunter) ToVillage() { h.At = "village"; h.Stamina-- }

// Shoot hunts a deer: meat and a hide.
//
//plan:action pre="At == 'forest' && Bow && Arrows >= 2 && Stamina >= 2" post="Arrows -= 2, Meat += 2, Hides += 1, Stamina -= 2" cost=2
func (h *Hunter) Shoot() { h.Arrows -= 2; h.Meat += 2; h.Hides++; h.Stamina -= 2 }

// Trap checks the snares: a little meat, slowly.
//
//plan:action pre="At == 'forest'" post="Meat += 1" cost=4
func (h *Hunter) Trap() { h.Meat++ }

// Fletch whittles arrows at camp.
//
//plan:action pre="At == 'camp' && Arrows < 12" post="Arrows += 3" cost=2
func (h *Hunter) Fletch() { h.Arrows += 3 }

// Eat eats meat.
//
//plan:action pre="Meat >= 1 && Stamina < 10" post="Meat -= 1, Stamina += 4" fulfills=Fed
func (h *Hunter) Eat() { h.Meat--; h.Stamina += 4 }

// Sleep sleeps at camp.
//
//plan:action pre="At == 'camp' && Stamina < 10" post="Stamina = 10" cost=6
func (h *Hunter) Sleep() { h.Stamina = 10 }

// Tan tans a hide into leather at camp.
//
//plan:action pre="At == 'camp' && Hides >= 1 && Stamina >= 1" post="Hides -= 1, Leather += 1, Stamina -= 1" cost=2
func (h *Hunter) Tan() { h.Hides--; h.Leather++; h.Stamina-- }

// SellMeat sells meat in the village.
//
//plan:action pre="At == 'village' && Meat >= 1" post="Meat -= 1, Coins += 3"
func (h *Hunter) SellMeat() { h.Meat--; h.Coins += 3 }

// SellLeather sells leather in the village.
//
//plan:action pre="At == 'village' && Leather >= 1" post="Leather -= 1, Coins += 7"
func (h *Hunter) SellLeather() { h.Leather--; h.Coins += 7 }

// BuyBow buys a bow in the village.
//
//plan:action pre="At == 'village' && !Bow && Coins >= 8" post="Bow = true, Coins -= 8"
func (h *Hunter) BuyBow() { h.Bow = true; h.Coins -= 8 }

// BuyHide buys a raw hide in the village.
//
//plan:action pre="At == 'village' && Coins >= 4" post="Hides += 1, Coins -= 4"
func (h *Hunter) BuyHide() { h.Hides++; h.Coins -= 4 }
