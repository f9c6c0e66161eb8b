package check

import (
	"encoding/json"
	"fmt"
	"go/constant"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"github.com/invopop/jsonschema"

	"github.com/rolegen/rolegen/internal/schema"
)

// argsSchema builds the JSON Schema of an action's argument type from its
// Go type, as encoding/json decodes it: property names follow its rules,
// every object is closed with all its properties required, nested objects
// are inlined (no $ref), pointers are nullable, and the bounds every
// target accepts are stated (integer ranges, fixed array lengths, the
// base64 of []byte, the number inside a ",string" field). Whatever the
// schema cannot say, the planner checks by decoding the arguments before
// any step runs (runtime.Action.CheckArgs).
func (c *checker) argsSchema(m *methodDecl) (*jsonschema.Schema, error) {
	sb := &schemaBuilder{c: c}
	s, err := sb.typ(m.args.Type())
	if err != nil {
		return nil, fmt.Errorf("argument type %s of action %s: %v", m.args.Name(), m.fn.Name(), err)
	}
	return s, nil
}

type schemaBuilder struct {
	c     *checker
	stack []*types.TypeName
}

func (sb *schemaBuilder) typ(t types.Type) (*jsonschema.Schema, error) {
	t = types.Unalias(t)
	if n, ok := t.(*types.Named); ok {
		obj := n.Obj()
		if obj.Pkg() != nil && obj.Pkg().Path() == "time" && obj.Name() == "Time" {
			return &jsonschema.Schema{Type: "string", Format: "date-time"}, nil
		}
		if hasMethod(n, "UnmarshalJSON") {
			return nil, fmt.Errorf("%s implements json.Unmarshaler, so its JSON form cannot be derived from its fields", obj.Name())
		}
		if hasMethod(n, "UnmarshalText") {
			return &jsonschema.Schema{Type: "string"}, nil
		}
		if slices.Contains(sb.stack, obj) {
			return nil, fmt.Errorf("%s is recursive; a strict schema inlines every object and cannot describe it", obj.Name())
		}
		sb.stack = append(sb.stack, obj)
		defer func() { sb.stack = sb.stack[:len(sb.stack)-1] }()
		s, err := sb.under(t.Underlying())
		if err != nil {
			return nil, err
		}
		if _, basic := t.Underlying().(*types.Basic); basic {
			if s.Enum = sb.enum(n); s.Enum != nil {
				// The values bound it already.
				s.Minimum, s.Maximum = "", ""
			}
		}
		return s, nil
	}
	return sb.under(t)
}

func hasMethod(t types.Type, name string) bool {
	ms := types.NewMethodSet(types.NewPointer(t))
	for i := range ms.Len() {
		if ms.At(i).Obj().Name() == name {
			return true
		}
	}
	return false
}

// enum lists the values of the constants of named type n declared in its
// package, in declaration order: the values an enum type takes.
func (sb *schemaBuilder) enum(n *types.Named) []any {
	pkg := n.Obj().Pkg()
	if pkg == nil {
		return nil
	}
	var consts []*types.Const
	for _, name := range pkg.Scope().Names() {
		if k, ok := pkg.Scope().Lookup(name).(*types.Const); ok && types.Identical(k.Type(), n) {
			consts = append(consts, k)
		}
	}
	slices.SortFunc(consts, func(a, b *types.Const) int { return int(a.Pos() - b.Pos()) })
	var out []any
	for _, k := range consts {
		v := k.Val()
		switch v.Kind() {
		case constant.String:
			out = append(out, constant.StringVal(v))
		case constant.Int:
			if i, ok := constant.Int64Val(v); ok {
				out = append(out, i)
			} else if u, ok := constant.Uint64Val(v); ok {
				out = append(out, u)
			}
		case constant.Float:
			f, _ := constant.Float64Val(v)
			out = append(out, f)
		case constant.Bool:
			out = append(out, constant.BoolVal(v))
		}
	}
	return out
}

// intBounds are the ranges of the sized integer kinds, which JSON Schema
// states exactly; int, int64 and uint64 ranges are left to decoding (and
// the unsigned ones start at 0).
var intBounds = map[types.BasicKind][2]string{
	types.Int8: {"-128", "127"}, types.Int16: {"-32768", "32767"}, types.Int32: {"-2147483648", "2147483647"},
	types.Uint8: {"0", "255"}, types.Uint16: {"0", "65535"}, types.Uint32: {"0", "4294967295"},
	types.Uint: {"0", ""}, types.Uint64: {"0", ""}, types.Uintptr: {"0", ""},
}

// base64Pattern is what encoding/json decodes into a []byte: standard
// padded base64 (which it would also take with line breaks inside).
const base64Pattern = `^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$`

