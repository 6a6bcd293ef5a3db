package protocol

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// The VS Code extension's copy of the wire types, kept in step with these.
const vscodeProtocol = "../editors/vscode/src/protocol.ts"

// tsInterfaces maps each interface of protocol.ts to its Go type. An
// interface missing here, or an entry missing there, fails the test.
var tsInterfaces = map[string]reflect.Type{
	"ClientCapabilities":    reflect.TypeOf(ClientCapabilities{}),
	"EditTexts":             reflect.TypeOf(EditTexts{}),
	"ServerCapabilities":    reflect.TypeOf(ServerCapabilities{}),
	"Position":              reflect.TypeOf(Position{}),
	"Range":                 reflect.TypeOf(Range{}),
	"ToolParams":            reflect.TypeOf(ToolParams{}),
	"ToolResult":            reflect.TypeOf(ToolResult{}),
	"SaveDocumentsParams":   reflect.TypeOf(SaveDocumentsParams{}),
	"SaveDocumentsResult":   reflect.TypeOf(SaveDocumentsResult{}),
	"ReviewHunk":            reflect.TypeOf(ReviewHunk{}),
	"ReviewParams":          reflect.TypeOf(ReviewParams{}),
	"ReviewDecisionParams":  reflect.TypeOf(ReviewDecisionParams{}),
	"ReviewDecisionResult":  reflect.TypeOf(ReviewDecisionResult{}),
	"ApproveParams":         reflect.TypeOf(ApproveParams{}),
	"ApproveResult":         reflect.TypeOf(ApproveResult{}),
	"ApprovalSettledParams": reflect.TypeOf(ApprovalSettledParams{}),
	"ToolIssueParams":       reflect.TypeOf(ToolIssueParams{}),
	"JoinToolParams":        reflect.TypeOf(JoinToolParams{}),
	"RunToolParams":         reflect.TypeOf(RunToolParams{}),
	"RunToolResult":         reflect.TypeOf(RunToolResult{}),
	"SettingsStatusResult":  reflect.TypeOf(SettingsStatusResult{}),
	"SettingsFileStatus":    reflect.TypeOf(SettingsFileStatus{}),
}

// tsConsts are protocol.ts's const objects, key by key, with the Go
// constants they spell.
var tsConsts = map[string]map[string]string{
	"Method": {
		"tool": MethodTool, "reviewDecision": MethodReviewDecision,
		"joinTool": MethodJoinTool, "quitTool": MethodQuitTool,
		"settingsStatus": MethodSettingsStatus,
		"saveDocuments":  MethodSaveDocuments, "review": MethodReview,
		"approve": MethodApprove, "approvalSettled": MethodApprovalSettled,
		"toolIssue": MethodToolIssue, "runTool": MethodRunTool,
	},
	"Answer": {"approve": AnswerApprove, "deny": AnswerDeny, "approveSession": AnswerApproveSession},
}

// tsUnions are protocol.ts's string-literal types, with the Go constants
// they spell.
var tsUnions = map[string][]string{
	"Decision": {DecisionKeep, DecisionUndo},
}

// TestTypeScriptInStep keeps editors/vscode/src/protocol.ts in step with
// this package: every interface has the JSON fields of its Go type, each
// optional exactly when the Go field is omitempty, of the same kind; the
// method names and answers are the Go constants.
func TestTypeScriptInStep(t *testing.T) {
	src, err := os.ReadFile(vscodeProtocol)
	if err != nil {
		t.Fatalf("reading the extension's wire types: %v", err)
	}
	for _, p := range tsDrift(string(src)) {
		t.Error(p)
	}
}

// TestTypeScriptDriftIsCaught: a field renamed, made optional, dropped or
// retyped, an interface or a method added on one side only, each is
// reported.
func TestTypeScriptDriftIsCaught(t *testing.T) {
	src, err := os.ReadFile(vscodeProtocol)
	if err != nil {
		t.Fatalf("reading the extension's wire types: %v", err)
	}
	good := string(src)
	for _, c := range []struct{ name, old, new string }{
		{"renamed", "\teditId: string;\n\thunks: ReviewHunk[];", "\teditID: string;\n\thunks: ReviewHunk[];"},
		{"made optional", "\tstep: number;", "\tstep?: number;"},
		{"made required", "\tdeadline?: string;", "\tdeadline: string;"},
		{"dropped", "\tisError?: boolean;\n", ""},
		{"retyped", "\tsaved: string[];", "\tsaved: string;"},
		{"nested type", "\trange: Range;", "\trange: Position;"},
		{"new interface", "export interface Range {", "export interface Extra {\n\tx: string;\n}\n\nexport interface Range {"},
		{"new method", "\trunTool: \"eukhe/runTool\",", "\trunTool: \"eukhe/runTool\",\n\tnewOne: \"eukhe/newOne\","},
		{"misspelt decision", `"keep" | "undo"`, `"keep" | "undone"`},
		{"misspelt method", "\"eukhe/toolIssue\"", "\"eukhe/toolissue\""},
	} {
		bad := strings.Replace(good, c.old, c.new, 1)
		if bad == good {
			t.Errorf("%s: the text to change is not in protocol.ts: %q", c.name, c.old)
			continue
		}
		if len(tsDrift(bad)) == 0 {
			t.Errorf("%s: %q → %q was not reported", c.name, c.old, c.new)
		}
	}
}

var (
	tsComment   = regexp.MustCompile(`(?m)//.*$`)
	tsInterface = regexp.MustCompile(`export interface (\w+) \{([^}]*)\}`)
	tsField     = regexp.MustCompile(`^(\w+)(\??):\s*(.+?);$`)
	tsAlias     = regexp.MustCompile(`export type (\w+) = ([^;]+);`)
	tsConst     = regexp.MustCompile(`export const (\w+) = \{([^}]*)\} as const;`)
	tsConstKey  = regexp.MustCompile(`(\w+):\s*"([^"]*)"`)
)

