package route

import (
	"context"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/eukhe/eukhe/gate"
)

// G5: a child's question reaches its root's user; the phone never waits.
// Every law runs the real router, Chain.Ask (and Decide, the auto set
// before it), over chains of one to eight sessions whose clients answer,
// leave or are the phone gateway (clients_test.go).

// firstDecider is the first session up the chain whose clients answer or
// whose gateway rules, or -1 when every session is quiet.
func firstDecider(nodes []node) int {
	for i, n := range nodes {
		if n.shape() != quiet {
			return i
		}
	}
	return -1
}

// checkRelayed fails unless each frame below the session at decided (all
// sessions when it is -1) reached every interactive client of its
// session once, each frame after the first session's names the asking
// subagent, and no session above decided was shown anything.
func checkRelayed(t *rapid.T, nodes []node, decided int) {
	for i, n := range nodes {
		fs := n.frames()
		switch {
		case decided >= 0 && i > decided:
			if len(fs) != 0 {
				t.Fatalf("session %d above the one that answered (%d) was shown %+v", i, decided, fs)
			}
			continue
		case (decided < 0 || i < decided) && !n.shownToAll():
			t.Fatalf("quiet session %d: its clients were not each shown the question once: %+v", i, fs)
		}
		want := ""
		if i > 0 {
			want = nodes[0].link.Name
		}
		for _, f := range fs {
			if f.Agent != want {
				t.Fatalf("the frame at session %d names %q, want %q", i, f.Agent, want)
			}
		}
	}
}

func TestLaw_child_answered_by_root(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes := genChainOf(t, genQuiet)
		root := len(nodes) - 1
		nodes[root] = genAnswering(t)
		nodes[root].link.Name = "root"
		got := ask(nodes, genEffects(t, "effects"))
		if !slices.Contains(nodes[root].answers(), got) {
			t.Fatalf("the root's clients answer %v; the verdict is %s", nodes[root].answers(), got)
		}
		if len(nodes[root].frames()) == 0 {
			t.Fatal("the root's clients were not shown the question")
		}
		checkRelayed(t, nodes, root)
	})
}

func TestLaw_nearest_answer_wins(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, effs := genChainOf(t, genNode), genEffects(t, "effects")
		got := ask(nodes, effs)
		k := firstDecider(nodes)
		if k < 0 {
			return
		}
		want := nodes[k].answers()
		if nodes[k].shape() == gatewayRuled {
			want = []gate.Answer{gatewayRule(effs)}
		}
		if !slices.Contains(want, got) {
			t.Fatalf("session %d answers first (%v); the verdict is %s", k, want, got)
		}
		checkRelayed(t, nodes, k)
	})
}

func TestLaw_unanswered_only_when_quiet(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes := genChainOf(t, genNode)
		if got := ask(nodes, genEffects(t, "effects")); got == gate.Unanswered {
			if k := firstDecider(nodes); k >= 0 {
				t.Fatalf("unanswered, but session %d answers", k)
			}
		}
	})
}

func TestLaw_quiet_is_unanswered(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes := genChainOf(t, genQuiet)
		if got := ask(nodes, genEffects(t, "effects")); got != gate.Unanswered {
			t.Fatalf("a quiet chain gave %s", got)
		}
		checkRelayed(t, nodes, -1)
	})
}

// genToGateway is a chain whose quiet sessions lead to a session whose
// clients are the gateway alone, with any sessions above it.
func genToGateway(t *rapid.T) ([]node, int) {
	nodes := genChainOf(t, genNode)
	k := rapid.IntRange(0, len(nodes)-1).Draw(t, "gateway at")
	for i := 0; i < k; i++ {
		nodes[i] = genQuiet(t)
	}
	nodes[k] = genGatewayOnly(t)
	return nodes, k
}

func TestLaw_gateway_never_waits(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, k := genToGateway(t)
		effs := genEffects(t, "effects")
		if got := ask(nodes, effs); got != gatewayRule(effs) {
			t.Fatalf("the gateway-only session %d gave %s on %s", k, got, effs)
		}
		if fs := nodes[k].frames(); len(fs) != 0 {
			t.Fatalf("the gateway was shown %+v", fs)
		}
		checkRelayed(t, nodes, k)
	})
}

func TestLaw_gateway_refuses_protected(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, _ := genToGateway(t)
		effs := genEffects(t, "effects").With(gate.Write, gate.Protected)
		if got := ask(nodes, effs); got != gate.GatewayRefused {
			t.Fatalf("a protected write from the phone: %s", got)
		}
	})
}

