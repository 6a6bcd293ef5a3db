package gate

import (
	"slices"
	"testing"
)

func TestParseGitConfigRefs(t *testing.T) {
	for _, c := range []struct {
		text         string
		hooks, incls []string
	}{
		{"[core]\n\thooksPath = .githooks\n", []string{".githooks"}, nil},
		{"[CORE]\n\tHooksPath=\"my hooks\" # a comment\n", []string{"my hooks"}, nil},
		{"[include]\n\tpath = ../.gitconfig\n[includeIf \"gitdir:~/w/\"]\n\tpath = ~/w.inc ; c\n", nil, []string{"../.gitconfig", "~/w.inc"}},
		{"[core] hooksPath = h\n", []string{"h"}, nil},
		{"[core \"x\"]\n\thooksPath = no\n[include \"x\"]\n\tpath = no\n[includeIf]\n\tpath = no\n", nil, nil},
		{"[core]\n\thooksPath = a\\\nb\n", []string{"ab"}, nil},
		{"[core]\r\n\thooksPath = crlf\r\n", []string{"crlf"}, nil},
		{"[core]\n\tfsmonitor = x\n\t# hooksPath = no\n", nil, nil},
		{"[core.x]\n\thooksPath = no\n", nil, nil},
		{"\ufeff[core]\n\thooksPath = bom\n", []string{"bom"}, nil},
	} {
		got := ParseGitConfigRefs(c.text)
		if !slices.Equal(got.HooksPaths, c.hooks) || !slices.Equal(got.Includes, c.incls) {
			t.Errorf("%q: got hooks %q includes %q, want %q %q", c.text, got.HooksPaths, got.Includes, c.hooks, c.incls)
		}
	}
}

func FuzzParseGitConfigRefs(f *testing.F) {
	for _, s := range []string{"[core]\n\thooksPath = .githooks\n", "[include]\npath=\"a\\\"b\"\n", "[includeIf \"x\"]\n\tpath = y\\\n", "[", "\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		ParseGitConfigRefs(text) // never panics
	})
}
