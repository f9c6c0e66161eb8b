// Package brewer brews beer: grain from the field malted in the cellar,
// water from the well, yeast bought at the market with what the beer
// sold there brings, and a kettle scrubbed before every brew. Walking
// tires her; sleeping in the cellar or an ale at the market gives energy
// back. Written from the README by a new user in a scratch module, where
// the chainer missed the planners issue's targets on her (see
// BENCHMARKS.md: her cheapest plans sell a beer to buy the yeast for two
// more).
package brewer

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Spot is where the brewer is.
type Spot string

const (
	Cellar Spot = "cellar"
	Field  Spot = "field"
	Market Spot = "market"
	Well   Spot = "well"
)

// Brewer grows grain, malts it, brews and sells beer.
type Brewer struct {
	At     Spot `plan:"state"`
	Energy int  `plan:"state; min=0; max=10"`
	Grain  int  `plan:"state; min=0; max=9"`
	Water  int  `plan:"state; min=0; max=6"`
	Malt   int  `plan:"state; min=0; max=6"`
	Yeast  int  `plan:"state; min=0; max=3"`
	Beer   int  `plan:"state; min=0; max=8"`
	Coins  int  `plan:"state; min=0"`
	Clean  bool `plan:"state"`

	// Rested: awake enough to work.
	Rested struct{} `plan:"goal=Energy >= 4; priority=high"`
	// Stocked: beer in the cellar.
	Stocked struct{} `plan:"goal=Beer >= 4"`
	// Rich: a purse worth having.
	Rich struct{} `plan:"goal=Coins >= 30; priority=low"`
}

//plan:action pre="At != Cellar && Energy >= 1" post="At = Cellar, Energy -= 1" cost=2
func (b *Brewer) ToCellar() {}

//plan:action pre="At != Field && Energy >= 1" post="At = Field, Energy -= 1" cost=2
func (b *Brewer) ToField() {}

//plan:action pre="At != Market && Energy >= 1" post="At = Market, Energy -= 1" cost=3
func (b *Brewer) ToMarket() {}

//plan:action pre="At != Well && Energy >= 1" post="At = Well, Energy -= 1" cost=1
func (b *Brewer) ToWell() {}

//plan:action pre="At == Field && Energy >= 2" post="Grain += 3, Energy -= 2" cost=3
func (b *Brewer) Harvest() {}

//plan:action pre="At == Well" post="Water += 2" cost=1
func (b *Brewer) Draw() {}

//plan:action pre="At == Cellar && Grain >= 2" post="Grain -= 2, Malt += 1" cost=2
func (b *Brewer) MaltGrain() {}

//plan:action pre="At == Cellar && Malt >= 1 && Water >= 2 && Yeast >= 1 && Clean && Energy >= 1" post="Malt -= 1, Water -= 2, Yeast -= 1, Beer += 2, Clean = false, Energy -= 1" cost=3
func (b *Brewer) Brew() {}

//plan:action pre="At == Cellar && !Clean && Energy >= 1" post="Clean = true, Energy -= 1" cost=2
func (b *Brewer) Scrub() {}

//plan:action pre="At == Market && Coins >= 3" post="Yeast += 1, Coins -= 3" cost=1
func (b *Brewer) BuyYeast() {}

//plan:action pre="At == Market && Coins >= 2" post="Grain += 2, Coins -= 2" cost=1
func (b *Brewer) BuyGrain() {}

//plan:action pre="At == Market && Beer >= 1" post="Beer -= 1, Coins += 9" cost=1
func (b *Brewer) SellBeer() {}

//plan:action pre="At == Cellar && Energy < 10" post="Energy = 10" cost=6 fulfills=Rested
func (b *Brewer) Sleep() {}

//plan:action pre="At == Market && Coins >= 2 && Energy < 10" post="Energy += 3, Coins -= 2" cost=1
func (b *Brewer) Ale() {}
