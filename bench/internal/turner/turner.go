// Package turner is a wood turner: she gathers logs in the forest (by
// hand, or three at a time with an axe she buys), carves bowls in her
// workshop (or turns two a log on a lathe she barters three bowls for),
// and sells them at the market. Written from the README by a new user
// after the chainer learned to run a waiting action again for what
// lasts (the prospector's pick), with a typo in a precondition (Bowl,
// which go generate reported at its column, writing no file), and
// measured in a scratch module, with and without that change, before it
// was added here.
package turner

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Turner turns bowls.
type Turner struct {
	At     string `plan:"state"` // workshop, forest or market
	Logs   int    `plan:"state; min=0; max=8"`
	Bowls  int    `plan:"state; min=0; max=12"`
	Coins  int    `plan:"state; min=0"`
	Energy int    `plan:"state; min=0; max=10"`
	Axe    bool   `plan:"state"`
	Lathe  bool   `plan:"state"`

	Wealthy struct{} `plan:"goal=Coins >= 30"`
	Rested  struct{} `plan:"goal=Energy >= 4; priority=high"`
	Stocked struct{} `plan:"goal=Bowls >= 6"`
}

// ToForest walks to the forest.
//
//plan:action pre="At != 'forest' && Energy >= 1" post="At = 'forest', Energy -= 1" cost=2
func (t *Turner) ToForest() { t.At = "forest"; t.Energy-- }

// ToWorkshop walks home to the workshop.
//
//plan:action pre="At != 'workshop'" post="At = 'workshop'" cost=2
func (t *Turner) ToWorkshop() { t.At = "workshop" }

// ToMarket walks to the market.
//
//plan:action pre="At != 'market' && Energy >= 1" post="At = 'market', Energy -= 1" cost=3
func (t *Turner) ToMarket() { t.At = "market"; t.Energy-- }

// Gather gathers a log by hand.
//
//plan:action pre="At == 'forest' && Energy >= 1" post="Logs += 1, Energy -= 1" cost=2
func (t *Turner) Gather() { t.Logs = min(t.Logs+1, 8); t.Energy-- }

// Chop chops three logs with the axe.
//
//plan:action pre="At == 'forest' && Energy >= 2 && Axe" post="Logs += 3, Energy -= 2" cost=2
func (t *Turner) Chop() { t.Logs = min(t.Logs+3, 8); t.Energy -= 2 }

// Carve carves a bowl from a log by hand.
//
//plan:action pre="At == 'workshop' && Logs >= 1" post="Logs -= 1, Bowls += 1" cost=3
func (t *Turner) Carve() { t.Logs--; t.Bowls = min(t.Bowls+1, 12) }

// Turn turns two bowls from a log on the lathe.
//
//plan:action pre="At == 'workshop' && Logs >= 1 && Lathe" post="Logs -= 1, Bowls += 2" cost=1
func (t *Turner) Turn() { t.Logs--; t.Bowls = min(t.Bowls+2, 12) }

// SellBowl sells a bowl.
//
//plan:action pre="At == 'market' && Bowls >= 1" post="Bowls -= 1, Coins += 4" cost=1
func (t *Turner) SellBowl() { t.Bowls--; t.Coins += 4 }

// BuyAxe buys an axe.
//
//plan:action pre="At == 'market' && Coins >= 6 && !Axe" post="Coins -= 6, Axe = true" cost=1
func (t *Turner) BuyAxe() { t.Coins -= 6; t.Axe = true }

// BuyLathe barters three bowls for a lathe.
//
//plan:action pre="At == 'market' && Bowls >= 3 && !Lathe" post="Bowls -= 3, Lathe = true" cost=1
func (t *Turner) BuyLathe() { t.Bowls -= 3; t.Lathe = true }

// Sleep sleeps in the workshop.
//
//plan:action pre="At == 'workshop' && Energy < 10" post="Energy += 4" cost=3 fulfills=Rested
func (t *Turner) Sleep() { t.Energy = min(t.Energy+4, 10) }

// Nap naps wherever she is.
//
//plan:action pre="Energy < 10" post="Energy += 1" cost=2
func (t *Turner) Nap() { t.Energy = min(t.Energy+1, 10) }
