// Package shell is the engine of the bash tool (S7.7, S7.8): it
// runs a script in process with mvdan.cc/sh/v3's interpreter, behind the
// approval gate. The gate enters the shell as handlers — call, exec and
// open middleware — not as a fork of the interpreter.
//
// The lead wires it so: one Runner per session (Root, Env, Session, Gate
// with the session's policy, auto set and chain, Budget from the user
// setting, Jobs with OnSettle sending [job-settled job:ID status:S]);
// bash {script, timeout, full_output} is Run, bash {job: ID} is Wait,
// bash {kill: ID} is Kill. Each gives a Result whose Text is what the
// model gets and whose Failed marks an error.
//
// Where each law is kept:
//
//   - S7.7 in process, a fresh interpreter per call, working directory the
//     root: run.execute (runner.go checks the root). No system shell runs
//     a script: a file without #! is not run as one (exec.go).
//   - S7.8 gate_prefix, gate_needs_yes, gate_deny_stops,
//     gate_finish_runs_all, and G2 auto_runs_within, held_needs_a_yes:
//     run.go. The gate classifies the whole script once, before anything
//     runs (its rules across steps — a variable, a cd, a step that
//     changes the shell — need the whole script); run.list walks && and
//     || itself, and run.pipeline asks about every step of a pipeline
//     with gate.AskPipeline right before that pipeline runs, since its
//     stages start together. A refusal ends the script there; a pipeline
//     that && or || skips is never asked about. Property tests (the
//     only tests of these six laws): laws_test.go, TestLaw_<law>, over
//     generated scripts of real steps (reads, writes, writes outside,
//     secret reads, pipelines), generated auto sets and random answers,
//     checked against what the steps left behind.
//   - S7.8 the refusal text and its next step: gate.RefusalText, in
//     run.pipeline; the endings (finished, exited, refused at step N with
//     denied, unanswered, gateway_refused): result.go.
//   - S7.8 outside the grammar: the gate's one step with every effect,
//     asked once, then run whole (run.execute).
//   - G4 every step is gated: nothing runs but through run.pipeline, and
//     the call and open handlers refuse what no one approved (below).
//   - Runtime re-check (beyond the seed): check.go. The call handler
//     judges each command as it runs — its argv after expansion, in the
//     shell's directory, with its variables — with the gate's classifier,
//     its words as data (gate.Shell.ClassifyArgv: never parsed or globbed
//     again). The script is parsed once (gate.Parse), the gate classifies
//     that tree, and a running command is found as the step the gate said
//     sits at its position (index.go: Step.At, Script.Pipelines), never by
//     text. The open handler judges each file the shell opens by the path
//     policy and opens the real path it judged, refusing any link on the
//     way (openReal: openat2 RESOLVE_NO_SYMLINKS on Linux), so a directory
//     a stage swaps for a link after the judgement is not followed; a
//     redirection is the step's whose part was judged to open that real
//     path for that access (Part.Redirected), and one no part names may
//     do what the auto set holds and the pipeline's approvals but secret
//     and protected. The read-dir handler judges a glob's listing the same
//     way (run.readDir): one no one approved matches nothing. The stat
//     and access handlers (the file tests, cd's check) answer a name
//     whose read no one approved as missing, a directory too but for
//     cd's own check (cd, pushd and popd run through the exec
//     middleware, which marks their context: cdCheck), and stat the real
//     path judged with no link on the way (statReal: O_PATH openat2
//     RESOLVE_NO_SYMLINKS), so a link flipped after the judgement is not
//     followed; -L and -h are judged at the entry itself. The
//     interpreter's own shortcut past the open handler (its FIFOs, by
//     name, in TMPDIR) names no reachable path: while it resets, TMPDIR
//     is below /dev/null, or a directory of the run's own, read-only in
//     every sandbox of the run whatever it was approved for
//     (confine.Places.Sealed), for a script with a process substitution
//     (interp_env.go). Secret and protected, approved, cover a command
//     only at the real paths its question named (coveredAt: its real
//     paths as it runs all among Step.Reals), as a grant does; and a
//     program's sandbox keeps every other secret entry hidden and every
//     other protected entry read-only (confine.Narrow, sandbox.go); under
//     bubblewrap the directories the narrowing opened are shown from
//     private copies, whose named files are written back after the
//     process and whose other new names are not kept (confine.GivenWay,
//     shadow_linux.go). A step may
//     run with what the auto set holds, plus, when the user approved it,
//     the effects it was asked about; anything
//     else is refused at that step (reason "changed"); a command refused
//     for secret is shown by its name only (its words as they ran may be
//     a secret place's names).
//   - S7.7 external processes: exec.go. The gate's PATH lookup (above); a
//     session of its own (Setsid: a new process group, and no terminal to
//     read or stop on); TERM to every group the script started, KILL
//     after the grace, on kill, timeout or cancel; 128+N for a signal, so
//     a writer to a closed pipe ends 141. When the script ends, whatever
//     the ending, what it left running (a background statement, with or
//     without disown; a process substitution's program) is ended the same
//     way, each live program's whole tree with the KILL (killKernel), and
//     the result waits for each program's look for protected entries
//     (run.endProcesses); no program starts after the end. The output a
//     background program wrote before the end is kept, and a line says
//     how many were stopped.
//   - Confinement (DESIGN §9): every external process runs in
//     the sandbox of what its step may do — the auto set, plus the effects
//     the user approved for that step (run.allowed, set in run.pipeline
//     from the answer; exec.go reads it per process). sandbox.go gathers
//     the places as they are when the process starts (roots, secret
//     entries and eukhe's state, protected entries, PATH dirs, the home,
//     shell.writableDirs, /run) and hands them to confine.Plan, then
//     starts the program under bwrap, or re-runs this program with
//     ConfineArg to apply Landlock (confine_landlock_linux.go; cmd/eukhe and the
//     tests' TestMain call ConfineMain), or unconfined. confine.go detects
//     the mechanism once (detect_linux.go; EUKHE_CONFINEMENT forces one) and Describe says
//     which is in force for eukhe check and the editors. shell.confinement
//     "require" refuses to start a program unconfined. sandbox_note.go
//     watches a pipeline's output for the signs of a refusal (Read-only
//     file system, Permission denied under Landlock, network errors, a
//     hidden path) and adds one line naming the effect that would allow
//     it. Tests: confine_test.go (probes under each auto set, each
//     mechanism), confine_corpus_test.go (the classifier-blind corpus),
//     confine_work_test.go (real work), confine_bench_test.go.
//   - S7.7 environment: env.go. The server's, plus the session values,
//     minus every credential (gate.CredentialName: by name, its parts
//     and, beyond the seed, its endings _KEY, _PAT, _PWD, …, the words
//     JWT and SK, WEBHOOK…, AUTH_CONFIG; gate.CredentialValue: by value,
//     a URL with a user part, a well-known token's shape — Stripe,
//     Slack, JWT, GitLab, GitHub, npm, PyPI, Docker auth JSON, AWS,
//     Google, OpenAI/Anthropic — or a webhook URL). Laws
//     credential_shapes_removed, plain_values_kept: env_laws_test.go.
//     PATH (gate/pathdirs.go): judged when a call starts (startPath:
//     relative, empty and missing entries dropped) and again when each
//     program starts (lookProgram, in exec.go): the program is found with
//     gate.Policy.LookCommand, the lookup the classifier judged, over
//     PATH as it is then; one found in the workspace (or in a directory
//     made during the session: Runner.pathSeen) without exec allowed is
//     refused, since a stage of the same pipeline may have planted it
//     after the call handler judged the name; a program whose step may
//     not exec gets a PATH without those entries, and one whose PATH
//     would be empty gets none (empty means the working directory to
//     execvp). Tests: path_test.go. git read steps
//     (gate.GitSafeArgv) run with the gate's UntrustedRepoArgs and
//     safe.bareRepository=explicit and no signature program, set through
//     GIT_CONFIG_COUNT/KEY/VALUE, with GIT_OPTIONAL_LOCKS=0.
//   - S7.7 output_bounded: output.go (head and tail kept, a marker counts
//     the cut bytes; full_output keeps all).
//   - S7.8 a user who narrows the auto set is asked about the steps it no
//     longer holds: each pipeline is asked under the settings of the
//     moment it comes, and one that runs when the settings narrow (an
//     effect it was let run with, and the user did not approve, left the
//     auto set; shell.confinement or shell.writableDirs changed) is
//     stopped, the script with it, and says so (narrow.go;
//     TestLaw_auto_narrowing_stops_what_runs). A widening stops nothing.
//   - S7.7 the blocking budget and the job table: runner.go (Run, Wait,
//     Kill), jobs.go.
//   - Progress (progress.go): Request.Watch is handed how the script goes
//     (Now: the pipeline the gate asks about or that runs, the lines its
//     commands wrote so far, the job it became) and stopped before Run
//     returns, also when the script goes on as a job. This package keeps
//     no interval and sends nothing: the agent reports (agent/progress.go).
//
// Where the issue is silent, this package chose:
//
//   - The text: each pipeline as "$ step | step", its output (stdout and
//     stderr together, as 2>&1 gives them), then "[exit a | b]", one
//     status per step ("?" when the interpreter does not tell); the last
//     line says how the script ended.
//   - A runtime refusal stops the rest of the pipeline (its process groups
//     get TERM), but stages that started with it may have run.
//   - Timeout stops the script, as kill does, and ends timed_out; it also
//     holds for a job. Failed is true for refused, invalid, timed_out and
//     cancelled; a step that exits non-zero is the script's business.
//   - Job ids are j1, j2, … per table; settled jobs stay in it. OnSettle
//     runs on the script's goroutine, and may run before the detached
//     call's result is sent.
//   - /dev/stdin, /dev/stdout, /dev/stderr and /dev/fd/0-2 are the
//     script's own streams, also when a link resolves to one; the
//     server's other descriptors (/dev/fd/N, /proc/self/fd/N) are
//     refused; /dev/tty is no terminal. Any other /proc path is Secret
//     (gate/proc.go): a redirection from /proc/self/environ or through
//     /proc/self/cwd runs only when the user approved secret (check.go).
//   - The runtime judge walks a step that follows links under a tree
//     (grep -R, rg -L, …) again as it runs, so a link an earlier step
//     made or copied in is judged (check.go).
//   - cd takes bash's -L, -P, -e, -@ and "--" (the interpreter's cd takes
//     no option): -P moves to the physical directory, resolved by the
//     gate's Resolve (cd.go).
//   - The sandbox: the session's private temporary directory is made on
//     the first confined process and removed by Runner.Close (Session.Close
//     calls it); TMPDIR names it, and it is /tmp inside a bubblewrap
//     sandbox unless the step may write outside (then the host's /tmp
//     stays, since the user allowed writing there). Under Landlock it
//     stays at its own path. A secret entry that does not exist when the
//     process starts is not covered: with write and outside allowed a
//     step can make one (it could as well write ~/.bashrc). eukhe's state
//     counts as secret: $XDG_RUNTIME_DIR (its sockets, the session bus),
//     /tmp/eukhe-UID, $XDG_STATE_HOME/eukhe, and the ssh and gpg agents'
//     sockets. Without net, /run and /var/run (local sockets: docker,
//     the system bus) are hidden too. A protected entry a process makes
//     without protected (git init's .git, a .vscode) in a root, a
//     directory directly in a root, or the working directory and those
//     above it up to its root, is renamed NAME.eukhe-refused-ID when the
//     process ends (a mount cannot cover what does not exist yet).
//     A confined process has no capability, even run by root (bwrap
//     --cap-drop ALL; the Landlock re-run drops them before its exec):
//     with CAP_SYS_ADMIN it could unmount what hides a secret.
//     Landlock has no right for a change of mode, owner, times or
//     extended attributes: the step's seccomp filter sends chmod, chown,
//     utimes, setxattr, removexattr and their *at and f* forms to the
//     supervisor (seccomp user notification), which resolves the path as
//     the caller would, performs the call itself (never letting the
//     caller's own call go on) only on an object inside what the plan
//     lets the step write, and refuses the rest with EPERM; a nested
//     eukhe, whose kernel gives it no listener, refuses them all
//     (confine_notify_linux.go). Landlock also cannot let
//     a file be made directly in a directory that holds a read-only or
//     hidden entry (a root with .git, when protected is not allowed, or a
//     hard link to a protected file); its
//     network rule (ABI 4) denies all TCP, loopback included, and nothing
//     else: without net the seccomp filter (confine_seccomp_linux.go) refuses every
//     socket but Unix and netlink — a UDP datagram, a TCP fast-open sendto
//     (it connects without connect(2)), SCTP, MPTCP, ICMP — since seccomp
//     cannot read the address a sendto points to, and no inet socket
//     could reach anything under Landlock without net anyway (loopback
//     TCP works only under bubblewrap, in the step's own namespace); it
//     cannot hide a Unix socket from a
//     connect by path, so unless secret and net are both allowed a seccomp
//     filter refuses to make any Unix socket (socketpair still works;
//     io_uring and system calls of another ABI are refused by every
//     Landlock step's filter: confine_seccomp_linux.go) — else a step could reach eukhe's own approvals
//     socket, the ssh-agent or the docker daemon, whose names
//     /proc/self/net/unix shows; a child of
//     the command cannot read its own /proc/PID (only the command's own
//     entry is granted, since another process's would show its environ).
//     Bubblewrap cannot hide every Unix socket either (a container
//     runtime's docker.sock in the home, the third red team's): unless
//     net and secret are both allowed, bubblewrap's --seccomp loads the
//     same filter, so a step makes no Unix socket, by path or abstract
//     (an X server's, a session bus's); Landlock also applies its
//     abstract-socket and signal scopes to every step. With net and
//     secret, nothing stands between a step and them.
//     /sys and /proc/sys are read-only under both mechanisms (gate/confine
//     plan.go), and other names of protected files below the roots
//     (hard links) are bound read-only like the files (places in
//     sandbox.go, gate.ProtectedLinks). What an attacker controls between
//     the plan and the step: the plan is made from the file system as it
//     is when the process starts; a hard link to a protected file made
//     after that (by a concurrent unconfined program) is not bound for
//     this process — a confined one cannot make it (EXDEV across
//     bubblewrap's mounts and Landlock's refer right) — and the next
//     process's plan finds it. A name past gate.MaxLinkWalk entries of a
//     root is not found.
//   - Protected names at any depth (protected_tree.go): a session maps
//     its roots' directories (identity, change time, subdirectories,
//     protected entries); before a process allowed write but not
//     protected, every protected entry found at any depth is read-only;
//     after it, only the directories whose change time moved are listed
//     again, and each protected entry that was not there is renamed to a
//     name of its own (NAME.eukhe-refused-ID-N, never replacing one, its
//     directory opened with no link on the way), the reply naming each.
//     What the program controls between the look before and the rename
//     after is written there and tested. No process of a step outlives it
//     (confine_supervise_linux.go): bubblewrap's pid namespace ends with the
//     program, and under Landlock `eukhe __confine` is the subreaper of
//     the program and kills and reaps what it left before it exits.
//     While the process runs, the session watches the map's directories
//     (protected_live.go, fsnotify): a protected name made or renamed into
//     one, or into a directory made since, is renamed out of use at once,
//     so the user's own git (a prompt, the editor's) does not obey it
//     meanwhile; what the program controls is the moment between its
//     making the name and the watch's event. The map is bounded (50,000
//     directories); what its first look left out is walked whole at every
//     refresh (protected_beyond.go), so a name made past the bound is
//     found too, after the process, and a directory shut to the user
//     there (gate.DirShut, the rule the gate's search for other names
//     keeps) is what a shut one of the map is (treeDir.shut). A protected place that did not exist
//     before the process (a PATH directory of the workspace, an included
//     git config) and exists after it is renamed out of use the same way.
//     So are (fifth red team): a dot-entry a process makes in the home
//     (home_dots.go: the home's configuration, gate.DotRule); a program
//     it makes in a relative PATH directory named like a command of PATH
//     (protected_shadow.go); a link it makes that leads to a repository
//     outside the roots (at the target, above it, or up to three levels
//     below), looked at again at each refresh while it leads out of the
//     roots or nowhere (protected_tree.go). A name renamed out of use
//     gets a random tail: a step cannot fill the names beforehand.
//   - The seventh red team's, each kept at its class:
//     a directory the user names in shell.writableDirs keeps the places of
//     gate.HomeNeverWritable in it covered (home_dots.go look and newIn:
//     read-only, one a process makes renamed), and a writable directory
//     in a home has the home looked at without outside. A cache
//     directory that is a link (~/.cache -> /scratch/me/cache) is looked
//     at where it leads: its code places covered at their real paths, its
//     caches writable (it was read-only whole), and the link itself looked
//     at again after the process (the words are the gate's). Every link on
//     the way from a protected place as written to its real entry (a PATH
//     directory through the Nix profile's links in ~/.local/state:
//     way_links.go linksOnTheWay) is looked at again after the process
//     and renamed out of use when it is another entry, and is read-only
//     under Landlock (its directory split into its other entries);
//     bubblewrap cannot mount over a link (a bind lands on its target), so
//     there what the program controls is the process's whole run: it may
//     swap the link, and the look after renames the swapped one before
//     the user's shell uses it. repositoryBelow follows the links below a
//     linked directory as the user's git does (to, into, and — kept and
//     looked at again — to where a repository is made later), links
//     counted in its 5,000 budget, past which it says yes. The shadow
//     rule lists the PATH's commands again when a PATH directory changed
//     (a stat of each before every process, BenchmarkSetShadowUnchanged),
//     so a command installed during the session is one; entries already
//     in a relative PATH directory that shadow it are present, not made.
//     A link by which the user's shell reaches a directory holding an
//     entry named like a command through a relative PATH entry (sub/bin
//     -> tools; node_modules -> lib with lib/.bin; below a link out of
//     the roots, any directory reached at such a path) is a shadow made;
//     a link named like an entry is kept and looked at again at each
//     refresh (bounded with the links out of the roots) for a command
//     made in its target later. What a program controls between the look
//     and the rename: as for every entry made, the step's whole run.
//   - Systems: Linux has the mechanisms and the process groups above.
//     macOS, FreeBSD and Windows have no mechanism yet (detect_darwin.go,
//     detect_freebsd.go, detect_windows.go give none with why; darwin's
//     is the seam for Seatbelt), so "require" refuses every program
//     there. macOS and FreeBSD keep a session per process (exec_unix.go);
//     on Windows each process is put in a Job object killed whole
//     (exec_windows.go), commands are found with PATHEXT (the gate's
//     lookup: gate/lookcmd_windows.go; a .bat or .cmd found for a name
//     is exec) and environment names compare ignoring case
//     (lookprog_windows.go, envname.go). The
//     protected tree's identities and change times are per system
//     (filestat_unix.go, filestat_windows.go, clock_*.go).
//   - The ipython tool's kernel (kernel.go, kernel_cell.go,
//     kernel_driver.py; S7 item 8, G4): Runner.Cell gates each cell as one
//     step with the effect exec (gate.Cell over gate.CellRunner's caps;
//     the question, Question.Cell, shows the code as gate.VisibleText
//     does, before the kernel starts), then runs it in the session's one
//     kernel: IPython's InteractiveShell under a driver of eukhe's own,
//     talking JSON lines over the process's stdin and stdout; the cell's
//     stdout, stderr and programs share one pipe, so their output comes
//     in order, bounded as a script's. The kernel is started by the same
//     sandbox as a step's process allowed the auto set with exec
//     (x.sandbox), and keeps that confinement for its life: a cell whose
//     allowed set, confinement settings or ipython.python differ gets a
//     new kernel (kernelKey), never one with more. Its kernel functions
//     come back as calls (CellRequest.Calls) served only while their
//     cell runs; a cell's bash() is Run with Request.Grant (the cell's
//     exec) and Block. Past the blocking budget a cell is a job kN; kill
//     and timeout interrupt it (SIGINT to the driver's main thread), and
//     kill the kernel's process group when it has not ended after the
//     grace. A kernel that dies is told at its cell, and again at the
//     next, which starts a new one. Between cells every process of the
//     kernel is stopped (freezeKernel: descendants and session, found
//     again until none is new), so a thread or program a cell left acts,
//     and calls, only while some cell runs, and the watch of protected
//     entries runs only then; a cell whose settings narrow is stopped
//     (watchNarrowing), and one whose sandbox plan differs gets a new
//     kernel (launchPlan). The driver runs each cell with IPython's own
//     transformers and no event hooks an earlier cell left. Laws: kernel_laws_test.go (the cell
//     laws against the real runner), kernel_conformance_test.go (the store
//     conformance suite through the kernel functions).
//   - Not kept from bash: the EXIT trap does not run at the end (its code
//     would run unasked); `exec >file` lasts for its statement only, since
//     each pipeline gets its own output pipe; a builtin writing to a closed
//     pipe ends 0, not 141 (the interpreter ignores the write error);
//     processes a script leaves in the background end with it (bash
//     leaves them running), and with no sandbox (shell.confinement
//     "off", or none works here) one that left its program's session and
//     whose parent ended is found by no look and outlives it.
package shell
