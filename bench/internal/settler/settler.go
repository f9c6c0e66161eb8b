// Package settler builds a homestead on new land: written from the
// README by a new user, with a site and an action of one name (Quarry).
package settler

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Site is where the settler is.
type Site int

// The sites.
const (
	Camp Site = iota
	Forest
	Quarry
	River
	Market
)

// Settler clears land, builds a cabin, keeps fed and warm, and trades.
type Settler struct {
	At     Site `plan:"state"`
	Energy int  `plan:"state; min=0; max=10"`
	Food   int  `plan:"state; min=0; max=8"`
	Wood   int  `plan:"state; min=0; max=12"`
	Stone  int  `plan:"state; min=0; max=8"`
	Planks int  `plan:"state; min=0; max=10"`
	Walls  int  `plan:"state; min=0; max=4"`
	Roof   bool `plan:"state"`
	Fire   bool `plan:"state"`
	Coins  int  `plan:"state; min=0"`
	Tools  bool `plan:"state"`
	Fish   int  `plan:"state; min=0; max=6"`

	// Sheltered: a cabin with walls and a roof.
	Sheltered struct{} `plan:"goal=Walls >= 4 && Roof; priority=high"`
	// Warm: a fire at camp.
	Warm struct{} `plan:"goal=Fire; priority=normal"`
	// Provisioned: food laid in.
	Provisioned struct{} `plan:"goal=Food >= 6"`
	// Prosperous: money saved.
	Prosperous struct{} `plan:"goal=Coins >= 20; priority=low"`
	// Lively: energy to go on.
	Lively struct{} `plan:"goal=Energy >= 5; priority=critical"`
}

// GoCamp walks back to camp.
//
//plan:action pre="At != Camp" post="At = Camp" cost=2
func (s *Settler) GoCamp() { s.At = Camp }

// GoForest walks to the forest.
//
//plan:action pre="At != Forest && Energy >= 1" post="At = Forest, Energy -= 1" cost=2
func (s *Settler) GoForest() { s.At = Forest; s.Energy-- }

// GoQuarry walks to the quarry.
//
//plan:action pre="At != Quarry && Energy >= 1" post="At = Quarry, Energy -= 1" cost=3
func (s *Settler) GoQuarry() { s.At = Quarry; s.Energy-- }

// GoRiver walks to the river.
//
//plan:action pre="At != River && Energy >= 1" post="At = River, Energy -= 1" cost=2
func (s *Settler) GoRiver() { s.At = River; s.Energy-- }

// GoMarket walks to the market.
//
//plan:action pre="At != Market && Energy >= 2" post="At = Market, Energy -= 2" cost=4
func (s *Settler) GoMarket() { s.At = Market; s.Energy -= 2 }

// Chop fells a tree; tools make it quicker.
//
//plan:action pre="At == Forest && Energy >= 2" post="Wood += 3, Energy -= 2" cost=3
func (s *Settler) Chop() { s.Wood += 3; s.Energy -= 2 }

// Forage gathers berries.
//
//plan:action pre="At == Forest" post="Food += 1" cost=3
func (s *Settler) Forage() { s.Food++ }

// Quarry cuts stone.
//
//plan:action pre="At == Quarry && Tools && Energy >= 2" post="Stone += 2, Energy -= 2" cost=3
func (s *Settler) Quarry() { s.Stone += 2; s.Energy -= 2 }

// CatchFish fishes in the river.
//
//plan:action pre="At == River && Energy >= 1" post="Fish += 2, Energy -= 1" cost=2
func (s *Settler) CatchFish() { s.Fish += 2; s.Energy-- }

// SawPlanks saws planks at camp.
//
//plan:action pre="At == Camp && Tools && Wood >= 2" post="Wood -= 2, Planks += 3" cost=2
func (s *Settler) SawPlanks() { s.Wood -= 2; s.Planks += 3 }

// BuildWall raises a wall of stone and planks.
//
//plan:action pre="At == Camp && Stone >= 2 && Planks >= 2 && Walls < 4" post="Stone -= 2, Planks -= 2, Walls += 1" cost=3
func (s *Settler) BuildWall() { s.Stone -= 2; s.Planks -= 2; s.Walls++ }

// BuildRoof lays the roof.
//
//plan:action pre="At == Camp && Walls >= 4 && Planks >= 4 && !Roof" post="Planks -= 4, Roof = true" cost=4
func (s *Settler) BuildRoof() { s.Planks -= 4; s.Roof = true }

// LightFire lights a fire at camp.
//
//plan:action pre="At == Camp && Wood >= 1 && !Fire" post="Wood -= 1, Fire = true"
func (s *Settler) LightFire() { s.Wood--; s.Fire = true }

// SmokeFish smokes fish over the fire into food.
//
//plan:action pre="At == Camp && Fire && Fish >= 2" post="Fish -= 2, Food += 3" cost=2
func (s *Settler) SmokeFish() { s.Fish -= 2; s.Food += 3 }

// Eat eats.
//
//plan:action pre="Food >= 1" post="Food -= 1, Energy += 3"
func (s *Settler) Eat() { s.Food--; s.Energy += 3 }

// Sleep sleeps at camp, by the fire if there is one.
//
//plan:action pre="At == Camp" post="Energy = 10, Fire = false" fulfills=Lively cost=5
func (s *Settler) Sleep() { s.Energy = 10; s.Fire = false }

// BuyTools buys tools.
//
//plan:action pre="At == Market && Coins >= 6 && !Tools" post="Coins -= 6, Tools = true"
func (s *Settler) BuyTools() { s.Coins -= 6; s.Tools = true }

// SellWood sells wood.
//
//plan:action pre="At == Market && Wood >= 2" post="Wood -= 2, Coins += 3"
func (s *Settler) SellWood() { s.Wood -= 2; s.Coins += 3 }

// SellFish sells fish.
//
//plan:action pre="At == Market && Fish >= 1" post="Fish -= 1, Coins += 2"
func (s *Settler) SellFish() { s.Fish--; s.Coins += 2 }

// BuyFood buys provisions.
//
//plan:action pre="At == Market && Coins >= 3" post="Coins -= 3, Food += 2"
func (s *Settler) BuyFood() { s.Coins -= 3; s.Food += 2 }

// Labour works a day for a neighbour.
//
//plan:action pre="At == Market && Energy >= 3" post="Coins += 4, Energy -= 3" cost=4
func (s *Settler) Labour() { s.Coins += 4; s.Energy -= 3 }
