// Package herder keeps sheep: wool sells, the flock needs water and hay,
// the herder needs sleep and food; walking between the hut, the pasture,
// the well and the town tires.
package herder

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Herder tends a flock.
type Herder struct {
	Where  string `plan:"state"` // hut, pasture, well or town
	Energy int    `plan:"state"`
	Money  int    `plan:"state"`
	Wool   int    `plan:"state"`
	Water  int    `plan:"state"` // buckets carried
	Hay    int    `plan:"state"`
	Thirst int    `plan:"state"` // the flock's
	Meals  int    `plan:"state"`

	// Watered: the flock is not thirsty.
	Watered struct{} `plan:"goal=Thirst <= 2; priority=high"`
	// Saved: money put by.
	Saved struct{} `plan:"goal=Money >= 12"`
	// Fed: meals in the hut.
	Fed struct{} `plan:"goal=Meals >= 2; priority=low"`
}

// GoHut walks to the hut.
//
//plan:action pre="Where != 'hut' && Energy >= 3" post="Where = 'hut', Energy -= 3" cost=2
func (h *Herder) GoHut() { h.Where = "hut"; h.Energy -= 3 }

// GoPasture walks to the pasture.
//
//plan:action pre="Where != 'pasture' && Energy >= 3" post="Where = 'pasture', Energy -= 3" cost=2
func (h *Herder) GoPasture() { h.Where = "pasture"; h.Energy -= 3 }

// GoWell walks to the well.
//
//plan:action pre="Where != 'well' && Energy >= 3" post="Where = 'well', Energy -= 3" cost=2
func (h *Herder) GoWell() { h.Where = "well"; h.Energy -= 3 }

// GoTown walks to town, further than the rest.
//
//plan:action pre="Where != 'town' && Energy >= 6" post="Where = 'town', Energy -= 6" cost=4
func (h *Herder) GoTown() { h.Where = "town"; h.Energy -= 6 }

// DrawWater draws two buckets at the well.
//
//plan:action pre="Where == 'well' && Water < 4" post="Water += 2"
func (h *Herder) DrawWater() { h.Water += 2 }

// WaterFlock waters the flock from a bucket.
//
//plan:action pre="Where == 'pasture' && Water >= 1" post="Water -= 1, Thirst -= 3" fulfills=Watered
func (h *Herder) WaterFlock() { h.Water--; h.Thirst -= 3 }

// Shear shears the flock, which thirsts for it.
//
//plan:action pre="Where == 'pasture' && Energy >= 8 && Thirst <= 4" post="Wool += 2, Energy -= 8, Thirst += 1" cost=3
func (h *Herder) Shear() { h.Wool += 2; h.Energy -= 8; h.Thirst++ }

// SellWool sells a bale of wool in town.
//
//plan:action pre="Where == 'town' && Wool >= 1" post="Wool -= 1, Money += 4"
func (h *Herder) SellWool() { h.Wool--; h.Money += 4 }

// Haul hauls goods in town for a coin.
//
//plan:action pre="Where == 'town' && Energy >= 5" post="Money += 1, Energy -= 5"
func (h *Herder) Haul() { h.Money++; h.Energy -= 5 }

// BuyHay buys a bale of hay in town.
//
//plan:action pre="Where == 'town' && Money >= 2" post="Hay += 1, Money -= 2"
func (h *Herder) BuyHay() { h.Hay++; h.Money -= 2 }

// SpreadHay spreads hay for the flock: a little less thirst.
//
//plan:action pre="Where == 'pasture' && Hay >= 1" post="Hay -= 1, Thirst -= 1"
func (h *Herder) SpreadHay() { h.Hay--; h.Thirst-- }

// Sleep sleeps in the hut: energy back to 40.
//
//plan:action pre="Where == 'hut' && Energy < 40" post="Energy = 40" cost=4
func (h *Herder) Sleep() { h.Energy = 40 }

// Sit sits down anywhere: a little energy back.
//
//plan:action pre="Energy < 50" post="Energy += 5" cost=2
func (h *Herder) Sit() { h.Energy += 5 }

// BuyMeal buys a meal in town.
//
//plan:action pre="Where == 'town' && Money >= 3" post="Meals += 1, Money -= 3"
func (h *Herder) BuyMeal() { h.Meals++; h.Money -= 3 }

// Cook cooks a meal in the hut over hay.
//
//plan:action pre="Where == 'hut' && Hay >= 1" post="Meals += 1, Hay -= 1" cost=2
func (h *Herder) Cook() { h.Meals++; h.Hay-- }
