package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// jsonValue is a JSON value whose object members keep their order, for
// the few places that rewrite or take apart JSON the model or the
// generator wrote: the plan schema sent with a request (where the order
// of "capability" and "args" steers the model) and the arguments of a
// step whose decoding failed.
type jsonValue struct {
	// kind is '{' for an object, '[' for an array, 0 for a scalar.
	kind    byte
	members []jsonMember
	elems   []*jsonValue
	scalar  json.RawMessage
}

type jsonMember struct {
	key   string
	value *jsonValue
}

// parseJSON reads one JSON value.
func parseJSON(data []byte) (*jsonValue, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := readJSON(dec)
	if err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("data after the JSON value")
	}
	return v, nil
}

func readJSON(dec *json.Decoder) (*jsonValue, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		v := &jsonValue{kind: '{'}
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				return nil, err
			}
			member, err := readJSON(dec)
			if err != nil {
				return nil, err
			}
			v.members = append(v.members, jsonMember{key: key.(string), value: member})
		}
		_, err := dec.Token()
		return v, err
	case json.Delim('['):
		v := &jsonValue{kind: '['}
		for dec.More() {
			elem, err := readJSON(dec)
			if err != nil {
				return nil, err
			}
			v.elems = append(v.elems, elem)
		}
		_, err := dec.Token()
		return v, err
	}
	return &jsonValue{scalar: encodeJSON(tok)}, nil
}

// encodeJSON encodes a scalar without encoding/json's HTML escapes.
func encodeJSON(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(fmt.Sprintf("llm: %v has no JSON form: %v", v, err))
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// get returns the member key of an object, or nil.
func (v *jsonValue) get(key string) *jsonValue {
	for _, m := range v.members {
		if m.key == key {
			return m.value
		}
	}
	return nil
}

// set sets the member key of an object, in place or last.
func (v *jsonValue) set(key string, value *jsonValue) {
	for i, m := range v.members {
		if m.key == key {
			v.members[i].value = value
			return
		}
	}
	v.members = append(v.members, jsonMember{key: key, value: value})
}

// del removes the member key of an object.
func (v *jsonValue) del(key string) {
	for i, m := range v.members {
		if m.key == key {
			v.members = append(v.members[:i:i], v.members[i+1:]...)
			return
		}
	}
}

// encode renders v compactly.
func (v *jsonValue) encode() json.RawMessage {
	var b bytes.Buffer
	v.write(&b)
	return b.Bytes()
}

func (v *jsonValue) write(b *bytes.Buffer) {
	switch v.kind {
	case '{':
		b.WriteByte('{')
		for i, m := range v.members {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(encodeJSON(m.key))
			b.WriteByte(':')
			m.value.write(b)
		}
		b.WriteByte('}')
	case '[':
		b.WriteByte('[')
		for i, e := range v.elems {
			if i > 0 {
				b.WriteByte(',')
			}
			e.write(b)
		}
		b.WriteByte(']')
	default:
		b.Write(v.scalar)
	}
}

// jsonPointer renders a path of object keys and array indexes as a JSON
// Pointer (RFC 6901): "" for the whole value.
func jsonPointer(path []string) string {
	var b strings.Builder
	for _, p := range path {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(p))
	}
	return b.String()
}
