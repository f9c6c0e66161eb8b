package annot

import (
	"fmt"
	"strconv"
	"strings"
)

// TagValue finds key in a struct tag (the value of the tag literal, in the
// conventional form key:"value" key2:"value2") and returns its unquoted
// value with positions. ok is false when the key is absent. Like
// reflect.StructTag.Lookup, but keeping positions and reporting malformed
// tags.
func TagValue(tag Text, key string) (value Text, ok bool, err error) {
	pairs, err := TagPairs(tag)
	for _, p := range pairs {
		if p.Key.S == key {
			v, uerr := p.Value.Unquote()
			if uerr != nil {
				return Text{}, true, uerr
			}
			return v, true, nil
		}
	}
	return Text{}, false, err
}

// TagPair is one key:"value" of a struct tag; Value is still quoted.
type TagPair struct {
	Key, Value Text
}

// TagPairs splits a struct tag into its key:"value" pairs, as
// reflect.StructTag does; a malformed tail is an error after the pairs
// read so far.
func TagPairs(tag Text) ([]TagPair, error) {
	var out []TagPair
	s := tag.S
	i := 0
	for {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i >= len(s) {
			return out, nil
		}
		k := i
		for i < len(s) && s[i] > ' ' && s[i] != ':' && s[i] != '"' && s[i] != 0x7f {
			i++
		}
		if i == k || i+1 >= len(s) || s[i] != ':' || s[i+1] != '"' {
			return out, fmt.Errorf("malformed struct tag at %q (want key:\"value\")", s[k:])
		}
		key := tag.Slice(k, i)
		i++ // the colon
		v := i
		i++ // the opening quote
		for i < len(s) && s[i] != '"' {
			if s[i] == '\\' {
				i++
			}
			i++
		}
		if i >= len(s) {
			return out, fmt.Errorf("malformed struct tag: value of %s not terminated", key.S)
		}
		i++
		val := tag.Slice(v, i)
		if _, err := strconv.Unquote(val.S); err != nil {
			hint := ""
			if strings.Contains(val.S, `\`) {
				hint = ` (in a struct tag, write \\ for a backslash and \" for a double quote)`
			}
			return out, fmt.Errorf("malformed struct tag: the value of %s is not a valid Go string: %v%s", key.S, err, hint)
		}
		out = append(out, TagPair{Key: key, Value: val})
	}
}
