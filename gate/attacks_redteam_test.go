package gate

import (
	"os"
	"path/filepath"
	"testing"
)

// The red team's rows (after issues 12 and 13), kept as TestAttacks
// keeps its own: each must have the effects in has (so it asks under
// {read, write}); the rows with runs set must still run unasked.
var redteamAttacks = []struct {
	script string
	has    Effects
	runs   bool
}{
	// A backup suffix makes a name no word shows: DEST+SUFFIX.
	{script: "cp -b --suffix=t a.txt a/b/.gi", has: Of(Protected)},
	{script: "cp -b -S t a.txt a/b/.gi", has: Of(Protected)},
	{script: "cp -bSt a.txt a/b/.gi", has: Of(Protected)},
	{script: "cp --suf=t -b a.txt a/b/.gi", has: Of(Protected)},
	{script: "cp --suffix t --backup=simple a.txt a/b/.gi", has: Of(Protected)},
	{script: "cp -b -S t .gi a/b/", has: Of(Protected)},
	{script: "cp -b -S t -t a/b .gi", has: Of(Protected)},
	{script: "mv -b -S t a.txt a/b/.gi", has: Of(Protected)},
	{script: "mv --backup=simple --suffix=ode a.txt a/b/.vsc", has: Of(Protected)},
	{script: "ln -s -f -b --suffix=t a.txt a/b/.gi", has: Of(Protected)},
	{script: "ln -f -b -S .lua a.txt a/.nvim", has: Of(Protected)},
	{script: "cp -b -S t a.txt ../x", has: Of(Outside)},
	{script: "S=t; cp -b -S $S a.txt a/b/.gi", has: Of(Protected)},
	{script: "SIMPLE_BACKUP_SUFFIX=t cp -b a.txt a/b/.gi", has: Of(Exec)},
	{script: "export SIMPLE_BACKUP_SUFFIX=t; cp -b a.txt a/b/.gi", has: Of(Exec)},
	{script: "cp -b a.txt a/b/x; mv --backup=numbered a.txt b.txt; cp -b -S .bak a.txt c.txt", runs: true},
	{script: "ln -sfb -S .old a.txt cur", runs: true},
	// sed -i SUFFIX too.
	{script: "sed -it s/x/x/ a/b/.gi", has: Of(Protected)},
	{script: "sed --in-place=t -e s/x/x/ a/b/.gi", has: Of(Protected)},
	{script: "sed --in-pl=t -e s/x/x/ a/b/.gi", has: Of(Protected)},
	{script: "sed -nit -e p a/b/.gi", has: Of(Protected)},
	{script: "cd a/b; sed -i'.gi*' s/x/x/ t", has: Of(Protected)},
	{script: "sed -i'.vscod*' s/x/x/ e", has: Of(Protected)},
	{script: "sed -i'.git/hooks/*' s/x/x/ pre-commit", has: Of(Protected)},
	{script: "sed -i.bak s/x/y/ a.txt; sed -i s/x/y/ a.txt", runs: true},

	// A bare repository by another name: HEAD makes it one.
	{script: "mkdir -p evil/objects evil/refs; echo ref: refs/heads/main > evil/HEAD", has: Of(Protected)},
	{script: "echo ref: refs/heads/main | tee evil/HEAD", has: Of(Protected)},
	{script: "cp a.txt evil/HEAD", has: Of(Protected)},
	{script: "echo x > evil/HEA; mv -b -S D a.txt evil/HEA", has: Of(Protected)},
	{script: "echo x > evil/HEA; sed -i'*D' s/x/x/ evil/HEA", has: Of(Protected)},
	{script: "ln -s refs/heads/main evil/HEAD", has: Of(Protected)},
	{script: "cd evil; echo ref: x > HEA\\D", has: Of(Protected)},
	{script: "cat evil/HEAD; git rev-parse HEAD; git log HEAD~1", runs: true},
	{script: "git update-ref refs/heads/x HEAD; git branch y HEAD^; git symbolic-ref HEAD refs/heads/x", runs: true},

	// Other editors' and agents' project config.
	{script: "mkdir -p .claude; echo '{}' > .claude/settings.json", has: Of(Protected)},
	{script: "echo x | tee sub/.helix/languages.toml", has: Of(Protected)},
	{script: "cp a.txt .dir-locals.el; touch .mcp.json", has: Of(Protected)},
	{script: "echo x > .zed", has: Of(Protected)},
	{script: "mv a.txt x/.cursor", has: Of(Protected)},
	{script: "cat .claude/settings.json .helix/languages.toml", runs: true},

	// Spellings of a protected name the interpreter rebuilds.
	{script: "mkdir -p a/b; touch a/b/{.g,}it", has: Of(Protected)},
	{script: "touch a/b/.g''it a/b/.gi\\t", has: Of(Protected)},
	{script: "touch a/b/$'.gi\\x74' a/b/.gi$'t'", has: Of(Protected)},
	{script: "x=git; touch a/b/.$x", has: Of(Protected)},
	{script: "x=.GIT; touch a/b/${x,,}", has: Of(Protected)},
	{script: "touch a/b/${HOME:0:0}.git", has: Of(Protected)},
	{script: "printf x > a/b/.vs\\code", has: Of(Protected)},

	// A store moved by a variable, reached through a link or a cd.
	{script: "cat ~/.config/containers/auth.json", has: Of(Secret)},
	{script: "cat ~/.config/git/credentials ~/.pgpass", has: Of(Secret)},
	{script: "cd ~/.config/git; cat credentials", has: Of(Secret)},
	{script: "ln -s ~/.vault-token vt", has: Of(Secret)},

	// Stopped before the red team came (kept so they stay stopped): the
	// interpreter's own opens and builtins.
	{script: "read -r -d '' x < ../.ssh/id_ed25519; echo \"$x\"", has: Of(Secret)},
	{script: "readarray a < ~/.ssh/id_ed25519", has: Of(Secret)},
	{script: "cat <<< \"$(< ../.ssh/id_ed25519)\"", has: Of(Secret)},
	{script: "exec 3<> ../.ssh/id_ed25519; read -u 3 l", has: Of(Secret)},
	{script: "cat 0<> ../.ssh/id_ed25519", has: Of(Secret)},
	{script: ". ../.ssh/id_ed25519", has: Of(Secret)},
	{script: "eval \"$(< ../.ssh/id_ed25519)\"", has: Of(Secret)},
	{script: "pushd .. >/dev/null; cat .ssh/id_ed25519", has: Of(Exec)},
	{script: "CDPATH=..; cd .ssh; cat id_ed25519", has: Of(Exec)},
	{script: "OLDPWD=$HOME/.ssh; cd -; cat id_ed25519", has: Of(Secret)},
	{script: "f(){ cat \"$1\"; }; f ../.ssh/id_ed25519", has: Of(Secret)},
	{script: "IFS=/; p=\"..${IFS}.ssh${IFS}id_ed25519\"; cat $p", has: Of(Exec)},
	{script: "cat ${PWD%/*}/.ssh/id_ed25519", has: Of(Secret)},
	{script: "echo x >| .git/hooks/a", has: Of(Protected)},
	{script: "echo x &>> .git/config", has: Of(Protected)},
	{script: "exec 4> .git/hooks/pre-push", has: Of(Protected)},
	{script: "echo x 1<> .git/hooks/pre-commit", has: Of(Protected)},
	{script: "cd .git; cd hooks; echo x > pre-commit", has: Of(Protected)},
	{script: "mkdir -p n1/n2; cd n1/n2; mkdir .git", has: Of(Protected)},
	{script: "echo 'gitdir: /tmp' > n3/n4/.git", has: Of(Protected)},
	{script: "cp -r tpl z/y/x/.git", has: Of(Protected)},
	{script: "ln -s ../../.git w/v/g", has: Of(Protected)},
	{script: "split -n 20 -a 1 f c/d/.gi", has: Of(Exec)},
	{script: "tar -xf e.tar", has: Of(Exec)},
	{script: "LD_PRELOAD=./x.so cat a.txt", has: Of(Exec)},
	{script: "env LD_PRELOAD=./x.so cat a.txt", has: Of(Exec)},
	{script: "GIT_DIR=../.ssh git log", has: Of(Exec)},
	{script: "GIT_EXTERNAL_DIFF=./x.sh git diff", has: Of(Exec)},
	{script: "git -c core.pager='cat x' -p log", has: Of(Exec)},
}