// tsDrift lists every difference between protocol.ts's text and the Go
// types and constants.
func tsDrift(src string) []string {
	src = tsComment.ReplaceAllString(src, "")
	var out []string
	aliases := map[string]string{}
	for _, m := range tsAlias.FindAllStringSubmatch(src, -1) {
		aliases[m[1]] = strings.TrimSpace(m[2])
	}
	for name, want := range tsUnions {
		var got []string
		for _, lit := range strings.Split(aliases[name], "|") {
			got = append(got, strings.Trim(strings.TrimSpace(lit), `"`))
		}
		if !reflect.DeepEqual(got, want) {
			out = append(out, fmt.Sprintf("protocol.ts: type %s is %q; Go has %q", name, got, want))
		}
	}
	seen := map[string]bool{}
	for _, m := range tsInterface.FindAllStringSubmatch(src, -1) {
		name := m[1]
		seen[name] = true
		gt, ok := tsInterfaces[name]
		if !ok {
			out = append(out, fmt.Sprintf("protocol.ts: interface %s has no Go type in tsInterfaces", name))
			continue
		}
		out = append(out, fieldDrift(name, m[2], gt, aliases)...)
	}
	for name := range tsInterfaces {
		if !seen[name] {
			out = append(out, fmt.Sprintf("protocol.ts: no interface %s (tsInterfaces maps it)", name))
		}
	}
	consts := map[string]bool{}
	for _, m := range tsConst.FindAllStringSubmatch(src, -1) {
		want, ok := tsConsts[m[1]]
		if !ok {
			continue
		}
		consts[m[1]] = true
		got := map[string]string{}
		for _, kv := range tsConstKey.FindAllStringSubmatch(m[2], -1) {
			got[kv[1]] = kv[2]
		}
		for k, v := range got {
			if want[k] != v {
				out = append(out, fmt.Sprintf("protocol.ts: %s.%s is %q; Go has %q", m[1], k, v, want[k]))
			}
		}
		for k, v := range want {
			if _, ok := got[k]; !ok {
				out = append(out, fmt.Sprintf("protocol.ts: %s has no %s (%q)", m[1], k, v))
			}
		}
	}
	for name := range tsConsts {
		if !consts[name] {
			out = append(out, fmt.Sprintf("protocol.ts: no const object %s", name))
		}
	}
	sort.Strings(out)
	return out
}

// goField is a struct field as JSON sees it.
type goField struct {
	typ       reflect.Type
	omitempty bool
}

// jsonFields are the JSON names of t's fields.
func jsonFields(t reflect.Type) map[string]goField {
	fs := map[string]goField{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		fs[name] = goField{f.Type, strings.Contains(","+opts+",", ",omitempty,")}
	}
	return fs
}

func fieldDrift(name, body string, gt reflect.Type, aliases map[string]string) []string {
	var out []string
	gfs := jsonFields(gt)
	seen := map[string]bool{}
	for _, line := range strings.Split(body, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		m := tsField.FindStringSubmatch(line)
		if m == nil {
			out = append(out, fmt.Sprintf("protocol.ts: %s: cannot read the line %q", name, line))
			continue
		}
		field, optional, typ := m[1], m[2] == "?", m[3]
		seen[field] = true
		gf, ok := gfs[field]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("protocol.ts: %s.%s: %s has no field with JSON name %q", name, field, gt, field))
			continue
		case optional && !gf.omitempty:
			out = append(out, fmt.Sprintf("protocol.ts: %s.%s is optional; in %s it is always sent (no omitempty)", name, field, gt))
		case !optional && gf.omitempty:
			out = append(out, fmt.Sprintf("protocol.ts: %s.%s is required; in %s it is omitempty", name, field, gt))
		}
		if !tsTypeMatches(typ, gf.typ, aliases) {
			out = append(out, fmt.Sprintf("protocol.ts: %s.%s is %s; in %s it is %s", name, field, typ, gt, gf.typ))
		}
	}
	for field := range gfs {
		if !seen[field] {
			out = append(out, fmt.Sprintf("protocol.ts: %s has no field %q of %s", name, field, gt))
		}
	}
	return out
}

var rawJSON = reflect.TypeOf(json.RawMessage(nil))

// tsTypeMatches tells whether a TypeScript type spells Go type t in JSON.
func tsTypeMatches(ts string, t reflect.Type, aliases map[string]string) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == rawJSON {
		return ts == "unknown"
	}
	if elem, ok := strings.CutSuffix(ts, "[]"); ok {
		return t.Kind() == reflect.Slice && tsTypeMatches(elem, t.Elem(), aliases)
	}
	if inner, ok := strings.CutPrefix(ts, "Record<string, "); ok && strings.HasSuffix(inner, ">") {
		return t.Kind() == reflect.Map && t.Key().Kind() == reflect.String && tsTypeMatches(strings.TrimSuffix(inner, ">"), t.Elem(), aliases)
	}
	if a, ok := aliases[ts]; ok {
		ts = a
	}
	switch t.Kind() {
	case reflect.String:
		return ts == "string" || isStringUnion(ts)
	case reflect.Bool:
		return ts == "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return ts == "number"
	case reflect.Struct:
		return tsInterfaces[ts] == t
	}
	return false
}

// isStringUnion tells whether ts is a union of string literals ("keep" |
// "undo").
func isStringUnion(ts string) bool {
	for _, lit := range strings.Split(ts, "|") {
		lit = strings.TrimSpace(lit)
		if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
			return false
		}
	}
	return true
}
