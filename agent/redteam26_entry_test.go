//go:build linux

package agent

// The twenty-sixth red team's rows on the socket-entry rule by its name
// (gate.DiscoveryEntryName in a directory named eukhe, eukhe-UID or
// eukhe/run): shapes of the shell's words that write such an entry
// without naming it as the sixteenth red team's rows did. The rows that
// got through are in redteam26_open_attacks_test.go.

import (
	"testing"
)

// Attack (change 3: the socket-entry name rule; bubblewrap and Landlock,
// the default auto set): an entry of another eukhe's socket directory
// written by the shell's words with the entry's name spelled another way:
// tee, dd of=, sed's w, the path with //, /./ or /../, through a link to
// the directory, after a cd, by a variable, a .tmp renamed by a glob.
// Held: each is judged as the entry's own path (secret), or refused as
// changed when it runs; nothing is made.
func TestRedteam26_OtherEukheSocketEntrySpelledOtherwiseIsHeld(t *testing.T) {
	shapes := map[string]string{
		"tee":                  "mkdir -p D/eukhe && printf {} | tee D/eukhe/1-0123abcd.json",
		"dd of=":               "mkdir -p D/eukhe && printf {} > D/s && dd if=D/s of=D/eukhe/1-0123abcd.json",
		"double slash":         "mkdir -p D/eukhe && printf {} > D/eukhe//1-0123abcd.json",
		"dot part":             "mkdir -p D/eukhe && printf {} > D/eukhe/./1-0123abcd.json",
		"dot-dot part":         "mkdir -p D/eukhe D/x && printf {} > D/x/../eukhe/1-0123abcd.json",
		"through a link to it": "mkdir -p D/eukhe && ln -s D/eukhe D/l && printf {} > D/l/1-0123abcd.json",
		"cd into it":           "mkdir -p D/eukhe && cd D/eukhe && printf {} > 1-0123abcd.json",
		"a variable's name":    "mkdir -p D/eukhe && n=1-0123abcd; printf {} > D/eukhe/$n.json",
		"a glob onto a tmp":    "mkdir -p D/eukhe && printf {} > D/eukhe/1-0123abcd.json.tmp && mv D/eukhe/1-0123abcd.json.t?p D/eukhe/1-0123abcd.json",
		"sed w":                "mkdir -p D/eukhe && printf 'x\\n' > D/s && sed -n 'w D/eukhe/1-0123abcd.json' D/s",
	}
	r13eachSandbox(t, func(t *testing.T) {
		for name, sc := range shapes {
			if made, asked, text := r15otherEntry(t, sc); made {
				t.Errorf("THROUGH (%s): made, %d questions:\n%s", name, asked, text)
			}
		}
	})
}

