// Package potter digs clay, throws pots at home and sells them.
package potter

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Potter makes pots from clay and wood and sells them at the market.
type Potter struct {
	Where   string `plan:"state"` // home, pit or market
	Clay    int    `plan:"state"`
	Wood    int    `plan:"state"`
	Pots    int    `plan:"state"`
	Coins   int    `plan:"state"`
	Stamina int    `plan:"state; min=0; max=12"`

	// Wealthy: enough for the winter.
	Wealthy struct{} `plan:"goal=Coins >= 24"`
	// Rested: able to work.
	Rested struct{} `plan:"goal=Stamina >= 4; priority=high"`
}

// WalkPit walks to the clay pit.
//
//plan:action pre="Where != 'pit' && Stamina >= 2" post="Where = 'pit', Stamina -= 2" cost=3
func (p *Potter) WalkPit() { p.Where = "pit"; p.Stamina -= 2 }

// WalkHome walks home.
//
//plan:action pre="Where != 'home' && Stamina >= 1" post="Where = 'home', Stamina -= 1" cost=2
func (p *Potter) WalkHome() { p.Where = "home"; p.Stamina-- }

// WalkMarket walks to the market.
//
//plan:action pre="Where != 'market' && Stamina >= 2" post="Where = 'market', Stamina -= 2" cost=3
func (p *Potter) WalkMarket() { p.Where = "market"; p.Stamina -= 2 }

// DigClay digs two lumps of clay.
//
//plan:action pre="Where == 'pit' && Stamina >= 2 && Clay < 6" post="Clay += 2, Stamina -= 2" cost=2
func (p *Potter) DigClay() { p.Clay += 2; p.Stamina -= 2 }

// GatherWood picks up a bundle of dead wood by the pit.
//
//plan:action pre="Where == 'pit' && Wood < 4" post="Wood += 1"
func (p *Potter) GatherWood() { p.Wood++ }

// ThrowPot throws and fires a pot.
//
//plan:action pre="Where == 'home' && Clay >= 1 && Wood >= 1" post="Clay -= 1, Wood -= 1, Pots += 1" cost=2
func (p *Potter) ThrowPot() { p.Clay--; p.Wood--; p.Pots++ }

// SellPot sells a pot.
//
//plan:action pre="Where == 'market' && Pots >= 1" post="Pots -= 1, Coins += 5"
func (p *Potter) SellPot() { p.Pots--; p.Coins += 5 }

// BuyWood buys two bundles of wood.
//
//plan:action pre="Where == 'market' && Coins >= 2 && Wood < 4" post="Wood += 2, Coins -= 2"
func (p *Potter) BuyWood() { p.Wood += 2; p.Coins -= 2 }

// Nap sleeps at home.
//
//plan:action pre="Where == 'home' && Stamina < 12" post="Stamina = 12" cost=5 fulfills=Rested
func (p *Potter) Nap() { p.Stamina = 12 }

// EatPie eats a pie at the market.
//
//plan:action pre="Where == 'market' && Coins >= 3" post="Stamina += 4, Coins -= 3"
func (p *Potter) EatPie() { p.Stamina += 4; p.Coins -= 3 }

// Sweep sweeps the market square for two coins.
//
//plan:action pre="Where == 'market' && Stamina >= 3" post="Coins += 2, Stamina -= 3" cost=3
func (p *Potter) Sweep() { p.Coins += 2; p.Stamina -= 3 }
