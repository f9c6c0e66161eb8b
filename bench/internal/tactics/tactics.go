// Package tactics is the role of the utility benchmark: twenty tactical
// actions of a soldier, with costs, values, weights and tags for a utility
// selector to weigh.
package tactics

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Squaddie chooses what to do next.
type Squaddie struct {
	Health    int  `plan:"state"`
	Energy    int  `plan:"state"`
	Ammo      int  `plan:"state"`
	Magazines int  `plan:"state"`
	Medkits   int  `plan:"state"`
	Grenades  int  `plan:"state"`
	Threat    int  `plan:"state"`
	Distance  int  `plan:"state"`
	InCover   bool `plan:"state"`
	Radio     bool `plan:"state"`

	// Clear means no threat left.
	Clear struct{} `plan:"goal=Threat <= 0; priority=high"`
}

// Shoot is a tactical action.
//
//plan:action pre="Ammo > 0 && Threat > 0" post="Ammo--, Threat--" cost=2 value=60 weight=1 tags=combat,ranged
func (s *Squaddie) Shoot() {}

// Burst is a tactical action.
//
//plan:action pre="Ammo >= 3 && Threat > 1" post="Ammo -= 3, Threat -= 2" cost=4 value=80 weight=1 tags=combat,ranged
func (s *Squaddie) Burst() {}

// Melee is a tactical action.
//
//plan:action pre="Distance < 2 && Threat > 0" post="Threat--, Health -= 5" cost=3 value=50 weight=1 tags=combat
func (s *Squaddie) Melee() {}

// Reload is a tactical action.
//
//plan:action pre="Magazines > 0 && Ammo < 10" post="Ammo = 30, Magazines--" cost=3 value=40 weight=1 tags=supply
func (s *Squaddie) Reload() {}

// Scavenge is a tactical action.
//
//plan:action pre="Threat == 0" post="Magazines++" cost=10 value=30 weight=1 tags=supply
func (s *Squaddie) Scavenge() {}

// Advance is a tactical action.
//
//plan:action pre="Distance > 0 && Health > 30" post="Distance--" cost=2 value=35 weight=1 tags=move
func (s *Squaddie) Advance() {}

// Retreat is a tactical action.
//
//plan:action pre="Distance < 10" post="Distance++" cost=2 value=30 weight=1 tags=move
func (s *Squaddie) Retreat() {}

// TakeCover is a tactical action.
//
//plan:action pre="!InCover" post="InCover = true" cost=1 value=45 weight=1 tags=defence
func (s *Squaddie) TakeCover() {}

// LeaveCover is a tactical action.
//
//plan:action pre="InCover" post="InCover = false" cost=1 value=10 weight=1 tags=move
func (s *Squaddie) LeaveCover() {}

// Heal is a tactical action.
//
//plan:action pre="Medkits > 0 && Health < 100" post="Health += 40, Medkits--" cost=5 value=70 weight=1.2 tags=defence,supply
func (s *Squaddie) Heal() {}

// Bandage is a tactical action.
//
//plan:action pre="Health < 60" post="Health += 10" cost=8 value=30 weight=1 tags=defence
func (s *Squaddie) Bandage() {}

// Rest is a tactical action.
//
//plan:action pre="Threat == 0 && Energy < 100" post="Energy += 30" cost=10 value=20 weight=0.8 tags=idle
func (s *Squaddie) Rest() {}

// Sprint is a tactical action.
//
//plan:action pre="Energy > 20" post="Distance += 3, Energy -= 20" cost=4 value=25 weight=1 tags=move
func (s *Squaddie) Sprint() {}

// Throw is a tactical action.
//
//plan:action pre="Grenades > 0 && Distance > 2 && Threat > 2" post="Grenades--, Threat -= 3" cost=6 value=90 weight=1 tags=combat
func (s *Squaddie) Throw() {}

// CallBackup is a tactical action.
//
//plan:action pre="Threat > 3 && Radio" post="Threat -= 2" cost=12 value=75 weight=1 tags=combat,support
func (s *Squaddie) CallBackup() {}

// Patrol is a tactical action.
//
//plan:action pre="Threat == 0 && Energy > 10" post="Energy -= 10" cost=5 value=15 weight=0.7 tags=idle,move
func (s *Squaddie) Patrol() {}

// Scout is a tactical action.
//
//plan:action pre="Threat == 0 && !InCover" post="Distance--" cost=4 value=20 weight=0.9 tags=move
func (s *Squaddie) Scout() {}

// Suppress is a tactical action.
//
//plan:action pre="Ammo >= 5 && Threat > 0" post="Ammo -= 5" cost=5 value=55 weight=1 tags=combat,ranged
func (s *Squaddie) Suppress() {}

// Flank is a tactical action.
//
//plan:action pre="Energy > 30 && Threat > 0 && !InCover" post="Distance -= 2, Energy -= 30" cost=6 value=65 weight=1 tags=combat,move
func (s *Squaddie) Flank() {}

// Surrender is a tactical action.
//
//plan:action pre="Health < 10 && Threat > 4" post="Threat = 0" cost=50 value=5 weight=0.5 tags=idle
func (s *Squaddie) Surrender() {}
