package llm

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/rolegen/rolegen/internal/schema"
	"github.com/rolegen/rolegen/internal/suggest"
	"github.com/rolegen/rolegen/runtime"
)

// argsSchema returns the JSON Schema of an action's arguments: for an
// action without arguments, the empty object the generated plan schema
// writes.
func argsSchema[S any](a *runtime.Action[S]) string {
	if a.Args == "" {
		return schema.EmptyObject
	}
	return a.Args
}

// compiledArgs holds the compiled argument schemas of one domain, one per
// action, compiled once on first use.
type compiledArgs struct {
	once    sync.Once
	schemas []*jsonschema.Schema
	err     error
}

// argCache maps a *runtime.Domain[S] (as any) to its *compiledArgs: every
// planner over one domain shares one compilation.
var argCache sync.Map

// argSchemas returns the compiled argument schemas of d's actions.
func argSchemas[S comparable](d *runtime.Domain[S]) ([]*jsonschema.Schema, error) {
	v, _ := argCache.LoadOrStore(any(d), new(compiledArgs))
	c := v.(*compiledArgs)
	c.once.Do(func() { c.schemas, c.err = compileArgs(d) })
	return c.schemas, c.err
}

func compileArgs[S comparable](d *runtime.Domain[S]) ([]*jsonschema.Schema, error) {
	comp := jsonschema.NewCompiler()
	urls := make([]string, len(d.Actions))
	for i := range d.Actions {
		a := &d.Actions[i]
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(argsSchema(a)))
		if err != nil {
			return nil, fmt.Errorf("llm: %s.%s: argument schema: %w", d.Name, a.Name, err)
		}
		urls[i] = fmt.Sprintf("mem://rolegen/%s/%d.json", d.Name, i)
		if err := comp.AddResource(urls[i], doc); err != nil {
			return nil, fmt.Errorf("llm: %s.%s: argument schema: %w", d.Name, a.Name, err)
		}
	}
	schemas := make([]*jsonschema.Schema, len(d.Actions))
	for i, u := range urls {
		s, err := comp.Compile(u)
		if err != nil {
			return nil, fmt.Errorf("llm: %s.%s: argument schema: %w", d.Name, d.Actions[i].Name, err)
		}
		schemas[i] = s
	}
	return schemas, nil
}

// Validate checks plan against the domain before any step runs: a plan
// with steps, not more than 4×maxSteps of them, unique non-empty ids, known
// capabilities, arguments that the action decodes (runtime.Action.CheckArgs)
// and that match its schema, and dependsOn
// naming known steps without a cycle. It resolves each Step.Action and
// marks Skipped the steps beyond maxSteps (and those depending on them).
// Every problem found is a *ValidationError; several are joined with
// errors.Join, in plan order.
func (p *Planner[S]) Validate(plan *Plan) error {
	d := p.d
	n := len(plan.Steps)
	if n == 0 {
		if p.cfg.allowEmpty {
			return nil
		}
		return &ValidationError{Kind: EmptyPlan, Detail: "the plan has no steps"}
	}
	if limit := 4 * p.cfg.maxSteps; n > limit {
		return &ValidationError{Kind: TooManySteps, Detail: fmt.Sprintf("%d steps, at most %d accepted (step budget %d)", n, limit, p.cfg.maxSteps)}
	}
	schemas, err := argSchemas(d)
	if err != nil {
		return err
	}
	var errs []error
	index := make(map[string]int, n)
	for i := range plan.Steps {
		st := &plan.Steps[i]
		st.Action = runtime.NoAction
		switch _, dup := index[st.ID]; {
		case st.ID == "":
			errs = append(errs, &ValidationError{Kind: MissingStepID, Capability: st.Capability, Detail: fmt.Sprintf("step %d has no id", i+1)})
		case dup:
			errs = append(errs, &ValidationError{Kind: DuplicateStepID, StepID: st.ID, Capability: st.Capability, Detail: fmt.Sprintf("steps %d and %d share the id", index[st.ID]+1, i+1)})
		default:
			index[st.ID] = i
		}
		a, ok := d.Action(st.Capability)
		if !ok {
			errs = append(errs, &ValidationError{Kind: UnknownCapability, StepID: st.ID, Capability: st.Capability, Detail: p.unknownCapabilityDetail(st.Capability)})
			continue
		}
		st.Action = a
		st.Args = normalizeArgs(st.Args)
		if ve := checkArgs(&d.Actions[a], schemas[a], st); ve != nil {
			errs = append(errs, ve)
		}
	}
	depsOK := true
	for _, st := range plan.Steps {
		for _, dep := range st.DependsOn {
			if _, ok := index[dep]; !ok {
				depsOK = false
				errs = append(errs, &ValidationError{Kind: UnknownDependency, StepID: st.ID, Capability: st.Capability, Detail: fmt.Sprintf("depends on %q, which is not a step of the plan", dep)})
			}
		}
	}
	if depsOK {
		if cycle := findCycle(plan, index); cycle != nil {
			first := plan.Steps[index[cycle[0]]]
			errs = append(errs, &ValidationError{Kind: CyclicDependency, StepID: first.ID, Capability: first.Capability, Detail: strings.Join(cycle, " → ")})
		}
	}
	if len(errs) > 0 {
		if len(errs) == 1 {
			return errs[0]
		}
		return errors.Join(errs...)
	}
	markSkipped(plan, index, p.cfg.maxSteps)
	return nil
}