func TestLaw_gateway_refuses_secret(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, _ := genToGateway(t)
		effs := genEffects(t, "effects").With(rapid.SampledFrom([]gate.Effect{gate.Read, gate.Write}).Draw(t, "rw"), gate.Secret)
		if got := ask(nodes, effs); got != gate.GatewayRefused {
			t.Fatalf("%s from the phone: %s", effs, got)
		}
	})
}

func TestLaw_gateway_runs_the_rest(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, _ := genToGateway(t)
		effs := genEffects(t, "effects").Without(gate.Protected, gate.Secret)
		if got := ask(nodes, effs); got != gate.Approve {
			t.Fatalf("%s from the phone: %s", effs, got)
		}
	})
}

func TestLaw_left_to_the_gateway(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, effs := genChainOf(t, genNode), genEffects(t, "effects")
		k := rapid.IntRange(0, len(nodes)-1).Draw(t, "left at")
		for i := 0; i < k; i++ {
			nodes[i] = genQuiet(t)
		}
		nodes[k] = genLeftToGateway(t)
		for i := k + 1; i < len(nodes); i++ {
			nodes[i] = genAnswering(t) // a parent that would answer is never reached
		}
		if got := ask(nodes, effs); got != gatewayRule(effs) {
			t.Fatalf("clients left beside the gateway at %d: %s on %s", k, got, effs)
		}
		if !nodes[k].shownToAll() {
			t.Fatalf("the clients that left were not each shown the question: %+v", nodes[k].frames())
		}
		if n := nodes[k].link.Asker.Attached(); n.Interactive != 0 || n.Gateway == 0 {
			t.Fatalf("after they left, attached %+v", n)
		}
		checkRelayed(t, nodes, k)
	})
}

func TestLaw_gateway_rules_a_subagent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, k := genToGateway(t)
		effs := genEffects(t, "effects")
		own := Chain{nodes[k].link}.Ask(context.Background(), gate.Question{What: "own", Effects: effs})
		if got := ask(nodes, effs); got != own {
			t.Fatalf("a subagent's question fared %s, the session's own %s", got, own)
		}
	})
}

func TestLaw_never_auto_is_routed(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		auto, effs := genAuto(t), genEffects(t, "effects").With(gate.Secret)
		nodes := genChainOf(t, genQuiet)
		root := len(nodes) - 1
		nodes[root] = genAnswering(t)
		got, asked := Decide(context.Background(), auto, effs, chainOf(nodes), gate.Question{What: "step"})
		if !asked || !slices.Contains(nodes[root].answers(), got) {
			t.Fatalf("a secret step under %s: %s asked=%v, the root answers %v", auto, got, asked, nodes[root].answers())
		}
		checkRelayed(t, nodes, root)
	})
}

func TestLaw_never_auto_asks_the_client(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		auto, effs := genAuto(t), genEffects(t, "effects")
		if auto.Holds(effs) {
			return
		}
		n := genAnswering(t)
		got, asked := Decide(context.Background(), auto, effs, Chain{n.link}, gate.Question{What: "x"})
		fs := n.frames()
		if !asked || !slices.Contains(n.answers(), got) || len(fs) == 0 || fs[0].Effects != effs {
			t.Fatalf("step %s under %s: %s asked=%v, frames %+v", effs, auto, got, asked, fs)
		}
	})
}

func TestLaw_outside_runs_only_by_the_gateway(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		auto := gate.AutoOf(genAuto(t).Effects().Without(gate.Outside))
		effs := gate.Of(gate.Write, gate.Outside).Union(genEffects(t, "more").Without(gate.Protected, gate.Secret))
		nodes, k := genToGateway(t)
		got, asked := Decide(context.Background(), auto, effs, chainOf(nodes), gate.Question{What: "step"})
		if got != gate.Approve || !asked || len(nodes[k].frames()) != 0 {
			t.Fatalf("an outside write from the phone under %s: %s asked=%v", auto, got, asked)
		}
		// Only by the gateway: the same chain without it does not run it.
		nodes[k] = nobody(t)
		for i := k + 1; i < len(nodes); i++ {
			nodes[i] = genQuiet(t)
		}
		if got, _ := Decide(context.Background(), auto, effs, chainOf(nodes), gate.Question{What: "step"}); got.Runs() {
			t.Fatalf("an outside write ran with no gateway and no answer: %s", got)
		}
	})
}

func TestLaw_guarded_refused_from_the_phone(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		auto, effs := genAuto(t), genEffects(t, "effects").With(gate.Secret)
		nodes, k := genToGateway(t)
		got, asked := Decide(context.Background(), auto, effs, chainOf(nodes), gate.Question{What: "step"})
		if got != gate.GatewayRefused || !asked || len(nodes[k].frames()) != 0 {
			t.Fatalf("a secret from the phone under %s: %s", auto, got)
		}
	})
}
