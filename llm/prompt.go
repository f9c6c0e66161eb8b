package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// maxOutputInPrompt bounds each step output quoted in a prompt.
const maxOutputInPrompt = 500

// systemPrompt tells the model what a plan is.
func (p *Planner[S]) systemPrompt() string {
	var b strings.Builder
	fmt.Fprintf(&b, "You are the planner of the role %s. You reach a goal by composing its capabilities into a plan.\n", p.d.Name)
	b.WriteString(`A plan is a JSON object {"steps":[...]}. Each step is an object with exactly these keys:
- "id": a unique string naming the step;
- "capability": the name of one of the capabilities listed by the user;
- "args": an object matching that capability's argument schema ({} when it takes none);
- "dependsOn": the ids of the steps that must finish before this one ([] when none).
A step runs only when its precondition ("requires") holds in the state left by the steps before it; its effects change that state.
Use only the listed capabilities, stay within the step budget, and reply with the JSON object only.`)
	if p.cfg.systemPrompt != "" {
		b.WriteString("\n\n" + p.cfg.systemPrompt)
	}
	return b.String()
}

// capabilities lists every action with its description, precondition,
// effects and argument schema.
func (p *Planner[S]) capabilities() string {
	var b strings.Builder
	for i := range p.d.Actions {
		a := &p.d.Actions[i]
		fmt.Fprintf(&b, "- %s", a.Name)
		if desc := strings.TrimSpace(a.Description); desc != "" {
			b.WriteString(": " + strings.Join(strings.Fields(desc), " "))
		}
		b.WriteByte('\n')
		if a.PreText != "" {
			fmt.Fprintf(&b, "  requires: %s\n", a.PreText)
		}
		if a.EffectText != "" {
			fmt.Fprintf(&b, "  effects: %s\n", a.EffectText)
		}
		if a.Guarded {
			b.WriteString("  guarded: runs only after a human approves the plan\n")
		}
		fmt.Fprintf(&b, "  args: %s\n", argsSchema(a))
	}
	return b.String()
}

// ranges tells the model of the saturating fields, which every effect
// clamps into their range: the effects' text alone does not say so.
func (p *Planner[S]) ranges() string {
	var parts []string
	for _, f := range p.d.Fields {
		switch rg := f.Range; {
		case rg.HasMin && rg.HasMax:
			parts = append(parts, fmt.Sprintf("%s %v..%v", f.Name, rg.Min, rg.Max))
		case rg.HasMin:
			parts = append(parts, fmt.Sprintf("%s at least %v", f.Name, rg.Min))
		case rg.HasMax:
			parts = append(parts, fmt.Sprintf("%s at most %v", f.Name, rg.Max))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Effects keep these fields within their ranges (an effect past an end leaves the field at that end): " + strings.Join(parts, ", ") + ".\n"
}

// stateJSON renders a state for a prompt.
func stateJSON[S any](s S) string {
	b, err := json.Marshal(s)
	if err != nil {
		return fmt.Sprintf("(state not encodable: %v)", err)
	}
	return string(b)
}

// planPrompt is the user message of a planning request.
func (p *Planner[S]) planPrompt(goal string, state S, rev *Revision) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Goal: %s\n\n", goal)
	if !p.cfg.omitState {
		fmt.Fprintf(&b, "Current state:\n%s\n\n", stateJSON(state))
	}
	fmt.Fprintf(&b, "Capabilities:\n%s\n", p.capabilities())
	b.WriteString(p.ranges())
	fmt.Fprintf(&b, "Step budget: at most %d steps.\n", p.cfg.maxSteps)
	if rev == nil {
		return b.String()
	}
	fmt.Fprintf(&b, "\nThis is replan %d: the previous plan did not reach the goal.\n", rev.Number)
	if rev.Previous != nil {
		fmt.Fprintf(&b, "Previous plan:\n%s\n", rev.Previous.WireJSON())
	}
	if len(rev.Done) > 0 {
		b.WriteString("Steps already done (their effects are in the current state; do not repeat them):\n")
		for _, rec := range rev.Done {
			fmt.Fprintf(&b, "- %s %s %s", rec.Step.ID, rec.Step.Capability, rec.Step.Args)
			if len(rec.Output) > 0 {
				fmt.Fprintf(&b, " -> %s", abbreviate(string(rec.Output), maxOutputInPrompt))
			}
			b.WriteByte('\n')
		}
	} else {
		b.WriteString("No step has been done yet.\n")
	}
	if rev.Failure != "" {
		fmt.Fprintf(&b, "Failure: %s\n", rev.Failure)
	}
	if rev.Critique != "" {
		fmt.Fprintf(&b, "Critique: %s\n", rev.Critique)
	}
	b.WriteString("Plan the remaining work from the current state.\n")
	return b.String()
}

func parseFeedback(err error) string {
	var pe *ParseError
	msg := err.Error()
	if errors.As(err, &pe) {
		msg = pe.Err.Error()
		if pe.Truncated {
			return fmt.Sprintf(`Your reply was cut off at the token limit before the plan ended (%s). Reply with a shorter plan: fewer steps, short ids, the JSON object {"steps":[...]} only.`, msg)
		}
	}
	return fmt.Sprintf(`Your reply could not be read as a plan: %s. Reply with the JSON object {"steps":[...]} only.`, msg)
}

func validationFeedback(err error) string {
	return fmt.Sprintf("The plan is invalid:\n%s\nReply with a corrected plan (the JSON object only).", err)
}

func verificationFeedback(err error) string {
	return fmt.Sprintf("The plan does not work when simulated from the current state: %s.\nReply with a corrected plan (the JSON object only).", strings.TrimPrefix(err.Error(), "llm: plan fails verification: "))
}
