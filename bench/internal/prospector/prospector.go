// Package prospector digs ore and trades it up, metal by metal: written
// from the README by a new user. Her gold is three trades from the ore
// (ore, copper, silver, gold), deeper than the estimate's supplies see.
package prospector

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Prospector mines copper, smelts it, and trades up to silver and gold.
type Prospector struct {
	At     string `plan:"state"` // mine, smelter or bank
	Ore    int    `plan:"state; min=0; max=12"`
	Copper int    `plan:"state; min=0"`
	Silver int    `plan:"state; min=0"`
	Gold   int    `plan:"state; min=0"`
	Energy int    `plan:"state; min=0; max=10"`
	Pick   bool   `plan:"state"`

	// Rich: gold in the vault.
	Rich struct{} `plan:"goal=Gold >= 3"`
	// Rested: fit to dig.
	Rested struct{} `plan:"goal=Energy >= 6; priority=high"`
	// Stocked: silver for the winter.
	Stocked struct{} `plan:"goal=Silver >= 4"`
}

// ToMine walks to the mine.
//
//plan:action pre="At != 'mine' && Energy >= 1" post="At = 'mine', Energy -= 1" cost=2
func (p *Prospector) ToMine() { p.At = "mine"; p.Energy-- }

// ToSmelter walks to the smelter.
//
//plan:action pre="At != 'smelter'" post="At = 'smelter'" cost=2
func (p *Prospector) ToSmelter() { p.At = "smelter" }

// ToBank walks to the bank.
//
//plan:action pre="At != 'bank'" post="At = 'bank'" cost=3
func (p *Prospector) ToBank() { p.At = "bank" }

// Dig digs ore, quicker with a pick.
//
//plan:action pre="At == 'mine' && Energy >= 2 && Pick" post="Ore += 4, Energy -= 2" cost=2
func (p *Prospector) Dig() { p.Ore += 4; p.Energy -= 2 }

// Scrape scrapes ore by hand.
//
//plan:action pre="At == 'mine' && Energy >= 1" post="Ore += 1, Energy -= 1" cost=2
func (p *Prospector) Scrape() { p.Ore++; p.Energy-- }

// Smelt smelts two ore into copper.
//
//plan:action pre="At == 'smelter' && Ore >= 2" post="Ore -= 2, Copper += 5" cost=1
func (p *Prospector) Smelt() { p.Ore -= 2; p.Copper += 5 }

// CopperForSilver trades ten copper for a silver.
//
//plan:action pre="At == 'bank' && Copper >= 10" post="Copper -= 10, Silver += 1"
func (p *Prospector) CopperForSilver() { p.Copper -= 10; p.Silver++ }

// SilverForGold trades three silver for a gold.
//
//plan:action pre="At == 'bank' && Silver >= 3" post="Silver -= 3, Gold += 1"
func (p *Prospector) SilverForGold() { p.Silver -= 3; p.Gold++ }

// BuyPick buys a pick for two silver.
//
//plan:action pre="At == 'bank' && Silver >= 2 && !Pick" post="Silver -= 2, Pick = true"
func (p *Prospector) BuyPick() { p.Silver -= 2; p.Pick = true }

// Rest rests wherever she is.
//
//plan:action pre="Energy < 10" post="Energy += 3" cost=3
func (p *Prospector) Rest() { p.Energy += 3 }
