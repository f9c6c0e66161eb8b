package check

import (
	"fmt"
	"go/constant"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"github.com/invopop/jsonschema"
	orderedmap "github.com/pb33f/ordered-map/v2"
)

// argsSchema builds the JSON Schema of an action's argument type from its
// Go type: an object whose properties are all required and closed
// (additionalProperties false), nested objects inlined (no $ref), no
// length limits — the subset OpenAI strict mode, Anthropic, Ollama and
// llama.cpp all accept. Property names follow encoding/json.
func (c *checker) argsSchema(m *methodDecl) (*jsonschema.Schema, bool) {
	sb := &schemaBuilder{c: c}
	s, err := sb.typ(m.args.Type())
	if err != nil {
		c.errorf(m.decl.Name.Pos(), m.decl.Name.End(), "argument type %s of action %s: %v", m.args.Name(), m.fn.Name(), err)
		return nil, false
	}
	return s, true
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
			s.Enum = sb.enum(n)
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

func (sb *schemaBuilder) under(t types.Type) (*jsonschema.Schema, error) {
	switch t := t.(type) {
	case *types.Basic:
		switch {
		case t.Info()&types.IsBoolean != 0:
			return &jsonschema.Schema{Type: "boolean"}, nil
		case t.Info()&types.IsInteger != 0:
			return &jsonschema.Schema{Type: "integer"}, nil
		case t.Info()&types.IsFloat != 0:
			return &jsonschema.Schema{Type: "number"}, nil
		case t.Info()&types.IsString != 0:
			return &jsonschema.Schema{Type: "string"}, nil
		}
		return nil, fmt.Errorf("type %s has no JSON form", t)
	case *types.Pointer:
		return sb.typ(t.Elem())
	case *types.Slice:
		if b, ok := t.Elem().Underlying().(*types.Basic); ok && b.Kind() == types.Byte {
			// encoding/json writes []byte in base64; contentEncoding is
			// not in the strict-mode subset, so the description says it.
			return &jsonschema.Schema{Type: "string", Description: "base64"}, nil
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
		return &jsonschema.Schema{Type: "array", Items: items}, nil
	case *types.Struct:
		return sb.object(t)
	case *types.Map:
		return nil, fmt.Errorf("map %s has open keys; a strict schema closes every object (use a slice of structs)", t)
	case *types.Interface:
		return nil, fmt.Errorf("interface %s has no fixed JSON form", t)
	}
	return nil, fmt.Errorf("type %s has no JSON form", t)
}

// object describes a struct as encoding/json encodes it: exported fields
// under their json names, "-" skipped, embedded structs without a name
// flattened.
func (sb *schemaBuilder) object(st *types.Struct) (*jsonschema.Schema, error) {
	s := &jsonschema.Schema{
		Type:                 "object",
		Properties:           orderedmap.New[string, *jsonschema.Schema](),
		AdditionalProperties: jsonschema.FalseSchema,
	}
	if err := sb.fields(s, st); err != nil {
		return nil, err
	}
	if len(s.Required) == 0 {
		s.Extras = map[string]any{"required": []string{}} // see gen's emptyObject
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
			if fs.Type == "integer" || fs.Type == "number" || fs.Type == "boolean" {
				fs = &jsonschema.Schema{Type: "string"}
			}
		}
		if doc := sb.c.fieldDoc[f]; doc != "" && fs.Description == "" {
			fs.Description = doc
		}
		if _, dup := s.Properties.Get(name); dup {
			return fmt.Errorf("two fields are named %q in JSON", name)
		}
		s.Properties.Set(name, fs)
		s.Required = append(s.Required, name)
	}
	return nil
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
