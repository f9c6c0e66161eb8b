// Package fisher fishes: fish sell at the market, bait comes from the
// shore, the boat leaks, and rowing out to sea is tiring.
package fisher

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Fisher lives by the sea.
type Fisher struct {
	At     string `plan:"state"` // home, shore, sea or market
	Vigor  int    `plan:"state"`
	Coins  int    `plan:"state"`
	Fish   int    `plan:"state"`
	Bait   int    `plan:"state"`
	Leak   int    `plan:"state"` // how badly the boat leaks
	Tar    int    `plan:"state"`
	Supper bool   `plan:"state"`

	// Afloat: the boat is sound.
	Afloat struct{} `plan:"goal=Leak < 2; priority=high"`
	// Purse: coins put by.
	Purse struct{} `plan:"goal=Coins >= 15"`
	// Fed: supper at home.
	Fed struct{} `plan:"goal=Supper && At == 'home'; priority=low"`
}

// Walk walks to the shore.
//
//plan:action pre="At != 'shore' && At != 'sea' && Vigor >= 2" post="At = 'shore', Vigor -= 2" cost=2
func (f *Fisher) Walk() { f.At = "shore"; f.Vigor -= 2 }

// RowOut rows out to sea; the boat must float.
//
//plan:action pre="At == 'shore' && Vigor >= 5 && Leak < 4" post="At = 'sea', Vigor -= 5, Leak += 1" cost=3
func (f *Fisher) RowOut() { f.At = "sea"; f.Vigor -= 5; f.Leak++ }

// RowBack rows back to the shore.
//
//plan:action pre="At == 'sea' && Vigor >= 3" post="At = 'shore', Vigor -= 3" cost=2
func (f *Fisher) RowBack() { f.At = "shore"; f.Vigor -= 3 }

// GoMarket walks to the market.
//
//plan:action pre="At != 'market' && At != 'sea' && Vigor >= 2" post="At = 'market', Vigor -= 2" cost=2
func (f *Fisher) GoMarket() { f.At = "market"; f.Vigor -= 2 }

// GoHome walks home.
//
//plan:action pre="At != 'home' && At != 'sea' && Vigor >= 1" post="At = 'home', Vigor -= 1" cost=1
func (f *Fisher) GoHome() { f.At = "home"; f.Vigor-- }

// DigBait digs bait on the shore.
//
//plan:action pre="At == 'shore' && Bait < 6" post="Bait += 3, Vigor -= 1" cost=2
func (f *Fisher) DigBait() { f.Bait += 3; f.Vigor-- }

// Cast fishes with a bait.
//
//plan:action pre="At == 'sea' && Bait >= 1 && Vigor >= 1" post="Bait -= 1, Fish += 2, Vigor -= 1"
func (f *Fisher) Cast() { f.Bait--; f.Fish += 2; f.Vigor-- }

// Sell sells a fish.
//
//plan:action pre="At == 'market' && Fish >= 1" post="Fish -= 1, Coins += 3"
func (f *Fisher) Sell() { f.Fish--; f.Coins += 3 }

// MendNets mends nets at the market for a coin.
//
//plan:action pre="At == 'market' && Vigor >= 4" post="Coins += 1, Vigor -= 4" cost=2
func (f *Fisher) MendNets() { f.Coins++; f.Vigor -= 4 }

// BuyTar buys tar.
//
//plan:action pre="At == 'market' && Coins >= 2" post="Tar += 1, Coins -= 2"
func (f *Fisher) BuyTar() { f.Tar++; f.Coins -= 2 }

// Caulk caulks the boat on the shore.
//
//plan:action pre="At == 'shore' && Tar >= 1" post="Tar -= 1, Leak = 0" cost=2 fulfills=Afloat
func (f *Fisher) Caulk() { f.Tar--; f.Leak = 0 }

// Bail bails the boat: a little less leak.
//
//plan:action pre="At == 'shore' && Leak > 0" post="Leak -= 1, Vigor -= 2" cost=2
func (f *Fisher) Bail() { f.Leak--; f.Vigor -= 2 }

// Nap naps at home.
//
//plan:action pre="At == 'home' && Vigor < 30" post="Vigor = 30" cost=3
func (f *Fisher) Nap() { f.Vigor = 30 }

// Rest rests anywhere on land.
//
//plan:action pre="At != 'sea' && Vigor < 40" post="Vigor += 4" cost=2
func (f *Fisher) Rest() { f.Vigor += 4 }

// CookFish cooks a fish at home.
//
//plan:action pre="At == 'home' && Fish >= 1" post="Fish -= 1, Supper = true" cost=2 fulfills=Fed
func (f *Fisher) CookFish() { f.Fish--; f.Supper = true }

// BuyPie buys a pie at the market.
//
//plan:action pre="At == 'market' && Coins >= 4" post="Coins -= 4, Supper = true"
func (f *Fisher) BuyPie() { f.Coins -= 4; f.Supper = true }