func (p *Planner[S]) unknownCapabilityDetail(name string) string {
	names := make([]string, len(p.d.Actions))
	for i, a := range p.d.Actions {
		names[i] = a.Name
	}
	if s, ok := suggest.Closest(name, names); ok {
		return fmt.Sprintf("%q is not a capability (did you mean %q?)", name, s)
	}
	return fmt.Sprintf("%q is not one of %s", name, strings.Join(names, ", "))
}

// findCycle returns the ids of a dependency cycle (first id repeated at the
// end), or nil. Steps are visited in plan order so the cycle reported is
// deterministic.
func findCycle(plan *Plan, index map[string]int) []string {
	const (
		unvisited = iota
		onPath
		finished
	)
	state := make([]int, len(plan.Steps))
	var path []int
	var visit func(i int) []string
	visit = func(i int) []string {
		state[i] = onPath
		path = append(path, i)
		for _, dep := range plan.Steps[i].DependsOn {
			j, ok := index[dep]
			if !ok {
				continue
			}
			switch state[j] {
			case onPath:
				start := slices.Index(path, j)
				ids := make([]string, 0, len(path)-start+1)
				for _, k := range path[start:] {
					ids = append(ids, plan.Steps[k].ID)
				}
				return append(ids, plan.Steps[j].ID)
			case unvisited:
				if c := visit(j); c != nil {
					return c
				}
			}
		}
		path = path[:len(path)-1]
		state[i] = finished
		return nil
	}
	for i := range plan.Steps {
		if state[i] == unvisited {
			if c := visit(i); c != nil {
				return c
			}
		}
	}
	return nil
}

// markSkipped marks the steps beyond maxSteps, and every step depending on
// a skipped one, as skipped.
func markSkipped(plan *Plan, index map[string]int, maxSteps int) {
	for i := range plan.Steps {
		plan.Steps[i].Skipped = i >= maxSteps
	}
	for changed := true; changed; {
		changed = false
		for i := range plan.Steps {
			st := &plan.Steps[i]
			if st.Skipped {
				continue
			}
			for _, dep := range st.DependsOn {
				if plan.Steps[index[dep]].Skipped {
					st.Skipped, changed = true, true
					break
				}
			}
		}
	}
}

// order returns the indexes of the plan's steps that are not skipped, in
// dependency order, ties by step order: at each point the first step (in
// plan order) whose dependencies are all placed. It is the order of
// verification and of in-order execution.
func order(plan *Plan) []int {
	index := make(map[string]int, len(plan.Steps))
	for i, st := range plan.Steps {
		index[st.ID] = i
	}
	placed := make([]bool, len(plan.Steps))
	var out []int
	for {
		next := -1
		for i, st := range plan.Steps {
			if placed[i] || st.Skipped {
				continue
			}
			ready := true
			for _, dep := range st.DependsOn {
				if j, ok := index[dep]; ok && !placed[j] {
					ready = false
					break
				}
			}
			if ready {
				next = i
				break
			}
		}
		if next < 0 {
			return out
		}
		placed[next] = true
		out = append(out, next)
	}
}
