package gate

import (
	"encoding/json"
	"strings"
	"testing"
)

// One renderer writes every refusal: "<verb> did not run (<effects>):
// <reason>. <next step>."
func TestRefusalText(t *testing.T) {
	for _, c := range []struct {
		effs    Effects
		a       Answer
		unheard string
		want    string
	}{
		{Of(Write, Outside), Unanswered, "", "write /x/y did not run (write+outside): it needs the user's approval, and no one answered. Ask the user to attach a client (the editor, or `eukhe approvals` in a terminal), or to add write and outside to shell.autoEffects; or use read-only steps."},
		{Of(Write), Unanswered, "the editor (helix) cannot show questions", "write /x/y did not run (write): it needs the user's approval, and no one answered: the editor (helix) cannot show questions. Ask the user to answer it with `eukhe approvals` in a terminal, or to add write to shell.autoEffects; or use read-only steps."},
		{Of(Read, Secret), Unanswered, "", "write /x/y did not run (read+secret): it needs the user's approval, and no one answered. Ask the user to attach a client (the editor, or `eukhe approvals` in a terminal)."},
		{Of(Exec), Deny, "the editor (helix) cannot show questions", "write /x/y did not run (exec): the user denied it. Do not try it again unless the user asks for it."},
		{Of(Write, Protected), GatewayRefused, "", "write /x/y did not run (write+protected): it needs the user's approval, and this session runs only from the phone gateway"},
	} {
		got := (&Refusal{Verb: "write /x/y", Effects: c.effs, Answer: c.a, Unheard: c.unheard}).Error()
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}

func TestAnswerJSON(t *testing.T) {
	for _, a := range []Answer{Approve, Deny, Unanswered, GatewayRefused} {
		b, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		var back Answer
		if err := json.Unmarshal(b, &back); err != nil || back != a {
			t.Fatalf("%s → %s → %s (%v)", a, b, back, err)
		}
	}
	var a Answer
	if err := json.Unmarshal([]byte(`"yes"`), &a); err == nil {
		t.Fatal(`"yes" read as an answer`)
	}
}

// A git step that is not exec runs with the untrusted repository
// arguments, and diff, log and show without external diff or textconv.
func TestGitSafeArgv(t *testing.T) {
	for in, want := range map[string]string{
		"git -C sub log -p":  "git " + strings.Join(UntrustedRepoArgs, " ") + " -C sub log --no-ext-diff --no-textconv -p",
		"git ls-files":       "git " + strings.Join(UntrustedRepoArgs, " ") + " ls-files",
		"git status":         "git status",
		"git -c a=b log":     "git -c a=b log",
		"git log --textconv": "git log --textconv",
		"ls -l":              "ls -l",
	} {
		if got := strings.Join(GitSafeArgv(strings.Fields(in)), " "); got != want {
			t.Errorf("%s:\n got  %s\n want %s", in, got, want)
		}
	}
}

// The next step of an unanswered refusal names only the effects the auto
// set lacks: with write in it already, a write outside asks for outside
// alone (a newcomer was told to add write, which was there).
func TestRefusalNamesOnlyTheEffectsTheAutoSetLacks(t *testing.T) {
	r := &Refusal{Verb: "write /x/y", Effects: Of(Write, Outside), Answer: Unanswered, Auto: Of(Read, Write)}
	got := r.Error()
	if !strings.Contains(got, "or to add outside to shell.autoEffects") || strings.Contains(got, "add write") {
		t.Fatalf("the refusal asks for effects the auto set holds:\n%s", got)
	}
	if !strings.Contains(got, "did not run (write+outside)") {
		t.Fatalf("the refusal no longer opens with every effect of the step (S7.8):\n%s", got)
	}
}
