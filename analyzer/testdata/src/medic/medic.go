package medic // want package:"actions\\(Medic.Heal,rest,Patch Nurse.Soothe\\)"

// Medic is a role with actions only; other packages embed it.
type Medic struct {
	Hp int `plan:"state"`
}

// Heal heals.
//
//plan:action post="Hp = 10"
func (m *Medic) Heal() {}

// rest is unexported: a role of another package cannot call it.
//
//plan:action post="Hp = 5"
func (m *Medic) rest() {}

// Patch has a mistake, reported here and where Medic is embedded.
//
// want +2 `unknown state field "Hpp" \(did you mean "Hp"\?\)`
//
//plan:action pre="Hpp < 10" post="Hp = 1"
func (m *Medic) Patch() {}

// Nurse is a role without mistakes.
type Nurse struct {
	Calm bool `plan:"state"`
}

// Soothe calms.
//
//plan:action post="Calm = true"
func (n *Nurse) Soothe() {}
