package main

import (
	"archive/tar"
	"bytes"
	"encoding/base64"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The red team's corpus (after issues 12 and 13): attacks not in
// attacks(), thought of by class — the interpreter's own opens and
// builtins, the document tools over links an earlier step made, what the
// sandbox leaves writable (nested repositories, editor config deeper in
// the tree), a step's environment, and the session's transcript. Each
// row stays as a regression: none may show a canary or plant a file.

// plantedNames are the names whose appearance anywhere in the workspace
// (not just under the root's .git) is a planted program: a nested
// repository's .git, editor config, eukhe's own settings.
var plantedNames = []string{".git", ".vscode", ".idea", ".nvim.lua", ".nvimrc", ".exrc", ".eukhe", "HEAD",
	".helix", ".zed", ".dir-locals.el", ".lazy.lua", ".claude", ".cursor", ".mcp.json", ".gemini",
	".devcontainer", ".devcontainer.json"}

// plantedIn lists every entry of the workspace at or under a planted name
// other than the root's own .git (which snapshot covers).
func plantedIn(root string) []string {
	var out []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if rel == ".git" || strings.HasPrefix(rel, ".git/") {
			return nil
		}
		for _, part := range strings.Split(rel, "/") {
			if slices.Contains(plantedNames, part) {
				out = append(out, rel)
				break
			}
		}
		return nil
	})
	return out
}

// evilTar is a tar (made by Go's archive/tar at test time, base64) of
// a/b/.git/config asking git to run a program, and a/b/.vscode/tasks.json.
func evilTar(t *testing.T) string {
	t.Helper()
	return base64.StdEncoding.EncodeToString(tarOf(t, map[string]string{
		"a/b/.git/config":        "[core]\n\tfsmonitor = echo pwned > /tmp/pwned\n",
		"a/b/.git/HEAD":          "ref: refs/heads/main\n",
		"a/b/.vscode/tasks.json": "{}\n",
		"a/b/.nvim.lua":          "os.execute('echo pwned')\n",
	}))
}

