// Package postman is a village postman, written from the README by a
// new user for none of the planners' features: he collects letters at
// the post office, two in his bag at a time, and carries them along the
// roads to the mill, the farm, the church and the inn; walking tires
// him, and he sleeps at the inn or naps where he stands.
package postman

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Place is where he is.
type Place int

const (
	Office Place = iota
	Mill
	Farm
	Church
	Inn
)

// Postman delivers the round.
type Postman struct {
	At         Place `plan:"state"`
	Bag        int   `plan:"state"`
	Energy     int   `plan:"state"`
	Coins      int   `plan:"state"`
	MillDone   bool  `plan:"state"`
	FarmDone   bool  `plan:"state"`
	ChurchDone bool  `plan:"state"`
	InnDone    bool  `plan:"state"`

	// Rested: awake enough to walk.
	Rested struct{} `plan:"goal=Energy >= 2; priority=high"`
	// Round: every house has its letter.
	Round struct{} `plan:"goal=MillDone && FarmDone && ChurchDone && InnDone"`
	// Paid: a few coins for the pub.
	Paid struct{} `plan:"goal=Coins >= 4; priority=low"`
}

// The roads: office-mill 2, office-church 3, mill-farm 2, farm-inn 3,
// church-inn 2, office-inn 5.

//plan:action pre="(At == Mill || At == Church || At == Inn) && Energy >= 1" post="At = Office, Energy -= 1" cost=2
func (p *Postman) ToOffice() { p.At = Office; p.Energy-- }

//plan:action pre="(At == Office || At == Farm) && Energy >= 1" post="At = Mill, Energy -= 1" cost=2
func (p *Postman) ToMill() { p.At = Mill; p.Energy-- }

//plan:action pre="(At == Mill || At == Inn) && Energy >= 1" post="At = Farm, Energy -= 1" cost=3
func (p *Postman) ToFarm() { p.At = Farm; p.Energy-- }

//plan:action pre="(At == Office || At == Inn) && Energy >= 1" post="At = Church, Energy -= 1" cost=3
func (p *Postman) ToChurch() { p.At = Church; p.Energy-- }

//plan:action pre="(At == Farm || At == Church || At == Office) && Energy >= 1" post="At = Inn, Energy -= 1" cost=3
func (p *Postman) ToInn() { p.At = Inn; p.Energy-- }

// Collect fills his bag at the office.
//
//plan:action pre="At == Office && Bag < 2" post="Bag = 2"
func (p *Postman) Collect() { p.Bag = 2 }

//plan:action pre="At == Mill && Bag >= 1 && !MillDone" post="MillDone = true, Bag -= 1, Coins += 1"
func (p *Postman) DeliverMill() { p.MillDone = true; p.Bag--; p.Coins++ }

//plan:action pre="At == Farm && Bag >= 1 && !FarmDone" post="FarmDone = true, Bag -= 1, Coins += 1"
func (p *Postman) DeliverFarm() { p.FarmDone = true; p.Bag--; p.Coins++ }

//plan:action pre="At == Church && Bag >= 1 && !ChurchDone" post="ChurchDone = true, Bag -= 1"
func (p *Postman) DeliverChurch() { p.ChurchDone = true; p.Bag-- }

//plan:action pre="At == Inn && Bag >= 1 && !InnDone" post="InnDone = true, Bag -= 1, Coins += 2"
func (p *Postman) DeliverInn() { p.InnDone = true; p.Bag--; p.Coins += 2 }

// Sort mail at the office for a coin.
//
//plan:action pre="At == Office && Energy >= 1" post="Coins += 1, Energy -= 1" cost=3
func (p *Postman) Sort() { p.Coins++; p.Energy-- }

// Sleep at the inn, or nap where he stands.
//
//plan:action pre="At == Inn && Coins >= 1" post="Energy = 6, Coins -= 1" cost=2 fulfills=Rested
func (p *Postman) Sleep() { p.Energy = 6; p.Coins-- }

//plan:action post="Energy += 1" cost=2
func (p *Postman) Nap() { p.Energy++ }