func (sb *schemaBuilder) under(t types.Type) (*jsonschema.Schema, error) {
	switch t := t.(type) {
	case *types.Basic:
		switch {
		case t.Info()&types.IsBoolean != 0:
			return &jsonschema.Schema{Type: "boolean"}, nil
		case t.Info()&types.IsInteger != 0:
			b := intBounds[t.Kind()]
			return &jsonschema.Schema{Type: "integer", Minimum: json.Number(b[0]), Maximum: json.Number(b[1])}, nil
		case t.Info()&types.IsFloat != 0:
			return &jsonschema.Schema{Type: "number"}, nil
		case t.Info()&types.IsString != 0:
			return &jsonschema.Schema{Type: "string"}, nil
		}
		return nil, fmt.Errorf("type %s has no JSON form", t)
	case *types.Pointer:
		elem, err := sb.typ(t.Elem())
		if err != nil {
			return nil, err
		}
		return schema.Nullable(elem), nil
	case *types.Slice:
		if b, ok := t.Elem().Underlying().(*types.Basic); ok && b.Kind() == types.Byte {
			// contentEncoding is not in the strict-mode subset: the
			// pattern and the description say it.
			return &jsonschema.Schema{Type: "string", Description: "base64", Pattern: base64Pattern}, nil
		}
		items, err := sb.typ(t.Elem())
		if err != nil {
			return nil, err
		}
		return &jsonschema.Schema{Type: "array", Items: items}, nil
	case *types.Array:
		items, err := sb.typ(t.Elem())
		if err != nil {
			return nil, err
		}
		// encoding/json would drop extra elements and zero missing ones;
		// the schema asks for exactly the length.
		n := int(t.Len())
		return &jsonschema.Schema{Type: "array", Items: items, MinItems: schema.Int(n), MaxItems: schema.Int(n)}, nil
	case *types.Struct:
		return sb.object(t)
	case *types.Map:
		return nil, fmt.Errorf("map %s has open keys; a strict schema closes every object (use a slice of structs)", t)
	case *types.Interface:
		return nil, fmt.Errorf("interface %s has no fixed JSON form", t)
	}
	return nil, fmt.Errorf("type %s has no JSON form", t)
}

// object describes a struct as encoding/json decodes it: exported fields
// under their json names, "-" skipped, embedded structs without a name
// flattened.
func (sb *schemaBuilder) object(st *types.Struct) (*jsonschema.Schema, error) {
	s := schema.Object()
	if err := sb.fields(s, st); err != nil {
		return nil, err
	}
	return s, nil
}

func (sb *schemaBuilder) fields(s *jsonschema.Schema, st *types.Struct) error {
	for i := range st.NumFields() {
		f := st.Field(i)
		name, opts := jsonName(reflect.StructTag(st.Tag(i)))
		if name == "-" && opts == "" {
			continue
		}
		if f.Embedded() && name == "" {
			et := types.Unalias(f.Type())
			if p, ok := et.(*types.Pointer); ok {
				et = p.Elem()
			}
			if inner, ok := et.Underlying().(*types.Struct); ok {
				if err := sb.fields(s, inner); err != nil {
					return err
				}
				continue
			}
		}
		if !f.Exported() {
			continue
		}
		if name == "" {
			name = f.Name()
		}
		fs, err := sb.typ(f.Type())
		if err != nil {
			return fmt.Errorf("field %s: %w", f.Name(), err)
		}
		if strings.Contains(","+opts+",", ",string,") {
			fs = quoted(f.Type(), fs)
		}
		if doc := sb.c.fieldDoc[f]; doc != "" && fs.Description == "" {
			fs.Description = doc
		}
		if !schema.Add(s, name, fs) {
			return fmt.Errorf("two fields are named %q in JSON", name)
		}
	}
	return nil
}

// Patterns of the JSON numbers inside a ",string" field.
const (
	intPattern   = `^-?(0|[1-9][0-9]*)$`
	uintPattern  = `^(0|[1-9][0-9]*)$`
	floatPattern = `^-?(0|[1-9][0-9]*)([.][0-9]+)?([eE][-+]?[0-9]+)?$`
)

// quoted is the schema of a field with the ",string" option: encoding/json
// reads a bool, number or string (or one behind an unnamed pointer) from
// the JSON text inside a string; other types ignore the option.
func quoted(t types.Type, s *jsonschema.Schema) *jsonschema.Schema {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		if inner := quotedBasic(p.Elem(), s.AnyOf[0]); inner != nil {
			return schema.Nullable(inner)
		}
		return s
	}
	if q := quotedBasic(t, s); q != nil {
		return q
	}
	return s
}

// quotedBasic is the ",string" schema of a bool, number or string type
// with schema s; nil for other types.
func quotedBasic(t types.Type, s *jsonschema.Schema) *jsonschema.Schema {
	b, ok := t.Underlying().(*types.Basic)
	if !ok || b.Info()&(types.IsBoolean|types.IsInteger|types.IsFloat|types.IsString) == 0 {
		return nil
	}
	q := &jsonschema.Schema{Type: "string", Description: s.Description}
	switch {
	case s.Enum != nil:
		for _, v := range s.Enum {
			text, err := json.Marshal(v)
			if err != nil {
				return nil
			}
			q.Enum = append(q.Enum, string(text))
		}
	case s.Type == "boolean":
		q.Enum = []any{"true", "false"}
	case s.Type == "integer" && b.Info()&types.IsUnsigned != 0:
		q.Pattern = uintPattern
	case s.Type == "integer":
		q.Pattern = intPattern
	case s.Type == "number":
		q.Pattern = floatPattern
	case s.Type == "string":
		q.Pattern = `^".*"$`
	default:
		return nil
	}
	return q
}

// jsonName splits a json tag into its name and options.
func jsonName(tag reflect.StructTag) (string, string) {
	v, ok := tag.Lookup("json")
	if !ok {
		return "", ""
	}
	name, opts, _ := strings.Cut(v, ",")
	return name, opts
}
