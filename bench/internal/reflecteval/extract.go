package reflecteval

import (
	"reflect"
	"slices"
)

// Extractor reads the plan:"state" fields of a struct type through
// reflect. The fields are found once, walking the type and its embedded
// structs and parsing the tags; each extraction then reads them by index.
// (A design that also walks the type and parses the tags on every call is
// slower still.)
type Extractor struct {
	names   []string
	indices [][]int
}

// NewExtractor finds the state fields of struct type t, with the fields
// of structs embedded by value promoted.
func NewExtractor(t reflect.Type) *Extractor {
	e := &Extractor{}
	e.walk(t, nil)
	return e
}

func (e *Extractor) walk(t reflect.Type, prefix []int) {
	for i := range t.NumField() {
		f := t.Field(i)
		index := append(slices.Clone(prefix), i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			e.walk(f.Type, index)
			continue
		}
		if f.Tag.Get("plan") == "state" && !slices.Contains(e.names, f.Name) {
			e.names = append(e.names, f.Name)
			e.indices = append(e.indices, index)
		}
	}
}

// Fields returns the names of the state fields.
func (e *Extractor) Fields() []string { return slices.Clone(e.names) }

// Extract returns the state fields of the struct ptr points to, by name,
// each value boxed in interface{}.
func (e *Extractor) Extract(ptr any) map[string]any {
	v := reflect.ValueOf(ptr).Elem()
	m := make(map[string]any, len(e.names))
	for i, name := range e.names {
		m[name] = v.FieldByIndex(e.indices[i]).Interface()
	}
	return m
}
