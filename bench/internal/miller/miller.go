// Package miller grows wheat, mills it into flour and bakes bread, to
// eat and to sell: her land is a ring of places with a well off it,
// walked one road at a time, each road an action of its own (the
// written roles before her walk anywhere in one step). Written from the
// README by a new user, with a typo in a precondition (At == Mil, which
// go generate reported at its column as an unknown constant, "did you
// mean Mill?", writing no file), and measured in a scratch module before
// it was added here.
package miller

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Place is where the miller is.
type Place int

// The places: Home, the Field, the Mill, the Market and the Well. Roads:
// Home-Field, Field-Mill, Mill-Market, Market-Home, Home-Well.
const (
	Home Place = iota
	Field
	Mill
	Market
	Well
)

// Miller keeps herself rested, the pantry stocked and a purse.
type Miller struct {
	At     Place `plan:"state"`
	Energy int   `plan:"state; min=0; max=10"`
	Seeds  int   `plan:"state; min=0; max=6"`
	Sown   int   `plan:"state; min=0; max=6"`
	Water  int   `plan:"state; min=0; max=4"`
	Grain  int   `plan:"state; min=0; max=12"`
	Flour  int   `plan:"state; min=0; max=8"`
	Bread  int   `plan:"state; min=0; max=8"`
	Coins  int   `plan:"state; min=0"`

	Rested  struct{} `plan:"goal=Energy >= 6; priority=high"`
	Stocked struct{} `plan:"goal=Bread >= 4"`
	Wealthy struct{} `plan:"goal=Coins >= 15; priority=low"`
	Ready   struct{} `plan:"goal=Flour >= 3 && At == Home; priority=low"`
}

//plan:action pre="At == Home && Energy >= 1" post="At = Field, Energy -= 1" cost=2
func (m *Miller) HomeToField() {}

//plan:action pre="At == Field && Energy >= 1" post="At = Home, Energy -= 1" cost=2
func (m *Miller) FieldToHome() {}

//plan:action pre="At == Field && Energy >= 1" post="At = Mill, Energy -= 1" cost=2
func (m *Miller) FieldToMill() {}

//plan:action pre="At == Mill && Energy >= 1" post="At = Field, Energy -= 1" cost=2
func (m *Miller) MillToField() {}

//plan:action pre="At == Mill && Energy >= 1" post="At = Market, Energy -= 1" cost=2
func (m *Miller) MillToMarket() {}

//plan:action pre="At == Market && Energy >= 1" post="At = Mill, Energy -= 1" cost=2
func (m *Miller) MarketToMill() {}

//plan:action pre="At == Market && Energy >= 1" post="At = Home, Energy -= 1" cost=3
func (m *Miller) MarketToHome() {}

//plan:action pre="At == Home && Energy >= 1" post="At = Market, Energy -= 1" cost=3
func (m *Miller) HomeToMarket() {}

//plan:action pre="At == Home" post="At = Well" cost=1
func (m *Miller) HomeToWell() {}

//plan:action pre="At == Well" post="At = Home" cost=1
func (m *Miller) WellToHome() {}

//plan:action pre="At == Well && Water < 4" post="Water += 2" cost=1
func (m *Miller) Draw() {}

//plan:action pre="At == Field && Seeds >= 1" post="Seeds -= 1, Sown += 1" cost=1
func (m *Miller) Sow() {}

//plan:action pre="At == Field && Sown >= 1 && Water >= 1 && Energy >= 1" post="Sown -= 1, Water -= 1, Grain += 3, Energy -= 1" cost=2
func (m *Miller) Reap() {}

//plan:action pre="At == Field && Energy >= 2" post="Grain += 1, Energy -= 2" cost=3
func (m *Miller) Glean() {}

//plan:action pre="At == Mill && Grain >= 2" post="Grain -= 2, Flour += 1" cost=1
func (m *Miller) Grind() {}

//plan:action pre="At == Home && Flour >= 1 && Water >= 1" post="Flour -= 1, Water -= 1, Bread += 2" cost=2
func (m *Miller) Bake() {}

//plan:action pre="At == Market && Bread >= 1" post="Bread -= 1, Coins += 5" cost=1
func (m *Miller) SellBread() {}

//plan:action pre="At == Market && Coins >= 2" post="Coins -= 2, Seeds += 3" cost=1
func (m *Miller) BuySeeds() {}

//plan:action pre="At == Market && Coins >= 6" post="Coins -= 6, Bread += 1" cost=1
func (m *Miller) BuyBread() {}

//plan:action pre="Bread >= 1 && Energy < 10" post="Bread -= 1, Energy += 3" cost=1
func (m *Miller) Eat() {}

//plan:action pre="At == Home && Energy < 10" post="Energy = 10" cost=6 fulfills=Rested
func (m *Miller) Sleep() {}

//plan:action pre="Energy < 10" post="Energy += 1" cost=3
func (m *Miller) Rest() {}
