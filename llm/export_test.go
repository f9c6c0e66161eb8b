package llm

// RepairPlan is repair, for the external tests' benchmarks.
func (p *Planner[S]) RepairPlan(plan *Plan, state S) (*Plan, *Repair) { return p.repair(plan, state) }
