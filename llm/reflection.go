package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// ReflectRequest is what a reflector sees of a run.
type ReflectRequest struct {
	Domain string
	Goal   string
	// State is the current state as JSON (nil with WithoutState).
	State json.RawMessage
	Plan  *Plan
	// Records are every step record of the run so far.
	Records []StepRecord
	// Capabilities lists the actions as the planning prompt does.
	Capabilities string
	// StepsSchema is the JSON Schema of the steps of an adjusted plan (the
	// "steps" array of the domain's plan schema).
	StepsSchema json.RawMessage
	// Temperature and MaxTokens are the planner's.
	Temperature float64
	MaxTokens   int
}

// Reflector reviews a run every few steps (WithReflector) and says whether
// to continue, adjust the remaining steps, replan or abort. The usage it
// returns counts against the run's token budget.
type Reflector interface {
	Reflect(ctx context.Context, req ReflectRequest) (Directive, Usage, error)
}

// ReflectorFunc adapts a function to Reflector.
type ReflectorFunc func(ctx context.Context, req ReflectRequest) (Directive, Usage, error)

// Reflect calls f.
func (f ReflectorFunc) Reflect(ctx context.Context, req ReflectRequest) (Directive, Usage, error) {
	return f(ctx, req)
}

// ModelReflector reflects by asking a model, with its own schema:
// {"decision":"continue|adjust|replan|abort","reason":"...","steps":[...]}
// where steps (in the plan step format) replace the steps not yet run when
// the decision is adjust, and are [] otherwise.
type ModelReflector struct {
	model Model
}

// NewModelReflector returns a reflector asking m.
func NewModelReflector(m Model) *ModelReflector { return &ModelReflector{model: m} }

// ReflectionSchema returns the JSON Schema of a reflection whose adjusted
// steps follow stepsSchema; like the plan schema it is accepted by strict
// structured outputs.
func ReflectionSchema(stepsSchema json.RawMessage) json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{` +
		`"decision":{"type":"string","enum":["continue","adjust","replan","abort"]},` +
		`"reason":{"type":"string"},` +
		`"steps":` + string(stepsSchema) +
		`},"required":["decision","reason","steps"],"additionalProperties":false}`)
}

// Reflect asks the model about the run.
func (m *ModelReflector) Reflect(ctx context.Context, req ReflectRequest) (Directive, Usage, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "Goal: %s\n\n", req.Goal)
	if req.State != nil {
		fmt.Fprintf(&b, "Current state:\n%s\n\n", req.State)
	}
	fmt.Fprintf(&b, "Capabilities:\n%s\n", req.Capabilities)
	fmt.Fprintf(&b, "Plan:\n%s\n\nSteps so far:\n", req.Plan.WireJSON())
	for _, rec := range req.Records {
		fmt.Fprintf(&b, "- %s %s: %s", rec.Step.ID, rec.Step.Capability, rec.Status)
		if len(rec.Output) > 0 {
			fmt.Fprintf(&b, " -> %s", abbreviate(string(rec.Output), maxOutputInPrompt))
		}
		if rec.Error != "" {
			fmt.Fprintf(&b, " (%s)", rec.Error)
		}
		b.WriteByte('\n')
	}
	b.WriteString(`
Decide how the run goes on:
- "continue": the plan is on track;
- "adjust": replace the steps not yet run with "steps" (they may depend on the steps done);
- "replan": make a new plan from the current state; say why in "reason";
- "abort": the goal cannot or should not be reached; say why in "reason".
Reply with the JSON object {"decision":...,"reason":...,"steps":[...]} only; "steps" is [] unless you adjust.`)
	resp, err := m.model.Complete(ctx, Request{
		purpose: CallReflect,
		Messages: []Message{
			{Role: RoleSystem, Content: fmt.Sprintf("You review the execution of a plan of the role %s.", req.Domain)},
			{Role: RoleUser, Content: b.String()},
		},
		Schema:      ReflectionSchema(req.StepsSchema),
		SchemaName:  "reflection",
		Temperature: req.Temperature,
		MaxTokens:   req.MaxTokens,
	})
	if err != nil {
		return Directive{}, Usage{}, err
	}
	dir, err := ParseReflection(resp.Text)
	return dir, resp.Usage, err
}

// ParseReflection reads a reflection reply (raw JSON or a ```json block)
// into a Directive; a failure is a *ParseError.
func ParseReflection(reply string) (Directive, error) {
	body, err := extractJSON(reply)
	if err != nil {
		return Directive{}, &ParseError{Raw: reply, Err: err}
	}
	var w struct {
		Decision string     `json:"decision"`
		Reason   string     `json:"reason"`
		Steps    []wireStep `json:"steps"`
	}
	if err := decodeStrict(body, &w); err != nil {
		return Directive{}, &ParseError{Raw: reply, Err: err}
	}
	dir := Directive{Reason: w.Reason}
	switch w.Decision {
	case "continue":
		dir.Kind = DirectiveContinue
	case "adjust":
		dir.Kind = DirectiveAdjust
		for _, s := range w.Steps {
			dir.Steps = append(dir.Steps, Step{ID: s.ID, Capability: s.Capability, Args: normalizeArgs(s.Args), DependsOn: s.DependsOn})
		}
	case "replan":
		dir.Kind = DirectiveReplan
	case "abort":
		dir.Kind = DirectiveAbort
	default:
		return Directive{}, &ParseError{Raw: reply, Err: fmt.Errorf("unknown decision %q", w.Decision)}
	}
	return dir, nil
}
