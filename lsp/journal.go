package lsp

import (
	"github.com/eukhe/eukhe/agent"
	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate"
)

// The editor's server keeps the intent journal of its workspace root as
// eukhe mcp does (docs/journal.go): once the root is known (initialize),
// the journals an earlier server of that root left — killed between the
// editor's part of an edit and the disk's — are finished before any
// commit, and the first reply to each agent and the server's log say what
// was done.

// keepJournal sets the disk's journal for root and finishes what was left.
func (s *Server) keepJournal(root string) {
	if root == "" || s.disk.Journal != "" {
		return
	}
	s.disk.Journal, s.disk.Root = docs.JournalDir(s.opts.Env, root), root
	s.disk.Judge = agent.RecoveryJudge(&gate.DocumentsGate{Policy: s.att.currentPolicy(), Dir: root,
		Auto: func() gate.AutoSet { return s.att.settings().AutoEffects }})
	for _, r := range s.disk.Recover() {
		s.logf("%s", r.Text(func(p string) string { return p }))
	}
}

// TakeRecovered gives what the disk's recovery did and was not told yet
// (agent.withRecovered tells the first reply).
func (st *store) TakeRecovered() []docs.Recovery { return st.s.disk.TakeRecovered() }
