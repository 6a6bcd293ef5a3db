package agent

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"pgregory.net/rapid"
)

// Any declared schema: parameters with any names (i among them, anywhere),
// in any order, any declared version and any title, any required list.
func declaredSchema() *rapid.Generator[Object] {
	return rapid.Custom(func(t *rapid.T) Object {
		names := rapid.SliceOfDistinct(rapid.SampledFrom([]string{"i", "path", "raw", "patch", "name", "x", "y", "arguments", "zeta"}),
			func(s string) string { return s }).Draw(t, "params")
		props := Object{}
		var req []any
		for _, n := range names {
			typ := rapid.SampledFrom([]string{"string", "integer", "boolean", "object"}).Draw(t, "type")
			props = append(props, Member{Key: n, Value: Object{{Key: "type", Value: typ},
				{Key: "description", Value: fmt.Sprintf("the %s", n)}}})
			if rapid.Bool().Draw(t, "required") {
				req = append(req, n)
			}
		}
		s := Object{}
		if rapid.Bool().Draw(t, "typed") {
			s = append(s, Member{Key: "type", Value: "object"})
		}
		switch rapid.IntRange(0, 3).Draw(t, "title") {
		case 1:
			s = append(s, Member{Key: "title", Value: fmt.Sprintf("v%d", rapid.IntRange(1, 9).Draw(t, "tv"))})
		case 2:
			s = append(s, Member{Key: "title", Value: "Echo arguments"})
		case 3:
			s = append(s, Member{Key: "title", Value: "v0"})
		}
		if len(names) > 0 || rapid.Bool().Draw(t, "hasProps") {
			s = append(s, Member{Key: "properties", Value: props})
		}
		if req != nil {
			s = append(s, Member{Key: "required", Value: req})
		}
		if rapid.Bool().Draw(t, "closed") {
			s = append(s, Member{Key: "additionalProperties", Value: false})
		}
		return s
	})
}

func built(t *rapid.T) (declared Object, version int, b Object) {
	declared = declaredSchema().Draw(t, "schema")
	version = rapid.IntRange(-1, 5).Draw(t, "version")
	b, err := Build(declared, version)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	// what goes on the wire parses back to the same schema, order kept
	wire, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	var back Object
	if err := json.Unmarshal(wire, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(normal(back), normal(b)) {
		t.Fatalf("the wire changed the schema:\n%s", wire)
	}
	return declared, version, b
}

// normal turns json.Number and string alike for comparison.
func normal(v any) any {
	b, _ := json.Marshal(v)
	out, _ := ParseJSON(b)
	return out
}

// schema_has_intent: every sent schema has i, optional, first (S7.3).
func TestLaw_schema_has_intent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		_, _, b := built(t)
		ps := Params(b)
		if len(ps) == 0 || ps[0] != IntentParam {
			t.Fatalf("params %v: i is not first", ps)
		}
		if req, ok := b.Get("required"); ok {
			for _, r := range req.([]any) {
				if r == IntentParam {
					t.Fatalf("i is required: %v", req)
				}
			}
		}
	})
	for _, tool := range sentTools(t) {
		if ps := Params(tool); len(ps) == 0 || ps[0] != IntentParam {
			t.Fatalf("a sent schema does not have i first: %v", ps)
		}
	}
}

// schema_versioned: every sent schema has a version >= 1: the declared
// one, else the title's, else 1 (S7.3).
func TestLaw_schema_versioned(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		declared, version, b := built(t)
		want := version
		if want <= 0 {
			want = SchemaVersion(declared)
		}
		if want <= 0 {
			want = 1
		}
		if got := SchemaVersion(b); got != want {
			t.Fatalf("version %d, want %d (title %v)", got, want, b)
		}
	})
	for _, tool := range sentTools(t) {
		if v := SchemaVersion(tool); v != 1 {
			t.Fatalf("a sent roster schema has version %d, want 1", v)
		}
	}
}

// schema_keeps_params: every declared parameter is kept, with its schema,
// in its place relative to the others (S7.3).
func TestLaw_schema_keeps_params(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		declared, _, b := built(t)
		var want []string
		for _, p := range Params(declared) {
			if p != IntentParam {
				want = append(want, p)
			}
		}
		got := Params(b)[1:]
		if len(want) == 0 && len(got) == 0 {
			return
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("params %v, declared %v", got, want)
		}
		dp, _ := declared.Get("properties")
		bp, _ := b.Get("properties")
		for _, p := range Params(declared) {
			d, _ := dp.(Object).Get(p)
			g, _ := bp.(Object).Get(p)
			if !reflect.DeepEqual(d, g) {
				t.Fatalf("param %s changed: %v -> %v", p, d, g)
			}
		}
	})
}

// schema_build_idempotent: building a built schema changes nothing, with
// its version declared again or not (S7.3).
func TestLaw_schema_build_idempotent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		_, version, b := built(t)
		again := version
		if rapid.Bool().Draw(t, "undeclared") {
			again = 0
		}
		bb, err := Build(b, again)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(bb, b) {
			x, _ := json.Marshal(b)
			y, _ := json.Marshal(bb)
			t.Fatalf("rebuild changed the schema:\n%s\n%s", x, y)
		}
	})
}

func TestBuildRefusesANonObjectSchema(t *testing.T) {
	if _, err := Build(MustObject(`{"type":"string"}`), 1); err == nil {
		t.Fatal("a string schema was built")
	}
	if _, err := Build(MustObject(`{"type":"object","properties":[1]}`), 1); err == nil {
		t.Fatal("array properties were built")
	}
}

// sentTools are the input schemas a client gets in tools/list, as sent.
func sentTools(t *testing.T) []Object {
	w := newWorld(t)
	r := rawConnect(t, w.sess)
	r.initialize()
	res := r.rpc(1, "tools/list", "")
	var out []Object
	for _, tool := range path(res, "result", "tools").([]any) {
		out = append(out, path(tool, "inputSchema").(Object))
	}
	if len(out) != len(rosterNames) {
		t.Fatalf("%d tools sent, want %d", len(out), len(rosterNames))
	}
	return out
}
