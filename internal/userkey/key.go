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
//   - A missing key is made without ever replacing one: written under a
//     temporary name (O_EXCL, 0600), synced, then linked to its name, so
//     two processes starting at once agree on the first (make).
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
)

// Name is the key file's name in its directory.
const Name = "key"

// Key is the key in dir, made (with dir, mode 0700) when there is none.
func Key(dir string) ([]byte, error) {
	path := filepath.Join(dir, Name)
	k, err := read(path)
	if errors.Is(err, fs.ErrNotExist) {
		if err = os.MkdirAll(dir, 0o700); err == nil {
			err = make32(path)
		}
		if err == nil || errors.Is(err, fs.ErrExist) {
			k, err = read(path)
		}
	}
	return k, err
}

// Existing is the key in dir, never made: a reader that finds none has
// nothing to check a signature with.
func Existing(dir string) ([]byte, error) { return read(filepath.Join(dir, Name)) }

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

func read(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|oNoFollow, 0)
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

func make32(path string) error {
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		return err
	}
	tmp := path + "." + strconv.Itoa(os.Getpid()) + "." + hex.EncodeToString(k[:4]) + ".new"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL|oNoFollow, 0o600)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	_, err = f.Write(k)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Link(tmp, path)
	}
	if err == nil {
		syncDir(filepath.Dir(path))
	}
	return err
}
