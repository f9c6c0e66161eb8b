package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/rolegen/rolegen/internal/graph"
	"github.com/rolegen/rolegen/runtime"
)

// WriteGraph draws the plan as a DAG on dependsOn, in DOT or Mermaid: a
// box per step with its capability and arguments (skipped steps, and
// steps that repair inserted, say so).
// With a Result, the steps that failed are drawn bold.
func (p *Plan) WriteGraph(w io.Writer, f runtime.GraphFormat, res *Result) error {
	failed := map[string]bool{}
	if res != nil {
		for _, rec := range res.Steps {
			if rec.Revision == p.Revision && rec.Status == StepFailed {
				failed[rec.Step.ID] = true
			}
		}
	}
	steps := make([]graph.Step, len(p.Steps))
	for i, s := range p.Steps {
		label := s.ID + ": " + s.Capability
		if args := compactArgs(s.Args); args != "" && args != "{}" {
			label += "\n" + args
		}
		if s.Skipped {
			label += "\n(skipped)"
		}
		if s.Inserted != nil {
			label += "\n(inserted by repair)"
		}
		steps[i] = graph.Step{ID: s.ID, Label: label, DependsOn: s.DependsOn, Failed: failed[s.ID]}
	}
	name := p.Goal
	if name == "" {
		name = "plan"
	}
	return graph.FromSteps(name, steps, false, nil).Write(w, graph.Format(f))
}

func compactArgs(raw []byte) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	const limit = 60
	if s := b.String(); utf8.RuneCountInString(s) > limit {
		return fmt.Sprintf("%s…", string([]rune(s)[:limit]))
	}
	return b.String()
}
