// Package soldier is the role of SPEC §1, for the planning benchmarks: a
// soldier without ammunition fetches a magazine, then reloads.
package soldier

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Soldier stays armed.
type Soldier struct {
	Ammo      int `plan:"state"`
	Magazines int `plan:"state"`

	// Armed means enough ammunition to fight.
	Armed struct{} `plan:"goal=Ammo > 10; priority=high"`
}

// FetchMagazine picks up a magazine.
//
//plan:action post="Magazines = Magazines + 1"
func (s *Soldier) FetchMagazine() { s.Magazines++ }

// Reload loads a magazine.
//
//plan:action pre="Magazines > 0" post="Ammo = 30, Magazines = Magazines - 1" fulfills=Armed cost=2
func (s *Soldier) Reload() { s.Ammo = 30; s.Magazines-- }
