// Package tailor sews shirts to sell at the fair: written from the README
// by a new user, after the beekeeper, and measured before any change for
// it. A loom (bought once) weaves two shirts where a needle sews one.
package tailor

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Tailor sews.
type Tailor struct {
	At     string `plan:"state"` // shop, market or fair
	Cloth  int    `plan:"state; min=0; max=5"`
	Thread int    `plan:"state; min=0; max=4"`
	Shirts int    `plan:"state; min=0; max=4"`
	Coins  int    `plan:"state; min=0"`
	Energy int    `plan:"state; min=0; max=10"`
	Loom   bool   `plan:"state"`

	// Solvent: coins saved.
	Solvent struct{} `plan:"goal=Coins >= 30"`
	// Fresh: not worn out.
	Fresh struct{} `plan:"goal=Energy >= 4; priority=high"`
}

// ToShop walks to the shop.
//
//plan:action pre="At != 'shop'" post="At = 'shop'" cost=2
func (t *Tailor) ToShop() { t.At = "shop" }

// ToMarket walks to the market.
//
//plan:action pre="At != 'market' && Energy >= 1" post="At = 'market', Energy -= 1" cost=2
func (t *Tailor) ToMarket() { t.At = "market"; t.Energy-- }

// ToFair walks to the fair.
//
//plan:action pre="At != 'fair' && Energy >= 1" post="At = 'fair', Energy -= 1" cost=3
func (t *Tailor) ToFair() { t.At = "fair"; t.Energy-- }

// BuyCloth buys a bolt.
//
//plan:action pre="At == 'market' && Coins >= 2" post="Cloth += 1, Coins -= 2"
func (t *Tailor) BuyCloth() { t.Cloth++; t.Coins -= 2 }

// BuyThread buys a spool.
//
//plan:action pre="At == 'market' && Coins >= 1" post="Thread += 2, Coins -= 1"
func (t *Tailor) BuyThread() { t.Thread += 2; t.Coins-- }

// BuyLoom buys a loom for the shop.
//
//plan:action pre="At == 'market' && !Loom && Coins >= 8" post="Loom = true, Coins -= 8" cost=2
func (t *Tailor) BuyLoom() { t.Loom = true; t.Coins -= 8 }

// Sew sews a shirt by hand.
//
//plan:action pre="At == 'shop' && Cloth >= 1 && Thread >= 1 && Energy >= 2" post="Cloth -= 1, Thread -= 1, Shirts += 1, Energy -= 2" cost=3
func (t *Tailor) Sew() { t.Cloth--; t.Thread--; t.Shirts++; t.Energy -= 2 }

// Weave makes two shirts on the loom.
//
//plan:action pre="At == 'shop' && Loom && Cloth >= 1 && Thread >= 1 && Energy >= 1" post="Cloth -= 1, Thread -= 1, Shirts += 2, Energy -= 1" cost=2
func (t *Tailor) Weave() { t.Cloth--; t.Thread--; t.Shirts += 2; t.Energy-- }

// SellShirt sells a shirt.
//
//plan:action pre="At == 'fair' && Shirts >= 1" post="Shirts -= 1, Coins += 4"
func (t *Tailor) SellShirt() { t.Shirts--; t.Coins += 4 }

// Mend mends clothes at the fair for a coin.
//
//plan:action pre="At == 'fair' && Energy >= 1" post="Coins += 1, Energy -= 1" cost=2
func (t *Tailor) Mend() { t.Coins++; t.Energy-- }

// Sleep at the shop.
//
//plan:action pre="At == 'shop' && Energy < 10" post="Energy = 10" cost=5
func (t *Tailor) Sleep() { t.Energy = 10 }

// Coffee at the market.
//
//plan:action pre="At == 'market' && Coins >= 1 && Energy < 10" post="Energy += 2, Coins -= 1" cost=1
func (t *Tailor) Coffee() { t.Energy += 2; t.Coins-- }
