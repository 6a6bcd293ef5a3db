package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/eukhe/eukhe/gate"
)

// Scope is which kind of file is read.
type Scope uint8

// The two scopes.
const (
	// UserScope is the user file; it may set every key.
	UserScope Scope = iota
	// ProjectScope is a project file; it may not set an execution gate.
	ProjectScope
)

// key is one setting: its name, whether it is an execution gate, and how
// its value is read into a File.
type key struct {
	name  string
	gate  bool
	apply func(f *File, raw json.RawMessage) error
}

var keys = []key{
	{name: "shell.autoEffects", gate: true, apply: func(f *File, raw json.RawMessage) error {
		var names []string
		if err := strictJSON(raw, &names); err != nil {
			return err
		}
		a, err := gate.ParseAutoSet(names)
		if err != nil {
			return err
		}
		f.AutoEffects = &a
		return nil
	}},
	{name: "ssh.hosts", gate: true, apply: func(f *File, raw json.RawMessage) error {
		hosts := []string{}
		if err := strictJSON(raw, &hosts); err != nil {
			return err
		}
		for _, h := range hosts {
			if !validHost(h) {
				return fmt.Errorf("host %q: use letters, digits, '.', '-', '_' and '@', not starting with '-'; put ports, users and options in ~/.ssh/config", h)
			}
		}
		f.SSHHosts = hosts
		return nil
	}},
	{name: "mcp.servers", gate: true, apply: func(f *File, raw json.RawMessage) error {
		servers := map[string]MCPServer{}
		if err := strictJSON(raw, &servers); err != nil {
			return err
		}
		for name, s := range servers {
			if name == "" || strings.ContainsAny(name, "/ \t\n") {
				return fmt.Errorf("server name %q: use a name without '/' or spaces", name)
			}
			if (s.Command == "") == (s.URL == "") {
				return fmt.Errorf("server %q: give either \"command\" (a program to start) or \"url\", not both or neither", name)
			}
		}
		f.MCPServers = servers
		return nil
	}},
	{name: "approval.timeoutSeconds", apply: func(f *File, raw json.RawMessage) error {
		var n int
		if err := strictJSON(raw, &n); err != nil {
			return err
		}
		if n < 1 || n > 86400 {
			return fmt.Errorf("%d seconds: use a whole number from 1 to 86400", n)
		}
		d := time.Duration(n) * time.Second
		f.ApprovalTimeout = &d
		return nil
	}},
	// Where questions go is the user's to say: a project file cannot
	// turn the agent's own window on or off.
	{name: "approval.elicitation", gate: true, apply: func(f *File, raw json.RawMessage) error {
		var on bool
		if err := strictJSON(raw, &on); err != nil {
			return err
		}
		f.Elicitation = &on
		return nil
	}},
	{name: "shell.blockingBudgetSeconds", apply: func(f *File, raw json.RawMessage) error {
		var n int
		if err := strictJSON(raw, &n); err != nil {
			return err
		}
		if n < 1 || n > 3600 {
			return fmt.Errorf("%d seconds: use a whole number from 1 to 3600", n)
		}
		d := time.Duration(n) * time.Second
		f.ShellBudget = &d
		return nil
	}},
	{name: "shell.writableDirs", gate: true, apply: func(f *File, raw json.RawMessage) error {
		dirs := []string{}
		if err := strictJSON(raw, &dirs); err != nil {
			return err
		}
		for _, d := range dirs {
			if !filepath.IsAbs(d) && !strings.HasPrefix(d, "~/") {
				return fmt.Errorf("%q: give an absolute directory, or one under ~/", d)
			}
		}
		f.WritableDirs = dirs
		return nil
	}},
	{name: "ipython.python", gate: true, apply: func(f *File, raw json.RawMessage) error {
		var p string
		if err := strictJSON(raw, &p); err != nil {
			return err
		}
		named := !strings.ContainsAny(p, `/\`)
		if p == "" || strings.ContainsRune(p, 0) || strings.TrimSpace(p) != p ||
			!(named || filepath.IsAbs(p) || strings.HasPrefix(p, "~/")) {
			return fmt.Errorf("%q: give an absolute path to a Python, one under ~/, or its name on PATH (python3)", p)
		}
		f.IPythonPython = &p
		return nil
	}},
	{name: "shell.confinement", gate: true, apply: oneOf(func(f *File, v string) { f.Confinement = &v }, "auto", "require", "off")},
	{name: "review.style", apply: oneOf(func(f *File, v string) { f.ReviewStyle = &v }, "inline", "off")},
	{name: "edit.save", apply: oneOf(func(f *File, v string) { f.EditSave = &v }, "clean", "never")},
	{name: "grep.excludes", apply: func(f *File, raw json.RawMessage) error {
		globs := []string{}
		if err := strictJSON(raw, &globs); err != nil {
			return err
		}
		for _, g := range globs {
			if g == "" {
				return errors.New("an empty pattern; remove it")
			}
		}
		f.GrepExcludes = globs
		return nil
	}},
}

// KeyNames are the keys a settings file may hold, sorted.
func KeyNames() []string {
	var ns []string
	for _, k := range keys {
		ns = append(ns, k.name)
	}
	sort.Strings(ns)
	return ns
}

func oneOf(set func(*File, string), values ...string) func(*File, json.RawMessage) error {
	return func(f *File, raw json.RawMessage) error {
		var v string
		if err := strictJSON(raw, &v); err != nil {
			return err
		}
		for _, ok := range values {
			if v == ok {
				set(f, v)
				return nil
			}
		}
		return fmt.Errorf("%q: use one of %s", v, strings.Join(quoteAll(values), ", "))
	}
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// strictJSON decodes raw into v, refusing fields v does not have.
func strictJSON(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			where := ""
			if te.Field != "" {
				where = " at " + te.Field
			}
			return fmt.Errorf("a %s%s where %s belongs", te.Value, where, kindOf(te.Type.String()))
		}
		return errors.New(strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}

func kindOf(goType string) string {
	switch {
	case strings.HasPrefix(goType, "[]"):
		return "a list"
	case strings.HasPrefix(goType, "map["), strings.HasPrefix(goType, "settings."):
		return "an object"
	case goType == "string":
		return "a string"
	case goType == "int":
		return "a whole number"
	}
	return goType
}

func validHost(h string) bool {
	if h == "" || h[0] == '-' {
		return false
	}
	for _, c := range h {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '.' || c == '-' || c == '_' || c == '@'
		if !ok {
			return false
		}
	}
	return true
}

// Parse reads one settings file: flat dotted keys in one JSON object
// ({"shell.autoEffects": ["read"]}). It is pure. A file it cannot use
// gives an Error event with the line and column and a nil File: the last
// good settings stay in force. A key that is unknown, or an execution gate
// in a project file, is ignored with a Warning event.
func Parse(name string, data []byte, scope Scope) (*File, []Event) {
	fail := func(off int, format string, a ...any) (*File, []Event) {
		line, col := lineCol(data, off)
		return nil, []Event{{Level: Error, File: name, Line: line, Col: col,
			Message: fmt.Sprintf(format, a...) + "; the last good settings stay in force until it is fixed"}}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return fail(0, "the file is empty; write {} for no settings")
	}
	var top any
	if err := json.Unmarshal(data, &top); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return fail(int(se.Offset)-1, "not valid JSON: %s", se.Error())
		}
		return fail(0, "not valid JSON: %v", err)
	}
	if _, ok := top.(map[string]any); !ok {
		return fail(skipSpace(data, 0), `the settings must be one JSON object, such as {"shell.autoEffects": ["read", "write"]}`)
	}
	f := &File{}
	var events []Event
	seen := map[string]int{}
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil {
		return fail(0, "not valid JSON: %v", err)
	}
	for dec.More() {
		keyOff := skipSpace(data, int(dec.InputOffset()))
		tok, err := dec.Token()
		if err != nil {
			return fail(keyOff, "not valid JSON: %v", err)
		}
		k, _ := tok.(string)
		var raw json.RawMessage
		valOff := skipSpace(data, int(dec.InputOffset()))
		if err := dec.Decode(&raw); err != nil {
			return fail(valOff, "not valid JSON: %v", err)
		}
		if first, dup := seen[k]; dup {
			l, c := lineCol(data, first)
			return fail(keyOff, "%q is set twice (first at line %d, column %d); keep one", k, l, c)
		}
		seen[k] = keyOff
		line, col := lineCol(data, keyOff)
		spec, known := findKey(k)
		switch {
		case !known:
			events = append(events, Event{Level: Warning, File: name, Line: line, Col: col,
				Message: fmt.Sprintf("unknown key %q, ignored; the keys are %s", k, strings.Join(KeyNames(), ", "))})
		case spec.gate && scope == ProjectScope:
			events = append(events, Event{Level: Warning, File: name, Line: line, Col: col,
				Message: fmt.Sprintf("%s is an execution gate, which a project file cannot set; ignored. Set it in the user settings file", k)})
		default:
			if err := spec.apply(f, raw); err != nil {
				return fail(valOff, "%s: %v", k, err)
			}
		}
	}
	return f, events
}

func findKey(name string) (key, bool) {
	for _, k := range keys {
		if k.name == name {
			return k, true
		}
	}
	return key{}, false
}

// skipSpace is the offset of the first byte at or after off that is not
// JSON white space, a comma or a colon.
func skipSpace(data []byte, off int) int {
	for off < len(data) && strings.IndexByte(" \t\r\n,:", data[off]) >= 0 {
		off++
	}
	return off
}

// lineCol is the 1-based line and column (in characters) of byte offset
// off.
func lineCol(data []byte, off int) (int, int) {
	if off < 0 {
		off = 0
	}
	if off > len(data) {
		off = len(data)
	}
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return line, 1 + len([]rune(string(data[start:off])))
}
