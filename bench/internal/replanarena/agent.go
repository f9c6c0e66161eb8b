package replanarena

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Agent is one inhabitant of the arena: it keeps itself safe, fed and
// armed. The world raises its hunger, drains its energy and sends
// threats; the agent replans every tick and performs the first step.
type Agent struct {
	Hunger int  `plan:"state"`
	Food   int  `plan:"state"`
	Energy int  `plan:"state"`
	Ammo   int  `plan:"state"`
	Threat int  `plan:"state"`
	Cover  bool `plan:"state"`

	// Safe means no threat is near.
	Safe struct{} `plan:"goal=Threat == 0; priority=critical"`
	// Fed means hunger is under control.
	Fed struct{} `plan:"goal=Hunger < 50; priority=high"`
	// Armed means ammunition for one fight.
	Armed struct{} `plan:"goal=Ammo >= 3; priority=normal"`
}

// Forage gathers food.
//
//plan:action pre="Energy > 10 && Food < 5 && Threat == 0" post="Food += 2, Energy -= 10" cost=2
func (a *Agent) Forage() { a.Food, a.Energy = a.Food+2, a.Energy-10 }

// Eat eats one ration.
//
//plan:action pre="Food > 0" post="Food--, Hunger -= 30" fulfills=Fed
func (a *Agent) Eat() { a.Food, a.Hunger = a.Food-1, a.Hunger-30 }

// Rest recovers energy, out of danger.
//
//plan:action pre="Threat == 0" post="Energy += 25, Cover = false"
func (a *Agent) Rest() { a.Energy, a.Cover = a.Energy+25, false }

// Scavenge looks for ammunition.
//
//plan:action pre="Energy > 5 && Ammo < 10 && Threat == 0" post="Ammo += 5, Energy -= 5" fulfills=Armed cost=2
func (a *Agent) Scavenge() { a.Ammo, a.Energy = a.Ammo+5, a.Energy-5 }

// Fight drives the threat off.
//
//plan:action pre="Ammo >= 3 && Threat > 0" post="Threat = 0, Ammo -= 3, Energy -= 5" fulfills=Safe cost=2
func (a *Agent) Fight() { a.Threat, a.Ammo, a.Energy = 0, a.Ammo-3, a.Energy-5 }

// Flee runs from the threat.
//
//plan:action pre="Energy > 20 && Threat > 0" post="Threat = 0, Energy -= 20" fulfills=Safe cost=3
func (a *Agent) Flee() { a.Threat, a.Energy = 0, a.Energy-20 }

// Hide takes cover until the threat passes.
//
//plan:action pre="Threat > 0 && !Cover" post="Cover = true, Threat = 0" fulfills=Safe cost=4
func (a *Agent) Hide() { a.Cover, a.Threat = true, 0 }
