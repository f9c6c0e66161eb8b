package review

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rolegen/rolegen/llm"
)

// The pages' data. Everything the model wrote (goal, step ids,
// arguments, critiques, reasons) reaches the page only through
// html/template, which escapes it for where it stands.

// frame is what every page has: its title, the relative path to the
// handler's root (for links and assets, whatever the mount point), and
// the reviewer.
type frame struct {
	Title, Base, Reviewer string
}

func (f *frame) setFrame(base, reviewer string) { f.Base, f.Reviewer = base, reviewer }

// listPage is the list of runs awaiting approval.
type listPage struct {
	frame
	Runs []listEntry
	// Errors are runs that could not be read.
	Errors []string
}

type listEntry struct {
	ID, Goal  string
	Steps     int
	Inserted  int
	Verified  bool
	Critique  string
	Revision  int
	Since     time.Time
	Reviewers int
}

// runPage is one run, with the form of its decision while it awaits one.
type runPage struct {
	frame
	Run      *Run
	Awaiting bool
	Digest   string
	CSRF     string
	Steps    []stepView
	// Verified and Critique are the plan's verification from the state it
	// was made from; Problems what the page's checks found at no step.
	Verified bool
	Critique string
	Problems []string
	Refused  []refusalView
	Graph    graphView
	Banner   *banner
	Reason   string
	// ReasonError says a rejection needs a reason.
	ReasonError string
	// Decided says what was decided, in words.
	Decided string
	// Inserted counts the steps rolegen inserted.
	Inserted int
}

type banner struct {
	// Kind is "ok", "info" or "error".
	Kind, Text string
}

type refusalView struct {
	Check, Critique string
	Steps           []string
}

// stepView is one step as the page shows it.
type stepView struct {
	Index      int
	Pos        int
	ID         string
	Capability string
	Action     *action
	DependsOn  []string
	Removed    bool
	Skipped    bool
	// Inserted marks a step rolegen inserted into the model's plan (plan
	// repair); Why says what for.
	Inserted bool
	Why      string
	Failing  bool
	First    bool
	Last     bool
	Fields   []fieldView
	Raw      bool
	RawName  string
	RawValue string
	NoArgs   bool
	Errors   []string
	// ErrorsID is the id of the element holding Errors, for
	// aria-describedby.
	ErrorsID string
}

type fieldView struct {
	Label, Name, ID, Value, Description string
	Mode                                string
	Enum                                []string
	Error, ErrorID                      string
	Type                                string
}

// buildRunPage lays out a run, its form f (nil: as proposed), and the
// problems checkErr found in the decision the form says.
func buildRunPage(dom *domain, run *Run, f *form, checkErr error) *runPage {
	page := &runPage{frame: frame{Title: "Run " + run.ID}, Run: run}
	page.Awaiting = run.Status == llm.StatusAwaitingApproval && run.Plan != nil
	page.Decided = decidedText(run)
	plan := run.Plan
	if plan == nil {
		return page
	}
	page.Digest = plan.Digest()
	page.Verified, page.Critique = plan.Verified, strings.TrimPrefix(plan.Critique, "llm: ")
	for _, r := range plan.Refused {
		rv := refusalView{Check: r.Check, Critique: strings.TrimPrefix(r.Critique, "llm: ")}
		for _, s := range r.Steps {
			rv.Steps = append(rv.Steps, s.ID+": "+s.Capability+" "+compactJSON(s.Args))
		}
		page.Refused = append(page.Refused, rv)
	}
	specs := make([]argSpec, len(plan.Steps))
	for i, st := range plan.Steps {
		specs[i] = specOf(st, dom.actions[st.Capability])
	}
	if f == nil {
		f = initialForm(specs)
	}
	page.Reason = f.reason
	for pos, i := range f.order {
		st := plan.Steps[i]
		a := dom.actions[st.Capability]
		sv := stepView{
			Index: i, Pos: pos + 1, ID: st.ID, Capability: st.Capability, Action: a,
			DependsOn: st.DependsOn, Removed: f.removed[i], Skipped: st.Skipped,
			First: pos == 0, Last: pos == len(f.order)-1,
			ErrorsID: fmt.Sprintf("e-%d", i),
		}
		sv.Inserted, sv.Why = st.Inserted != nil, st.Inserted.String()
		if sv.Inserted {
			page.Inserted++
		}
		spec := specs[i]
		switch {
		case spec.none:
			sv.NoArgs = true
		case spec.raw:
			sv.Raw, sv.RawName, sv.RawValue = true, fmt.Sprintf("r-%d", i), f.raw[i]
		default:
			for j, fs := range spec.fields {
				sv.Fields = append(sv.Fields, fieldView{
					Label: fs.Name, Name: fieldName(i, j), ID: fieldName(i, j),
					Value: f.values[i][j], Description: fs.Description,
					Mode: [...]string{"text", "enum", "json"}[fs.mode], Enum: fs.Enum, Type: fs.Type,
					ErrorID: fieldName(i, j) + "-e",
				})
			}
		}
		page.Steps = append(page.Steps, sv)
	}
	// The plan as proposed: what verification says at its steps.
	if checkErr == nil && f.unchanged() {
		validation, verification := dom.inspect(plan, run.State)
		checkErr = errors.Join(validation, verification)
	}
	page.attach(checkErr)
	page.Graph = layout(page.Steps)
	return page
}

