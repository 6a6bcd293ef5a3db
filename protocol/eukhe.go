package protocol

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// The eukhe/* methods. README.md says who sends each and when.
const (
	// Client → server requests.
	MethodTool           = "eukhe/tool"
	MethodReviewDecision = "eukhe/reviewDecision"

	// Server → client: a request and a notification.
	MethodSaveDocuments = "eukhe/saveDocuments"
	MethodReview        = "eukhe/review"
)

// Experimental is the key under the LSP capabilities' "experimental" object
// where both sides describe their eukhe extension.
const Experimental = "eukhe"

// ClientCapabilities is what a client puts under
// initialize's capabilities.experimental.eukhe.
type ClientCapabilities struct {
	// Kind names the client: "vscode", "nvim", or any other name.
	Kind string `json:"kind,omitempty"`
	// Methods lists the server → client eukhe/* methods the client
	// implements ("eukhe/saveDocuments", "eukhe/review"). The server sends
	// no other eukhe/* method to it.
	Methods []string `json:"methods,omitempty"`
	// ChecksVersions says the client checks the version of every document
	// of a workspace edit against its buffer before it applies any, 0
	// included (the Neovim plugin's workspace/applyEdit handler): the
	// server then sends an edit at version 0 without a probe first.
	ChecksVersions bool `json:"checksVersions,omitempty"`
	// ChecksTexts says the client checks, before it applies a
	// workspace/applyEdit, that every document of it named in the
	// request's EditTexts holds the text whose TextHash is given, and
	// applies nothing otherwise (the VS Code extension): a document closed
	// and opened again starts its versions again, so a version alone
	// cannot tell it from the one the edit was made on.
	ChecksTexts bool `json:"checksTexts,omitempty"`
}

// EditTextsField is the member of workspace/applyEdit's params under
// which the server sends EditTexts to a client that ChecksTexts.
const EditTextsField = "eukhe"

// EditTexts are the texts a workspace edit was made on: each document's
// URI, as the edit names it, to the TextHash of its text.
type EditTexts struct {
	Texts map[string]string `json:"texts"`
}

// TextHash is the hash a client that ChecksTexts compares: SHA-256, in
// lowercase hex, of the document's text in UTF-8 (as the client told it).
// SHA-256, not the xxhash of eukhe's tags: every client has it at hand
// (Node's crypto, Neovim's sha256()).
func TextHash(text []byte) string {
	sum := sha256.Sum256(text)
	return hex.EncodeToString(sum[:])
}

// ServerCapabilities is what the server puts under the initialize result's
// capabilities.experimental.eukhe.
type ServerCapabilities struct {
	Version int      `json:"version"` // of this extension; 1
	Methods []string `json:"methods"` // the client → server eukhe/* methods it answers
}

// Position and Range are LSP's, in the position encoding negotiated at
// initialize (utf-8 when the client offers it, else utf-16).
type Position struct {
	Line      uint32 `json:"line"`
	Character uint32 `json:"character"`
}

// Range is a span between two positions; the end is exclusive.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// ToolParams are eukhe/tool's params: one call of a document tool on a
// session of the server.
type ToolParams struct {
	Name      string          `json:"name"`              // read, edit, write, grep or glob
	Arguments json.RawMessage `json:"arguments"`         // the tool's arguments object
	Session   string          `json:"session,omitempty"` // a name; "" is the default session
	// WorkDoneToken, when the editor sets it, is the token a long call
	// reports $/progress on (LSP work-done progress, client-initiated).
	WorkDoneToken json.RawMessage `json:"workDoneToken,omitempty"`
}

// ToolResult is eukhe/tool's result: the tool's text, as an agent sees it.
type ToolResult struct {
	Text    string `json:"text"`
	IsError bool   `json:"isError"`
}

// SaveDocumentsParams asks the client to save open documents.
type SaveDocumentsParams struct {
	URIs []string `json:"uris"`
}

// SaveDocumentsResult names the documents the client saved.
type SaveDocumentsResult struct {
	Saved []string `json:"saved"`
}

// ReviewParams tell the client what an edit changed, hunk by hunk.
type ReviewParams struct {
	EditID string       `json:"editId"`
	Hunks  []ReviewHunk `json:"hunks"`
}

// ReviewHunk is one changed span of one file.
type ReviewHunk struct {
	URI    string `json:"uri"`
	Hunk   int    `json:"hunk"`   // its index among the file's hunks, from 0
	Range  Range  `json:"range"`  // where After stands in the file now
	Before string `json:"before"` // the text the edit replaced ("" for a pure insert)
	After  string `json:"after"`  // the text it put there ("" for a pure deletion)
}

// The decisions of eukhe/reviewDecision.
const (
	DecisionKeep = "keep"
	DecisionUndo = "undo"
)

// ReviewDecisionParams keep or undo a hunk, a file, or a whole edit: with
// URI and Hunk one hunk, with URI alone that file's hunks, with neither
// every hunk of the edit.
type ReviewDecisionParams struct {
	EditID   string `json:"editId"`
	URI      string `json:"uri,omitempty"`
	Hunk     *int   `json:"hunk,omitempty"`
	Decision string `json:"decision"` // "keep" or "undo"
}

// ReviewDecisionResult says what the decision did, in words for the user.
type ReviewDecisionResult struct {
	Applied bool   `json:"applied"`
	Message string `json:"message"`
}
