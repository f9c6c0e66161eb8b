package llm

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rolegen/rolegen/runtime"
)

// Step is one step of a plan: a capability (an action of the domain) with
// its arguments, and the steps it depends on.
type Step struct {
	ID         string          `json:"id"`
	Capability string          `json:"capability"`
	Args       json.RawMessage `json:"args"`
	DependsOn  []string        `json:"dependsOn"`
	// Skipped marks a step beyond the step budget (or depending on one):
	// kept in the plan, never run.
	Skipped bool `json:"skipped,omitempty"`
	// Inserted marks a step that rolegen added to the model's plan to
	// repair it (see WithRepair), and says why; it is nil for every step
	// the model wrote. A model cannot set it: the plan format has no such
	// key.
	Inserted *Insertion `json:"inserted,omitempty"`
	// Action is the domain action named by Capability, set by validation.
	Action runtime.ActionID `json:"-"`
}

// Insertion says why repair inserted a step: to make the precondition of
// step For hold, or, with For empty, to make Goals hold at the end of the
// plan.
type Insertion struct {
	// For is the id of the step whose precondition the inserted steps
	// make hold ("" for a completion to the goals).
	For string `json:"for,omitempty"`
	// Precondition is that step's precondition as written.
	Precondition string `json:"precondition,omitempty"`
	// Goals are the goals of WithGoals the inserted steps make hold at the
	// end of the plan.
	Goals []string `json:"goals,omitempty"`
}

// String says why the step was inserted, as in `before step "book"
// (Searched && Budget >= 100)` or "to reach goal Trip".
func (in *Insertion) String() string {
	if in == nil {
		return ""
	}
	if in.For != "" {
		if in.Precondition == "" {
			return fmt.Sprintf("before step %q", in.For)
		}
		return fmt.Sprintf("before step %q (%s)", in.For, in.Precondition)
	}
	if len(in.Goals) == 1 {
		return "to reach goal " + in.Goals[0]
	}
	return "to reach goals " + strings.Join(in.Goals, ", ")
}

// clone returns a copy of s sharing no storage with it.
func (s Step) clone() Step {
	s.Args = slices.Clone(s.Args)
	s.DependsOn = slices.Clone(s.DependsOn)
	if s.Inserted != nil {
		in := *s.Inserted
		in.Goals = slices.Clone(in.Goals)
		s.Inserted = &in
	}
	return s
}

// Inserted returns the steps of the plan that repair inserted (the model
// did not write them), in plan order.
func (p *Plan) Inserted() []Step {
	var out []Step
	for _, s := range p.Steps {
		if s.Inserted != nil {
			out = append(out, s)
		}
	}
	return out
}

// Plan is a plan proposed by the model, in the JSON plan format
// {"steps":[{"id","capability","args","dependsOn"}]} plus what the planner
// learned about it.
type Plan struct {
	Goal  string `json:"goal"`
	Steps []Step `json:"steps"`
	// Revision is 0 for a run's first plan and n for its n-th replan.
	Revision int `json:"revision"`
	// Approved is set by an approval gate (WithApprover) or by
	// Planner.Approve; guarded actions run only in approved plans.
	Approved bool `json:"approved"`
	// Verified reports that symbolic simulation of the plan from the state
	// it was made for succeeded; Critique says why it did not.
	Verified bool   `json:"verified"`
	Critique string `json:"critique,omitempty"`
	// Raw is the model's reply the plan was read from.
	Raw string `json:"raw,omitempty"`
	// Refused are the model's replies refused while this plan was asked
	// for (unreadable, invalid or, with WithRequireVerified, failing
	// verification), each sent back with its critique, in order.
	Refused []Refusal `json:"refused,omitempty"`
}

// Refusal is a reply of the model refused while a plan was asked for: why
// (the check it failed and the critique sent back), and the steps it
// proposed when it could be read.
type Refusal struct {
	// Check is "parse", "validation" or "verification".
	Check    string `json:"check"`
	Critique string `json:"critique"`
	Steps    []Step `json:"steps,omitempty"`
}

// The checks a Refusal names.
const (
	CheckParse        = "parse"
	CheckValidation   = "validation"
	CheckVerification = "verification"
)

// Clone returns a deep copy of p.
func (p *Plan) Clone() *Plan {
	if p == nil {
		return nil
	}
	c := *p
	c.Steps = cloneSteps(p.Steps)
	if p.Refused != nil {
		c.Refused = make([]Refusal, len(p.Refused))
		for i, r := range p.Refused {
			r.Steps = cloneSteps(r.Steps)
			c.Refused[i] = r
		}
	}
	return &c
}

func cloneSteps(steps []Step) []Step {
	if steps == nil {
		return nil
	}
	out := make([]Step, len(steps))
	for i, s := range steps {
		out[i] = s.clone()
	}
	return out
}

