package agent

import "github.com/eukhe/eukhe/gate"

// The roster's declared schemas and descriptions (DESIGN.md §3). They are
// written for a model: short, exact, with the read format and the patch
// language spelled out. The intent parameter i is added by Build.

const readDescription = `Read a file, a directory or an internal URL.
A file comes as a header [path#TAG] and rows N:text (N counts from 1; text is the line without its ending). TAG (8 hex digits) names the exact version you read: edit and write need it. A line in [brackets] is a notice (a gap, a cut, a size or encoding note), never a row.
Selectors after the path: "src/app.go:5-9", "src/app.go:5-9,40-60", "src/app.go:120-" (to the end). A long file is cut at the output bound; the notice says which selector reads on. Only rows you were shown count as seen; edit may touch only seen lines.
A directory lists its entries, directories ending in "/".
"raw": true gives the text without row numbers (for files that are not plain UTF-8 text; raw rows are not edit anchors).
Paths are relative to the workspace root, or absolute; a leading ~ is the user's home. Reading a credential store (~/.ssh, ~/.aws, ...) or a path outside the user's auto set waits for the user's approval.
URLs: repo://PATH (under the workspace root; a normal read with a tag), skill://NAME (the skill's SKILL.md), skill://NAME/PATH, mcp://SERVER (its resources), mcp://SERVER/URI (one resource), ssh://HOST/PATH (one remote text file; HOST must be in ssh.hosts; ssh://HOST/~/PATH is under the remote home).`

const readSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "A path, a path with a selector (\"src/app.go:5-9,40-60\"), or a URL (repo://, skill://, mcp://, ssh://)."},
    "raw": {"type": "boolean", "description": "Text without row numbers; default false."}
  },
  "required": ["path"],
  "additionalProperties": false
}`

const editDescription = `Change files with one patch; every file lands or none does.
A patch is one or more sections. A section starts with the header of a read, [path#TAG], and line numbers in it always refer to that version:
  @@ A-B      replace lines A..B with the + lines that follow (no + lines deletes them); "@@ 9" is line 9 alone
  @@ A>       insert the + lines after line A
  @@ A<       insert the + lines before line A
  @@ ^        insert at the start of the file
  @@ $        append at the end
  +text       one new line (the text after "+", without its ending)
  MV dest     move the file to dest after its ops (never replaces an existing file)
A section whose header has no tag, [path], creates a new file from its + lines and fails if the file exists.
Example:
[src/app.go#7f3a91c2]
@@ 5-7
+replacement for lines 5 to 7
@@ 12>
+inserted after line 12
[src/new.go]
+package app
Ops in a section must not overlap. Every line an op stands on must have been shown to you (read or grep); otherwise the edit is refused with those lines shown, and retrying the same patch then applies. An edit on an older version than the file's is rebased when its lines did not change. The reply names what landed with new tags ("Applied to src/app.go#1c0ffee1"); use the new tag for the next edit.`

const editSchema = `{
  "type": "object",
  "properties": {
    "patch": {"type": "string", "description": "The patch: sections [path#TAG] with @@ ops and + lines, MV dest, or [path] to create a file."}
  },
  "required": ["patch"],
  "additionalProperties": false
}`

const writeDescription = `Write a whole file. A new file is created (with its directories). An existing file is replaced only over a version this session has read (read it first; if it changed since, the write is refused: read it again). Keeps the file's BOM, line endings and mode, and says when it converted endings. For a change of some lines, use edit.`

const writeSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "The file, relative to the workspace root or absolute."},
    "content": {"type": "string", "description": "The whole new text of the file."}
  },
  "required": ["path", "content"],
  "additionalProperties": false
}`

const grepDescription = `Find lines matching a Go RE2 regular expression (linear time; no backreferences or lookaround; \w \d \s \b are ASCII).
Matches come as read rows, N:text, under the header [path#TAG] of the bytes searched, so you can edit straight from a grep. "context": N shows N lines around each match.
Over a directory: at most 20 matches a file and 20 files a page; "skip": N continues after N files. Over one file (a selector like "src/app.go:100-" narrows it): 200 matches, then a notice gives the selector that continues.
.gitignore is honoured unless "noIgnore": true. Every file skipped or cut (binary, not UTF-8, over 4 MiB, ignored, match caps, symbolic links, which are never followed) is counted in a [notice]. Searching a directory that is or holds a credential store (the home, ~/.ssh) waits for the user's approval: search the workspace or a directory below it.`

const grepSchema = `{
  "type": "object",
  "properties": {
    "pattern": {"type": "string", "description": "A Go RE2 regular expression (or a literal string with \"literal\": true)."},
    "path": {"type": "string", "description": "A file (with an optional line selector) or a directory; default the workspace root."},
    "glob": {"type": "string", "description": "Only files whose path (or, without \"/\", name) matches this glob; \"!pat\" leaves them out."},
    "ignoreCase": {"type": "boolean"},
    "literal": {"type": "boolean", "description": "pattern is a plain string, not a regular expression."},
    "context": {"type": "integer", "minimum": 0, "description": "Lines shown before and after each match."},
    "skip": {"type": "integer", "minimum": 0, "description": "Files with matches to skip (the next page)."},
    "noIgnore": {"type": "boolean", "description": "Also search files .gitignore leaves out."}
  },
  "required": ["pattern"],
  "additionalProperties": false
}`

const globDescription = `List files whose path matches a glob pattern, newest first. Patterns: * (within a name), ** (any depth), ?, [abc], {a,b}; a pattern without "/" matches names at any depth ("*_test.go"). .gitignore is honoured unless "noIgnore": true. At most 200 paths a page; "skip": N continues. Takes workspace paths only, no URLs. Listing a directory that is or holds a credential store (the home, ~/.ssh) waits for the user's approval.`

const globSchema = `{
  "type": "object",
  "properties": {
    "pattern": {"type": "string", "description": "A glob: \"**/*.go\", \"src/*.{ts,tsx}\", \"*_test.go\"."},
    "path": {"type": "string", "description": "The directory to walk; default the workspace root."},
    "limit": {"type": "integer", "minimum": 1, "maximum": 200, "description": "Paths a page, at most 200 (the default)."},
    "skip": {"type": "integer", "minimum": 0, "description": "Paths to skip (the next page)."},
    "noIgnore": {"type": "boolean", "description": "Also list files .gitignore leaves out."}
  },
  "required": ["pattern"],
  "additionalProperties": false
}`

const dynDescription = `Reach tools that are not in this list. Without "name": lists them, each with its description and argument schema. With "name" and "arguments": runs one and returns its result.
Names: mcp/SERVER/TOOL (a tool of an MCP server the user configured), editor tools that join while you work, and report_issue.
report_issue {"tool": NAME, "description": TEXT}: report a tool that failed or did not do what its description says. The user sees the report; nothing more comes back to you.`

const dynSchema = `{
  "type": "object",
  "properties": {
    "name": {"type": "string", "description": "The tool to run, as listed; omit it to list the tools."},
    "arguments": {"type": "object", "description": "The tool's arguments, per its schema in the list."}
  },
  "additionalProperties": false
}`

// DefaultSpecs are the roster of DESIGN.md §3.3 in order: read, edit,
// write, grep, glob, bash, ipython, dyn. bash declares the gate's
// BashRunner and ipython its CellRunner, so the registry covers both (G4).
func DefaultSpecs() []Spec {
	bash, cell := gate.BashRunner, gate.CellRunner
	return []Spec{
		{Name: "read", Description: readDescription, Schema: MustObject(readSchema), ReadOnly: true, Handler: handleRead, MaxArgs: 64 << 10},
		{Name: "edit", Description: editDescription, Schema: MustObject(editSchema), Handler: handleEdit, MaxArgs: 32 << 20},
		{Name: "write", Description: writeDescription, Schema: MustObject(writeSchema), Handler: handleWrite, MaxArgs: 32 << 20},
		{Name: "grep", Description: grepDescription, Schema: MustObject(grepSchema), ReadOnly: true, Handler: handleGrep, MaxArgs: 64 << 10},
		{Name: "glob", Description: globDescription, Schema: MustObject(globSchema), ReadOnly: true, Handler: handleGlob, MaxArgs: 64 << 10},
		{Name: "bash", Description: bashDescription, Schema: MustObject(bashSchema), Runner: &bash, Handler: handleBash, MaxArgs: 1 << 20},
		{Name: "ipython", Description: ipythonDescription, Schema: MustObject(ipythonSchema), Runner: &cell, Handler: handleIPython, MaxArgs: 1 << 20},
		{Name: "dyn", Description: dynDescription, Schema: MustObject(dynSchema), Handler: handleDyn, MaxArgs: 32 << 20},
	}
}

// OpenRoster is the default roster, built and fixed (S7.1, S7.3).
func OpenRoster() (*Roster, error) {
	r := &Roster{}
	if err := r.Apply(Change{Kind: Install, Tools: DefaultSpecs()}); err != nil {
		return nil, err
	}
	if err := r.Fix(); err != nil {
		return nil, err
	}
	return r, nil
}
