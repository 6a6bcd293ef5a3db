// Package userkey keeps the keys only eukhe reads: 32 random bytes in a
// file named "key", of this user's alone, in a directory under eukhe's
// state directory ($XDG_STATE_HOME/eukhe, default ~/.local/state/eukhe).
// The sandbox hides that directory from every step and the gate judges it
// secret, so an agent's step can neither read a key nor replace it: what
// is signed with one (a crash journal, a discovery entry) was written by
// eukhe. A digest anyone could compute would prove nothing.
//
// The laws it keeps:
//   - A key is read each time it is used (a key replaced by hand is the
//     one in force), opened without following a link at its last part,
//     and refused unless it is a regular file of this user's alone holding
//     32 bytes (Key).
//   - The key's directory is as much the key's: it and every directory
//     between eukhe's state directory and it are opened without following
//     a link, one part at a time, and refused unless each is a directory
//     of this user's that no one else may write; the key is then opened in
//     the directory so opened, never again by path (openDir, the
//     thirty-second red team's linked key directory). A link above the
//     state directory, or at it, is the user's own layout and is followed
//     (a write there is secret to the gate). Unix only: on Windows the
//     key's directory is opened by path (key_windows.go).
//   - A missing key is made without ever replacing one: written under a
//     temporary name (O_EXCL, 0600), synced, then linked to its name, so
//     two processes starting at once agree on the first (make32).
//   - A MAC binds its purpose: the domain is hashed first, so a key used
//     for two purposes never makes one's MAC valid as the other's (MAC).
package userkey

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Name is the key file's name in its directory.
const Name = "key"

// stateDirName is the name of eukhe's state directory
// ($XDG_STATE_HOME/eukhe): every key's directory lies below it.
const stateDirName = "eukhe"

// Key is the key in dir, made (with dir, mode 0700) when there is none.
func Key(dir string) ([]byte, error) {
	d, err := openDir(dir, true)
	if err != nil {
		return nil, err
	}
	defer d.close()
	k, err := d.read()
	if errors.Is(err, fs.ErrNotExist) {
		err = d.make32()
		if err == nil || errors.Is(err, fs.ErrExist) {
			k, err = d.read()
		}
	}
	return k, err
}

// Existing is the key in dir, never made: a reader that finds none has
// nothing to check a signature with.
func Existing(dir string) ([]byte, error) {
	d, err := openDir(dir, false)
	if err != nil {
		return nil, err
	}
	defer d.close()
	return d.read()
}

// MAC is the HMAC-SHA256 of the parts under key, for domain: each part
// ends with a zero byte, so no two lists of parts hash alike.
func MAC(key []byte, domain string, parts ...[]byte) []byte {
	m := hmac.New(sha256.New, key)
	io.WriteString(m, domain)
	m.Write([]byte{0})
	for _, p := range parts {
		m.Write(p)
		m.Write([]byte{0})
	}
	return m.Sum(nil)
}

// splitAtState splits a key's directory into the directory it is opened
// from, following links (eukhe's state directory: the last ancestor named
// stateDirName; with none, dir's parent), and the parts below it, each
// opened without following a link.
func splitAtState(dir string) (base string, parts []string) {
	dir = filepath.Clean(dir)
	for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
		if filepath.Base(d) == stateDirName {
			base = d
			break
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	if base == "" {
		base = filepath.Dir(dir)
		if base == dir { // the root itself
			return base, nil
		}
	}
	rel, err := filepath.Rel(base, dir)
	if err != nil || rel == "." {
		return base, nil
	}
	return base, strings.Split(rel, string(filepath.Separator))
}

// read is the key in d, checked (ownedAlone, 32 bytes).
func (d *keyDir) read() ([]byte, error) {
	f, err := d.open(Name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := ownedAlone(f); err != nil {
		return nil, err
	}
	k, err := io.ReadAll(io.LimitReader(f, 64))
	if err == nil && len(k) != 32 {
		err = fmt.Errorf("it holds %d bytes, not 32: remove it and start eukhe again", len(k))
	}
	return k, err
}

// make32 makes a key in d under a temporary name, then links it to Name:
// fs.ErrExist when another process made one first.
func (d *keyDir) make32() error {
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		return err
	}
	tmp := Name + "." + strconv.Itoa(os.Getpid()) + "." + hex.EncodeToString(k[:4]) + ".new"
	f, err := d.create(tmp)
	if err != nil {
		return err
	}
	defer d.remove(tmp)
	_, err = f.Write(k)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = d.link(tmp, Name)
	}
	if err == nil {
		d.sync()
	}
	return err
}
