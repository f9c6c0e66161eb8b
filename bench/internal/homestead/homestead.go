// Package homestead is a farm villager written the way the planners issue
// describes a new user's: walking costs energy, bread gives energy back,
// one action fulfills each goal behind a chain (Sleep at home for Rested,
// LightFire with three logs for Warm, SellWheat for Wealthy), and cheap
// actions that only move a goal's field (Rest, Jog, EatBread, SellWood)
// are often the cheaper way.
package homestead

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Villager keeps fed, rested and warm, and saves.
type Villager struct {
	Location string `plan:"state"` // home, field, market or forest
	Energy   int    `plan:"state"`
	Hunger   int    `plan:"state"`
	Warmth   int    `plan:"state"`
	Gold     int    `plan:"state"`
	Bread    int    `plan:"state"`
	Wood     int    `plan:"state"`
	Wheat    int    `plan:"state"`

	// Fed: not hungry.
	Fed struct{} `plan:"goal=Hunger < 30; priority=critical"`
	// Rested: energy for the day.
	Rested struct{} `plan:"goal=Energy > 50; priority=high"`
	// Warm: warm enough.
	Warm struct{} `plan:"goal=Warmth >= 6"`
	// Wealthy: savings.
	Wealthy struct{} `plan:"goal=Gold >= 20; priority=low"`
}

// GoHome walks home.
//
//plan:action pre="Location != 'home' && Energy >= 5" post="Location = 'home', Energy -= 5" cost=2
func (v *Villager) GoHome() { v.Location = "home"; v.Energy -= 5 }

// GoField walks to the field.
//
//plan:action pre="Location != 'field' && Energy >= 5" post="Location = 'field', Energy -= 5" cost=2
func (v *Villager) GoField() { v.Location = "field"; v.Energy -= 5 }

// GoMarket walks to the market.
//
//plan:action pre="Location != 'market' && Energy >= 5" post="Location = 'market', Energy -= 5" cost=2
func (v *Villager) GoMarket() { v.Location = "market"; v.Energy -= 5 }

// GoForest walks to the forest.
//
//plan:action pre="Location != 'forest' && Energy >= 5" post="Location = 'forest', Energy -= 5" cost=3
func (v *Villager) GoForest() { v.Location = "forest"; v.Energy -= 5 }

// Sleep restores all energy, at home, and makes hungry.
//
//plan:action pre="Location == 'home'" post="Energy = 100, Hunger += 20" fulfills=Rested cost=6
func (v *Villager) Sleep() { v.Energy = 100; v.Hunger += 20 }

// Rest restores a little energy anywhere, and makes a little hungry.
//
//plan:action pre="Energy < 100" post="Energy += 10, Hunger += 5" cost=2
func (v *Villager) Rest() { v.Energy += 10; v.Hunger += 5 }

// EatBread eats a loaf: less hungry, more energy.
//
//plan:action pre="Bread >= 1" post="Bread -= 1, Hunger -= 40, Energy += 15" fulfills=Fed
func (v *Villager) EatBread() { v.Bread--; v.Hunger -= 40; v.Energy += 15 }

// BuyBread buys a loaf at the market.
//
//plan:action pre="Location == 'market' && Gold >= 3" post="Bread += 1, Gold -= 3"
func (v *Villager) BuyBread() { v.Bread++; v.Gold -= 3 }

// ChopWood cuts a log in the forest, which warms a little.
//
//plan:action pre="Location == 'forest' && Energy >= 10" post="Wood += 1, Energy -= 10, Warmth += 1" cost=2
func (v *Villager) ChopWood() { v.Wood++; v.Energy -= 10; v.Warmth++ }

// LightFire burns three logs at home: warm for the night.
//
//plan:action pre="Location == 'home' && Wood >= 3" post="Wood -= 3, Warmth = 10" fulfills=Warm
func (v *Villager) LightFire() { v.Wood -= 3; v.Warmth = 10 }

// Jog warms up, for some energy.
//
//plan:action pre="Energy >= 5" post="Warmth += 2, Energy -= 5"
func (v *Villager) Jog() { v.Warmth += 2; v.Energy -= 5 }

// Harvest reaps two sacks of wheat in the field.
//
//plan:action pre="Location == 'field' && Energy >= 10" post="Wheat += 2, Energy -= 10" cost=2
func (v *Villager) Harvest() { v.Wheat += 2; v.Energy -= 10 }

// SellWheat sells a sack of wheat at the market.
//
//plan:action pre="Location == 'market' && Wheat >= 1" post="Wheat -= 1, Gold += 5" fulfills=Wealthy
func (v *Villager) SellWheat() { v.Wheat--; v.Gold += 5 }

// SellWood sells a log at the market.
//
//plan:action pre="Location == 'market' && Wood >= 1" post="Wood -= 1, Gold += 3"
func (v *Villager) SellWood() { v.Wood--; v.Gold += 3 }
