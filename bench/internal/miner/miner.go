// Package miner is a prospector written the way a game programmer would:
// walking between camp, mine and town costs energy; SellOre fulfills
// Rich behind a chain (a pick, a lit lamp, ore dug in the mine, carried
// to town), while panning the river or busking only move Gold a little;
// Rest restores energy anywhere, a meal at camp more.
package miner

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Miner digs, trades and keeps going.
type Miner struct {
	Location string `plan:"state"` // camp, mine, river or town
	Energy   int    `plan:"state"`
	Gold     int    `plan:"state"`
	Ore      int    `plan:"state"`
	Oil      int    `plan:"state"`
	Pick     bool   `plan:"state"`
	Lit      bool   `plan:"state"`
	Food     int    `plan:"state"`

	// Rich: a purse worth the trip.
	Rich struct{} `plan:"goal=Gold >= 30; priority=high"`
	// Fresh: energy to work.
	Fresh struct{} `plan:"goal=Energy >= 40"`
	// Supplied: food in the pack.
	Supplied struct{} `plan:"goal=Food >= 2; priority=low"`
}

// GoCamp walks to camp.
//
//plan:action pre="Location != 'camp' && Energy >= 5" post="Location = 'camp', Energy -= 5" cost=2
func (m *Miner) GoCamp() { m.Location = "camp"; m.Energy -= 5 }

// GoMine walks to the mine.
//
//plan:action pre="Location != 'mine' && Energy >= 5" post="Location = 'mine', Energy -= 5" cost=3
func (m *Miner) GoMine() { m.Location = "mine"; m.Energy -= 5 }

// GoRiver walks to the river.
//
//plan:action pre="Location != 'river' && Energy >= 5" post="Location = 'river', Energy -= 5" cost=2
func (m *Miner) GoRiver() { m.Location = "river"; m.Energy -= 5 }

// GoTown walks to town.
//
//plan:action pre="Location != 'town' && Energy >= 5" post="Location = 'town', Energy -= 5" cost=3
func (m *Miner) GoTown() { m.Location = "town"; m.Energy -= 5 }

// BuyPick buys a pick in town.
//
//plan:action pre="Location == 'town' && Gold >= 5 && !Pick" post="Pick = true, Gold -= 5"
func (m *Miner) BuyPick() { m.Pick = true; m.Gold -= 5 }

// BuyOil buys lamp oil in town.
//
//plan:action pre="Location == 'town' && Gold >= 2" post="Oil += 1, Gold -= 2"
func (m *Miner) BuyOil() { m.Oil++; m.Gold -= 2 }

// LightLamp lights the lamp with oil.
//
//plan:action pre="Oil >= 1 && !Lit" post="Lit = true, Oil -= 1"
func (m *Miner) LightLamp() { m.Lit = true; m.Oil-- }

// Dig digs ore in the lit mine.
//
//plan:action pre="Location == 'mine' && Pick && Lit && Energy >= 10" post="Ore += 2, Energy -= 10" cost=2
func (m *Miner) Dig() { m.Ore += 2; m.Energy -= 10 }

// SellOre sells four loads of ore in town.
//
//plan:action pre="Location == 'town' && Ore >= 4" post="Ore -= 4, Gold += 30" fulfills=Rich
func (m *Miner) SellOre() { m.Ore -= 4; m.Gold += 30 }

// Pan pans the river for a little gold.
//
//plan:action pre="Location == 'river' && Energy >= 5" post="Gold += 3, Energy -= 5"
func (m *Miner) Pan() { m.Gold += 3; m.Energy -= 5 }

// Busk plays music in town for a coin or two.
//
//plan:action pre="Location == 'town' && Energy >= 5" post="Gold += 2, Energy -= 5"
func (m *Miner) Busk() { m.Gold += 2; m.Energy -= 5 }

// Rest restores a little energy anywhere.
//
//plan:action pre="Energy < 100" post="Energy += 10" cost=2
func (m *Miner) Rest() { m.Energy += 10 }

// Eat eats a meal from the pack: energy back.
//
//plan:action pre="Food >= 1" post="Food -= 1, Energy += 30" fulfills=Fresh
func (m *Miner) Eat() { m.Food--; m.Energy += 30 }

// BuyFood buys a meal in town.
//
//plan:action pre="Location == 'town' && Gold >= 3" post="Food += 1, Gold -= 3"
func (m *Miner) BuyFood() { m.Food++; m.Gold -= 3 }
