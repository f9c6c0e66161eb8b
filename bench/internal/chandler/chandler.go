// Package chandler is a candle maker: she buys tallow and wicks at the
// market, dips candles in her workshop (or casts them, once she has
// bought a mold), and sells them at the fair, or begs for a coin at a
// time. Written from the README by a new user after the chainer learned
// to keep a batch only spending establishes (the tailor's shirts), and
// measured in a scratch module, with and without that change, before it
// was added here.
package chandler

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Chandler makes candles.
type Chandler struct {
	At      string `plan:"state"` // workshop, market or fair
	Tallow  int    `plan:"state; min=0; max=6"`
	Wicks   int    `plan:"state; min=0; max=8"`
	Candles int    `plan:"state; min=0; max=10"`
	Coins   int    `plan:"state; min=0"`
	Energy  int    `plan:"state; min=0; max=10"`
	Mold    bool   `plan:"state"`

	Prosperous struct{} `plan:"goal=Coins >= 36"`
	Awake      struct{} `plan:"goal=Energy >= 3; priority=high"`
}

// ToWorkshop walks to the workshop.
//
//plan:action pre="At != 'workshop'" post="At = 'workshop'" cost=2
func (c *Chandler) ToWorkshop() {}

// ToMarket walks to the market.
//
//plan:action pre="At != 'market' && Energy >= 1" post="At = 'market', Energy -= 1" cost=2
func (c *Chandler) ToMarket() {}

// ToFair walks to the fair.
//
//plan:action pre="At != 'fair' && Energy >= 1" post="At = 'fair', Energy -= 1" cost=3
func (c *Chandler) ToFair() {}

// BuyTallow buys a block of tallow.
//
//plan:action pre="At == 'market' && Coins >= 3" post="Tallow += 1, Coins -= 3"
func (c *Chandler) BuyTallow() {}

// BuyWicks buys three wicks.
//
//plan:action pre="At == 'market' && Coins >= 1" post="Wicks += 3, Coins -= 1"
func (c *Chandler) BuyWicks() {}

// BuyMold buys a mold, once.
//
//plan:action pre="At == 'market' && !Mold && Coins >= 10" post="Mold = true, Coins -= 10" cost=2
func (c *Chandler) BuyMold() {}

// Dip dips two candles.
//
//plan:action pre="At == 'workshop' && Tallow >= 1 && Wicks >= 2 && Energy >= 2" post="Tallow -= 1, Wicks -= 2, Candles += 2, Energy -= 2" cost=3
func (c *Chandler) Dip() {}

// Cast casts three candles in the mold.
//
//plan:action pre="At == 'workshop' && Mold && Tallow >= 1 && Wicks >= 3 && Energy >= 1" post="Tallow -= 1, Wicks -= 3, Candles += 3, Energy -= 1" cost=2
func (c *Chandler) Cast() {}

// SellCandle sells a candle.
//
//plan:action pre="At == 'fair' && Candles >= 1" post="Candles -= 1, Coins += 3"
func (c *Chandler) SellCandle() {}

// Beg begs for a coin.
//
//plan:action pre="At == 'fair' && Energy >= 1" post="Coins += 1, Energy -= 1" cost=2
func (c *Chandler) Beg() {}

// Sleep sleeps in the workshop.
//
//plan:action pre="At == 'workshop' && Energy < 10" post="Energy = 10" cost=5
func (c *Chandler) Sleep() {}
