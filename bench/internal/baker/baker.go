// Package baker buys flour at the mill, bakes bread at home and sells
// it at the market; walking tires, and only sleep at home restores.
package baker

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Baker buys flour at the mill, bakes at home and sells at the market.
type Baker struct {
	Where  string `plan:"state"` // home, mill or market
	Coins  int    `plan:"state"`
	Flour  int    `plan:"state; min=0; max=6"`
	Loaves int    `plan:"state"`
	Energy int    `plan:"state; min=0; max=10"`

	// Saved: enough put by for the winter.
	Saved struct{} `plan:"goal=Coins >= 30"`
	// Awake: not dropping.
	Awake struct{} `plan:"goal=Energy >= 3; priority=high"`
}

// GoMill walks to the mill.
//
//plan:action pre="Where != 'mill' && Energy >= 2" post="Where = 'mill', Energy -= 2" cost=3
func (b *Baker) GoMill() { b.Where = "mill"; b.Energy -= 2 }

// GoHome walks home.
//
//plan:action pre="Where != 'home' && Energy >= 1" post="Where = 'home', Energy -= 1" cost=2
func (b *Baker) GoHome() { b.Where = "home"; b.Energy-- }

// GoMarket walks to the market.
//
//plan:action pre="Where != 'market' && Energy >= 2" post="Where = 'market', Energy -= 2" cost=3
func (b *Baker) GoMarket() { b.Where = "market"; b.Energy -= 2 }

// BuyFlour buys a sack of flour.
//
//plan:action pre="Where == 'mill' && Coins >= 3 && Flour < 6" post="Flour += 1, Coins -= 3"
func (b *Baker) BuyFlour() { b.Flour++; b.Coins -= 3 }

// Bake bakes two loaves from a sack.
//
//plan:action pre="Where == 'home' && Flour >= 1 && Energy >= 1" post="Flour -= 1, Loaves += 2, Energy -= 1" cost=2
func (b *Baker) Bake() { b.Flour--; b.Loaves += 2; b.Energy-- }

// Sell sells a loaf.
//
//plan:action pre="Where == 'market' && Loaves >= 1" post="Loaves -= 1, Coins += 3"
func (b *Baker) Sell() { b.Loaves--; b.Coins += 3 }

// Sleep sleeps at home.
//
//plan:action pre="Where == 'home' && Energy < 10" post="Energy = 10" cost=4 fulfills=Awake
func (b *Baker) Sleep() { b.Energy = 10 }

// Busk plays music at the market for a coin.
//
//plan:action pre="Where == 'market' && Energy >= 2" post="Coins += 1, Energy -= 2" cost=2
func (b *Baker) Busk() { b.Coins++; b.Energy -= 2 }
