package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/settings"
	"github.com/eukhe/eukhe/internal/testkit"
)

// guardWorld is a home with a secret, a workspace root, and a headless
// host whose client (if any) answers with answer.
type guardWorld struct {
	home, root, secret string
	host               *Headless
}

func newGuardWorld(t *testing.T, client func(context.Context, gate.Question) gate.Answer) *guardWorld {
	t.Helper()
	home := t.TempDir()
	root := filepath.Join(home, "ws")
	secret := filepath.Join(home, ".ssh", "id_ed25519")
	for _, d := range []string{root, filepath.Dir(secret)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(secret, []byte("KEY\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": home, "PATH": "/usr/bin:/bin"}
	paths := settings.Locate(env, []string{root})
	host := &Headless{RootDir: root, Disk: docs.NewDisk(), Paths: paths.Places(env).Policy(gate.OS), Client: client}
	return &guardWorld{home: home, root: root, secret: secret, host: host}
}

func (g *guardWorld) open(t *testing.T, parent string) *Session {
	t.Helper()
	s, err := Open(Options{Host: g.host, Parent: parent})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func TestGuardLetsAnInsideAccessRunUnasked(t *testing.T) {
	asked := false
	g := newGuardWorld(t, func(context.Context, gate.Question) gate.Answer { asked = true; return gate.Deny })
	s := g.open(t, "")
	real, err := s.Guard().Allow(t.Context(), filepath.Join(g.root, "a.txt"), docs.WriteAccess)
	if err != nil || asked {
		t.Fatalf("inside write: %v (asked %v)", err, asked)
	}
	if real != filepath.Join(g.root, "a.txt") {
		t.Fatalf("real %s", real)
	}
	if !s.Guard().SameReal(filepath.Join(g.root, "a.txt"), real) {
		t.Fatal("SameReal lost the path")
	}
}

// Headless with no client: a secret read is unanswered and the error is
// the seed's refusal text (G5), whose next step is what works now headless:
// `eukhe approvals` in a terminal in the root (the client does not elicit).
func TestGuardHeadlessSecretIsUnansweredWithTheRefusalText(t *testing.T) {
	g := newGuardWorld(t, nil)
	s := g.open(t, "")
	_, err := s.Guard().Allow(t.Context(), g.secret, docs.ReadAccess)
	var ref *gate.Refusal
	if !errors.As(err, &ref) || ref.Answer != gate.Unanswered {
		t.Fatalf("secret read: %v", err)
	}
	want := gate.RefusalHinted("read "+gate.Visible(g.secret), ref.Effects, gate.Unanswered, AnswerHint(g.root, false, false))
	if err.Error() != want || !strings.Contains(want, "no one answered") || !strings.Contains(want, "`eukhe approvals` in a terminal in "+g.root) {
		t.Fatalf("text %q, want %q", err.Error(), want)
	}
}

// A subagent whose parent is not open here relays up to no one: unanswered.
func TestGuardSubagentRoutesUpToItsParent(t *testing.T) {
	g := newGuardWorld(t, nil)
	s := g.open(t, "parent-session")
	chain := s.Chain()
	if len(chain) != 2 || chain[0].Name != s.ID || chain[1].Name != "parent-session" {
		t.Fatalf("chain %+v", chain)
	}
	if _, err := s.Guard().Allow(t.Context(), g.secret, docs.ReadAccess); err == nil {
		t.Fatal("a subagent's secret read ran with no one to answer")
	}
	// a parent open on the same host is in the chain, then its parent
	p := g.open(t, "")
	c := g.open(t, p.ID)
	if ch := c.Chain(); len(ch) != 2 || ch[1].Name != p.ID {
		t.Fatalf("child chain %+v", ch)
	}
	c.SetParent("other")
	if ch := c.Chain(); len(ch) != 2 || ch[1].Name != "other" {
		t.Fatalf("after SetParent %+v", ch)
	}
}

func TestGuardAsksTheClientAndUsesTheRealPath(t *testing.T) {
	testkit.NeedSymlinks(t)
	var q gate.Question
	g := newGuardWorld(t, func(_ context.Context, got gate.Question) gate.Answer { q = got; return gate.Approve })
	link := filepath.Join(g.root, "key")
	if err := os.Symlink(g.secret, link); err != nil {
		t.Fatal(err)
	}
	s := g.open(t, "")
	real, err := s.Guard().Allow(t.Context(), link, docs.ReadAccess)
	if err != nil {
		t.Fatal(err)
	}
	if real != g.secret || q.What != "read "+gate.Visible(g.secret) || !q.Effects.Has(gate.Secret) {
		t.Fatalf("real %s, asked %+v", real, q)
	}
	g2 := newGuardWorld(t, func(context.Context, gate.Question) gate.Answer { return gate.Deny })
	_, err = g2.open(t, "").Guard().Allow(t.Context(), g2.secret, docs.ReadAccess)
	if err == nil || !strings.Contains(err.Error(), "the user denied it") {
		t.Fatalf("denied: %v", err)
	}
}

// Through the read tool: headless, a secret read does not run and the
// model gets the refusal text as a failed result; an inside read runs.
func TestReadToolIsGated(t *testing.T) {
	g := newGuardWorld(t, nil)
	s := g.open(t, "")
	cs := connect(t, s)
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": g.secret}})
	if err != nil {
		t.Fatal(err)
	}
	text := contentText(res)
	if !res.IsError || !strings.Contains(text, "did not run (read+secret): it needs the user's approval, and no one answered") || strings.Contains(text, "KEY") {
		t.Fatalf("secret read: %v %q", res.IsError, text)
	}
	res, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": "a.txt"}})
	if err != nil || res.IsError || !strings.Contains(contentText(res), "1:a") {
		t.Fatalf("inside read: %v %q", err, contentText(res))
	}
}
