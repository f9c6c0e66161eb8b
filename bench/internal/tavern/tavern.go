// Package tavern runs a tavern: ale tapped from kegs brewed of grain,
// wine bought at the market, guests brought in by notices that cost gold
// and served for gold that only guests pay, fame from singing when
// grumpy, which sweeping a floor only guests dirty makes the keeper; a
// float tiredness that every walk raises and walks cost more with.
// Written from the README by a new user in a scratch module: with no gold
// and no guests, or no grain and no kegs, its goals cannot be met, and
// before the relaxed reachability counted what actions that fire only so
// often add up to, every planner searched such a goal to its limits (the
// chainer 15 ms a call), where it is now proved out of reach at once
// (see BENCHMARKS.md).
package tavern

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Spot is where the keeper is.
type Spot string

// The spots.
const (
	Bar     Spot = "bar"
	Cellar  Spot = "cellar"
	Market  Spot = "market"
	Brewery Spot = "brewery"
)

// Keeper runs a tavern.
type Keeper struct {
	Where   Spot    `plan:"state"`
	Gold    int     `plan:"state"`
	Ale     int     `plan:"state"`
	Wine    int     `plan:"state"`
	Kegs    int     `plan:"state"`
	Grain   int     `plan:"state"`
	Guests  int     `plan:"state"`
	Fame    int     `plan:"state"`
	Fatigue float64 `plan:"state"`
	Mood    string  `plan:"state"`
	Clean   bool    `plan:"state"`

	// Stocked: drinks for the evening.
	Stocked struct{} `plan:"goal=Ale + Wine >= 6 && Where == Bar; priority=high"`
	// Prosper: gold or fame.
	Prosper struct{} `plan:"goal=Gold >= 40 || Fame >= 5"`
	// Tidy: a clean tavern and a calm keeper.
	Tidy struct{} `plan:"goal=Clean && Mood != 'grumpy'; priority=low"`
}

// GoCellar goes down to the cellar.
//
//plan:action pre="Where == Bar" post="Where = Cellar, Fatigue += 0.5" cost="1 + Fatigue / 10"
func (k *Keeper) GoCellar() { k.Where = Cellar; k.Fatigue += 0.5 }

// GoBar goes back to the bar.
//
//plan:action pre="Where != Bar" post="Where = Bar, Fatigue += 0.5" cost="2 + Fatigue / 10"
func (k *Keeper) GoBar() { k.Where = Bar; k.Fatigue += 0.5 }

// GoMarket walks to the market.
//
//plan:action pre="Where == Bar" post="Where = Market, Fatigue += 1" cost="4 + Fatigue / 5"
func (k *Keeper) GoMarket() { k.Where = Market; k.Fatigue++ }

// GoBrewery walks to the brewery.
//
//plan:action pre="Where == Market" post="Where = Brewery, Fatigue += 1" cost=3
func (k *Keeper) GoBrewery() { k.Where = Brewery; k.Fatigue++ }

// TapKeg draws ale from a keg in the cellar.
//
//plan:action pre="Where == Cellar && Kegs > 0" post="Kegs--, Ale += 4" cost=1
func (k *Keeper) TapKeg() { k.Kegs--; k.Ale += 4 }

// BuyWine buys two bottles at the market.
//
//plan:action pre="Where == Market && Gold >= 6" post="Gold -= 6, Wine += 2" cost=1
func (k *Keeper) BuyWine() { k.Gold -= 6; k.Wine += 2 }

// BuyGrain buys grain at the market.
//
//plan:action pre="Where == Market && Gold >= 2" post="Gold -= 2, Grain += 3" cost=1
func (k *Keeper) BuyGrain() { k.Gold -= 2; k.Grain += 3 }

// Brew turns grain into a keg at the brewery.
//
//plan:action pre="Where == Brewery && Grain >= 3" post="Grain -= 3, Kegs += 1, Fatigue += 2" cost=3
func (k *Keeper) Brew() { k.Grain -= 3; k.Kegs++; k.Fatigue += 2 }

// Serve serves drinks to guests at the bar.
//
//plan:action pre="Where == Bar && Guests > 0 && Ale + Wine > 0 && Ale > 0" post="Ale--, Gold += 5, Guests--, Clean = false" cost=1
func (k *Keeper) Serve() { k.Ale--; k.Gold += 5; k.Guests--; k.Clean = false }

// ServeWine serves wine.
//
//plan:action pre="Where == Bar && Guests > 0 && Wine > 0" post="Wine--, Gold += 9, Guests--, Clean = false, Fame += 1" cost=1
func (k *Keeper) ServeWine() { k.Wine--; k.Gold += 9; k.Guests--; k.Clean = false; k.Fame++ }

// Advertise brings guests in.
//
//plan:action pre="Where == Bar && Gold >= 1" post="Guests += 3, Gold -= 1" cost=2
func (k *Keeper) Advertise() { k.Guests += 3; k.Gold-- }

// Sweep cleans the tavern, and the keeper grumbles.
//
//plan:action pre="!Clean" post="Clean = true, Mood = 'grumpy', Fatigue += 1" cost=2
func (k *Keeper) Sweep() { k.Clean = true; k.Mood = "grumpy"; k.Fatigue++ }

// Sing cheers the keeper up.
//
//plan:action pre="Mood == 'grumpy' && Where == Bar" post="Mood = 'merry', Fame += 1" cost=3
func (k *Keeper) Sing() { k.Mood = "merry"; k.Fame++ }

// Nap rests the keeper.
//
//plan:action pre="Fatigue >= 2" post="Fatigue = 0, Mood = 'calm'" cost=4
func (k *Keeper) Nap() { k.Fatigue = 0; k.Mood = "calm" }
