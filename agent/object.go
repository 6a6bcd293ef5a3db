package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// Object is a JSON object that keeps its members in the order written, so
// a schema goes on the wire exactly as built (Go maps do not keep order).
// A member's value is an Object, a []any, a string, a json.Number, a bool
// or nil.
type Object []Member

// Member is one key and its value.
type Member struct {
	Key   string
	Value any
}

// Index is the position of key, or -1.
func (o Object) Index(key string) int {
	for i, m := range o {
		if m.Key == key {
			return i
		}
	}
	return -1
}

// Get is key's value.
func (o Object) Get(key string) (any, bool) {
	if i := o.Index(key); i >= 0 {
		return o[i].Value, true
	}
	return nil, false
}

// Keys are the member keys in order.
func (o Object) Keys() []string {
	ks := make([]string, len(o))
	for i, m := range o {
		ks[i] = m.Key
	}
	return ks
}

// MarshalJSON writes the members in order.
func (o Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := writeValue(&b, o); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func writeValue(b *bytes.Buffer, v any) error {
	switch v := v.(type) {
	case Object:
		b.WriteByte('{')
		for i, m := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(m.Key)
			b.Write(k)
			b.WriteByte(':')
			if err := writeValue(b, m.Value); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeValue(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	default:
		enc, err := json.Marshal(v)
		if err != nil {
			return err
		}
		b.Write(enc)
	}
	return nil
}

// UnmarshalJSON reads an object keeping its members' order, at every
// depth. A key written twice is an error.
func (o *Object) UnmarshalJSON(data []byte) error {
	v, err := ParseJSON(data)
	if err != nil {
		return err
	}
	obj, ok := v.(Object)
	if !ok {
		return fmt.Errorf("want a JSON object, got %s", valueKind(v))
	}
	*o = obj
	return nil
}

// ParseJSON reads one JSON value with objects as Objects (order kept) and
// numbers as json.Number.
func ParseJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := readValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data after the JSON value")
	}
	return v, nil
}

func readValue(dec *json.Decoder) (any, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := t.(type) {
	case json.Delim:
		switch t {
		case '{':
			obj := Object{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k := kt.(string)
				if obj.Index(k) >= 0 {
					return nil, fmt.Errorf("key %q is written twice", k)
				}
				v, err := readValue(dec)
				if err != nil {
					return nil, err
				}
				obj = append(obj, Member{Key: k, Value: v})
			}
			_, err := dec.Token() // '}'
			return obj, err
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := readValue(dec)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			_, err := dec.Token() // ']'
			return arr, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		return t, nil
	}
}

// valueKind names a parsed JSON value's kind for a message.
func valueKind(v any) string {
	switch v.(type) {
	case Object:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

// clone copies an Object deeply enough that editing the copy's members (at
// any depth) leaves the original as it was.
func clone(v any) any {
	switch v := v.(type) {
	case Object:
		c := make(Object, len(v))
		for i, m := range v {
			c[i] = Member{Key: m.Key, Value: clone(m.Value)}
		}
		return c
	case []any:
		c := make([]any, len(v))
		for i, e := range v {
			c[i] = clone(e)
		}
		return c
	}
	return v
}
