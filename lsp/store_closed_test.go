package lsp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/docs"
)

// swapAfterJudging is a documents gate that judges a path by where it
// resolves and then lets the attacker swap a directory on its way for a
// link into .git: the interval between the gate's judgment and the read.
type swapAfterJudging struct{ swap func() }

func (g *swapAfterJudging) Allow(_ context.Context, path string, _ docs.Access) (string, error) {
	real, err := filepath.EvalSymlinks(path)
	if g.swap != nil {
		g.swap()
		g.swap = nil
	}
	return real, err
}

func (g *swapAfterJudging) SecretName(string) bool { return false }

func (g *swapAfterJudging) SameReal(path, real string) bool {
	r, err := filepath.EvalSymlinks(path)
	return err == nil && r == real
}

// A file not open in the editor is read, listed and walked through the
// editor's store as through the disk store: with no link on any part of
// the path the gate judged. The directory on the way is swapped for a link
// into .git after the judgment; the disk store refuses the read, and the
// editor's store must refuse it the same way, never giving .git's bytes.
func TestEditorStoreClosedReadsRefuseALinkLikeTheDisk(t *testing.T) {
	for _, tool := range []string{"read", "read dir", "grep file", "grep dir"} {
		for _, name := range []string{"disk", "editor"} {
			t.Run(tool+"/"+name, func(t *testing.T) {
				e := carefulEditor(t, editorOpts{})
				var st docs.Store = e.srv.disk
				if name == "editor" {
					st = &store{s: e.srv}
				}
				swap := func() {
					if err := os.Rename(e.path("safe"), e.path("safe.old")); err != nil {
						t.Fatal(err)
					}
					if err := os.Symlink(".git", e.path("safe")); err != nil {
						t.Fatal(err)
					}
				}
				tools := &docs.Tools{Store: st, Session: docs.NewSession(), Root: e.path(""), Guard: &swapAfterJudging{swap: swap}}
				ctx := context.Background()
				var got docs.Result
				switch tool {
				case "read":
					got = tools.Read(ctx, docs.ReadArgs{Path: "safe/config"})
				case "read dir":
					got = tools.Read(ctx, docs.ReadArgs{Path: "safe"})
				case "grep file":
					got = tools.Grep(ctx, docs.GrepArgs{Pattern: "core|one", Path: "safe/config"})
				case "grep dir":
					got = tools.Grep(ctx, docs.GrepArgs{Pattern: "core|one", Path: "safe"})
				}
				if strings.Contains(got.Text, "core") || strings.Contains(got.Text, "repositoryformatversion") || strings.Contains(got.Text, "hooks") {
					t.Fatalf("%s through a link swapped in after the judgment reached .git:\n%s", tool, got.Text)
				}
				if !got.Failed {
					t.Errorf("%s through a link swapped in after the judgment was not refused:\n%s", tool, got.Text)
				}
			})
		}
	}
}