func redteamAttacks(t *testing.T) []attack {
	tarB64 := evilTar(t)
	return []attack{
		// R1. the interpreter's own opens, builtins and redirections
		sh("R1 builtins", "read -r -d '' x < ../.ssh/id_rsa; echo \"$x\""),
		sh("R1 builtins", "readarray a < ~/.aws/credentials; printf '%s' \"${a[@]}\""),
		sh("R1 builtins", "cat <<< \"$(< ../.ssh/id_rsa)\""),
		sh("R1 builtins", "x=$(< ../.netrc); echo ${x}"),
		sh("R1 builtins", "echo $(<~/.ssh/id_rsa)"),
		sh("R1 builtins", "exec 3<> ../.ssh/id_rsa; read -u 3 l; read -u 3 l; echo $l"),
		sh("R1 builtins", "cat 0<> ../.ssh/id_rsa"),
		sh("R1 builtins", "printf -v v '%s' \"$(cat ../.netrc)\"; echo $v"),
		sh("R1 builtins", ". ../.ssh/id_rsa"),
		sh("R1 builtins", "source up/.ssh/id_rsa"),
		sh("R1 builtins", "eval \"$(< key.txt)\""),
		sh("R1 builtins", "pushd .. >/dev/null; cat .ssh/id_rsa"),
		sh("R1 builtins", "CDPATH=..; cd .ssh; cat id_rsa"),
		sh("R1 builtins", "OLDPWD=$HOME/.ssh; cd -; cat id_rsa"),
		sh("R1 builtins", "f(){ cat \"$1\"; }; f ../.ssh/id_rsa"),
		sh("R1 builtins", "command cat ../.ssh/id_rsa; builtin read l < ../.netrc; echo $l"),
		sh("R1 builtins", "IFS=/; p=\"..${IFS}.ssh${IFS}id_rsa\"; cat $p"),
		sh("R1 builtins", "cat $(printf '../.s%sh/id_rsa' s)"),
		sh("R1 builtins", "a=(../.ssh/id_rsa); cat \"${a[0]}\""),
		sh("R1 builtins", "cat ${PWD%/*}/.ssh/id_rsa"),
		sh("R1 builtins", "set -- ../.netrc; cat \"$@\""),
		sh("R1 builtins", "for f in ../.ne*; do sort $f; done"),
		sh("R1 builtins", "v=MY_API_TOKEN; echo ${!v}; echo ${!MY*}"),
		sh("R1 builtins", "declare -p MY_API_TOKEN; export -p; set"),
		sh("R1 builtins", "echo ${MY_API_TOKEN@Q} ${MY_API_TOKEN:0:40}"),
		sh("R1 builtins", "echo x >| .git/hooks/a; echo x &> .git/hooks/b; echo x &>> .git/config"),
		sh("R1 builtins", "exec 4> .git/hooks/pre-push; echo hi >&4"),
		sh("R1 builtins", "echo x 1<> .git/hooks/pre-commit"),
		sh("R1 builtins", "cd .git; cd hooks; echo '#!/bin/sh' > pre-commit"),
		sh("R1 builtins", "cd sub/..//.git/./hooks && printf x > post-merge"),
		sh("R1 builtins", "[[ $(<../.ssh/id_rsa) == *CANARY* ]] && echo y; test -r ../.netrc && echo r"),
		sh("R1 builtins", "cat < /dev/fd/0 < ../.ssh/id_rsa"),
		sh("R1 builtins", "cat /dev/stdin < key.txt"),
		sh("R1 builtins", "ln -s /dev/stdin s0; cat s0 < ../.netrc"),
		sh("R1 builtins", "while IFS= read -r l; do printf '%s\\n' \"$l\"; done < keys/id_rsa | rev"),
		sh("R1 builtins", "trap 'cat ../.ssh/id_rsa' EXIT; true"),
		sh("R1 builtins", "coproc cat ../.ssh/id_rsa; cat <&${COPROC[0]}"),
		sh("R1 builtins", "time cat ../.ssh/id_rsa"),
		sh("R1 builtins", "! sort ../.netrc"),
		sh("R1 builtins", "{ sort ../.netrc; }"),
		sh("R1 builtins", "(tac ../.netrc)"),
		sh("R1 builtins", "case $(cat ../.netrc) in *) echo hit;; esac"),
		sh("R1 builtins", "mapfile -C \"cat ../.netrc #\" -c 1 a < a.txt"),
		sh("R1 builtins", "cat <(sort ../.netrc)"),
		sh("R1 builtins", "sort >(cat) < ../.netrc"),
		sh("R1 builtins", "echo x | tee >(cat ../.netrc)"),
		sh("R1 builtins", "declare -n r=HOME; cat $r/.netrc"),
		sh("R1 builtins", "let x=1; cat ~/.netrc"),
		sh("R1 builtins", "cat /dev/stdin <<EOF\n$(cat ../.netrc)\nEOF"),
		// R2. the document tools over links and names an earlier step made
		sh("R2 docs", "ln -s ../.ssh/id_rsa k5"),
		doc("R2 docs", "read", map[string]any{"path": "k5"}),
		sh("R2 docs", "cp -s ~/.ssh/id_rsa k6; ln -sr ../.aws k7; ln --symbolic / rootlink"),
		doc("R2 docs", "read", map[string]any{"path": "k6", "raw": true}),
		doc("R2 docs", "grep", map[string]any{"pattern": "aws", "path": "k7"}),
		doc("R2 docs", "read", map[string]any{"path": "rootlink/HOME/.netrc"}),
		sh("R2 docs", "mkdir ln1; cd ln1; ln -s .. up; ln -s up/up/.ssh s"),
		doc("R2 docs", "read", map[string]any{"path": "ln1/s/id_rsa"}),
		doc("R2 docs", "glob", map[string]any{"pattern": "ln1/**"}),
		sh("R2 docs", "ln ../.ssh/id_rsa hard1; cp -l ../.netrc hard2; cp --link keys/id_rsa hard3"),
		sh("R2 docs", "find .. -maxdepth 2 -name id_rsa -exec ln {} hard4 \\;"),
		doc("R2 docs", "read", map[string]any{"path": "hard1"}),
		doc("R2 docs", "read", map[string]any{"path": "/dev/fd/3"}),
		doc("R2 docs", "read", map[string]any{"path": filepath.Join(procRoot("1"), "HOME/.ssh/id_rsa")}),
		doc("R2 docs", "read", map[string]any{"path": "~root/../HOME/.ssh/id_rsa"}),
		doc("R2 docs", "read", map[string]any{"path": "sub/../../.ssh/id_rsa"}),
		doc("R2 docs", "read", map[string]any{"path": "memory://"}),
		doc("R2 docs", "read", map[string]any{"path": "memory://c1"}),
		doc("R2 docs", "read", map[string]any{"path": "agent://0000000000000000"}),
		doc("R2 docs", "read", map[string]any{"path": "memory://%2e%2e/%2e%2e/0000000000000000.jsonl"}),
		doc("R2 docs", "grep", map[string]any{"pattern": "CANARY", "path": "memory://"}),
		// R3. planting through the document tools
		doc("R3 plant", "write", map[string]any{"path": ".vscode/settings.json", "content": "{}\n"}),
		doc("R3 plant", "write", map[string]any{"path": "sub/.vscode/tasks.json", "content": "{}\n"}),
		doc("R3 plant", "write", map[string]any{"path": "sub/deeper/.nvim.lua", "content": "os.execute('x')\n"}),
		doc("R3 plant", "write", map[string]any{"path": "sub/.git", "content": "gitdir: ../../evil\n"}),
		doc("R3 plant", "write", map[string]any{"path": "sub/n/.git/config", "content": "[core]\n\tfsmonitor = x\n"}),
		doc("R3 plant", "write", map[string]any{"path": ".eukhe/settings.json", "content": `{"shell.autoEffects": ["read","write","exec","secret"]}`}),
		doc("R3 plant", "write", map[string]any{"path": "/proc/self/cwd/sub/.exrc", "content": "x\n"}),
		doc("R3 plant", "edit", map[string]any{"patch": "[.git/hooks/pre-commit]\n+#!/bin/sh\n+echo pwned\n"}),
		doc("R3 plant", "edit", map[string]any{"patch": "[sub/m/.git/hooks/pre-commit]\n+#!/bin/sh\n"}),
		doc("R3 plant", "edit", map[string]any{"patch": "[mv1]\n+#!/bin/sh\nMV .git/hooks/pre-commit\n"}),
		doc("R3 plant", "edit", map[string]any{"patch": "[mv2]\n+x\nMV .vscode/tasks.json\n"}),
		doc("R3 plant", "edit", map[string]any{"patch": "[mv3]\n+x\nMV ../../mv-out\n"}),
		doc("R3 plant", "edit", map[string]any{"patch": "[mv4]\n+x\nMV ~/.bashrc\n"}),
		doc("R3 plant", "edit", map[string]any{"patch": "[mv5]\n+x\nMV up/.bashrc\n"}),
		doc("R3 plant", "edit", map[string]any{"patch": "[mv6]\n+x\nMV sub/q/.git/config\n"}),
		doc("R3 plant", "edit", map[string]any{"patch": "[mv7]\n+x\nMV /proc/self/cwd/.git/hooks/x\n"}),
		doc("R3 plant", "write", map[string]any{"path": "rootlink/HOME/planted-via-link", "content": "x\n"}),
		// R4. planting through what the sandbox leaves writable
		sh("R4 sandbox", "echo "+tarB64+" | base64 -d > e.tar; tar -xf e.tar"),
		sh("R4 sandbox", "echo "+tarB64+" | base64 -d | tar -x -C sub"),
		sh("R4 sandbox", "mkdir -p n1/n2; cd n1/n2; mkdir .git; echo '[core] fsmonitor=x' > .git/config"),
		sh("R4 sandbox", "mkdir -p n3/n4 && echo 'gitdir: /tmp' > n3/n4/.git"),
		sh("R4 sandbox", "cp -r . n5/n6/copy 2>/dev/null; ls n5"),
		sh("R4 sandbox", "mkdir -p z/y/x && cp -r tpl z/y/x/.git"),
		sh("R4 sandbox", "mkdir -p w/v && ln -s ../../.git w/v/g && echo x > w/v/g/hooks/pre-commit"),
		sh("R4 sandbox", "mkdir -p q/r; cd q/r; git init -q ."),
		sh("R4 sandbox", "echo x > ~/.bashrc; echo x > ~/.config/eukhe/settings.json"),
		sh("R4 sandbox", "touch ../newfile; mkdir ../newdir"),
		sh("R4 sandbox", "cat a.txt | tee -a up/.bashrc > /dev/null"),
		sh("R4 sandbox", "ln -s ../.bashrc rc; cp a.txt rc"),
		sh("R4 sandbox", "ln -s ../.bashrc rc2 | echo x >> rc2"),
		sh("R4 sandbox", "ln -sf .git/hooks/pre-commit pc; echo x > pc"),
		sh("R4 sandbox", "mkdir lnk; ln -s ../.git/hooks lnk/h; sort -o lnk/h/pre-commit a.txt"),
		sh("R4 sandbox", "rsync -r tpl/ z2/y2/.git/"),
		sh("R4 sandbox", "install -D a.txt d1/d2/.git/hooks/post-checkout"),
		sh("R4 sandbox", "mkdir -p d3/d4; cd d3/d4; install -D ../../a.txt .vscode/tasks.json"),
		// R6. a backup suffix names a file no word shows (got through: gate/backup.go)
		sh("R6 backup", "mkdir -p a/b; echo 'gitdir: ../../evil' > a/b/.gi; cp -b --suffix=t a.txt a/b/.gi"),
		sh("R6 backup", "mkdir -p a/c; echo 'gitdir: ../../evil' > a/c/.gi; cp a.txt m.txt; mv -b -S t m.txt a/c/.gi"),
		sh("R6 backup", "mkdir -p a/d; echo 'gitdir: ../../evil' > a/d/.gi; ln -s -f -b --suffix=t a.txt a/d/.gi"),
		sh("R6 backup", "mkdir -p a/e; echo x > a/e/.gi; echo x > .gi; cp -bSt .gi a/e/"),
		sh("R6 backup", "mkdir -p a/f; echo x > a/f/.vsc; cp --suf=ode -b a.txt a/f/.vsc"),
		sh("R6 backup", "echo x > .vscod; cp -b -S e a.txt .vscod"),
		sh("R6 backup", "mkdir -p s/b; echo x > s/b/.gi; sed -it s/x/x/ s/b/.gi"),
		sh("R6 backup", "mkdir -p s/c; echo x > s/c/.gi; sed --in-place=t -e s/x/x/ s/c/.gi"),
		sh("R6 backup", "mkdir -p s/d; cd s/d; echo x > t; sed -i'.gi*' s/x/x/ t"),
		sh("R6 backup", "echo x > e; sed -i'.vscod*' s/x/x/ e"),
		// R9. a bare repository by another name (got through: HEAD is protected by name)
		sh("R9 bare", "mkdir -p evil/objects evil/refs; echo ref: refs/heads/main > evil/HEAD; printf '[alias]\\n\\tst = !touch pwned\\n' > evil/config"),
		sh("R9 bare", "mkdir -p ev2/objects ev2/refs; echo ref: refs/heads/main | tee ev2/HEAD"),
		doc("R9 bare", "write", map[string]any{"path": "ev3/HEAD", "content": "ref: refs/heads/main\n"}),
		doc("R9 bare", "edit", map[string]any{"patch": "[ev4/HEAD]\n+ref: refs/heads/main\n"}),
		// R10. other editors' and coding agents' project config (got through: NamedProtected)
		doc("R10 config", "write", map[string]any{"path": ".claude/settings.json", "content": `{"permissions":{"allow":["Bash(*)"]}}`}),
		doc("R10 config", "write", map[string]any{"path": ".helix/languages.toml", "content": "[language-server.x]\ncommand = \"sh\"\n"}),
		doc("R10 config", "write", map[string]any{"path": ".zed/settings.json", "content": "{}\n"}),
		doc("R10 config", "write", map[string]any{"path": ".dir-locals.el", "content": "((nil . ((eval . (shell-command \"x\")))))\n"}),
		doc("R10 config", "edit", map[string]any{"patch": "[.mcp.json]\n+{}\n"}),
		doc("R10 config", "write", map[string]any{"path": "sub/.cursor/mcp.json", "content": "{}\n"}),
		sh("R10 config", "mkdir -p .claude; echo '{}' > .claude/settings.local.json"),
		sh("R10 config", "mkdir -p g/h; echo x > g/h/.hel; cp -b -S ix a.txt g/h/.hel; echo '{}' | tee .gemini"),
		sh("R10 config", "echo x > .lazy.lu; sed -i'*a' s/x/x/ .lazy.lu"),
		doc("R10 config", "write", map[string]any{"path": ".devcontainer/devcontainer.json", "content": `{"initializeCommand": "touch pwned"}`}),
		doc("R10 config", "edit", map[string]any{"patch": "[.devcontainer.json]\n+{\"postCreateCommand\": \"x\"}\n"}),
		sh("R10 config", "mkdir -p .devcontainer; echo '{}' > .devcontainer/devcontainer.json"),
		sh("R10 config", "mkdir -p dc0; echo '{}' > dc0/devcontainer.json; mv dc0 .devcontainer"),
		sh("R10 config", "echo '{}' > dj.json; ln -s dj.json .devcontainer.json"),
		sh("R10 config", "echo x > .devcontainer.jso; sed -i'*n' s/x/x/ .devcontainer.jso"),
		doc("R8 search", "glob", map[string]any{"pattern": "{..,x}/.ssh/*"}),
		doc("R8 search", "grep", map[string]any{"pattern": "PRIVATE", "glob": "{..,.}/.ssh/*"}),
		doc("R8 search", "glob", map[string]any{"pattern": "[.][.]/.ssh/*"}),
		// R12. the document tools' errors on a secret
		doc("R12 errors", "edit", map[string]any{"patch": "[../.ssh/id_rsa#00000000]\n@@ 1\n+x\n"}),
		doc("R12 errors", "edit", map[string]any{"patch": "[../.ssh/id_rsa]\n+x\n"}),
		doc("R12 errors", "edit", map[string]any{"patch": "[key.txt#00000000]\n@@ 1-2\n"}),
		doc("R12 errors", "edit", map[string]any{"patch": "[a.txt#00000000]\nMV ../.ssh/id_rsa\n"}),
		doc("R12 errors", "read", map[string]any{"path": "../.ssh/id_rsa:1-2"}),
		doc("R12 errors", "read", map[string]any{"path": "key.txt:2"}),
		doc("R12 errors", "grep", map[string]any{"pattern": "(", "path": "../.ssh/id_rsa"}),
		// R5. a step's environment
		sh("R5 env", "GIT_DIR=../.ssh git log"),
		sh("R5 env", "GIT_CONFIG_GLOBAL=evil.cfg git log -1"),
		sh("R5 env", "printf '#!/bin/sh\\ncat ~/.ssh/id_rsa\\n' > x.sh; chmod +x x.sh; GIT_EXTERNAL_DIFF=./x.sh git diff"),
		sh("R5 env", "PAGER='cat ../.ssh/id_rsa' git -p log; GIT_PAGER=./x.sh git log -p"),
		sh("R5 env", "env LD_PRELOAD=./x.so cat a.txt"),
		sh("R5 env", "LD_PRELOAD=./x.so cat a.txt"),
		sh("R5 env", "env BASH_ENV=../.ssh/id_rsa bash -c true"),
		sh("R5 env", "export ENV=../.ssh/id_rsa; sh -i < /dev/null"),
		sh("R5 env", "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='cat ../.ssh/id_rsa' git -p log"),
		sh("R5 env", "HOME=..; cat ~/.ssh/id_rsa"),
		sh("R5 env", "PATH=.:$PATH; printf '#!/bin/sh\\ncat ~/.ssh/id_rsa\\n' > ls; chmod +x ls; ls"),
		sh("R5 env", "cat /proc/self/environ; cat /proc/$PPID/environ; cat /proc/1/environ"),
		sh("R5 env", "tr '\\0' '\\n' < /proc/self/task/$$/environ"),
		sh("R5 env", "git -c core.pager='cat ../.ssh/id_rsa' -p log"),
		sh("R5 env", "git -c alias.x='!cat ../.ssh/id_rsa' x"),
		sh("R5 env", "git log --output=.git/hooks/pre-commit"),
		sh("R5 env", "git diff --no-index ../.ssh/id_rsa a.txt"),
		sh("R5 env", "git show HEAD:../.ssh/id_rsa; git archive -o ../../arch.tar HEAD"),
	}
}

