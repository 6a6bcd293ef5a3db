// Package settings reads eukhe's settings files and keeps them in force as
// they change (DESIGN.md §6): the user file $XDG_CONFIG_HOME/eukhe/
// settings.json (default ~/.config/eukhe) and each project's
// <root>/.eukhe/settings.json, watched with fsnotify.
//
// A file is one JSON object of flat dotted keys:
//
//	{
//	  "shell.autoEffects": ["read", "write", "exec"],
//	  "ssh.hosts": ["box", "me@build"],
//	  "mcp.servers": {"docs": {"command": "docs-mcp", "args": ["--stdio"]}},
//	  "approval.timeoutSeconds": 120,
//	  "approval.elicitation": true,
//	  "review.style": "inline",
//	  "edit.save": "clean",
//	  "grep.excludes": ["vendor/**", "*.min.js"],
//	  "shell.blockingBudgetSeconds": 30,
//	  "shell.writableDirs": ["~/.cache/go-build", "~/go/pkg/mod"],
//	  "shell.confinement": "auto"
//	}
//
// Where each rule lives:
//
//   - The keys, their values and their checks: parse.go. shell.autoEffects
//     takes only read, write, exec, net, outside and protected (S7.8: any
//     other name, secret included, is a typed error, gate.AutoEffectError);
//     ssh.hosts only hosts of letters, digits, '.', '-', '_' and '@' not
//     starting with '-' (S7.9).
//   - Execution gates (shell.autoEffects, ssh.hosts, mcp.servers,
//     shell.writableDirs, shell.confinement, approval.elicitation: where
//     questions go is the user's to say; ipython.python: the program the
//     kernel runs) come from
//     the user file only: in a project file they are ignored with a Warning
//     event (parse.go); Merge (settings.go) layers defaults, user, projects.
//   - A file that does not parse or validate gives an Error event naming the
//     file, line and column (from the byte offset) and the problem, and the
//     last good version of that file stays in force (watch.go). An unknown
//     key, a gate in a project file, a removed file (Removed set): a Warning event. No
//     rule is dropped without an event. A file that loads gives its Info
//     ("loaded") before that load's Warnings (watch.go), so a reader that
//     clears a file's problems on Info keeps them (lsp's settingsStatus).
//   - Every settings file the loader reads is a protected path (G1.3):
//     Paths.Places hands them to the gate's policy, with eukhe's state
//     directory ($XDG_STATE_HOME/eukhe, default ~/.local/state/eukhe:
//     session logs and report_issue rows; a secret entry) and
//     the homes a script can name with ~user (homes.go: the current
//     user's and each login user's in /etc/passwd; their credential
//     stores are secrets).
//
// Chosen where the design is silent: keys are flat and dotted, as in VS
// Code's settings.json; an empty file is an error, not "no settings" (an
// editor that truncates before it writes must not widen the auto set for
// a moment); a key set twice is an error; a removed file stops applying
// (with a Warning); grep.excludes of the user and the projects add up,
// other project keys override the user's; approval.timeoutSeconds defaults
// to 120; approval.elicitation (the agent's own MCP client is asked too,
// when it declared elicitation) defaults to true; shell.blockingBudgetSeconds (how long a bash call blocks before
// its script becomes a job) defaults to 30 and grants nothing, so a project
// may set it; edit.save "clean" saves a document an edit changed only when it
// had no unsaved changes before.
package settings