// Attack (change 3: the socket-entry name rule; bubblewrap and Landlock,
// the default auto set): an entry of another eukhe's socket directory
// written by the shell's words, the entry's name taken from the source:
// cp, mv, ln and install into D/eukhe/, cp -t and mv -t, cp -r of a
// directory's contents (its "." or a glob), mv of a glob, tar x -C
// D/eukhe, a symbolic link made in it by its target's name (discovery's
// ReadFile follows it), and cp -r of a private directory as D/eukhe (the
// fifteenth's by-its-directory class, by a copy instead of a rename). The sixteenth red team's rows named the entry as the
// destination; these name only the directory.
// THROUGH (severity medium: the same effect as the known row of an opaque
// program writing the entry, TestRedteam16/15's "by a program" class, but
// here by words the gate reads and claims to judge): each makes
// D/eukhe/1-0123abcd.json, no question asked. Root cause: a copy, move or
// link into a directory is judged as a write of that directory (and of
// the source's name in it only where a rule by place covers it);
// anyEukheRunEntry is a rule on the destination's own last part, so a
// destination that is the directory (D/eukhe, judged with base "eukhe")
// never matches. tar x, cp -r and a glob bring names the words do not
// spell at all.
// Held: a write that makes or fills a directory named eukhe, eukhe-UID or eukhe/run outside every root is judged as a write of the files another eukhe keeps there: secret (gate: Policy.eukheDirOutside).
func TestRedteam26_OtherEukheSocketEntryIntoItsDirectoryByName(t *testing.T) {
	shapes := map[string]string{
		"cp into the directory":       "mkdir -p D/eukhe D/s && printf {} > D/s/1-0123abcd.json && cp D/s/1-0123abcd.json D/eukhe/",
		"mv into the directory":       "mkdir -p D/eukhe D/s && printf {} > D/s/1-0123abcd.json && mv D/s/1-0123abcd.json D/eukhe",
		"install into the directory":  "mkdir -p D/eukhe D/s && printf {} > D/s/1-0123abcd.json && install -m 600 D/s/1-0123abcd.json D/eukhe/",
		"cp -t":                       "mkdir -p D/eukhe D/s && printf {} > D/s/1-0123abcd.json && cp -t D/eukhe D/s/1-0123abcd.json",
		"mv -t":                       "mkdir -p D/eukhe D/s && printf {} > D/s/1-0123abcd.json && mv -t D/eukhe D/s/1-0123abcd.json",
		"cp -r of a directory's dot":  "mkdir -p D/eukhe D/s && printf {} > D/s/1-0123abcd.json && cp -r D/s/. D/eukhe/",
		"cp -r of a directory's glob": "mkdir -p D/eukhe D/s && printf {} > D/s/1-0123abcd.json && cp -r D/s/* D/eukhe/",
		"mv of a glob":                "mkdir -p D/eukhe D/s && printf {} > D/s/1-0123abcd.json && mv D/s/* D/eukhe/",
		"ln -s into the directory":    "mkdir -p D/eukhe D/s && printf {} > D/s/1-0123abcd.json && ln -s D/s/1-0123abcd.json D/eukhe/",
		"cp -r of a directory as it":  "mkdir -p D/s && printf {} > D/s/1-0123abcd.json && cp -r D/s D/eukhe",
		"tar x into it":               "mkdir -p D/eukhe D/s && printf {} > D/s/1-0123abcd.json && tar -C D/s -cf D/a.tar 1-0123abcd.json && tar -C D/eukhe -xf D/a.tar",
	}
	r13eachSandbox(t, func(t *testing.T) {
		for name, sc := range shapes {
			if made, asked, text := r15otherEntry(t, sc); made {
				t.Errorf("THROUGH (%s): made, %d questions:\n%s", name, asked, text)
			}
		}
	})
}

// Attack (the same shape, on the settings row: anyGateFile's
// D/eukhe/settings.json): another eukhe's settings file copied or moved
// into D/eukhe/ by its name (cp, mv, cp -t), not named as the
// destination. THROUGH (severity medium, as the row above: the
// fourteenth's by-a-program class reaches the same): the file holds
// confinement "off", nothing asked. Root cause: as above.
// Held: a write that makes or fills a directory named eukhe, eukhe-UID or eukhe/run outside every root is judged as a write of the files another eukhe keeps there: secret (gate: Policy.eukheDirOutside).
func TestRedteam26_OtherEukheSettingsFileIntoItsDirectoryByName(t *testing.T) {
	shapes := map[string]string{
		"cp into the directory": "mkdir -p D/eukhe D/s && printf %s OFF > D/s/settings.json && cp D/s/settings.json D/eukhe/",
		"mv into the directory": "mkdir -p D/eukhe D/s && printf %s OFF > D/s/settings.json && mv D/s/settings.json D/eukhe",
		"cp -t":                 "mkdir -p D/eukhe D/s && printf %s OFF > D/s/settings.json && cp -t D/eukhe D/s/settings.json",
	}
	r13eachSandbox(t, func(t *testing.T) {
		for name, sc := range shapes {
			if made, asked, text := r15otherSettings(t, sc); made {
				t.Errorf("THROUGH (%s): made, %d questions:\n%s", name, asked, text)
			}
		}
	})
}