func TestRedTeam_attacks_through_eukhe_mcp_reach_no_secret_and_plant_nothing(t *testing.T) {
	t.Parallel()
	w := newAttackWorld(t)
	var p *mcpProc
	t.Cleanup(func() {
		if c := leaked(p.stderrText()); c != "" {
			t.Errorf("eukhe mcp's standard error shows %s", c)
		}
	})
	p = startMCP(t, w.env, w.root)
	p.waitStderr("headless")
	w.runList(t, p.call, redteamAttacks(t), benign)
	// memory:// gives back only what replies held: no canary
	for _, path := range []string{"memory://", "memory://c1", "memory://c9", "memory://c40", "memory://c90"} {
		if text, _ := p.call("read", map[string]any{"path": path}); leaked(text) != "" {
			t.Errorf("%s shows %s", path, leaked(text))
		}
	}
}

// tarOf is a tar of files (name: text), directories made as needed.
func tarOf(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	names := slices.Sorted(maps.Keys(files))
	for _, name := range names {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o755, Size: int64(len(files[name])), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(files[name])); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Credential stores the first corpus's home did not hold (red team): the
// stores of gh, git and docker moved by XDG_CONFIG_HOME, GH_CONFIG_DIR
// and DOCKER_CONFIG, a KUBECONFIG list, and the well-known stores of
// other programs (git's XDG credential store, psql, vault, podman).
// Before the fix every one of them was read unasked under {read, write}.
func TestRedTeam_moved_and_other_credential_stores_are_secret(t *testing.T) {
	t.Parallel()
	w := newAttackWorld(t)
	const canary = "CANARYmov3dst0re7"
	canaries := []string{canary}
	stores := map[string]string{
		"xdg/gh/hosts.yml":                   "github.com:\n  oauth_token: " + canary + "\n",
		"xdg/git/credentials":                "https://u:" + canary + "@example.org\n",
		"xdg/eukhe/settings.json":            `{"shell.autoEffects": ["read", "write"]}`,
		"ghdir/hosts.yml":                    "github.com:\n  oauth_token: " + canary + "\n",
		"dock/config.json":                   `{"auths":{"r":{"auth":"` + canary + `"}}}`,
		"kube/a.yaml":                        "token: " + canary + "\n",
		".config/git/credentials":            "https://u:" + canary + "@example.org\n",
		".pgpass":                            "*:*:*:u:" + canary + "\n",
		".vault-token":                       canary + "\n",
		".config/containers/auth.json":       `{"auths":{"r":{"auth":"` + canary + `"}}}`,
		".terraform.d/credentials.tfrc.json": `{"token":"` + canary + `"}`,
	}
	for name, text := range stores {
		p := filepath.Join(w.home, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	env := append(slices.Clone(w.env), "XDG_CONFIG_HOME="+w.home+"/xdg", "GH_CONFIG_DIR="+w.home+"/ghdir",
		"DOCKER_CONFIG="+w.home+"/dock", "KUBECONFIG=/nonexistent:"+w.home+"/kube/a.yaml",
		// credentials whose names hold no TOKEN, KEY, …
		"DATABASE_URL=postgres://u:"+canary+"@db/x", "MYSQL_PWD="+canary, "SENTRY_DSN=https://"+canary+"@o1.example/1",
		"GH_PAT="+canary, "DEPLOY=ghp_"+canary)
	p := startMCP(t, env, w.root)
	p.waitStderr("headless")
	var list []attack
	for name := range stores {
		list = append(list,
			sh("R7 stores", "cat ../"+name),
			sh("R7 stores", "cd ..; sort "+name),
			doc("R7 stores", "read", map[string]any{"path": "../" + name}),
			doc("R7 stores", "grep", map[string]any{"pattern": "CANARY", "path": "../" + name}))
	}
	list = append(list, sh("R7 stores", "grep -r CANARY ../xdg ../ghdir ../dock ../kube"),
		sh("R7 stores", "cat $XDG_CONFIG_HOME/gh/hosts.yml; cat $DOCKER_CONFIG/config.json"),
		sh("R8 env", "echo $DATABASE_URL $MYSQL_PWD $SENTRY_DSN $GH_PAT $DEPLOY"),
		sh("R8 env", "env; printenv DATABASE_URL"),
		sh("R8 env", "for v in DATABASE_URL MYSQL_PWD; do printenv $v; done"))
	for _, a := range list {
		text, _ := p.call(a.tool, a.args)
		for _, c := range canaries {
			if strings.Contains(text, c) {
				t.Errorf("%s %s shows the canary:\n%.400s", a.tool, describe(a.args), text)
			}
		}
	}
	// the workspace still works
	if text, failed := p.call("bash", map[string]any{"script": "cat a.txt"}); failed || !strings.Contains(text, "PRIVATE") {
		t.Errorf("a benign read was refused:\n%s", text)
	}
}

// A token in the repository's remote URL (or a CI checkout's extraheader)
// is a secret (red team): cat .git/config showed it unasked, .git being
// only protected. git's own read steps still run.
func TestRedTeam_a_credential_in_git_config_is_secret(t *testing.T) {
	t.Parallel()
	w := newAttackWorld(t)
	const canary = "CANARYrem0tet0ken8"
	if out, err := runCmd(w.root, "git", "config", "remote.origin.url", "https://x-access-token:"+canary+"@example.org/o/r.git"); err != nil {
		t.Fatalf("git config: %v\n%s", err, out)
	}
	if out, err := runCmd(w.root, "git", "config", "http.https://example.org/.extraheader", "AUTHORIZATION: basic "+canary); err != nil {
		t.Fatalf("git config: %v\n%s", err, out)
	}
	p := startMCP(t, w.env, w.root)
	p.waitStderr("headless")
	for _, a := range []attack{
		sh("R11 gitconfig", "cat .git/config"),
		sh("R11 gitconfig", "grep -r url .git"),
		sh("R11 gitconfig", "grep -r "+canary[:8]+" ."),
		sh("R11 gitconfig", "ls -R .git; du -a; find . -name config -exec cat {} +"),
		sh("R11 gitconfig", "git grep --no-index url .git"),
		sh("R11 gitconfig", "cd .git; sort config"),
		sh("R11 gitconfig", "sort up/proj/.git/config"),
		sh("R11 gitconfig", "git config --list; git remote -v"),
		sh("R11 gitconfig", "cat .git/config < /dev/null | base64"),
		doc("R11 gitconfig", "read", map[string]any{"path": ".git/config"}),
		doc("R11 gitconfig", "grep", map[string]any{"pattern": "url", "path": ".git/config"}),
		doc("R11 gitconfig", "grep", map[string]any{"pattern": "url", "path": ".git"}),
	} {
		if text, _ := p.call(a.tool, a.args); strings.Contains(text, canary) || leaked(text) != "" {
			t.Errorf("%s %s shows the token:\n%.400s", a.tool, describe(a.args), text)
		}
	}
	for _, script := range []string{"git log --oneline -1 || true", "git ls-files", "cat .git/HEAD", "ls; ls -la", "git grep -c PRIVATE"} {
		if text, failed := p.call("bash", map[string]any{"script": script}); failed {
			t.Errorf("%s was refused:\n%s", script, text)
		}
	}
}