func TestRedTeamAttacks(t *testing.T) {
	w := newAttackWorld(t)
	for _, a := range redteamAttacks {
		script := a.script
		if script == "cat ${PWD%/*}/.ssh/id_ed25519" && filepath.Separator == '\\' {
			// Windows: PWD is C:\w\proj, as the interpreter sets it, so
			// the parent is cut at a backslash ('/' cuts nothing there)
			script = `cat ${PWD%\\*}/.ssh/id_ed25519`
		}
		w.judgeRow(t, w.root, script, a.has, a.runs)
	}
}

// A store a variable moves is secret where it moved to, and so are the
// other programs' stores (red team): before, XDG_CONFIG_HOME=/x left
// /x/gh/hosts.yml readable unasked.
func TestMovedAndOtherStoresAreSecret(t *testing.T) {
	w := newAttackWorld(t)
	x := filepath.Join(w.base, "x")
	pl := Places{Home: w.home, Roots: []string{w.root}, Env: map[string]string{
		"XDG_CONFIG_HOME": x + "/cfg", "XDG_DATA_HOME": "~/data", "GH_CONFIG_DIR": x + "/gh",
		"DOCKER_CONFIG": x + "/dock", "KUBECONFIG": x + "/k1" + string(os.PathListSeparator) + x + "/k2", "CARGO_HOME": x + "/cargo",
		"GNUPGHOME": "relative/is/ignored", "PASSWORD_STORE_DIR": "/",
	}}
	p := pl.Policy(OS)
	for _, s := range []string{x + "/cfg/gh/hosts.yml", x + "/cfg/git/credentials", x + "/cfg/gcloud/x",
		w.home + "/data/keyrings/login.keyring", x + "/gh/hosts.yml", x + "/dock/config.json", x + "/k1", x + "/k2",
		x + "/cargo/credentials.toml", w.home + "/.config/git/credentials", w.home + "/.pgpass",
		w.home + "/.vault-token", w.home + "/.config/containers/auth.json"} {
		if c := p.Class(RealPath{Path: policyPath(OS, s)}); c != ClassSecret {
			t.Errorf("%s is %s, want secret", s, c)
		}
	}
	for _, s := range []string{x + "/cfg/nvim/init.lua", x + "/cargo/registry/x", w.root + "/a.txt", "/usr/bin/cat"} {
		if c := p.Class(RealPath{Path: policyPath(OS, s)}); c == ClassSecret {
			t.Errorf("%s is secret", s)
		}
	}
}