// Digest names the plan as a person sees it: its goal, revision and
// steps (ids, capabilities, arguments, dependencies, the marks of steps
// rolegen inserted), hashed. Two plans
// have the same digest when they would run the same way, however their
// arguments' JSON is spaced or escaped, so that a digest computed from a
// copy that crossed the wire (a Temporal query) matches the original. A
// decision names the digest of the plan it was made on
// (Decision.PlanDigest).
func (p *Plan) Digest() string {
	type step struct {
		ID         string          `json:"id"`
		Capability string          `json:"capability"`
		Args       json.RawMessage `json:"args"`
		DependsOn  []string        `json:"dependsOn"`
		Inserted   *Insertion      `json:"inserted,omitempty"`
	}
	v := struct {
		Goal     string `json:"goal"`
		Revision int    `json:"revision"`
		Steps    []step `json:"steps"`
	}{Goal: p.Goal, Revision: p.Revision, Steps: make([]step, len(p.Steps))}
	for i, s := range p.Steps {
		deps := s.DependsOn
		if deps == nil {
			deps = []string{}
		}
		v.Steps[i] = step{ID: s.ID, Capability: s.Capability, Args: canonicalJSON(s.Args), DependsOn: deps, Inserted: s.Inserted}
	}
	b, _ := json.Marshal(v) // cannot fail: canonicalJSON returns valid JSON
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}

// canonicalJSON returns raw with object keys sorted and no spacing, as
// json.Marshal writes a decoded value (numbers kept as written); raw that
// is not JSON is returned as a JSON string of itself.
func canonicalJSON(raw json.RawMessage) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(normalizeArgs(raw)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err == nil {
		if b, err := json.Marshal(v); err == nil {
			return b
		}
	}
	b, _ := json.Marshal(string(raw))
	return b
}

// Step returns the step with the given id.
func (p *Plan) Step(id string) (Step, bool) {
	for _, s := range p.Steps {
		if s.ID == id {
			return s, true
		}
	}
	return Step{}, false
}

// WireJSON returns the plan in the JSON plan format the model writes:
// {"steps":[{"id","capability","args","dependsOn"}]}.
func (p *Plan) WireJSON() []byte {
	type wire struct {
		Steps []wireStep `json:"steps"`
	}
	w := wire{Steps: make([]wireStep, len(p.Steps))}
	for i, s := range p.Steps {
		w.Steps[i] = wireStep{ID: s.ID, Capability: s.Capability, Args: s.Args, DependsOn: s.DependsOn}
	}
	for i := range w.Steps {
		if w.Steps[i].DependsOn == nil {
			w.Steps[i].DependsOn = []string{}
		}
	}
	b, _ := json.Marshal(w) // cannot fail: args were validated as JSON
	return b
}

// wireStep is a step as the model writes it.
type wireStep struct {
	ID         string          `json:"id"`
	Capability string          `json:"capability"`
	Args       json.RawMessage `json:"args"`
	DependsOn  []string        `json:"dependsOn"`
}

// ParsePlan reads a plan from a model's reply: a JSON object, alone or in
// a fenced ```json block (the first such block; an unlabelled fence is
// accepted too). Unknown keys are refused, as the plan schema forbids them.
// A failure is a *ParseError keeping the raw reply.
func ParsePlan(reply string) (*Plan, error) {
	body, err := extractJSON(reply)
	if err != nil {
		return nil, &ParseError{Raw: reply, Err: err}
	}
	var w struct {
		Steps *[]wireStep `json:"steps"`
	}
	if err := decodeStrict(body, &w); err != nil {
		return nil, &ParseError{Raw: reply, Err: err}
	}
	if w.Steps == nil {
		return nil, &ParseError{Raw: reply, Err: errors.New(`no "steps" array`)}
	}
	plan := &Plan{Raw: reply, Steps: make([]Step, len(*w.Steps))}
	for i, s := range *w.Steps {
		plan.Steps[i] = Step{ID: s.ID, Capability: s.Capability, Args: normalizeArgs(s.Args), DependsOn: s.DependsOn, Action: runtime.NoAction}
		if plan.Steps[i].DependsOn == nil {
			plan.Steps[i].DependsOn = []string{}
		}
	}
	return plan, nil
}

// decodeStrict decodes one JSON value from body into v, refusing unknown
// fields and trailing data.
func decodeStrict(body string, v any) error {
	dec := json.NewDecoder(strings.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data after the JSON object")
	}
	return nil
}

// normalizeArgs turns missing or null arguments into {} so that a step of
// an action without arguments need not spell them.
func normalizeArgs(a json.RawMessage) json.RawMessage {
	t := bytes.TrimSpace(a)
	if len(t) == 0 || string(t) == "null" {
		return json.RawMessage("{}")
	}
	return slices.Clone(t)
}

// extractJSON finds the JSON object of a reply: the reply itself when it is
// one, else the body of its first fenced block labelled json (or of its
// first unlabelled one).
func extractJSON(reply string) (string, error) {
	t := strings.TrimSpace(reply)
	if t == "" {
		return "", errors.New("empty reply")
	}
	if strings.HasPrefix(t, "{") {
		return t, nil
	}
	var unlabelled string
	found := false
	rest := t
	for {
		i := strings.Index(rest, "```")
		if i < 0 {
			break
		}
		rest = rest[i+3:]
		nl := strings.IndexByte(rest, '\n')
		if nl < 0 {
			break
		}
		lang := strings.TrimSpace(rest[:nl])
		body := rest[nl+1:]
		end := strings.Index(body, "```")
		if end < 0 {
			return "", errors.New("unterminated ``` block")
		}
		content := strings.TrimSpace(body[:end])
		rest = body[end+3:]
		switch {
		case strings.EqualFold(lang, "json"):
			return content, nil
		case lang == "" && !found:
			unlabelled, found = content, true
		}
	}
	if found {
		return unlabelled, nil
	}
	return "", fmt.Errorf("no JSON object or ```json block")
}
