package llm_test

import (
	"errors"
	"testing"

	"github.com/rolegen/rolegen/llm"
)

// FuzzPlan: reading, validating and verifying whatever a model replies
// never panics; a reply that is not a plan is a *ParseError keeping the
// raw text; a plan that fails validation says why with a
// *ValidationError; a valid plan verifies or fails with a
// *VerificationError.
func FuzzPlan(f *testing.F) {
	for _, s := range []string{
		goodPlan,
		"```json\n" + goodPlan + "\n```",
		`{"steps":[]}`,
		`{"steps":[{"id":"a","capability":"Nope","args":{},"dependsOn":["a"]}]}`,
		`{"steps":[{"id":"a","capability":"Pay","args":{"amount":"x"},"dependsOn":[]}]}`,
		`{"steps":[{"id":"a","capability":"Pay","args":{},"dependsOn":["b"]},{"id":"b","capability":"Pay","args":{},"dependsOn":["a"]}]}`,
		`not json at all`, `{"steps":null}`, `[]`, `{"steps":[{}]}`, "```\n{\"steps\":[1]}\n```",
	} {
		f.Add(s)
	}
	p := llm.NewPlanner(trip, llm.ScriptedReplies(), llm.WithMaxSteps(4))
	f.Fuzz(func(t *testing.T, reply string) {
		plan, err := llm.ParsePlan(reply)
		if err != nil {
			var pe *llm.ParseError
			if !errors.As(err, &pe) || pe.Raw != reply {
				t.Fatalf("parse error %v does not keep the reply", err)
			}
			return
		}
		if err := p.Validate(plan); err != nil {
			var ve *llm.ValidationError
			if !errors.As(err, &ve) || !errors.Is(err, llm.ErrInvalidPlan) {
				t.Fatalf("validation error %T %v is not a *ValidationError", err, err)
			}
			return
		}
		if err := p.Verify(plan, rich); err != nil {
			var ve *llm.VerificationError
			if !errors.As(err, &ve) {
				t.Fatalf("verification error %T %v is not a *VerificationError", err, err)
			}
		}
	})
}
