package review

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/rolegen/rolegen/llm"
)

// The page's form names one step by its index in the plan awaiting
// approval (pinned by the plan's digest), never by its id, which the
// model wrote: "order" lists the indexes in the order shown, "remove" the
// indexes removed, "a-I-J" the J-th argument of step I, "r-I" the
// arguments of step I as JSON (when they are not an object of named
// arguments).

// fieldMode is how an argument is typed in and read back.
type fieldMode uint8

const (
	// modeText: a string argument, typed as text.
	modeText fieldMode = iota
	// modeEnum: a string argument chosen among the schema's values.
	modeEnum
	// modeJSON: any other value, typed as JSON (a number as 150); what is
	// not JSON is read as a string, so that the action's own decoding
	// says what is wrong with it.
	modeJSON
)

// fieldSpec is one named argument of a step: the schema's property (or
// a key the model wrote that the schema does not name) and its value in
// the plan awaiting approval.
type fieldSpec struct {
	prop
	mode fieldMode
	// present says whether the plan's arguments hold the key; original
	// is its value as the form shows it.
	present  bool
	original string
}

// argSpec is how the form shows the arguments of one step: named fields,
// or (raw) one JSON text.
type argSpec struct {
	fields []fieldSpec
	raw    bool
	// none: the action takes no arguments and the step has none.
	none     bool
	original string
}

// specOf derives the argument fields of a step from its action's schema
// and its arguments; the same plan always gives the same fields, so the
// form's fields are read back by position.
func specOf(st llm.Step, a *action) argSpec {
	args := bytes.TrimSpace(st.Args)
	members, isObject := objectMembers(args)
	if a == nil || !isObject {
		return argSpec{raw: true, original: prettyJSON(args)}
	}
	if !a.TakesArgs && len(members) == 0 {
		return argSpec{none: true, original: "{}"}
	}
	var spec argSpec
	seen := map[string]bool{}
	value := func(key string) (json.RawMessage, bool) {
		for _, m := range members {
			if m.key == key {
				return m.value, true
			}
		}
		return nil, false
	}
	add := func(p prop, v json.RawMessage, present bool) {
		f := fieldSpec{prop: p, present: present, mode: modeJSON}
		var text string
		isString := !present || json.Unmarshal(v, &text) == nil
		switch {
		case p.Type == "string" && isString && len(p.Enum) > 0:
			f.mode = modeEnum
		case p.Type == "string" && isString:
			f.mode = modeText
		}
		switch {
		case !present:
		case f.mode == modeJSON:
			f.original = compactJSON(v)
		default:
			f.original = text
		}
		spec.fields = append(spec.fields, f)
	}
	for _, p := range a.Props {
		v, ok := value(p.Name)
		seen[p.Name] = true
		add(p, v, ok)
	}
	for _, m := range members {
		if !seen[m.key] {
			seen[m.key] = true
			add(prop{Name: m.key}, m.value, true)
		}
	}
	return spec
}

// form is what a person set on the page: the order of the steps, the
// steps removed, each argument as typed, and the reason of a rejection.
type form struct {
	order   []int
	removed map[int]bool
	values  map[int][]string
	raw     map[int]string
	reason  string
}

// initialForm is the form of a plan as proposed.
func initialForm(specs []argSpec) *form {
	f := &form{removed: map[int]bool{}, values: map[int][]string{}, raw: map[int]string{}}
	for i, spec := range specs {
		f.order = append(f.order, i)
		if spec.raw {
			f.raw[i] = spec.original
			continue
		}
		for _, fs := range spec.fields {
			f.values[i] = append(f.values[i], fs.original)
		}
	}
	return f
}

// errFormMismatch is a form that is not one of the plan it names.
var errFormMismatch = errors.New("the form does not match the plan: reload the page")

