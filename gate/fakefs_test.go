package gate

import (
	"errors"
	"strings"

	"pgregory.net/rapid"
)

// fakeFS is a filesystem in a map, for the laws: any symlinks, loops too.
type fakeFS map[string]fakeNode

type fakeNode struct {
	kind   Kind
	target string
}

func (f fakeFS) Kind(p string) Kind {
	if p == "/" {
		return KindDir
	}
	n, ok := f[p]
	if !ok {
		return KindMissing
	}
	return n.kind
}

// Plain walks the map: every part exists and none is a link.
func (f fakeFS) Plain(p string) bool {
	if p == "/" {
		return true
	}
	for i := 1; i <= len(p); i++ {
		if i == len(p) || p[i] == '/' {
			if k := f.Kind(p[:i]); k == KindMissing || k == KindLink {
				return false
			}
		}
	}
	return true
}

func (f fakeFS) Readlink(p string) (string, error) {
	n, ok := f[p]
	if !ok || n.kind != KindLink {
		return "", errors.New("not a link")
	}
	return n.target, nil
}

// The places of the laws' world: a home with ssh keys and eukhe's config,
// a project root, and a /proc whose links lead into the project.
const (
	lawHome    = "/home/u"
	lawRoot    = "/home/u/proj"
	lawUserDir = "/home/u/.config/eukhe"
)

// lawNames are the names the generators build paths from.
var lawNames = []string{"a", "b", ".ssh", ".git", ".eukhe", "proj", "home", "u", ".config",
	"eukhe", "id_ed25519", "settings.json", "hooks", "proj_extra", "x", "proc", "self", "cwd"}

// genFS draws a filesystem: the fixed places, then random directories,
// files and links (to absolute or relative targets, dangling, looping)
// each under a directory that exists.
func genFS(t *rapid.T) fakeFS {
	f := fakeFS{}
	for _, d := range []string{"/home", lawHome, lawRoot, lawHome + "/.ssh", lawHome + "/.config",
		lawUserDir, lawRoot + "/.git", lawRoot + "/.eukhe", "/tmp", "/bin"} {
		f[d] = fakeNode{kind: KindDir}
	}
	f[lawHome+"/.ssh/id_ed25519"] = fakeNode{kind: KindFile}
	// A process filesystem: /proc/self and a process's cwd are links.
	f["/proc"] = fakeNode{kind: KindDir}
	f["/proc/1"] = fakeNode{kind: KindDir}
	f["/proc/self"] = fakeNode{kind: KindLink, target: "1"}
	f["/proc/1/cwd"] = fakeNode{kind: KindLink, target: lawRoot}
	n := rapid.IntRange(0, 12).Draw(t, "nodes")
	for i := 0; i < n; i++ {
		var dirs []string
		for p, node := range f {
			if node.kind == KindDir {
				dirs = append(dirs, p)
			}
		}
		sortStrings(dirs)
		parent := rapid.SampledFrom(dirs).Draw(t, "parent")
		name := rapid.SampledFrom(lawNames).Draw(t, "name")
		p := strings.TrimSuffix(parent, "/") + "/" + name
		if _, ok := f[p]; ok {
			continue
		}
		switch rapid.IntRange(0, 2).Draw(t, "kind") {
		case 0:
			f[p] = fakeNode{kind: KindDir}
		case 1:
			f[p] = fakeNode{kind: KindFile}
		default:
			f[p] = fakeNode{kind: KindLink, target: genPath(t, "target")}
		}
	}
	return f
}

// genPath draws a path, absolute or relative, with . and .. parts.
func genPath(t *rapid.T, label string) string {
	parts := rapid.SliceOfN(rapid.SampledFrom(append([]string{".", ".."}, lawNames...)), 0, 6).Draw(t, label)
	p := strings.Join(parts, "/")
	if rapid.Bool().Draw(t, label+"-abs") {
		return "/" + p
	}
	if p == "" {
		return "."
	}
	return p
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// lawPlaces are the places of the laws' world.
func lawPlaces() Places {
	return Places{
		Home: lawHome, UserDir: lawUserDir, Roots: []string{lawRoot},
		SettingsFiles: []string{lawUserDir + "/settings.json", lawRoot + "/.eukhe/settings.json"},
		PathDirs:      []string{"/bin"},
	}
}

// genAuto draws any auto set.
func genAuto(t *rapid.T) AutoSet {
	return AutoOf(Effects(rapid.Uint8Range(0, uint8(allEffects)).Draw(t, "auto")))
}

// genEffects draws any set of effects.
func genEffects(t *rapid.T, label string) Effects {
	return Effects(rapid.Uint8Range(0, uint8(allEffects)).Draw(t, label))
}

// genAnswer draws any answer.
func genAnswer(t *rapid.T, label string) Answer {
	return rapid.SampledFrom([]Answer{Unanswered, Approve, Deny, GatewayRefused}).Draw(t, label)
}
