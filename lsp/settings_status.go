package lsp

import (
	"slices"
	"sync"

	"github.com/eukhe/eukhe/agent/shell"
	"github.com/eukhe/eukhe/gate/settings"
	"github.com/eukhe/eukhe/protocol"
)

// settingsProblems keeps, per settings file, the problems of its latest
// load (eukhe/settingsStatus): a load that succeeds clears them, and so
// does the file's removal (a file that is gone has no problems; the
// removal itself was told as a window/showMessage).
type settingsProblems struct {
	mu     sync.Mutex
	byFile map[string][]settings.Event
}

func (p *settingsProblems) note(e settings.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.byFile == nil {
		p.byFile = map[string][]settings.Event{}
	}
	if e.Level == settings.Info || e.Removed {
		delete(p.byFile, e.File)
		return
	}
	if !slices.Contains(p.byFile[e.File], e) {
		p.byFile[e.File] = append(p.byFile[e.File], e)
	}
}

// status reports every file the server reads, and any other file with a
// problem, in order.
func (p *settingsProblems) status(files []string) protocol.SettingsStatusResult {
	p.mu.Lock()
	defer p.mu.Unlock()
	res := protocol.SettingsStatusResult{Files: []protocol.SettingsFileStatus{}}
	seen := map[string]bool{}
	add := func(f string) {
		if seen[f] {
			return
		}
		seen[f] = true
		st := protocol.SettingsFileStatus{File: f, Level: "ok"}
		for _, e := range p.byFile[f] {
			st.Problems = append(st.Problems, e.String())
			switch {
			case e.Level == settings.Error:
				st.Level = "error"
			case st.Level == "ok":
				st.Level = "warning"
			}
		}
		res.Files = append(res.Files, st)
	}
	for _, f := range files {
		add(f)
	}
	var rest []string
	for f := range p.byFile {
		rest = append(rest, f)
	}
	slices.Sort(rest)
	for _, f := range rest {
		add(f)
	}
	return res
}

// settingsStatus answers eukhe/settingsStatus: the files, and the
// confinement in force under shell.confinement.
func (s *Server) settingsStatus() protocol.SettingsStatusResult {
	s.att.mu.Lock()
	files := s.att.paths.Files()
	s.att.mu.Unlock()
	res := s.problems.status(files)
	res.Confinement = shell.Describe(s.att.settings().Confinement)
	return res
}
