package llm

import (
	"encoding/json"
	"fmt"

	"github.com/rolegen/rolegen/runtime"
)

// Verify simulates a validated plan from state s with the domain's
// generated preconditions and effects, in dependency order (ties by step
// order), skipped steps left out. It returns a *VerificationError for the
// first step whose precondition fails, with the values of the fields the
// precondition reads in the simulated state, or for the first goal of
// WithGoals that does not hold after the last step.
func (p *Planner[S]) Verify(plan *Plan, s S) error { return p.verify(plan, s, nil) }

// verify is Verify for the steps not in done (the state s already holds
// their effects).
func (p *Planner[S]) verify(plan *Plan, s S, done map[string]bool) error {
	d := p.d
	for _, i := range order(plan) {
		st := plan.Steps[i]
		if done[st.ID] {
			continue
		}
		a := st.Action
		if a < 0 || int(a) >= len(d.Actions) {
			return fmt.Errorf("llm: step %q: plan not validated (unknown capability %q)", st.ID, st.Capability)
		}
		if !d.Applicable(a, s) {
			act := &d.Actions[a]
			return &VerificationError{
				StepID:       st.ID,
				Capability:   st.Capability,
				Index:        i,
				Precondition: act.PreText,
				Fields:       fieldValues(d, s, act.PreReads),
				Err:          d.StaleError(a, i),
			}
		}
		s = d.Apply(a, s)
	}
	if g := d.FirstUnsatisfied(p.cfg.goals, s); g != runtime.NoGoal {
		goal := &d.Goals[g]
		return &VerificationError{
			Index:         -1,
			Goal:          goal.Name,
			GoalCondition: goal.CondText,
			Fields:        fieldValues(d, s, goal.Reads),
			Err:           d.UnsatisfiedError(g),
		}
	}
	return nil
}

// checkGoals checks the goals of WithGoals in state, after the last
// step ran (the engine's settle takes the result).
func (e *Engine[S]) checkGoals(state S) error {
	d := e.p.d
	if g := d.FirstUnsatisfied(e.p.cfg.goals, state); g != runtime.NoGoal {
		return d.UnsatisfiedError(g)
	}
	return nil
}

// fieldValues returns the values in s of the given fields (all fields when
// ids is empty). The state is read through its JSON encoding: generated
// state structs carry the Go field names, which are the JSON keys.
func fieldValues[S comparable](d *runtime.Domain[S], s S, ids []runtime.FieldID) []FieldValue {
	values, err := stateFields(s)
	if err != nil {
		return nil
	}
	if len(ids) == 0 {
		ids = make([]runtime.FieldID, len(d.Fields))
		for i := range ids {
			ids[i] = runtime.FieldID(i)
		}
	}
	out := make([]FieldValue, 0, len(ids))
	for _, id := range ids {
		if id < 0 || int(id) >= len(d.Fields) {
			continue
		}
		name := d.Fields[id].Name
		if v, ok := values[name]; ok {
			out = append(out, FieldValue{Name: name, Value: v})
		}
	}
	return out
}

func stateFields[S any](s S) (map[string]json.RawMessage, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	return m, nil
}
