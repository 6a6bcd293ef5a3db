package gate

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"pgregory.net/rapid"
)

// G5: a child's question reaches its root's user; the phone never waits.

func genHop(t *rapid.T) Hop {
	return Hop{
		Clients: Clients(rapid.IntRange(0, int(numClients)-1).Draw(t, "clients")),
		Answer:  rapid.SampledFrom([]Answer{Approve, Deny}).Draw(t, "their answer"),
	}
}

func genChain(t *rapid.T) []Hop { return rapid.SliceOfN(rapid.Custom(genHop), 1, 5).Draw(t, "chain") }

// decides reports whether a session with these clients ends a question
// that reaches it: its interactive clients answer, or the gateway rule.
func decides(c Clients) bool { return c != NoClients && c != Leaving }

func TestLaw_child_answered_by_root(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		chain := genChain(t)
		for i := range chain[:len(chain)-1] {
			chain[i].Clients = rapid.SampledFrom([]Clients{NoClients, Leaving}).Draw(t, "quiet")
		}
		root := len(chain) - 1
		chain[root].Clients = rapid.SampledFrom([]Clients{Answering, AnsweringBesideGateway}).Draw(t, "root")
		r := Route(chain, genEffects(t, "effects"))
		if r.DecidedBy != root || r.Answer != chain[root].Answer || r.Shown[len(r.Shown)-1] != root {
			t.Fatalf("root's clients answered %s; route %+v", chain[root].Answer, r)
		}
	})
}

func TestLaw_nearest_answer_wins(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		chain, effs := genChain(t), genEffects(t, "effects")
		r := Route(chain, effs)
		for i, h := range chain {
			if !decides(h.Clients) {
				continue
			}
			want := h.Answer
			if h.Clients == GatewayAlone || h.Clients == LeavingBesideGateway {
				want = Fate(effs)
			}
			if r.DecidedBy != i || r.Answer != want || r.Reached[len(r.Reached)-1] != i {
				t.Fatalf("session %d answers first (%s), route %+v", i, want, r)
			}
			return
		}
	})
}

func TestLaw_unanswered_only_when_quiet(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		chain := genChain(t)
		r := Route(chain, genEffects(t, "effects"))
		if r.Answer != Unanswered {
			return
		}
		for i, h := range chain {
			if decides(h.Clients) {
				t.Fatalf("unanswered, but session %d answers (%v)", i, h.Clients)
			}
		}
	})
}

func TestLaw_quiet_is_unanswered(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		chain := genChain(t)
		for i := range chain {
			chain[i].Clients = rapid.SampledFrom([]Clients{NoClients, Leaving}).Draw(t, "quiet")
		}
		if r := Route(chain, genEffects(t, "effects")); r.Answer != Unanswered || r.DecidedBy != -1 {
			t.Fatalf("a quiet chain gave %+v", r)
		}
	})
}

func TestLaw_gateway_never_waits(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		chain, effs := genChain(t), genEffects(t, "effects")
		k := rapid.IntRange(0, len(chain)-1).Draw(t, "gateway at")
		chain[k].Clients = GatewayAlone
		r := Route(chain, effs)
		if r.Reached[len(r.Reached)-1] < k {
			return // an answer came before the gateway session
		}
		for _, s := range r.Shown {
			if s == k {
				t.Fatalf("the gateway-only session %d showed a frame", k)
			}
		}
		if r.DecidedBy != k || r.Answer != Fate(effs) || r.Reached[len(r.Reached)-1] != k {
			t.Fatalf("gateway-only session %d did not answer at once: %+v", k, r)
		}
	})
	// And the real router asks no client and no parent.
	rapid.Check(t, func(t *rapid.T) {
		effs := genEffects(t, "effects")
		phone := &Recorder{Clients: Attached{Gateway: 1}}
		parent := &Recorder{Clients: Attached{Interactive: 1}, Answers: []Answer{Approve}}
		a := Chain{{Name: "child", Asker: phone}, {Asker: parent}}.Ask(context.Background(), Question{Effects: effs})
		if a != Fate(effs) || len(phone.Frames) != 0 || len(parent.Frames) != 0 {
			t.Fatalf("gateway session: %s, frames %v %v", a, phone.Frames, parent.Frames)
		}
	})
}

func TestLaw_gateway_refuses_protected(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		if a := Fate(genEffects(t, "effects").With(Write, Protected)); a != GatewayRefused {
			t.Fatalf("a protected write fares %s", a)
		}
	})
}

func TestLaw_gateway_refuses_secret(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		effs := genEffects(t, "effects").With(rapid.SampledFrom([]Effect{Read, Write}).Draw(t, "rw"), Secret)
		if a := Fate(effs); a != GatewayRefused {
			t.Fatalf("%s fares %s", effs, a)
		}
	})
}

func TestLaw_gateway_runs_the_rest(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		effs := genEffects(t, "effects").Without(Protected, Secret)
		if a := Fate(effs); a != Approve {
			t.Fatalf("%s fares %s", effs, a)
		}
	})
}

func TestLaw_left_to_the_gateway(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		chain, effs := genChain(t), genEffects(t, "effects")
		chain[0].Clients = LeavingBesideGateway
		r := Route(chain, effs)
		if !reflect.DeepEqual(r.Shown, []int{0}) || r.DecidedBy != 0 || r.Answer != Fate(effs) ||
			!reflect.DeepEqual(r.Reached, []int{0}) {
			t.Fatalf("clients left beside the gateway: %+v", r)
		}
	})
}

