package pending // want package:"actions\\(Soldier.Reload\\)"

// Soldier has not been generated yet: SoldierDomain does not exist, and
// the package does not compile. Its mistakes are reported all the same.
type Soldier struct {
	Ammo int `plan:"state"`
}

var _ = SoldierDomain

// Reload loads.
//
// want +2 `unknown state field "Amo" \(did you mean "Ammo"\?\)`
//
//plan:action post="Amo = 30"
func (s *Soldier) Reload() {}
