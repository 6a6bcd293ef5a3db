package attach

import (
	"encoding/json"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestLaw_ANoteGoesBeforeAToolResultAndKeepsIt: whatever a tools/call
// answer holds, the note is said first, and the rest of the answer is
// kept as it was.
func TestLaw_ANoteGoesBeforeAToolResultAndKeepsIt(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		text := rapid.String().Draw(t, "text")
		note := rapid.StringMatching(`[a-z :.]{1,40}`).Draw(t, "note")
		var answer map[string]any
		switch rapid.IntRange(0, 2).Draw(t, "shape") {
		case 0:
			answer = map[string]any{"jsonrpc": "2.0", "id": 7, "result": map[string]any{
				"content": []any{map[string]any{"type": "text", "text": text}}, "isError": rapid.Bool().Draw(t, "isError")}}
		case 1: // no text first: the note comes before the content
			answer = map[string]any{"jsonrpc": "2.0", "id": 7, "result": map[string]any{
				"content": []any{map[string]any{"type": "image", "data": text, "mimeType": "image/png"}}}}
		default:
			answer = map[string]any{"jsonrpc": "2.0", "id": 7, "error": map[string]any{"code": -32603, "message": text}}
		}
		line, _ := json.Marshal(answer)
		got, ok := withNote(append(line, '\n'), note)
		if !ok {
			t.Fatalf("no note put in %s", line)
		}
		var m struct {
			ID     int `json:"id"`
			Result struct {
				Content []map[string]any `json:"content"`
				IsError bool             `json:"isError"`
			} `json:"result"`
			Error struct{ Message string } `json:"error"`
		}
		if err := json.Unmarshal(got, &m); err != nil || m.ID != 7 || got[len(got)-1] != '\n' {
			t.Fatalf("not one JSON line with the id: %q (%v)", got, err)
		}
		if _, isErr := answer["error"]; isErr {
			if m.Error.Message != note+"\n\n"+text {
				t.Fatalf("error message %q", m.Error.Message)
			}
			return
		}
		first, _ := m.Result.Content[0]["text"].(string)
		if !strings.HasPrefix(first, note) {
			t.Fatalf("the first text %q does not start with the note", first)
		}
		if c0 := answer["result"].(map[string]any)["content"].([]any)[0].(map[string]any); c0["type"] == "text" {
			if first != note+"\n\n"+text || m.Result.IsError != answer["result"].(map[string]any)["isError"] {
				t.Fatalf("the text became %q", first)
			}
		} else if len(m.Result.Content) != 2 || m.Result.Content[1]["data"] != text {
			t.Fatalf("the content became %v", m.Result.Content)
		}
	})
}
