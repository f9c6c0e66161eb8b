// Package beekeeper keeps bees: honey from the hives, sold at the market or
// rendered into wax at home; written from the README by a new user, after
// the prospector, and measured before any change for it. Her energy comes
// from a nap anywhere (one for 2) or a rest at home (four for 3), and her
// jars hold six.
package beekeeper

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Keeper tends hives.
type Keeper struct {
	At     string `plan:"state"`               // hives, market or home
	Honey  int    `plan:"state; min=0; max=6"` // jars carried
	Wax    int    `plan:"state; min=0; max=9"`
	Coins  int    `plan:"state; min=0"`
	Energy int    `plan:"state; min=0; max=8"`
	Smoker bool   `plan:"state"`

	// Paid: the rent.
	Paid struct{} `plan:"goal=Coins >= 40"`
	// Rested: fit to work.
	Rested struct{} `plan:"goal=Energy >= 5; priority=high"`
}

// ToHives walks to the hives.
//
//plan:action pre="At != 'hives' && Energy >= 1" post="At = 'hives', Energy -= 1" cost=2
func (k *Keeper) ToHives() { k.At = "hives"; k.Energy-- }

// ToMarket walks to the market.
//
//plan:action pre="At != 'market' && Energy >= 1" post="At = 'market', Energy -= 1" cost=3
func (k *Keeper) ToMarket() { k.At = "market"; k.Energy-- }

// ToHome walks home.
//
//plan:action pre="At != 'home'" post="At = 'home'" cost=2
func (k *Keeper) ToHome() { k.At = "home" }

// Gather takes honey by hand, stung often.
//
//plan:action pre="At == 'hives' && Energy >= 2" post="Honey += 1, Energy -= 2" cost=3
func (k *Keeper) Gather() { k.Honey++; k.Energy -= 2 }

// Smoke calms the bees first: three jars at once.
//
//plan:action pre="At == 'hives' && Smoker && Energy >= 1" post="Honey += 3, Energy -= 1" cost=2
func (k *Keeper) Smoke() { k.Honey += 3; k.Energy-- }

// BuySmoker buys a smoker.
//
//plan:action pre="At == 'market' && !Smoker && Coins >= 6" post="Smoker = true, Coins -= 6"
func (k *Keeper) BuySmoker() { k.Smoker = true; k.Coins -= 6 }

// SellHoney sells two jars.
//
//plan:action pre="At == 'market' && Honey >= 2" post="Honey -= 2, Coins += 5"
func (k *Keeper) SellHoney() { k.Honey -= 2; k.Coins += 5 }

// Render turns a jar into wax.
//
//plan:action pre="At == 'home' && Honey >= 1" post="Honey -= 1, Wax += 2" cost=2
func (k *Keeper) Render() { k.Honey--; k.Wax += 2 }

// SellWax sells three cakes of wax.
//
//plan:action pre="At == 'market' && Wax >= 3" post="Wax -= 3, Coins += 7"
func (k *Keeper) SellWax() { k.Wax -= 3; k.Coins += 7 }

// Rest at home.
//
//plan:action pre="At == 'home' && Energy < 8" post="Energy += 4" cost=3
func (k *Keeper) Rest() { k.Energy += 4 }

// Nap anywhere, badly.
//
//plan:action pre="Energy < 8" post="Energy += 1" cost=2
func (k *Keeper) Nap() { k.Energy += 1 }

// Busk sings at the market for a coin.
//
//plan:action pre="At == 'market' && Energy >= 1" post="Coins += 1, Energy -= 1" cost=2
func (k *Keeper) Busk() { k.Coins++; k.Energy-- }
