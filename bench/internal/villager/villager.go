// Package villager is a farm villager of fourteen actions and four goals,
// written from the README: state of every kind, walking that costs energy,
// bread that eating lowers and buying raises.
package villager

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Villager farms, trades and keeps fed and rested.
type Villager struct {
	Location string `plan:"state"` // home, field, market or forest
	Energy   int    `plan:"state"`
	Hunger   int    `plan:"state"`
	Gold     int    `plan:"state"`
	Bread    int    `plan:"state"`
	Wheat    int    `plan:"state"`
	Seeds    int    `plan:"state"`
	Planted  bool   `plan:"state"`
	Wood     int    `plan:"state"`

	// Fed: not hungry.
	Fed struct{} `plan:"goal=Hunger < 30; priority=critical"`
	// Rested: energy for the day.
	Rested struct{} `plan:"goal=Energy > 50; priority=high"`
	// Wealthy: savings.
	Wealthy struct{} `plan:"goal=Gold >= 20"`
	// Stocked: wood and bread in store.
	Stocked struct{} `plan:"goal=Wood >= 3 && Bread >= 2; priority=low"`
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

// Sleep restores all energy at home, and makes hungry.
//
//plan:action pre="Location == 'home'" post="Energy = 100, Hunger += 10" fulfills=Rested cost=4
func (v *Villager) Sleep() { v.Energy = 100; v.Hunger += 10 }

// Rest restores a little energy anywhere.
//
//plan:action pre="Energy < 100" post="Energy += 10" cost=2
func (v *Villager) Rest() { v.Energy += 10 }

// EatBread eats a loaf.
//
//plan:action pre="Bread >= 1" post="Bread -= 1, Hunger -= 40" fulfills=Fed
func (v *Villager) EatBread() { v.Bread--; v.Hunger -= 40 }

// BuyBread buys a loaf at the market.
//
//plan:action pre="Location == 'market' && Gold >= 3" post="Bread += 1, Gold -= 3"
func (v *Villager) BuyBread() { v.Bread++; v.Gold -= 3 }

// BuySeeds buys seeds at the market.
//
//plan:action pre="Location == 'market' && Gold >= 2" post="Seeds += 1, Gold -= 2"
func (v *Villager) BuySeeds() { v.Seeds++; v.Gold -= 2 }

// Plant sows the field.
//
//plan:action pre="Location == 'field' && Seeds >= 1 && !Planted && Energy >= 10" post="Planted = true, Seeds -= 1, Energy -= 10" cost=2
func (v *Villager) Plant() { v.Planted = true; v.Seeds--; v.Energy -= 10 }

// Harvest reaps the field.
//
//plan:action pre="Location == 'field' && Planted && Energy >= 10" post="Planted = false, Wheat += 3, Energy -= 10" cost=2
func (v *Villager) Harvest() { v.Planted = false; v.Wheat += 3; v.Energy -= 10 }

// SellWheat sells a sack of wheat at the market.
//
//plan:action pre="Location == 'market' && Wheat >= 1" post="Wheat -= 1, Gold += 4"
func (v *Villager) SellWheat() { v.Wheat--; v.Gold += 4 }

// BakeBread bakes a loaf at home.
//
//plan:action pre="Location == 'home' && Wheat >= 2" post="Wheat -= 2, Bread += 1" cost=2
func (v *Villager) BakeBread() { v.Wheat -= 2; v.Bread++ }

// ChopWood cuts a log in the forest.
//
//plan:action pre="Location == 'forest' && Energy >= 10" post="Wood += 1, Energy -= 10" cost=2
func (v *Villager) ChopWood() { v.Wood++; v.Energy -= 10 }
