// Package innkeeper is an innkeeper whose actions differ in cost and value,
// for the utility planner's default considerations: guests to serve, ale to
// fetch from the cellar, tables to wipe, a night's sleep or a nap, a tune
// on the lute that the guests like, and a stroll that serves nothing.
package innkeeper

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Innkeeper keeps the inn.
type Innkeeper struct {
	Guests int  `plan:"state"` // waiting to be served
	Ale    int  `plan:"state"` // mugs' worth at the bar
	Dirty  int  `plan:"state"` // dirty tables
	Energy int  `plan:"state"`
	Coins  int  `plan:"state"`
	Night  bool `plan:"state"`

	// Rested: awake enough to work.
	Rested struct{} `plan:"goal=Energy > 30; priority=critical"`
	// Served: nobody waits.
	Served struct{} `plan:"goal=Guests == 0; priority=high"`
	// Tidy: few dirty tables.
	Tidy struct{} `plan:"goal=Dirty < 3"`
}

// ServeAle serves a waiting guest a mug.
//
//plan:action pre="Guests > 0 && Ale > 0" post="Guests -= 1, Ale -= 1, Coins += 3, Dirty += 1" value=3
func (k *Innkeeper) ServeAle() { k.Guests--; k.Ale--; k.Coins += 3; k.Dirty++ }

// FetchAle brings a barrel up from the cellar.
//
//plan:action pre="Energy >= 5" post="Ale += 10, Energy -= 5" cost=3
func (k *Innkeeper) FetchAle() { k.Ale += 10; k.Energy -= 5 }

// WipeTable cleans a table.
//
//plan:action pre="Dirty > 0" post="Dirty -= 1"
func (k *Innkeeper) WipeTable() { k.Dirty-- }

// Sleep sleeps the night through.
//
//plan:action pre="Night" post="Energy = 100, Night = false" fulfills=Rested cost=5
func (k *Innkeeper) Sleep() { k.Energy = 100; k.Night = false }

// Nap dozes behind the bar.
//
//plan:action pre="Energy < 100" post="Energy += 10" cost=2
func (k *Innkeeper) Nap() { k.Energy += 10 }

// PlayLute plays a tune, which the guests like.
//
//plan:action value=2
func (k *Innkeeper) PlayLute() {}

// Stroll walks round the village.
//
//plan:action pre="Energy >= 5" post="Energy -= 5" cost=2
func (k *Innkeeper) Stroll() { k.Energy -= 5 }
