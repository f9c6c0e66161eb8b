// Package smith is a village blacksmith: selling a sword pays well but
// needs iron from the mine, coal from the market and the forge; odd jobs
// pay a little; walking tires.
package smith

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Smith earns, eats and rests.
type Smith struct {
	Place   string `plan:"state"` // home, forge, mine or market
	Stamina int    `plan:"state"`
	Coins   int    `plan:"state"`
	Iron    int    `plan:"state"`
	Coal    int    `plan:"state"`
	Swords  int    `plan:"state"`
	Bread   int    `plan:"state"`

	// Paid: the month's rent.
	Paid struct{} `plan:"goal=Coins >= 20; priority=high"`
	// Rested: fit to work.
	Rested struct{} `plan:"goal=Stamina >= 50"`
	// Stocked: bread for the week.
	Stocked struct{} `plan:"goal=Bread >= 3; priority=low"`
}

// GoHome walks home.
//
//plan:action pre="Place != 'home' && Stamina >= 4" post="Place = 'home', Stamina -= 4" cost=2
func (s *Smith) GoHome() { s.Place = "home"; s.Stamina -= 4 }

// GoForge walks to the forge.
//
//plan:action pre="Place != 'forge' && Stamina >= 4" post="Place = 'forge', Stamina -= 4" cost=2
func (s *Smith) GoForge() { s.Place = "forge"; s.Stamina -= 4 }

// GoMine walks up to the mine.
//
//plan:action pre="Place != 'mine' && Stamina >= 8" post="Place = 'mine', Stamina -= 8" cost=4
func (s *Smith) GoMine() { s.Place = "mine"; s.Stamina -= 8 }

// GoMarket walks to the market.
//
//plan:action pre="Place != 'market' && Stamina >= 4" post="Place = 'market', Stamina -= 4" cost=2
func (s *Smith) GoMarket() { s.Place = "market"; s.Stamina -= 4 }

// MineIron digs a lump of iron.
//
//plan:action pre="Place == 'mine' && Stamina >= 10" post="Iron += 1, Stamina -= 10" cost=3
func (s *Smith) MineIron() { s.Iron++; s.Stamina -= 10 }

// BuyCoal buys a sack of coal.
//
//plan:action pre="Place == 'market' && Coins >= 2" post="Coal += 1, Coins -= 2"
func (s *Smith) BuyCoal() { s.Coal++; s.Coins -= 2 }

// ForgeSword forges a sword from two lumps of iron and a sack of coal.
//
//plan:action pre="Place == 'forge' && Iron >= 2 && Coal >= 1 && Stamina >= 10" post="Swords += 1, Iron -= 2, Coal -= 1, Stamina -= 10" cost=3
func (s *Smith) ForgeSword() { s.Swords++; s.Iron -= 2; s.Coal--; s.Stamina -= 10 }

// SellSword sells a sword at the market.
//
//plan:action pre="Place == 'market' && Swords >= 1" post="Swords -= 1, Coins += 25" fulfills=Paid
func (s *Smith) SellSword() { s.Swords--; s.Coins += 25 }

// MendTools mends a neighbour's tools for a few coins.
//
//plan:action pre="Place == 'forge' && Stamina >= 6" post="Coins += 4, Stamina -= 6" cost=2
func (s *Smith) MendTools() { s.Coins += 4; s.Stamina -= 6 }

// RunErrand runs an errand for a coin or two.
//
//plan:action pre="Stamina >= 5" post="Coins += 2, Stamina -= 5"
func (s *Smith) RunErrand() { s.Coins += 2; s.Stamina -= 5 }

// Nap naps anywhere: a little stamina back.
//
//plan:action pre="Stamina < 100" post="Stamina += 10" cost=2
func (s *Smith) Nap() { s.Stamina += 10 }

// Sleep sleeps at home: stamina back to 60.
//
//plan:action pre="Place == 'home' && Stamina < 60" post="Stamina = 60" cost=3 fulfills=Rested
func (s *Smith) Sleep() { s.Stamina = 60 }

// EatBread eats a loaf.
//
//plan:action pre="Bread >= 1" post="Bread -= 1, Stamina += 25"
func (s *Smith) EatBread() { s.Bread--; s.Stamina += 25 }

// BuyBread buys a loaf at the market.
//
//plan:action pre="Place == 'market' && Coins >= 3" post="Bread += 1, Coins -= 3"
func (s *Smith) BuyBread() { s.Bread++; s.Coins -= 3 }

// Bake bakes two loaves at home over coal.
//
//plan:action pre="Place == 'home' && Coal >= 1" post="Bread += 2, Coal -= 1" cost=2 fulfills=Stocked
func (s *Smith) Bake() { s.Bread += 2; s.Coal-- }

// Sweep sweeps the forge for a coin.
//
//plan:action pre="Place == 'forge' && Stamina > 0" post="Coins += 1"
func (s *Smith) Sweep() { s.Coins++ }
