package lsp

import (
	"path"
	"strings"
	"testing"

	"go.lsp.dev/uri"
	"pgregory.net/rapid"

	"github.com/eukhe/eukhe/gate"
)

// mapFS is a filesystem of entries by absolute path: a directory, a file,
// or a link (its target).
type mapFS map[string]string // "dir", "file", or "->target"

func (m mapFS) Kind(p string) gate.Kind {
	switch v, ok := m[p]; {
	case !ok:
		return gate.KindMissing
	case v == "dir":
		return gate.KindDir
	case strings.HasPrefix(v, "->"):
		return gate.KindLink
	}
	return gate.KindFile
}

func (m mapFS) Readlink(p string) (string, error) { return strings.TrimPrefix(m[p], "->"), nil }

func (m mapFS) Plain(string) bool { return false } // Resolve walks the map

// TestLaw_an_open_document_is_served_only_at_the_real_path_it_had_at_didOpen:
// over generated workspaces (directories, links between them and into
// .git, files and links in place of files) and a generated change between
// didOpen and the lookup (a link repointed, a file replaced by a link, a
// directory renamed with a link in its place), the overlay's judgment
// passes a document iff its name resolves now, unlooped, to the real path
// it resolved to at didOpen, and a document that passes is the file at the
// path it was looked up by.
func TestLaw_an_open_document_is_served_only_at_the_real_path_it_had_at_didOpen(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		dirs := []string{"/w", "/w/a", "/w/b", "/w/.git"}
		fs := mapFS{"/": "dir"}
		for _, d := range dirs {
			fs[d] = "dir"
		}
		fs["/w/.git/config"] = "file"
		fs["/w/a/f"] = "file"
		fs["/w/b/f"] = "file"
		targets := []string{"a", "b", ".git", "/w/a", "l", "nowhere"}
		fs["/w/l"] = "->" + rapid.SampledFrom(targets).Draw(t, "link")
		if rapid.Bool().Draw(t, "fileLink") {
			fs["/w/a/f"] = "->" + rapid.SampledFrom([]string{"../.git/config", "../b/f", "/w/b/f", "missing"}).Draw(t, "fileTarget")
		}
		name := rapid.SampledFrom([]string{"/w/a/f", "/w/b/f", "/w/l/f", "/w/l/config", "/w/new/x", "/w/l/new"}).Draw(t, "name")
		o := newOverlay()
		o.resolve = func(p string) gate.RealPath { return gate.Resolve(fs, "/", p) }
		o.open(uri.File(name), 1, "text")
		opened := o.resolve(name)

		switch rapid.IntRange(0, 3).Draw(t, "change") {
		case 1: // repoint the directory link
			fs["/w/l"] = "->" + rapid.SampledFrom(targets).Draw(t, "relink")
		case 2: // replace a file by a link
			fs["/w/b/f"] = "->" + rapid.SampledFrom([]string{"../.git/config", "../a/f"}).Draw(t, "fileRelink")
		case 3: // rename a directory, a link in its place
			d := rapid.SampledFrom([]string{"/w/a", "/w/b"}).Draw(t, "renamed")
			for p, v := range fs {
				if p == d || strings.HasPrefix(p, d+"/") {
					fs["/w/old"+strings.TrimPrefix(p, d)] = v
					delete(fs, p)
				}
			}
			fs[d] = "->.git"
		}
		now := o.resolve(name)
		key := rapid.SampledFrom([]string{name, opened.Path}).Draw(t, "key")
		v, ok := o.get(path.Clean(key))
		if !ok {
			if key == name || !opened.Looped {
				t.Fatalf("%s is open and not found by %s", name, key)
			}
			return
		}
		err := o.judge(v)
		same := !now.Looped && !opened.Looped && now.Path == opened.Path
		if (err == nil) != same {
			t.Fatalf("%s opened at %+v, now %+v: judged %v", name, opened, now, err)
		}
		if err == nil && o.resolve(key).Path != now.Path {
			t.Fatalf("%s served by %s, which resolves to %s, not to the document's %s", name, key, o.resolve(key).Path, now.Path)
		}
		if err != nil && !strings.Contains(err.Error(), "close and reopen it in the editor") && !strings.Contains(err.Error(), "reopen it, then retry") {
			t.Fatalf("the refusal says not what to do: %v", err)
		}
	})
}
