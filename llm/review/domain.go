package review

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/rolegen/rolegen/llm"
)

// domain is what the page needs of a planner, without its state type:
// the actions as the role declares them, and the planner's own checks.
type domain struct {
	name    string
	actions map[string]*action
	// check is Planner.CheckDecision from a state as JSON.
	check func(plan *llm.Plan, d llm.Decision, state json.RawMessage) (*llm.Plan, error)
	// inspect validates a copy of plan and verifies it from state,
	// returning what each says.
	inspect func(plan *llm.Plan, state json.RawMessage) (validation, verification error)
}

// action is an action of the domain as the page shows it.
type action struct {
	Name        string
	Description string
	Pre, Post   string
	Guarded     bool
	// Props are the properties of its argument schema, in order.
	Props []prop
	// TakesArgs says whether the action has an argument schema.
	TakesArgs bool
}

// prop is a property of an argument schema.
type prop struct {
	Name        string
	Description string
	// Type is the schema's type when it names one ("string", "integer").
	Type string
	// Enum lists the values of a string enum.
	Enum []string
}

func domainOf[S comparable](p *llm.Planner[S]) *domain {
	d := p.Domain()
	dom := &domain{name: d.Name, actions: make(map[string]*action, len(d.Actions))}
	for i := range d.Actions {
		a := &d.Actions[i]
		dom.actions[a.Name] = &action{
			Name:        a.Name,
			Description: strings.TrimSpace(a.Description),
			Pre:         a.PreText,
			Post:        a.EffectText,
			Guarded:     a.Guarded,
			Props:       schemaProps(a.Args),
			TakesArgs:   a.Args != "",
		}
	}
	dom.check = func(plan *llm.Plan, dec llm.Decision, state json.RawMessage) (*llm.Plan, error) {
		var s S
		if changes(dec) {
			var err error
			if s, err = decodeState[S](state); err != nil {
				return nil, err
			}
		}
		return p.CheckDecision(plan, dec, s)
	}
	dom.inspect = func(plan *llm.Plan, state json.RawMessage) (error, error) {
		c := plan.Clone()
		if err := p.Validate(c); err != nil {
			return err, nil
		}
		if len(state) == 0 {
			return nil, nil
		}
		s, err := decodeState[S](state)
		if err != nil {
			return nil, err
		}
		return nil, p.Verify(c, s)
	}
	return dom
}

// changes reports whether a decision changes the plan it approves.
func changes(d llm.Decision) bool { return len(d.Remove) > 0 || len(d.Order) > 0 || len(d.Args) > 0 }

// errNoState is the check of a changed plan of a run that keeps no state.
var errNoState = errors.New("the run keeps no state to verify a changed plan from")

func decodeState[S any](state json.RawMessage) (S, error) {
	var s S
	if len(state) == 0 {
		return s, errNoState
	}
	if err := json.Unmarshal(state, &s); err != nil {
		return s, fmt.Errorf("the run's state: %w", err)
	}
	return s, nil
}

// schemaProps reads the properties of an object schema in the order the
// schema lists them (a map would lose it).
func schemaProps(schema string) []prop {
	if schema == "" {
		return nil
	}
	members, ok := objectMembers(json.RawMessage(schema))
	if !ok {
		return nil
	}
	var props []prop
	for _, m := range members {
		if m.key != "properties" {
			continue
		}
		fields, ok := objectMembers(m.value)
		if !ok {
			return nil
		}
		for _, f := range fields {
			var s struct {
				Type        any    `json:"type"`
				Description string `json:"description"`
				Enum        []any  `json:"enum"`
			}
			_ = json.Unmarshal(f.value, &s)
			pr := prop{Name: f.key, Description: s.Description}
			if t, ok := s.Type.(string); ok {
				pr.Type = t
			}
			for _, e := range s.Enum {
				if v, ok := e.(string); ok {
					pr.Enum = append(pr.Enum, v)
				}
			}
			if len(pr.Enum) != len(s.Enum) {
				pr.Enum = nil
			}
			props = append(props, pr)
		}
	}
	return props
}

// member is a key and its value in a JSON object.
type member struct {
	key   string
	value json.RawMessage
}

// objectMembers returns the members of a JSON object in their order; ok
// is false when raw is not one object.
func objectMembers(raw json.RawMessage) ([]member, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		key, ok := tok.(string)
		if !ok {
			return nil, false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		out = append(out, member{key: key, value: v})
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
		return nil, false
	}
	if _, err := dec.Token(); err == nil {
		return nil, false // data after the object
	}
	return out, true
}

// canonical returns raw as json.Marshal writes it decoded (keys sorted,
// no spacing, numbers as written), for comparing arguments.
func canonical(raw json.RawMessage) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return string(raw)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return string(raw)
	}
	return string(b)
}
