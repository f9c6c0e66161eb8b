// Package ranger hunts and fishes for a living, and sleeps by a fire.
package ranger

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Ranger lives in the woods and trades in town.
type Ranger struct {
	At      string `plan:"state"` // camp, forest, river or town
	Stamina int    `plan:"state"`
	Arrows  int    `plan:"state"`
	Wood    int    `plan:"state"`
	Pelts   int    `plan:"state"`
	Fish    int    `plan:"state"`
	Coins   int    `plan:"state"`
	Rod     bool   `plan:"state"`

	// Rested: fit for a day's work.
	Rested struct{} `plan:"goal=Stamina >= 12; priority=high"`
	// Stocked: money for the winter.
	Stocked struct{} `plan:"goal=Coins >= 20"`
	// Armed: a full quiver.
	Armed struct{} `plan:"goal=Arrows >= 6; priority=low"`
}

// ToForest walks to the forest.
//
//plan:action pre="At != 'forest' && Stamina >= 2" post="At = 'forest', Stamina -= 2" cost=2
func (r *Ranger) ToForest() { r.At = "forest"; r.Stamina -= 2 }

// ToRiver walks to the river.
//
//plan:action pre="At != 'river' && Stamina >= 2" post="At = 'river', Stamina -= 2" cost=2
func (r *Ranger) ToRiver() { r.At = "river"; r.Stamina -= 2 }

// ToCamp walks back to camp.
//
//plan:action pre="At != 'camp' && Stamina >= 1" post="At = 'camp', Stamina -= 1" cost=2
func (r *Ranger) ToCamp() { r.At = "camp"; r.Stamina-- }

// ToTown walks to town, the longest way.
//
//plan:action pre="At != 'town' && Stamina >= 3" post="At = 'town', Stamina -= 3" cost=3
func (r *Ranger) ToTown() { r.At = "town"; r.Stamina -= 3 }

// Chop chops firewood.
//
//plan:action pre="At == 'forest' && Stamina >= 3 && Wood < 6" post="Wood += 1, Stamina -= 3"
func (r *Ranger) Chop() { r.Wood++; r.Stamina -= 3 }

// Fletch makes three arrows from a piece of wood.
//
//plan:action pre="At == 'camp' && Wood >= 1 && Arrows < 8" post="Arrows += 3, Wood -= 1"
func (r *Ranger) Fletch() { r.Arrows += 3; r.Wood-- }

// Hunt hunts with two arrows.
//
//plan:action pre="At == 'forest' && Arrows >= 2 && Stamina >= 4 && Pelts < 6" post="Pelts += 1, Arrows -= 2, Stamina -= 4" cost=2
func (r *Ranger) Hunt() { r.Pelts++; r.Arrows -= 2; r.Stamina -= 4 }

// Angle fishes with the rod.
//
//plan:action pre="At == 'river' && Rod && Stamina >= 2 && Fish < 8" post="Fish += 1, Stamina -= 2"
func (r *Ranger) Angle() { r.Fish++; r.Stamina -= 2 }

// SellPelt sells a pelt.
//
//plan:action pre="At == 'town' && Pelts >= 1" post="Pelts -= 1, Coins += 6"
func (r *Ranger) SellPelt() { r.Pelts--; r.Coins += 6 }

// SellFish sells a fish.
//
//plan:action pre="At == 'town' && Fish >= 1" post="Fish -= 1, Coins += 2"
func (r *Ranger) SellFish() { r.Fish--; r.Coins += 2 }

// BuyArrows buys two arrows.
//
//plan:action pre="At == 'town' && Coins >= 4 && Arrows < 8" post="Arrows += 2, Coins -= 4"
func (r *Ranger) BuyArrows() { r.Arrows += 2; r.Coins -= 4 }

// BuyRod buys a fishing rod.
//
//plan:action pre="At == 'town' && Coins >= 5 && !Rod" post="Rod = true, Coins -= 5"
func (r *Ranger) BuyRod() { r.Rod = true; r.Coins -= 5 }

// Sleep sleeps by a fire at camp.
//
//plan:action pre="At == 'camp' && Wood >= 1 && Stamina < 20" post="Stamina = 20, Wood -= 1" cost=4 fulfills=Rested
func (r *Ranger) Sleep() { r.Stamina = 20; r.Wood-- }

// Rest rests a while wherever there is no crowd.
//
//plan:action pre="At != 'town' && Stamina < 17" post="Stamina += 3" cost=2
func (r *Ranger) Rest() { r.Stamina += 3 }
