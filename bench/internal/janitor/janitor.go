// Package janitor cleans two halls: mopping needs water in the bucket
// (filled in the closet) and the mop; trash goes in a bag that is emptied
// in the yard. Three goals at three priorities, a float field and a
// bool. Written from the README to try the planners on what it had not
// been measured on.
package janitor

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Janitor keeps the building clean.
type Janitor struct {
	Room   string  `plan:"state"` // closet, east, west, yard
	Bucket int     `plan:"state; min=0; max=3"`
	Bag    int     `plan:"state; min=0; max=5"`
	East   int     `plan:"state"` // dirt in the east hall
	West   int     `plan:"state"`
	Trash  int     `plan:"state"` // litter in the west hall
	Tired  float64 `plan:"state"`
	Mop    bool    `plan:"state"`

	Clean   struct{} `plan:"goal=East <= 0 && West <= 0; priority=high"`
	Tidy    struct{} `plan:"goal=Trash == 0"`
	Resting struct{} `plan:"goal=Tired < 1.5; priority=low"`
}

//plan:action pre="Room != 'closet'" post="Room = 'closet', Tired += 0.5" cost=2
func (j *Janitor) ToCloset() { j.Room = "closet" }

//plan:action pre="Room != 'east'" post="Room = 'east', Tired += 0.5" cost=2
func (j *Janitor) ToEast() { j.Room = "east" }

//plan:action pre="Room != 'west'" post="Room = 'west', Tired += 0.5" cost=2
func (j *Janitor) ToWest() { j.Room = "west" }

//plan:action pre="Room == 'west'" post="Room = 'yard'" cost=1
func (j *Janitor) ToYard() { j.Room = "yard" }

//plan:action pre="Room == 'closet' && !Mop" post="Mop = true"
func (j *Janitor) TakeMop() { j.Mop = true }

//plan:action pre="Room == 'closet' && Bucket < 3" post="Bucket = 3"
func (j *Janitor) FillBucket() { j.Bucket = 3 }

//plan:action pre="Room == 'east' && Mop && Bucket >= 1 && East > 0" post="East -= 2, Bucket -= 1, Tired += 1" cost=2
func (j *Janitor) MopEast() { j.East -= 2; j.Bucket--; j.Tired++ }

//plan:action pre="Room == 'west' && Mop && Bucket >= 1 && West > 0" post="West -= 2, Bucket -= 1, Tired += 1" cost=2
func (j *Janitor) MopWest() { j.West -= 2; j.Bucket--; j.Tired++ }

//plan:action pre="Room == 'west' && Trash > 0 && Bag < 5" post="Trash -= 1, Bag += 1"
func (j *Janitor) Pick() { j.Trash--; j.Bag++ }

//plan:action pre="Room == 'yard' && Bag > 0" post="Bag = 0" cost=2
func (j *Janitor) Empty() { j.Bag = 0 }

//plan:action pre="Room == 'closet' && Tired >= 1" post="Tired = 0" cost=4
func (j *Janitor) Nap() { j.Tired = 0 }
