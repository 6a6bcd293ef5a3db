// Package confine plans the sandbox of one external process of a step
// (DESIGN §9). The gate decides from a step's words; the sandbox makes
// the decision hold whatever a program does. Plan turns the effects the
// step is allowed (the auto set ∪ what the user approved for it) and the
// session's places (Places: gathered by agent/shell as the process
// starts, from the policy's Policy.SandboxRules, GateDirs, GateFileDirs,
// DotHomes and EndNames) into the mounts of a sandbox, last mount wins,
// in the order of the classes of G1.2: the base, read-only unless write
// and outside; /dev, /proc; the private temp dir; roots and
// shell.writableDirs writable with write; protected entries read-only
// without protected; secret entries and eukhe's state hidden without
// secret; /run hidden without net, and a network of its own. The plan is
// pure; agent/shell applies it: Sandbox.BwrapArgs for bubblewrap,
// Sandbox.Landlock as Landlock allow rules, Sandbox.Seatbelt as a macOS
// profile. This package imports gate (for its effects); gate never
// imports it. What a step's effects are where no sandbox confines it is
// the gate's (gate.Unconfined).
//
// Where each law lives:
//
//	law                                                    file
//	no secret shows, through any mount, unless secret      plan.go (Plan)
//	nothing is writable but what the effects allow         plan.go (Plan)
//	a kept place never narrows what may be written         plan.go (Plan)
//	/tmp stays when a root or a kept place is or holds it  plan.go (Plan)
//	kernel_settings_are_never_writable (/sys, /proc/sys)   plan.go (kernelSettings)
//	sandbox_pins_the_gate_dirs (Places.Pinned)             plan.go (pin)
//	no network but loopback, no /run, without net          plan.go (Plan, BwrapArgs)
//	bubblewrap: own PID and IPC namespaces, no capability  plan.go (BwrapArgs)
//	the Landlock rules grant no more than the mounts       landlock.go (Sandbox.Landlock)
//	seatbelt_profile_follows_the_plan                      seatbelt.go (Sandbox.Seatbelt)
//	a plan's path never changes the profile's text         seatbelt.go (Render)
//	an_approval_uncovers_only_what_it_named                narrow.go (Narrow)
//
// Their tests: plan_test.go
// (TestSandboxHidesEverySecretUnlessAllowed,
// TestSandboxWritesOnlyWhereAllowed, TestSandboxKeepNeverNarrowsWrites,
// TestSandboxKeepsTmpWhenARootHoldsIt,
// TestLaw_kernel_settings_are_never_writable), narrow_law_test.go
// (TestLaw_an_approval_uncovers_only_what_it_named), pinned_test.go
// (TestLaw_sandbox_pins_the_gate_dirs), plan_test.go (TestBwrapArgs,
// TestLandlockGrantsNoMoreThanTheSandbox), seatbelt_test.go
// (TestLaw_seatbelt_profile_follows_the_plan, the golden profiles of
// testdata/seatbelt, TestSeatbeltHostilePathsStayParameters). Whether a
// real sandbox keeps them is tested in agent/shell (confine_test.go).
//
// Trust boundaries: /sys and /proc/sys are bound read-only in every
// sandbox (as root, kernel.core_pattern names a program the kernel runs
// as root at the next crash, outside any sandbox). The directories above
// the user settings files are mount points of their own (a mount point
// cannot be renamed or removed: EBUSY). Between the plan and the act an
// attacker controls the file system: a hard link made after the plan is
// not bound. A confined step cannot make one to a protected file: under
// bubblewrap the protected entry is a mount of its own and link(2) across
// mounts fails (EXDEV); under Landlock, linking from a read-only
// hierarchy into a writable one fails (EXDEV, the refer right). A step
// that may write protected, or an unconfined program, can; the next
// step's plan binds it (the other names of protected files are found by
// gate.ProtectedLinks, and agent/shell lists them among the protected
// entries).
package confine
