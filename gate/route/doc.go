// Package route keeps the approval routing of G5: who is asked when a
// step, cell or document access needs a yes, and how an answer and a
// grant are decided. A question goes up a Chain of sessions, from the one
// that asks to its root; at each session Next says what it does with it
// (show it to the interactive clients, answer by GatewayRule when only
// the phone gateway is attached, relay it to the parent, or end it
// unanswered at a root), and the first answer up the chain decides.
// Decide puts the auto set before the route. Grants keeps the answers
// "allow for this session" (S7.8 item 8, ours).
//
// What the gate judges stays in gate: the effects, the auto set
// (gate.AutoSet, gate autoset.go; its law default_auto_is_grantable is
// tested there), the question (gate.Question), the answers and the
// refusal text of S7.8 (gate.Answer, gate.Refusal), and a cell's mark
// (gate.InCell). This package imports gate; gate never imports it: the
// documents gate asks through gate.Router, which Chain is.
//
// Where each law lives:
//
//	law                                   file
//	child_answered_by_root                asker.go (Chain.Ask)
//	nearest_answer_wins                   asker.go (Chain.Ask)
//	unanswered_only_when_quiet            asker.go (Chain.Ask), route.go (Next)
//	quiet_is_unanswered                   asker.go (Chain.Ask), route.go (Next)
//	gateway_never_waits                   route.go (Next: ByGatewayRule)
//	gateway_refuses_protected             route.go (GatewayRule)
//	gateway_refuses_secret                route.go (GatewayRule)
//	gateway_runs_the_rest                 route.go (GatewayRule)
//	left_to_the_gateway                   asker.go (Chain.Ask), route.go (Next)
//	gateway_rules_a_subagent              asker.go (Chain.Ask)
//	never_auto_is_routed                  asker.go (Decide)
//	never_auto_asks_the_client            asker.go (Decide)
//	outside_runs_only_by_the_gateway      asker.go (Decide), route.go (GatewayRule)
//	guarded_refused_from_the_phone        asker.go (Decide), route.go (GatewayRule)
//	a grant covers only what was judged   grant.go (Grants, grantKey)
//	a grant is never secret or protected  grant.go (SessionGrantable)
//	the refusal names the hint, the       refusal.go (Chain.RefusalText,
//	client not asked, a cell's call       Chain.RefusalTextAt)
//
// Their tests run Chain.Ask and Decide over generated chains of one to
// eight sessions whose clients answer, leave or are the phone gateway,
// each client on its own goroutine (laws_route_test.go, clients_test.go:
// TestLaw_ and the law's name); the grants' laws are grant_law_test.go
// (TestLaw_grant_covers_only_what_was_judged,
// TestLaw_grant_never_secret_or_protected); refusal_test.go checks that
// the chain's refusal is gate's one renderer. lsp's route_test.go runs
// the same route end to end on the editor's broker with real terminals
// and attached subagents.
//
// Where the seed is silent: when a sink of the chain has a client
// attached that cannot be asked (an editor without dialogs: the Unheard
// interface, Chain.Unheard), an unanswered refusal says so and asks for
// `eukhe approvals` instead of a client to attach; a sink with a Hinter
// (askers in agent) names what works now instead (Chain.Hint). A call an
// ipython cell made asks no one (gate.IsInCell): Chain.Ask answers
// Unanswered on it. A grant is keyed by session, text, directory, all
// effects and the real paths the step named when judged
// (gate.Question.Reals): between the answer and a later step of the same
// text the agent controls the filesystem (cmd/eukhe attack_grant_test.go
// swaps what a granted step names).
package route
