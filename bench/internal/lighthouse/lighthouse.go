// Package lighthouse keeps a light on the coast: oil and wicks bought in
// the village with the coins fish bring, the lamp lit at the tower, the
// log written while it burns; written from the README by a new user,
// after the armorer, and measured before any change for it. A storm
// keeps the boats in (no fishing) and washes oil ashore; walking with
// oil cans costs more the more she carries.
package lighthouse

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Spot is where the keeper is.
type Spot int

// The keeper's spots.
const (
	Tower Spot = iota
	Shore
	Village
)

// Keeper tends the light.
type Keeper struct {
	At      Spot `plan:"state"`
	Oil     int  `plan:"state; min=0; max=8"` // cans carried
	Wick    int  `plan:"state; min=0; max=4"` // spare wicks
	Lamp    bool `plan:"state"`
	Fish    int  `plan:"state; min=0; max=6"`
	Bread   int  `plan:"state; min=0; max=4"`
	Coins   int  `plan:"state; min=0"`
	Energy  int  `plan:"state; min=0; max=8"`
	Logbook int  `plan:"state; min=0"`
	Storm   bool `plan:"state"` // the weather's, not hers

	// Lit: the lamp burns.
	Lit struct{} `plan:"goal=Lamp; priority=critical"`
	// Provisioned: food for the week.
	Provisioned struct{} `plan:"goal=Fish >= 3 || Bread >= 2; priority=high"`
	// Logged: three entries in the log.
	Logged struct{} `plan:"goal=Logbook >= 3"`
	// Rested: fit for the night watch.
	Rested struct{} `plan:"goal=Energy >= 6; priority=low"`
}

// ToTower climbs to the tower.
//
//plan:action pre="At != Tower && Energy >= 1" post="At = Tower, Energy -= 1" cost="2 + Oil / 3"
func (k *Keeper) ToTower() { k.At = Tower; k.Energy-- }

// ToShore walks down to the shore.
//
//plan:action pre="At != Shore && Energy >= 1" post="At = Shore, Energy -= 1" cost="1 + Oil / 3"
func (k *Keeper) ToShore() { k.At = Shore; k.Energy-- }

// ToVillage walks to the village.
//
//plan:action pre="At != Village && Energy >= 1" post="At = Village, Energy -= 1" cost="3 + Oil / 3"
func (k *Keeper) ToVillage() { k.At = Village; k.Energy-- }

// Cast casts nets from the shore, in calm weather.
//
//plan:action pre="At == Shore && !Storm && Energy >= 2" post="Fish += 2, Energy -= 2" cost=3
func (k *Keeper) Cast() { k.Fish += 2; k.Energy -= 2 }

// Salvage gathers the oil a storm washes ashore.
//
//plan:action pre="At == Shore && Storm && Energy >= 1" post="Oil += 1, Energy -= 1" cost=4
func (k *Keeper) Salvage() { k.Oil++; k.Energy-- }

// SellFish sells a fish in the village.
//
//plan:action pre="At == Village && Fish >= 1" post="Fish -= 1, Coins += 4"
func (k *Keeper) SellFish() { k.Fish--; k.Coins += 4 }

// BuyOil buys two cans of oil.
//
//plan:action pre="At == Village && Coins >= 5" post="Oil += 2, Coins -= 5"
func (k *Keeper) BuyOil() { k.Oil += 2; k.Coins -= 5 }

// BuyWick buys two wicks.
//
//plan:action pre="At == Village && Coins >= 3" post="Wick += 2, Coins -= 3"
func (k *Keeper) BuyWick() { k.Wick += 2; k.Coins -= 3 }

// BuyBread buys a loaf.
//
//plan:action pre="At == Village && Coins >= 4" post="Bread += 1, Coins -= 4"
func (k *Keeper) BuyBread() { k.Bread++; k.Coins -= 4 }

// Eat eats a fish.
//
//plan:action pre="Fish >= 1" post="Fish -= 1, Energy += 2"
func (k *Keeper) Eat() { k.Fish--; k.Energy += 2 }

// LightLamp lights the lamp: two cans and a wick.
//
//plan:action pre="At == Tower && Oil >= 2 && Wick >= 1 && !Lamp" post="Lamp = true, Oil -= 2, Wick -= 1" fulfills=Lit
func (k *Keeper) LightLamp() { k.Lamp = true; k.Oil -= 2; k.Wick-- }

// WriteLog writes an entry by the light.
//
//plan:action pre="At == Tower && Lamp && Energy >= 1" post="Logbook += 1, Energy -= 1"
func (k *Keeper) WriteLog() { k.Logbook++; k.Energy-- }

// Sleep sleeps in the tower, the lamp out.
//
//plan:action pre="At == Tower && !Lamp" post="Energy = 8" cost=6 fulfills=Rested
func (k *Keeper) Sleep() { k.Energy = 8 }
