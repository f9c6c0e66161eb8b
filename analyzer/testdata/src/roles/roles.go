package roles // want package:"actions\\(Farmer.Sell,Walk Fine.Reload Soldier.Reload,Fire,Aim,Duck\\)"

const MaxAmmo = 30

type Stance int

const (
	Standing Stance = iota
	Crouched
)

// Soldier has a mistake of every kind the analyzer reports.
type Soldier struct {
	Ammo      int                `plan:"state"`
	Magazines int                `plan:"state"`
	Stance    Stance             `plan:"state"`
	Pos       struct{ X, Y int } `plan:"state"`                                                 // want `state field Pos has type struct\{X int; Y int\}`
	Armed     struct{}           `plan:"goal=Amo > 10; priority=high"`                          // want `unknown state field "Amo" \(did you mean "Ammo"\?\)`
	Hidden    struct{}           `plan:"goal=Stance == 'crouched'"`                             // want `Stance is an enum \(type Stance\); compare with a constant: Crouched`
	Ready     struct{}           `plan:"goal=Ammo < MaxAmo; priority=urgent"`                   // want `unknown constant "MaxAmo" \(did you mean "MaxAmmo"\?\)` `unknown priority "urgent"`
	Full      struct{}           `plan:"goal=Ammo >= math.MaxInt8 && Magazines < math.MaxInt9"` // want `unknown constant math.MaxInt9 \(did you mean math.MaxInt\?\)`
}

// Reload loads a magazine.
//
// want +2 `unknown state field "Magazins" \(did you mean "Magazines"\?\)` `unknown goal "Armd" in fulfills \(did you mean "Armed"\?\)` `cost must be a number, but Magazines > 1 is untyped bool`
//
//plan:action pre="Magazins > 0" post="Ammo = 30, Magazines--" fulfills=Armd cost="Magazines > 1"
func (s *Soldier) Reload() {}

// Fire shoots.
//
// want +2 `Ammo is assigned twice in one post`  `unknown key "cots" in plan:action \(did you mean "cost"\?\)`
//
//plan:action post="Ammo--, Ammo = 0" cots=2
func (s *Soldier) Fire() {}

// Aim takes an int, which no action may.
//
//plan:action post="Stance = Crouched"
func (s *Soldier) Aim(n int) {} // want `action Aim has signature func\(n int\)`

// Duck ducks at once, so nothing could interrupt it.
//
// want +2 `uninterruptible on Duck, whose method finishes when it returns`
//
//plan:action post="Stance = Crouched" uninterruptible
func (s *Soldier) Duck() {}

// Fine is a role without mistakes: nothing is reported.
type Fine struct {
	Ammo  int      `plan:"state"`
	Armed struct{} `plan:"goal=Ammo > 10"`
}

// Reload loads.
//
//plan:action post="Ammo = 30" fulfills=Armed
func (f *Fine) Reload() {}

// Farmer has the mistakes a game programmer trips on; each is reported
// once, where it is.
type Farmer struct {
	Gold   int      `plan:"state"`
	Energy int      `plan:"state"`
	Crops  int      `plan:"stat"` // want `unknown plan tag key "stat" \(did you mean "state"\?\)`
	Rested struct{} `plan:"goal"` // want `goal needs a condition: goal=CONDITION`
	Rich   struct{} `plan:"goal=Gold > 10"`
}

// Sell loses what it earns.
//
//plan:action pre="Crops > 0" post="Gold += 5, Crops--" fulfills=Rich
func (f Farmer) Sell() {} // want `Sell has a post but a value receiver: what it changes is lost when it returns; use a pointer receiver, \(f \*Farmer\)`

// Walk tires.
//
// want +2 `Walk cannot fulfill Rich: Rich reads Gold, which the post of Walk does not write` `value of pre ends at the first space; quote it: pre="Energy >= 5"`
//
//plan:action pre=Energy >= 5 post="Energy -= 5" fulfills="Rested, Rich"
func (f *Farmer) Walk() {}
