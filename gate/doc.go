// Package gate keeps the rules that decide whether an agent's step or
// document access runs: the path policy (G1), the shell effects of a step
// (S7.8, G2), the auto set, approval routing (G5) and the runners that must
// be gated (G4). Its decisions are pure functions; the filesystem is
// reached only through the FS interface (symlink resolution) and, for
// globbing, a ReadDir function. The settings files and their fsnotify
// watch live in gate/settings.
//
// Where each law lives:
//
//   - G1.1 resolve, MAX_LINKS (path_real_has_no_link): resolve.go.
//   - G1.2 classes (path_secret_wins, path_inside_is_safe,
//     path_ancestor_guarded): policy.go; G1.3/G1.4 the protected and secret
//     sets, built from the settings loaders' places: places.go.
//   - G1.5 access effects: access.go. G1.6 the documents gate and G1.7 the
//     writer's re-resolution (gate_write_auto_never_secret,
//     gate_secret_read_needs_yes, gate_yes_runs, gate_inside_write_runs,
//     secrets_need_yes): documents.go — DocumentsGate.Judge, Allow and
//     SameReal are the hook docs is handed through an interface of its own.
//   - S7.8 effects and the command table: effects.go, commands.go (the
//     table), rules.go (grep, rg, sort, uniq, xxd, find, less, curl, cd),
//     git.go, sed.go, options.go (getopt_long prefixes, short groups); the
//     step grammar and what lies outside it: grammar.go; steps, the
//     environment and cd: steps.go, expand.go, env.go; redirections:
//     redirect.go; the paths a step names and its working directory:
//     words.go; what the user is shown: shown.go.
//   - G2 (step_holds_every_part, secret_needs_a_secret_path,
//     secret_path_gives_secret, composed_needs_every_part): Part and
//     JoinParts in script.go; (auto_needs_every_effect,
//     auto_never_sensitive, default_auto_is_grantable): autoset.go;
//     (auto_runs_within, held_needs_a_yes) and S7.8 (gate_prefix,
//     gate_needs_yes, gate_deny_stops, gate_finish_runs_all): scriptgate.go.
//   - G4 (gate_covers_every_runner, ipython_gated_each_call,
//     cell_runs_only_within_or_approved, cell_within_runs_unasked,
//     cell_approved_runs, cell_no_yes_stops, cell_exec_asks): runner.go.
//   - G5 (child_answered_by_root, nearest_answer_wins,
//     unanswered_only_when_quiet, quiet_is_unanswered, gateway_never_waits,
//     gateway_refuses_protected, gateway_refuses_secret,
//     gateway_runs_the_rest, left_to_the_gateway, gateway_rules_a_subagent,
//     never_auto_is_routed, never_auto_asks_the_client,
//     outside_runs_only_by_the_gateway, guarded_refused_from_the_phone):
//     route.go (Next, Fate, Route: the model), asker.go (Asker, Chain.Ask:
//     the router, which follows the model; Decide: the auto set first).
//   - The refusal text of S7.8: answer.go.
//   - Confinement (issue 13, DESIGN §9): PlanSandbox in confine.go turns a
//     step's allowed effects and the session's places into the mounts of
//     a sandbox, last mount wins, in the order of the classes of G1.2
//     (the base, read-only unless write and outside; /dev, /proc; the
//     private temp dir; roots and shell.writableDirs writable with write;
//     protected entries read-only without protected; secret entries and
//     eukhe's state hidden without secret; /run hidden without net, and a
//     network of its own). Sandbox.BwrapArgs renders it for bubblewrap;
//     Sandbox.Landlock (confine_landlock.go) as Landlock allow rules.
//     Property tests: confine_test.go (no secret shows, through any
//     mount; nothing is writable but what the effects allow; the Landlock
//     rules grant no more than the mounts).
//
// Each law has a property test named after it (laws_*_test.go); the shell
// classifier has a table of command lines (corpus_test.go) and a fuzz
// target (fuzz_test.go, seeds in testdata/fuzz).
//
// Where the seed is silent, this package chose:
//
//   - Editor project config that can run code (.vscode, .idea, .nvim.lua,
//     .nvimrc, .exrc) is protected by name below a root, like .git and
//     .eukhe. Each root's own .git is also a tree rule, so the root is an
//     ancestor of protected entries and is itself Protected.
//   - A relative PATH entry protects that directory in each root.
//   - Every word a step names counts as a path, and so do the paths inside
//     it: an option's value (--file=P, -fP), a curl @P, a file:// URL. The
//     words of cd are not read as paths; the steps after it are judged in
//     every directory it may have moved to (and, since a cd can fail, in
//     the ones before). A write redirection to a directory that holds a
//     secret gives secret, like a read.
//   - A step that changes the shell (an assignment alone, export or unset
//     with an operand, alias, set, shopt, source, eval, read, …) makes
//     every later step of the script exec: after `unset PATH` or an alias,
//     `ls` may run anything. Values an earlier step set are used to expand
//     later words, so `X=~/.ssh/id; cat $X` has secret.
//   - eval, the -c operand of a shell (sh, bash, …, also behind env,
//     xargs, find -exec) and alias bodies are read as scripts, up to three
//     levels deep; every part of them joins the step.
//   - A step that expands to more than 4096 words, or a word the gate
//     cannot expand, is exec. A script that can move through more than 16
//     directories is judged as if its words could be anywhere: exec,
//     outside and protected.
//   - Globbing is done as the gate reads the script (ReadDir), even after
//     `set -f`: a pattern is judged by what it matches now.
//   - Outside the grammar the shown text is the script as the parser
//     printed it, each non-printing character replaced by its syntax.Quote
//     escape ($'\u202e').
//   - curl with no writing option is net only.
package gate