// parseForm reads the form posted for a plan of len(specs) steps.
func parseForm(v url.Values, specs []argSpec) (*form, error) {
	f := initialForm(specs)
	n := len(specs)
	order, err := indexes(v["order"], n)
	if err != nil || len(order) != n {
		return nil, errFormMismatch
	}
	for i := range n {
		if !slices.Contains(order, i) {
			return nil, errFormMismatch
		}
	}
	f.order = order
	removed, err := indexes(v["remove"], n)
	if err != nil {
		return nil, errFormMismatch
	}
	for _, i := range removed {
		f.removed[i] = true
	}
	for i, spec := range specs {
		if spec.raw {
			if s, ok := v[fmt.Sprintf("r-%d", i)]; ok {
				f.raw[i] = s[0]
			}
			continue
		}
		for j := range spec.fields {
			if s, ok := v[fieldName(i, j)]; ok {
				f.values[i][j] = s[0]
			}
		}
	}
	f.reason = strings.TrimSpace(v.Get("reason"))
	return f, nil
}

func fieldName(step, field int) string { return fmt.Sprintf("a-%d-%d", step, field) }

// indexes parses step indexes below n.
func indexes(vs []string, n int) ([]int, error) {
	out := make([]int, 0, len(vs))
	for _, s := range vs {
		i, err := strconv.Atoi(s)
		if err != nil || i < 0 || i >= n {
			return nil, errFormMismatch
		}
		out = append(out, i)
	}
	return out, nil
}

// move moves step i one place up (dir < 0) or down in the order.
func (f *form) move(i, dir int) {
	at := slices.Index(f.order, i)
	to := at + dir
	if at < 0 || to < 0 || to >= len(f.order) {
		return
	}
	f.order[at], f.order[to] = f.order[to], f.order[at]
}

// args builds the arguments of step i as the form holds them.
func (f *form) args(i int, spec argSpec) json.RawMessage {
	if spec.raw {
		return json.RawMessage(f.raw[i])
	}
	if spec.none {
		return json.RawMessage("{}")
	}
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	for j, fs := range spec.fields {
		text := f.values[i][j]
		if !fs.present && text == "" {
			continue // an argument the model left out, still out
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		key, _ := json.Marshal(fs.Name)
		b.Write(key)
		b.WriteByte(':')
		b.Write(fieldJSON(fs.mode, text))
	}
	b.WriteByte('}')
	return b.Bytes()
}

// fieldJSON is the JSON of an argument typed as text.
func fieldJSON(mode fieldMode, text string) []byte {
	if mode == modeJSON {
		t := strings.TrimSpace(text)
		if t != "" && json.Valid([]byte(t)) {
			return []byte(t)
		}
	}
	s, _ := json.Marshal(text)
	return s
}

// decision is the decision the form says about plan: the steps removed,
// the order when it changed, and the arguments that changed.
func (f *form) decision(plan *llm.Plan, specs []argSpec) llm.Decision {
	var d llm.Decision
	moved := false
	kept := 0
	for _, i := range f.order {
		if f.removed[i] {
			continue
		}
		d.Order = append(d.Order, plan.Steps[i].ID)
		if i != keptIndex(f, kept) {
			moved = true
		}
		kept++
	}
	if !moved {
		d.Order = nil
	}
	for i, st := range plan.Steps {
		if f.removed[i] {
			d.Remove = append(d.Remove, st.ID)
			continue
		}
		if args := f.args(i, specs[i]); canonical(args) != canonical(st.Args) {
			if d.Args == nil {
				d.Args = map[string]json.RawMessage{}
			}
			d.Args[st.ID] = args
		}
	}
	d.PlanDigest = plan.Digest()
	return d
}

// keptIndex is the index of the k-th step not removed, in plan order.
func keptIndex(f *form, k int) int {
	for i := range len(f.order) {
		if f.removed[i] {
			continue
		}
		if k == 0 {
			return i
		}
		k--
	}
	return -1
}

func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}

func prettyJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return string(raw)
	}
	return b.String()
}