// unchanged says whether the form holds the plan as proposed.
func (f *form) unchanged() bool {
	for k, i := range f.order {
		if i != k || f.removed[i] {
			return false
		}
	}
	return true
}

// attach puts each problem of err next to what it is about: a wrong
// argument at its field (found by the first segment of its JSON
// Pointer), a step's problem at the step, the rest above the steps.
func (page *runPage) attach(err error) {
	for _, e := range flatten(err) {
		var ve *llm.ValidationError
		var fe *llm.VerificationError
		switch {
		case errors.As(e, &ve) && ve.StepID != "":
			sv := page.step(ve.StepID)
			if sv == nil {
				page.Problems = append(page.Problems, ve.Error())
				continue
			}
			msg := ve.Kind.String()
			if ve.Detail != "" {
				msg += ": " + ve.Detail
			}
			if f := sv.field(ve.Path); f != nil {
				f.Error = msg
				continue
			}
			sv.Errors = append(sv.Errors, msg)
		case errors.As(e, &fe) && fe.StepID != "":
			sv := page.step(fe.StepID)
			if sv == nil {
				page.Problems = append(page.Problems, fe.Error())
				continue
			}
			sv.Failing = true
			sv.Errors = append(sv.Errors, "fails verification: precondition "+fe.Precondition+" does not hold"+fieldsText(fe.Fields))
		case errors.As(e, &fe):
			page.Problems = append(page.Problems, fmt.Sprintf("fails verification: goal %s (%s) does not hold after the last step%s", fe.Goal, fe.GoalCondition, fieldsText(fe.Fields)))
		default:
			page.Problems = append(page.Problems, strings.TrimPrefix(e.Error(), "llm: "))
		}
	}
}

// hasProblems says whether a check found anything.
func (page *runPage) hasProblems() bool {
	if len(page.Problems) > 0 {
		return true
	}
	for _, s := range page.Steps {
		if len(s.Errors) > 0 {
			return true
		}
		for _, f := range s.Fields {
			if f.Error != "" {
				return true
			}
		}
	}
	return false
}

func (page *runPage) step(id string) *stepView {
	for i := range page.Steps {
		if page.Steps[i].ID == id {
			return &page.Steps[i]
		}
	}
	return nil
}

// field returns the field a JSON Pointer into the step's arguments
// falls in.
func (sv *stepView) field(pointer string) *fieldView {
	first, _, _ := strings.Cut(strings.TrimPrefix(pointer, "/"), "/")
	if pointer == "" {
		return nil
	}
	name := strings.ReplaceAll(strings.ReplaceAll(first, "~1", "/"), "~0", "~")
	for i := range sv.Fields {
		if sv.Fields[i].Label == name {
			return &sv.Fields[i]
		}
	}
	return nil
}

// flatten lists the errors joined in err.
func flatten(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flatten(e)...)
		}
		return out
	}
	return []error{err}
}

func fieldsText(fields []llm.FieldValue) string {
	if len(fields) == 0 {
		return ""
	}
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = f.Name + " = " + string(f.Value)
	}
	return " where " + strings.Join(parts, ", ")
}

// decidedText says in words what was decided about a run.
func decidedText(run *Run) string {
	d := run.Decided
	if d == nil {
		return ""
	}
	s := "Approved"
	if d.Decision.Reject {
		s = "Rejected"
	}
	if d.Decision.By != "" {
		s += " by " + d.Decision.By
	}
	if !d.At.IsZero() {
		s += " at " + d.At.UTC().Format("2006-01-02 15:04:05 UTC")
	}
	switch {
	case d.Decision.Reject && d.Decision.Reason != "":
		s += ": " + d.Decision.Reason
	case !d.Decision.Reject:
		var edits []string
		if n := len(d.Decision.Remove); n > 0 {
			edits = append(edits, plural(n, "step")+" removed")
		}
		if len(d.Decision.Order) > 0 {
			edits = append(edits, "reordered")
		}
		if n := len(d.Decision.Args); n > 0 {
			edits = append(edits, "arguments of "+plural(n, "step")+" edited")
		}
		if len(edits) > 0 {
			s += " (" + strings.Join(edits, ", ") + ")"
		}
	}
	return s
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// statusText is a run's status in words.
func statusText(s llm.Status) string {
	switch s {
	case llm.StatusAwaitingApproval:
		return "awaiting approval"
	case llm.StatusApproved:
		return "approved, not yet running"
	}
	return strings.ReplaceAll(string(s), "_", " ")
}
