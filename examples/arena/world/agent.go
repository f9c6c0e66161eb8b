package world

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

import "github.com/rolegen/rolegen/runtime"

// Place is where an agent is: walking from one to another takes ticks.
type Place int

// The arena's places.
const (
	Camp Place = iota
	Forest
	Ruins
)

// Agent is one inhabitant of the arena: it keeps itself safe, fed, armed
// and rested. The world raises its hunger, drains its energy, sends
// threats and empties or fills the ruins; walking, foraging, scavenging
// and resting take ticks, and a threat interrupts them.
type Agent struct {
	At     Place `plan:"state"`
	Hunger int   `plan:"state"`
	Food   int   `plan:"state"`
	Energy int   `plan:"state"`
	Ammo   int   `plan:"state"`
	Threat int   `plan:"state"`
	Cover  bool  `plan:"state"`
	// Looted ruins hold no ammunition: an agent with no ammunition left
	// cannot be armed until the ruins fill again, and its goal backs off.
	Looted bool `plan:"state"`

	// Safe means no threat is near.
	Safe struct{} `plan:"goal=Threat == 0; priority=critical"`
	// Fed means hunger is under control.
	Fed struct{} `plan:"goal=Hunger < 50; priority=high"`
	// Armed means ammunition for one fight.
	Armed struct{} `plan:"goal=Ammo >= 3; priority=normal"`
	// Rested means energy to go on.
	Rested struct{} `plan:"goal=Energy >= 30; priority=low"`

	// Walk is how many ticks the agent takes from one place to another.
	Walk int
	// Done counts the steps the agent finished, by action (indexed by
	// ActionID).
	Done [16]int32
}

// GoToForest walks to the forest.
//
//plan:action pre="At != Forest" post="At = Forest, Energy -= 2"
func (a *Agent) GoToForest(t runtime.Step) runtime.Status { return a.walk(t, Forest, AgentGoToForest) }

// GoToRuins walks to the ruins.
//
//plan:action pre="At != Ruins" post="At = Ruins, Energy -= 2"
func (a *Agent) GoToRuins(t runtime.Step) runtime.Status { return a.walk(t, Ruins, AgentGoToRuins) }

// GoToCamp walks back to camp.
//
//plan:action pre="At != Camp" post="At = Camp, Energy -= 2"
func (a *Agent) GoToCamp(t runtime.Step) runtime.Status { return a.walk(t, Camp, AgentGoToCamp) }

// walk arrives at to once it has walked a.Walk ticks. Interrupted, the
// agent stays where it was (the walk is not half done: a game would leave
// it on the road).
func (a *Agent) walk(t runtime.Step, to Place, id runtime.ActionID) runtime.Status {
	if t.Interrupted || t.Ticks+1 < a.Walk {
		return runtime.Running
	}
	a.At, a.Energy = to, a.Energy-2
	return a.finish(id)
}

// Forage gathers food, which takes two ticks.
//
//plan:action pre="At == Forest && Food < 4 && Threat == 0" post="Food += 2, Energy -= 5" cost=2
func (a *Agent) Forage(t runtime.Step) runtime.Status {
	if t.Interrupted || t.Ticks < 1 {
		return runtime.Running
	}
	a.Food, a.Energy = a.Food+2, a.Energy-5
	return a.finish(AgentForage)
}

// Eat eats one ration.
//
//plan:action pre="Food > 0" post="Food--, Hunger -= 30" fulfills=Fed
func (a *Agent) Eat() {
	a.Food, a.Hunger = a.Food-1, a.Hunger-30
	a.finish(AgentEat)
}

// Scavenge looks for ammunition in the ruins, which takes three ticks.
//
//plan:action pre="At == Ruins && !Looted && Energy > 5 && Ammo < 10 && Threat == 0" post="Ammo += 5, Energy -= 5" fulfills=Armed cost=2
func (a *Agent) Scavenge(t runtime.Step) runtime.Status {
	if t.Interrupted || t.Ticks < 2 {
		return runtime.Running
	}
	a.Ammo, a.Energy = a.Ammo+5, a.Energy-5
	return a.finish(AgentScavenge)
}

// Rest recovers energy at camp, out of danger, which takes four ticks.
//
//plan:action pre="At == Camp && Threat == 0" post="Energy += 40, Cover = false" fulfills=Rested
func (a *Agent) Rest(t runtime.Step) runtime.Status {
	if t.Interrupted || t.Ticks < 3 {
		return runtime.Running
	}
	a.Energy, a.Cover = a.Energy+40, false
	return a.finish(AgentRest)
}

// Fight drives the threat off.
//
//plan:action pre="Ammo >= 3 && Threat > 0" post="Threat = 0, Ammo -= 3, Energy -= 5" fulfills=Safe cost=2
func (a *Agent) Fight() {
	a.Threat, a.Ammo, a.Energy = 0, a.Ammo-3, a.Energy-5
	a.finish(AgentFight)
}

// Flee runs from the threat.
//
//plan:action pre="Energy > 20 && Threat > 0" post="Threat = 0, Energy -= 20" fulfills=Safe cost=3
func (a *Agent) Flee() {
	a.Threat, a.Energy = 0, a.Energy-20
	a.finish(AgentFlee)
}

// Hide takes cover until the threat passes; cover lasts until the agent
// rests.
//
//plan:action pre="Threat > 0 && !Cover" post="Cover = true, Threat = 0" fulfills=Safe cost=4
func (a *Agent) Hide() {
	a.Cover, a.Threat = true, 0
	a.finish(AgentHide)
}

// finish counts a step done.
func (a *Agent) finish(id runtime.ActionID) runtime.Status {
	a.Done[id]++
	return runtime.Done
}
