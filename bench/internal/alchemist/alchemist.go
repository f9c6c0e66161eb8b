// Package alchemist gathers herbs and water in the garden, brews potions
// in the lab with her mana, and sells them at the market.
package alchemist

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Alchemist brews and sells potions.
type Alchemist struct {
	At      string `plan:"state"` // lab, garden or market
	Herbs   int    `plan:"state; min=0; max=6"`
	Water   int    `plan:"state; min=0; max=3"`
	Potions int    `plan:"state"`
	Coins   int    `plan:"state"`
	Mana    int    `plan:"state; min=0; max=10"`

	// Wealthy: enough to buy the tower.
	Wealthy struct{} `plan:"goal=Coins >= 20"`
	// Stocked: potions on the shelf.
	Stocked struct{} `plan:"goal=Potions >= 3"`
	// Focused: mana to work with.
	Focused struct{} `plan:"goal=Mana >= 4; priority=high"`
}

// GoGarden walks to the garden.
//
//plan:action pre="At != 'garden'" post="At = 'garden'" cost=2
func (a *Alchemist) GoGarden() { a.At = "garden" }

// GoLab walks to the lab.
//
//plan:action pre="At != 'lab'" post="At = 'lab'" cost=2
func (a *Alchemist) GoLab() { a.At = "lab" }

// GoMarket walks to the market.
//
//plan:action pre="At != 'market'" post="At = 'market'" cost=3
func (a *Alchemist) GoMarket() { a.At = "market" }

// Gather picks two handfuls of herbs.
//
//plan:action pre="At == 'garden' && Herbs < 6" post="Herbs += 2"
func (a *Alchemist) Gather() { a.Herbs = min(a.Herbs+2, 6) }

// DrawWater fills a flask at the well.
//
//plan:action pre="At == 'garden' && Water < 3" post="Water += 1"
func (a *Alchemist) DrawWater() { a.Water++ }

// Brew brews a potion.
//
//plan:action pre="At == 'lab' && Herbs >= 2 && Water >= 1 && Mana >= 2" post="Herbs -= 2, Water -= 1, Potions += 1, Mana -= 2" cost=2
func (a *Alchemist) Brew() { a.Herbs -= 2; a.Water--; a.Potions++; a.Mana -= 2 }

// Sell sells a potion.
//
//plan:action pre="At == 'market' && Potions >= 1" post="Potions -= 1, Coins += 6"
func (a *Alchemist) Sell() { a.Potions--; a.Coins += 6 }

// BuyHerbs buys a handful of herbs.
//
//plan:action pre="At == 'market' && Coins >= 2 && Herbs < 6" post="Herbs += 1, Coins -= 2"
func (a *Alchemist) BuyHerbs() { a.Herbs++; a.Coins -= 2 }

// Meditate restores her mana in the lab.
//
//plan:action pre="At == 'lab' && Mana < 10" post="Mana = 10" cost=4 fulfills=Focused
func (a *Alchemist) Meditate() { a.Mana = 10 }

// Tea is a cup of strong tea at the market.
//
//plan:action pre="At == 'market' && Coins >= 1 && Mana < 10" post="Mana += 3, Coins -= 1"
func (a *Alchemist) Tea() { a.Mana = min(a.Mana+3, 10); a.Coins-- }

// Juggle juggles at the market for a coin.
//
//plan:action pre="At == 'market'" post="Coins += 1" cost=3
func (a *Alchemist) Juggle() { a.Coins++ }
