// Package survivor is the role of the condition and extraction
// benchmarks: a survivor whose preconditions and goals cover what
// conditions are made of — comparisons, &&, ||, !, arithmetic, an enum,
// strings and floats — with its conditions also written by hand
// (Handwritten) and as text for the interpreted baselines (Conditions).
package survivor

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Stance is how the survivor stands.
type Stance int

// Stances.
const (
	Standing Stance = iota
	Crouched
	Prone
)

// Survivor has state of every kind rolegen supports, and fields that are
// not state, as a real role has.
type Survivor struct {
	Name      string
	Inventory []string
	Log       map[string]int

	Health    int     `plan:"state"`
	Hunger    int     `plan:"state"`
	Ammo      int     `plan:"state"`
	Magazines int     `plan:"state"`
	Threat    int     `plan:"state"`
	Energy    float64 `plan:"state"`
	Stance    Stance  `plan:"state"`
	Zone      string  `plan:"state"`
	Armed     bool    `plan:"state"`

	// Healthy means health well above hunger.
	Healthy struct{} `plan:"goal=Health - Hunger/2 >= 50; priority=high"`
	// Ready means loaded, off the ground and away from base.
	Ready struct{} `plan:"goal=Ammo % 10 != 0 && Stance != Prone && Zone != 'base'"`
}

// Reload loads a magazine.
//
//plan:action pre="Magazines > 0 && Ammo < 10" post="Ammo += 30, Magazines--"
func (s *Survivor) Reload() {}

// Eat eats when hungry or hurt.
//
//plan:action pre="Hunger > 30 || Health < 20" post="Hunger = 0"
func (s *Survivor) Eat() {}

// Attack needs a weapon and plenty of ammunition.
//
//plan:action pre="Armed && Ammo + Magazines*30 >= 60" post="Ammo -= 10"
func (s *Survivor) Attack() {}

// TakeCover crouches under threat.
//
//plan:action pre="Stance == Standing && Threat > 2" post="Stance = Crouched"
func (s *Survivor) TakeCover() {}

// Trade trades where there is a market.
//
//plan:action pre="Zone == 'market' || Zone == 'camp'" post="Magazines++"
func (s *Survivor) Trade() {}

// Sprint runs, standing, with energy to spare.
//
//plan:action pre="Energy*2.5 > 60.0 && !(Stance == Prone)" post="Energy -= 10"
func (s *Survivor) Sprint() {}