func TestLaw_gateway_rules_a_subagent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		chain, effs := genChain(t), genEffects(t, "effects")
		for i := range chain {
			chain[i].Clients = NoClients
		}
		k := len(chain) - 1
		chain[k].Clients = GatewayAlone
		own := Route([]Hop{chain[k]}, effs)
		if r := Route(chain, effs); r.Answer != own.Answer || r.DecidedBy != k {
			t.Fatalf("a subagent's question fared %+v, the session's own %+v", r, own)
		}
	})
}

func TestLaw_default_auto_is_grantable(t *testing.T) {
	d := DefaultAuto()
	if d.Effects() != allEffects.Without(Secret) {
		t.Fatalf("default auto set %s, want every effect but secret", d)
	}
	again, err := ParseAutoSet(d.Effects().Names())
	if err != nil || again != d {
		t.Fatalf("the default's names do not read back: %v", err)
	}
	rapid.Check(t, func(t *rapid.T) {
		effs := genEffects(t, "effects")
		if d.Holds(effs) == effs.Has(Secret) {
			t.Fatalf("default auto set on %s: holds=%v", effs, d.Holds(effs))
		}
	})
}

func TestLaw_never_auto_is_routed(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		auto, effs := genAuto(t), genEffects(t, "effects").With(Secret)
		a := genAnswer(t, "root's answer")
		root := &Recorder{Clients: Attached{Interactive: 1}, Answers: []Answer{a}}
		got, asked := Decide(context.Background(), auto, effs,
			Chain{{Name: "sub", Asker: &Recorder{}}, {Asker: root}}, Question{})
		if !asked || got != a || len(root.Frames) != 1 || root.Frames[0].Agent != "sub" {
			t.Fatalf("secret step under %s: %s asked=%v frames %+v", auto, got, asked, root.Frames)
		}
	})
}

func TestLaw_never_auto_asks_the_client(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		auto, effs := genAuto(t), genEffects(t, "effects")
		if auto.Holds(effs) {
			return
		}
		a := rapid.SampledFrom([]Answer{Approve, Deny}).Draw(t, "answer")
		client := &Recorder{Clients: Attached{Interactive: 1, Gateway: rapid.IntRange(0, 1).Draw(t, "gw")}, Answers: []Answer{a}}
		got, asked := Decide(context.Background(), auto, effs, Chain{{Asker: client}}, Question{What: "x"})
		if !asked || got != a || len(client.Frames) != 1 || client.Frames[0].Effects != effs {
			t.Fatalf("step %s under %s: %s, frames %+v", effs, auto, got, client.Frames)
		}
	})
}

func TestLaw_outside_runs_only_by_the_gateway(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		auto := AutoOf(genAuto(t).Effects().Without(Outside))
		effs := Of(Write, Outside).Union(genEffects(t, "more").Without(Protected, Secret))
		phone := &Recorder{Clients: Attached{Gateway: 1}}
		got, asked := Decide(context.Background(), auto, effs, Chain{{Asker: phone}}, Question{})
		if got != Approve || !asked || len(phone.Frames) != 0 {
			t.Fatalf("outside write from the phone under %s: %s asked=%v", auto, got, asked)
		}
		if r := Route([]Hop{{Clients: GatewayAlone}}, effs); r.Answer != Approve || r.DecidedBy != 0 {
			t.Fatalf("route %+v", r)
		}
	})
}

func TestLaw_guarded_refused_from_the_phone(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		auto, effs := genAuto(t), genEffects(t, "effects").With(Secret)
		phone := &Recorder{Clients: Attached{Gateway: 1}}
		if got, _ := Decide(context.Background(), auto, effs, Chain{{Asker: phone}}, Question{}); got != GatewayRefused || len(phone.Frames) != 0 {
			t.Fatalf("secret from the phone under %s: %s", auto, got)
		}
	})
}

// The real router follows the model: for any chain, the same answer, the
// same sessions shown the question, and every relayed frame names the
// asking subagent.
func TestChainAskIsItsModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		hops, effs := genChain(t), genEffects(t, "effects")
		var chain Chain
		var recs []*Recorder
		for i, h := range hops {
			rec := &Recorder{Clients: h.Attached()}
			if h.Clients == Answering || h.Clients == AnsweringBesideGateway {
				rec.Answers = []Answer{h.Answer}
			}
			recs = append(recs, rec)
			chain = append(chain, Link{Name: fmt.Sprintf("s%d", i), Asker: rec})
		}
		model := Route(hops, effs)
		got := chain.Ask(context.Background(), Question{Effects: effs, What: "step"})
		var shown []int
		for i, rec := range recs {
			if len(rec.Frames) > 0 {
				shown = append(shown, i)
				if want := map[bool]string{true: "", false: "s0"}[i == 0]; rec.Frames[0].Agent != want {
					t.Fatalf("frame at %d names %q, want %q", i, rec.Frames[0].Agent, want)
				}
			}
		}
		if got != model.Answer || !reflect.DeepEqual(shown, model.Shown) {
			t.Fatalf("router %s shown %v; model %+v", got, shown, model)
		}
	})
}
