package agent

import (
	"context"
	"encoding/json"

	"github.com/eukhe/eukhe/docs"
)

// The bash tool is in the roster from the start (S7.7: in the roster at
// open) and registered with the gate's BashRunner (G4). The shell issue
// fills in its runner; until then a call says so and runs nothing.

const bashDescription = `Run a bash script in the workspace root. Each step is judged by the approval gate; a step whose effects are not allowed to run unasked waits for the user's answer, and a refused step stops the script there.`

const bashSchema = `{
  "type": "object",
  "properties": {
    "script": {"type": "string", "description": "The script: steps joined by ;, newlines, &&, ||, |."}
  },
  "required": ["script"],
  "additionalProperties": false
}`

// BashNotYet is what a bash call answers until the shell runner lands.
const BashNotYet = "bash did not run: the bash tool arrives with the shell issue; nothing ran. Use read, grep, glob, edit and write for now."

type bashArgs struct {
	I      string `json:"i"`
	Script string `json:"script"`
}

func handleBash(ctx context.Context, s *Session, raw json.RawMessage) docs.Result {
	var a bashArgs
	if err := DecodeArgs("bash", s.params("bash"), raw, &a); err != nil {
		return badArgs(err)
	}
	return docs.Result{Text: BashNotYet, Failed: true}
}
