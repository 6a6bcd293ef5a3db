// Package gate keeps the rules that decide whether an agent's step or
// document access runs: the path policy (G1), the shell effects of a step
// (S7.8, G2), the auto set, the answers and refusal text of a question
// and the runners that must be gated (G4). Its decisions are pure
// functions; the filesystem is reached only through the FS interface
// (symlink resolution) and, for globbing, a ReadDir function. The
// settings files and their fsnotify watch live in gate/settings; approval
// routing (G5: who is asked, how an answer and a grant are decided) in
// gate/route, which imports gate (gate never imports it).
//
// Where each law lives:
//
//   - G1.1 resolve, MAX_LINKS (path_real_has_no_link): resolve.go; but a
//     link under /proc is never followed (proc.go, below), so a path
//     through one keeps that link and the policy judges it Secret whole.
//   - G1.2 classes (path_secret_wins, path_inside_is_safe,
//     path_ancestor_guarded): policy.go; G1.3/G1.4 the protected and secret
//     sets, built from the settings loaders' places: places.go (the
//     homes a script can name, the state directory: gate/settings
//     paths.go and homes.go); the process entries every policy holds:
//     proc.go. Each OS's own stores and startup places (macOS's Library,
//     Windows' AppData, APPDATA/LOCALAPPDATA): places_os.go, chosen in
//     places_darwin.go, places_windows.go, places_other.go. A volume that
//     folds case (CaseFolder: fold_linux.go, fold_darwin.go,
//     fold_windows.go) has its names compared folded
//     (protected_names_hold_in_every_case_where_the_volume_folds:
//     fold.go); on a Windows file system (WindowsNamer) Resolve judges
//     the name Windows opens, WindowsCanonical (wincanon.go, winpath.go:
//     every_windows_spelling_of_a_protected_name_is_protected); on a
//     FinalNamer (the Windows OS) a path is judged by its final path,
//     its spelling's Secret or Protected class kept
//     (a_secret_or_protected_place_is_itself_by_any_name,
//     identity_never_lowers_a_place: finalname.go, identity_windows.go),
//     and under Wine the Unix home is a home (hosthomes_windows.go). A
//     path resolved through a symlink that lies in a secret or protected
//     place keeps that place's class, whatever the link's target
//     (RealPath.Via: a_store_entry_is_secret_by_every_route,
//     via_law_test.go), and its target is an entry of that place by its
//     own path too: learned on the way (learnSecret, learnProtected), and
//     for the links in each Tree rule's place and its hooks directory
//     (.git/hooks linked to ../githooks, a hook to scripts/) found when
//     the policy is made and whenever the git places are given again
//     (learnLinksIn; settings.GitWatch stamps the hooks directories). A
//     target that is or holds a workspace root is never an entry whole:
//     only what the link reaches beside the workspace, and the git hook
//     names in it (ReachBelow, reachHooks:
//     TestLaw_a_protected_links_target_is_protected; linktargets.go).
//   - G1.5 access effects: access.go. G1.6 the documents gate and G1.7 the
//     writer's re-resolution (gate_write_auto_never_secret,
//     gate_secret_read_needs_yes, gate_yes_runs, gate_inside_write_runs,
//     secrets_need_yes): documents.go — DocumentsGate.Judge, Allow and
//     SameReal are the hook docs is handed through an interface of its own.
//   - S7.8 effects and the command table: effects.go, commands.go (the
//     table), rules.go (grep, rg, sort, uniq, xxd, find, less, curl, cd, cp,
//     chmod/chown/chgrp, diff, ln -s, and tar, rsync, zip, scp following
//     links), unseen.go (wc, the checksum tools, jq, wget),
//     git.go, sed.go, options.go (getopt_long prefixes, short groups); the
//     step grammar and what lies outside it: grammar.go; steps, the
//     environment and cd: steps.go (call.go: one simple command; commandOf
//     decides its command from its words alone), expand.go, env.go; redirections:
//     redirect.go; the paths a step names and its working directory:
//     words.go; what the user is shown: shown.go. The words a
//     step reads that are not its operands: option values a step reads but the gate cannot see into
//     (--files0-from, sha256sum -c, file -f, jq -L/-f/import, less
//     --lesskey-*/-t, curl -K, wget -i/-e/--config): unseen.go and the
//     command's rule; recursion that follows links (grep -R, rg -L, find
//     -L, ls -LR, du -L, cp -rL, chmod/chown/chgrp -RL, diff -r, tar -h,
//     rsync -L): walk.go, each command's rule setting facts.follows; a
//     recursive write (rm -r, chmod/chown/chgrp -R, find -delete) is
//     judged by what its trees hold, the places the policy names below
//     them and a walk for what is protected or secret by name
//     (a_recursive_write_has_each_entrys_effects: tree.go, each
//     command's rule setting facts.recursive: "rm -rf /" has every class
//     "rm -rf /*" has); the option audit of every command: audit_test.go. A backup suffix
//     (cp, mv, ln -S SUFFIX) writes DEST+SUFFIX, judged as a written word
//     (backup.go), and so does sed -i SUFFIX (sedBackups, with "*" as
//     the file's base name); the red team's table: attacks_redteam_test.go.
//     How cp, mv, ln, rm and unlink act on each word (roles.go,
//     a_copy_reads_its_sources_and_writes_its_destination): cp reads its
//     sources and a recursive copy's trees are judged by the names they
//     carry where they land; rm, unlink and mv's sources act on a link
//     itself (Policy.ResolveLink), its target counting only when secret
//     or protected; a destination directory the command goes into is
//     judged by the entries it makes there (into.go).
//   - G2 (step_holds_every_part, secret_needs_a_secret_path,
//     secret_path_gives_secret, composed_needs_every_part): Part and
//     JoinParts in script.go; (auto_needs_every_effect,
//     auto_never_sensitive, default_auto_is_grantable): autoset.go;
//     (auto_runs_within, held_needs_a_yes) and S7.8 (gate_prefix,
//     gate_needs_yes, gate_deny_stops, gate_finish_runs_all): AskPipeline
//     in pipeline.go, called by the shell's runner before each pipeline
//     runs (agent/shell run.go); their tests run that runner on real
//     steps (agent/shell laws_test.go).
//   - PATH entries (path_entry_judged): pathdirs.go. Each entry of a
//     step's PATH is judged before the step runs and again at each
//     program it starts: relative, empty and missing entries are dropped
//     (from the lookup and from what a program gets), and a command
//     found in an entry inside the workspace, one made during the
//     session (PathSeen), or through a link in the workspace, is exec.
//     Policy.LookCommand is the one lookup: the classifier (steps.go)
//     and the shell's exec handler both call it. On Windows it tries
//     PATHEXT's extensions as the interpreter does, and a file it finds
//     that is not an .exe or .com (ssh.bat for `ssh`) is a script cmd.exe
//     runs: exec, whatever its name (lookcmd_windows.go). Between the judgment
//     and the run an attacker controls the file system: a stage of the
//     same pipeline can make the directory or plant the program after
//     the call handler judged the name, so the exec handler looks up
//     and judges again right before it starts the program (agent/shell
//     exec.go, env.go; tested in agent/shell path_test.go and
//     cmd/eukhe attack_env_test.go). Law test: pathdirs_test.go.
//   - Credentials in the environment (S7.7; credential_shapes_removed,
//     plain_values_kept): credential.go — CredentialName (parts, words
//     JWT and SK, a word starting WEBHOOK, AUTH_CONFIG, endings) and
//     CredentialValue (the shapes of well-known tokens, matched where a
//     token can start, and marks: webhook URLs, Docker's "auths", a URL
//     with a user). The removal and its law tests: agent/shell env.go,
//     env_laws_test.go.
//   - G4 (gate_covers_every_runner, ipython_gated_each_call,
//     cell_runs_only_within_or_approved, cell_within_runs_unasked,
//     cell_approved_runs, cell_no_yes_stops, cell_exec_asks): runner.go.
//   - G5 (child_answered_by_root, nearest_answer_wins,
//     unanswered_only_when_quiet, quiet_is_unanswered, gateway_never_waits,
//     gateway_refuses_protected, gateway_refuses_secret,
//     gateway_runs_the_rest, left_to_the_gateway, gateway_rules_a_subagent,
//     never_auto_is_routed, never_auto_asks_the_client,
//     outside_runs_only_by_the_gateway, guarded_refused_from_the_phone):
//     gate/route (route.Next, route.GatewayRule, route.Chain.Ask,
//     route.Decide; its doc.go maps each law to its file). What gate keeps
//     of it: the question a client is asked (Question, question.go) and
//     Router, the route the documents gate asks through (route.Chain is
//     one); the auto set (default_auto_is_grantable: autoset.go, tested in
//     laws_auto_test.go); the answers (Answer, answer.go).
//   - "Allow for this session" (S7.8 item 8, ours): gate/route grant.go,
//     route.Grants, the one store every client's answer goes to
//     (agent.Grants). A grant is keyed by the real paths the step named
//     when judged (Step.Reals, noted by classifying.resolve in steps.go;
//     reals_test.go).
//   - The refusal text of S7.8: answer.go (Refusal, the one renderer;
//     route.Chain.RefusalText gives it the chain's hint and the client it
//     could not ask), and a cell's call's refusal: cell.go.
//   - Confinement (DESIGN §9): the sandbox plan and its laws: gate/confine.
//   - eukhe's own trust anchors, beyond the seed: the user settings files
//     (Places.GateFiles: the one in force and ~/.config/eukhe's) hold the
//     execution gates, so each is secret, a write to a directory above
//     one is secret (Policy.aboveGateFile), and a sandbox pins those
//     directories (Policy.GateDirs, confine.go; gate/confine). eukhe's
//     socket directories (Places.RunDirs) are secret: an entry there is an editor a session
//     attaches to. So is a name of an entry's form ("<pid>-<8 hex>.json",
//     DiscoveryEntryName) in any directory named as a socket directory
//     (eukhe, eukhe-UID, eukhe/run): another eukhe's, started with another
//     XDG_RUNTIME_DIR; its discovery reads no other name. Where no sandbox confines a program, a step that runs
//     one has write, outside, protected and net beside exec (Unconfined,
//     confine.go; TestLaw_unconfined_exec_has_every_reach).
//     Trust boundaries: a write to another name of a protected file — a hard link already in the tree — is
//     judged by the file: Policy.ClassWrite (links.go) makes a regular file
//     with nlink > 1 whose device and inode are those of a file below a
//     protected entry Protected, and one whose are those of a file below
//     a secret entry Secret (a dotfiles directory's hard link to
//     ~/.ssh/config: the tenth red team's; eukhe's state, whose journal
//     names workspace files, is not searched), for the document tools'
//     writes, redirections, the words of writing commands and walked
//     links; past MaxLinkWalk entries it says Protected (it asks). A read
//     of such a name is judged by its path (open: each read of a file
//     with other names would walk the secret entries). ProtectedLinks gives
//     the sandbox those other names below the roots, to bind read-only
//     (agent/shell hands it the protected entries in the roots, and keeps
//     its answer in a LinkCache per session); it
//     searches the roots only when a protected file has a name it did not
//     see among the protected entries, only on their devices, and stops
//     when every name is found or at MaxLinkWalk (then what it found is
//     bound, and a name past the bound stays writable). The places outside
//     the roots (the home's configuration, other homes) are walked only
//     when a look at the roots finds a file with more names than the roots
//     hold, and again when such a file changed after a kept walk began
//     (links_strangers.go); the OS walks relative to each directory's
//     descriptor (linkwalk_unix.go), and the mount table is read again
//     when it changes (mounts_linux.go). A directory shut to the user
//     (DirShut, shut_unix.go: the user's own, that it cannot list or
//     search; the one rule agent/shell's protected tree keeps too) makes
//     a walk that met it not complete (blind:
//     TestLaw_a_shut_folder_hides_nothing).
//     Between the judgment and the act, an attacker controls the file
//     system: a hard link made after the gate judged a path is not seen
//     (the document tools' writer re-resolves the path, not the inode);
//     one made after the plan, gate/confine.
//
// Each law has a property test named after it (laws_*_test.go, and for
// the gate over a script agent/shell laws_test.go), run on the code that
// decides, not on a model of it; the shell
// classifier has a table of command lines (corpus_test.go) and fuzz
// targets (fuzz_test.go, seeds in testdata/fuzz; the laws' world has a
// /proc whose links lead into the project, fakefs_test.go). Issue 12's rules have a
// table of attacks, each rule with three and more ways around it and the
// benign neighbours that must still run (attacks_test.go), the option
// audit (audit_test.go), and property tests where a rule is a law
// (properties_test.go).
//
// Where the seed is silent, this package chose:
//
//   - Editor project config that can run code (.vscode, .idea, .nvim.lua,
//     .nvimrc, .exrc) is protected by name below a root, like .git and
//     .eukhe. Each root's own .git is also a tree rule, so the root is an
//     ancestor of protected entries and is itself Protected.
//   - So are, beyond the first list (red team), the project config of
//     other editors and coding agents that names a program they run or
//     grants an agent more: .helix, .zed, .dir-locals.el, .lazy.lua,
//     .claude, .cursor, .mcp.json, .gemini, and a dev container's
//     .devcontainer and .devcontainer.json (its initializeCommand runs on
//     the host) (NamedProtected), and (third red team) .codex, .roo,
//     .kiro, .amazonq, .continue, opencode.json, .opencode, .windsurf,
//     .aider.conf.yml, .vimrc and .gvimrc.
//   - Where git finds what it runs for a root outside its .git is
//     protected as a tree (third red team; Places.GitPlaces, gathered by
//     settings.GitPlaces, parsed by ParseGitConfigRefs): a linked
//     worktree's or separate git directory and its common directory, the
//     user's ~/.gitconfig and $XDG_CONFIG_HOME/git, every file the
//     configs include (any includeIf condition), every core.hooksPath.
//     They are read when the session's places are gathered, and again
//     before a tool call when a file they were read from changed
//     (settings.GitWatch, Policy.SetMoreRules: the places of the start
//     stay protected): a core.hooksPath or include the user adds during
//     the session protects from the next call on. The repository's config
//     itself is protected, so the agent cannot move them unasked. A
//     repository below a root the start did not find (made during the
//     session, or past the walk's bound) is found before a write below it
//     is judged (Policy.SetNear, settings.GitWatch.Near; fifth red team).
//     A .git or HEAD in each directory above a root is protected too: git
//     looks for the repository there.
//   - The home's configuration is every dot-entry of the home and what is
//     below it (DotRule, DotCovers), but the caches of HomeWritable (fifth
//     red team): no list of startup files was ever whole. The sandbox makes
//     the entries read-only and renames one a process makes out of use.
//   - A file named HEAD is protected by name below a root too (red
//     team): with objects/ and refs/ beside it, its directory is a bare
//     repository to git's discovery, whose config git obeys there. A
//     revision word of git named after HEAD (HEAD~2, ORIG_HEAD) is not a
//     path (git.go).
//   - A relative PATH entry protects that directory in each root
//     (places.go), though it finds no command any more (pathdirs.go):
//     with "." or an empty entry on PATH the root itself is protected;
//     and every directory whose path ends with it (EndRule; "../bin" is
//     every bin). "~/bin" is the home's bin, as bash reads it. With "."
//     or an empty entry, or a user's shell that did not say its PATH in
//     time (Places.PathUnknown: its startup files' scan is a guess the
//     agent can force by slowing the shell), every directory is one: a
//     file named like a command of the absolute PATH directories is
//     protected wherever it is (isCommandName; the commands are a
//     CommandList, commandlist.go, the one list agent/shell's PATH shadow
//     keeps too).
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
//   - /proc: the gate runs in eukhe's
//     process, and a /proc link (/proc/self, /proc/<pid>/cwd, fd/N, root)
//     means another file in each process that opens it, so judging it as
//     the process that opens it would need to know that process's
//     directory and descriptors as it runs. We chose the simpler rule that
//     cannot be wrong: Resolve never follows a link under /proc, and
//     /proc and /dev/fd are secret entries of every policy (NewPolicy),
//     so every path under them is Secret — any /proc/*/environ included,
//     for the shell and the document tools alike — and / and /dev are
//     Protected and hold a secret. Two exceptions, by exact path: a
//     short list of harmless read-only files (/proc/cpuinfo, meminfo,
//     loadavg, version, uptime, stat, …) is Outside, and a standard
//     stream's alias (/dev/stdin, /dev/stdout, /dev/stderr, /dev/fd/0-2,
//     /proc/self/fd/0-2, /proc/thread-self/fd/0-2) adds nothing: to the
//     process that opens it, it is its own stream, which the gate judged
//     as the step's pipe or redirection (StreamFD). In process, the shell
//     opens such an alias, also when a link resolves to one, as the
//     script's stream, never the server's. A process substitution's word
//     (<(…), >(…)) stands as such an alias too: it is a pipe the shell
//     makes for the step, in a directory of the run's own (expand.go).
//   - A lookup on PATH reads each entry for the name, in eukhe's process
//     (the shell's own lookup, and type, command and hash, which print
//     what it found): an entry that is, or is in, a secret place makes
//     the step secret (call.go: secretPathParts).
//   - A value the gate cannot see into (unseen.go) — a list of paths, a
//     config or program read from a file — makes its step exec and
//     secret, always: what the file says at run time can name any path,
//     and every machine holds a secret (/proc/*/environ at least). The
//     part counts as naming the paths its file lists (G2). We did not
//     read the file at gate time to call it secret only when it names
//     one now: a stage of the same pipeline can write it after the gate
//     (and the runtime check) read it, since stages start together.
//   - A step that follows links under a tree: the gate walks the trees
//     it names (or its working directory, when it reads it) as the
//     command will, up to 10,000 entries (maxWalk), judging each link's
//     real path as a word of the step; a root that is or holds a secret
//     already is not walked. Past the bound, or with no ReadDir: exec and
//     secret. The shell's runtime check walks again as the step runs, so
//     a link an earlier step made is seen.
//   - An option word (a word before "--" that starts with "-") of a
//     command the table knows is not itself a path, only the values in
//     it are: tee -a X names X. In a group of short options each tail
//     after a letter is a value (-uo/tmp/x gives o/tmp/x and /tmp/x).
//     With POSIXLY_CORRECT set, every word counts again. jq's filter is
//     not a path. A file: URL is a path in any letter case, with or
//     without a host, percent-decoded; curl's NAME@P and <P are paths; a
//     derived value's leading ~ is judged both as the home and as
//     written (the program gets it as written).
//   - git init (any directory) and clone make a .git whose config and
//     hooks git runs later: write and protected always; a template
//     (--template, -c init.templateDir) makes it exec. sort -T writes
//     (its temporary files); xxd's "-" output is standard output.
//   - ~user expands as the interpreter does (its environment's
//     "HOME user", then the user database), so the credential stores of
//     every home a script can name are secrets: $HOME's, the current
//     user's and each login user's in /etc/passwd (Places.OtherHomes). ~+
//     and ~- the interpreter keeps as written: relative paths, judged so.
//   - Beyond the seed's stores (red team): git's XDG credential store,
//     podman's auth.json, .pgpass, .vault-token and the like are secret
//     entries (HomeSecrets), and a store a variable moves is secret where
//     it moved: XDG_CONFIG_HOME, XDG_DATA_HOME and CARGO_HOME move the
//     stores under .config, .local/share and .cargo; GH_CONFIG_DIR,
//     DOCKER_CONFIG, GNUPGHOME, KUBECONFIG (a list), … name one
//     (places.go). A relative value, or "/", names none.
//   - A root's .git/config that holds a credential when the places are
//     gathered (a password in a URL, a CI checkout's extraheader:
//     HoldsCredential, credential.go) is a secret entry
//     (Places.CredentialFiles, read by gate/settings): cat .git/config
//     showed the token, .git being only protected. A step reading its
//     working directory asks only when what it reads holds a secret
//     (Policy.HoldsSecretIn): ls without -R reads the entries, git's
//     work-tree readers all but .git. A token added after the session
//     started is not seen until the places are gathered again.
//   - eukhe's state directory ($XDG_STATE_HOME/eukhe: session logs,
//     report_issue rows) is a secret entry.
//   - Words expand as mvdan's interpreter expands them (environ.Get and
//     asTheInterpreter): $$ and $PPID are this process's, $# is 0, $0 is
//     gosh, IFS and OPTIND are reset, HOME, UID, EUID and GID set when
//     unset. A parameter only the run knows ($?, $!, $-, $RANDOM,
//     $SRANDOM) expands to a marker the user is shown unquoted as $NAME;
//     a word whose marker an expansion cut apart is not expanded, exec,
//     and shown as written. The shown step is never a form that means
//     something else ('$$' for $$).
package gate
