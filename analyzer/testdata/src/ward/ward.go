package ward

import "medic"

// Ward embeds a role of another package: its actions, read from the
// facts of package medic, join Ward's.
type Ward struct {
	medic.Medic     // want `action rest of Medic is not exported; generated code in package ward cannot call it` `pre of action Patch of embedded medic.Medic: unknown state field "Hpp" \(did you mean "Hp"\?\)`
	Beds        int `plan:"state"`
}

// Calmed embeds a role of another package without mistakes.
type Calmed struct {
	medic.Nurse

	// Quiet: the nurse is calm.
	Quiet struct{} `plan:"goal=Calm"`
}

// CalmedSoothe takes the name of the constant of Calmed's action Soothe,
// which comes from package medic.
const CalmedSoothe = 1 // want `CalmedSoothe is a name rolegen generates for role Calmed \(declared at ward.go:13:6\); rename this constant`
