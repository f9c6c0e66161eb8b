package porter

// Napper naps to be fresh: its post clamps its stamina into its range,
// which its method does not.
type Napper struct {
	Stamina int `plan:"state; min=0; max=10"`

	// Fresh means rested.
	Fresh struct{} `plan:"goal=Stamina >= 9"`

	// Lazy makes Nap return without the stamina.
	Lazy bool
}

// Nap rests.
//
//plan:action post="Stamina += 5"
func (n *Napper) Nap() {
	if !n.Lazy {
		n.Stamina += 5
	}
}