// A git config that holds a credential is told from one that does not.
func TestHoldsCredential(t *testing.T) {
	for text, want := range map[string]bool{
		"[remote \"origin\"]\n\turl = https://x-access-token:ghp_abc@github.com/o/r.git\n": true,
		"[remote \"o\"]\n\tpushurl = https://u:p@host/r\n":                                 true,
		"[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic eA==\n":      true,
		"[url \"https://u:tok@host/\"]\n\tinsteadOf = https://host/\n":                     true,
		"[remote \"origin\"]\n\turl = https://github.com/o/r.git\n":                        false,
		"[remote \"origin\"]\n\turl = git@github.com:o/r.git\n":                            false,
		"[remote \"origin\"]\n\turl = ssh://git@host:22/r\n":                               false,
		"[core]\n\tbare = false\n":                                                         false,
	} {
		if HoldsCredential(text) != want {
			t.Errorf("HoldsCredential(%q) = %v", text, !want)
		}
	}
	w := newAttackWorld(t)
	cfg := filepath.Join(w.root, ".git", "config")
	p := Places{Home: w.home, Roots: []string{w.root}, CredentialFiles: []string{cfg}}.Policy(OS)
	if c := p.Class(RealPath{Path: policyPath(OS, cfg)}); c != ClassSecret {
		t.Errorf("%s is %s, want secret", cfg, c)
	}
	root := RealPath{Path: policyPath(OS, w.root)}
	if !p.HoldsSecretIn(root, CwdAll) || p.HoldsSecretIn(root, CwdEntries) || p.HoldsSecretIn(root, CwdWorkTree) {
		t.Errorf("the root holds its config's token for a walk only: all %v, entries %v, work tree %v",
			p.HoldsSecretIn(root, CwdAll), p.HoldsSecretIn(root, CwdEntries), p.HoldsSecretIn(root, CwdWorkTree))
	}
	git := RealPath{Path: policyPath(OS, w.root+"/.git")}
	if !p.HoldsSecretIn(git, CwdEntries) || !p.HoldsSecretIn(git, CwdWorkTree) {
		t.Error("ls .git and git -C .git must see the config")
	}
}
