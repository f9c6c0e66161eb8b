// Package porter is a role for the tests of runtime's agents whose steps
// do not go as planned: a door that jams, a key press that forgets to
// count the key it makes, and a walk that tires the porter a little each
// tick, where its post takes the whole toll at once; and a napper whose
// post clamps what its method does not. The _plan.go files are generated
// by rolegen.
package porter

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

import "github.com/rolegen/rolegen/runtime"

// Where the porter is.
const (
	Yard = iota
	Door
)

// Porter gets in and cuts keys.
type Porter struct {
	At     int  `plan:"state"`
	Open   bool `plan:"state"`
	Inside bool `plan:"state"`
	Keys   int  `plan:"state"`
	Energy int  `plan:"state"`

	// In means inside.
	In struct{} `plan:"goal=Inside; priority=high"`
	// Keyed means keys for the others.
	Keyed struct{} `plan:"goal=Keys >= 2"`

	// Jammed makes Unlock fail; Forgets makes Cut return without the key.
	Jammed, Forgets bool
	// Log records the steps' calls.
	Log []string
}

// ToDoor walks to the door in two ticks, tiring one a tick.
//
//plan:action pre="At != Door" post="At = Door, Energy -= 2"
func (p *Porter) ToDoor(t runtime.Step) runtime.Status {
	p.Energy--
	if t.Ticks < 1 {
		return runtime.Running
	}
	p.At = Door
	p.Log = append(p.Log, "at door")
	return runtime.Done
}

// Unlock opens the door, unless it is jammed.
//
//plan:action pre="At == Door && !Open" post="Open = true"
func (p *Porter) Unlock(t runtime.Step) runtime.Status {
	p.Log = append(p.Log, "unlock")
	if p.Jammed {
		return runtime.Failed
	}
	p.Open = true
	return runtime.Done
}

// Enter goes in.
//
//plan:action pre="Open" post="Inside = true"
func (p *Porter) Enter() {
	p.Log = append(p.Log, "enter")
	p.Inside = true
}

// Cut cuts a key, unless the porter forgets to.
//
//plan:action post="Keys += 1"
func (p *Porter) Cut() {
	p.Log = append(p.Log, "cut")
	if !p.Forgets {
		p.Keys++
	}
}
