package docs

import (
	"bytes"
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
	"time"
)

// A journal is signed (HMAC-SHA256) with a key only eukhe reads: 32
// random bytes in the journal directory, under eukhe's state directory,
// which the sandbox hides from every step and the documents gate judges
// secret (gate/places.go StateDir, agent/shell stateDirs). A digest of
// the journal's bytes anyone could compute; the MAC only a holder of the
// key. It covers the root the journal is kept for and the journal file's
// identity (device, inode, birth time where the file system keeps one),
// so a copy of a journal of this user made earlier — another file — does
// not verify: a journal left behind is acted on only as the file its
// writer made, with that one name (a second name is refused too).
//
// The file: the line "eukhe-journal v2 <hex MAC>" and then the record
// (JSON). A journal that is not one, or whose MAC does not verify, is
// not acted on: it is set aside in <journal dir>/set-aside and reported.

const (
	journalMagic = "eukhe-journal v2 "
	keyName      = "key"
	setAsideDir  = "set-aside"
)

// journalKey is the key of the journals of dir (read each time: 32 bytes,
// and a key replaced by hand is the one in force), made when there is none:
// written under a temp name (O_EXCL, 0600), synced, then linked to its
// name, which never replaces: two starts at once agree on the first.
func journalKey(dir string) ([]byte, error) {
	path := filepath.Join(dir, keyName)
	k, err := readKey(path)
	if errors.Is(err, fs.ErrNotExist) {
		if err = os.MkdirAll(dir, 0o700); err == nil {
			err = makeKey(path)
		}
		if err == nil || errors.Is(err, fs.ErrExist) {
			k, err = readKey(path)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("the journal key %s: %w", path, err)
	}
	return k, nil
}

func readKey(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|oNoFollow, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := keyFileOwned(f); err != nil {
		return nil, err
	}
	k, err := io.ReadAll(io.LimitReader(f, 64))
	if err == nil && len(k) != 32 {
		err = fmt.Errorf("it holds %d bytes, not 32: remove it and start eukhe again", len(k))
	}
	return k, err
}

func makeKey(path string) error {
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

// journalMAC is the MAC of a journal's record, for root, in the file id.
func journalMAC(key []byte, root, id string, rec []byte) []byte {
	m := hmac.New(sha256.New, key)
	fmt.Fprintf(m, "eukhe journal v2\x00%s\x00%s\x00", root, id)
	m.Write(rec)
	return m.Sum(nil)
}

// sealed is the file's bytes of record rec written to the file fd.
func sealed(key []byte, root string, fd int, rec []byte) ([]byte, error) {
	id, err := fileID(fd)
	if err != nil {
		return nil, err
	}
	out := append([]byte(journalMagic), hex.EncodeToString(journalMAC(key, root, id, rec))...)
	return append(append(out, '\n'), rec...), nil
}

// opened checks a journal's file (open as f) and gives its record: an
// error says why it is not one eukhe wrote for root.
func opened(key []byte, root string, f *os.File) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(f, 64<<20))
	if err != nil {
		return nil, err
	}
	head, rec, ok := bytes.Cut(data, []byte("\n"))
	mac, isV2 := bytes.CutPrefix(head, []byte(journalMagic))
	if !ok || !isV2 {
		if bytes.HasPrefix(data, []byte(`{"v":1,`)) {
			return nil, errors.New("it was written by an earlier eukhe and is not signed, so nothing shows eukhe wrote it")
		}
		return nil, errors.New("it is not a signed eukhe journal")
	}
	if err := oneName(f); err != nil {
		return nil, err
	}
	id, err := fileID(int(f.Fd()))
	if err != nil {
		return nil, err
	}
	want := journalMAC(key, root, id, rec)
	got := make([]byte, hex.DecodedLen(len(mac)))
	if n, err := hex.Decode(got, mac); err != nil || !hmac.Equal(got[:n], want) {
		return nil, errors.New("its signature does not verify: eukhe did not write it as this file, for this workspace")
	}
	return rec, nil
}

// setAside moves a journal that is not acted on out of the way, into
// <dir>/set-aside, and gives where; the journal's own name when it could
// not be moved (it stays, and is found again at the next start).
func setAside(dir, path string) (string, error) {
	to := filepath.Join(dir, setAsideDir)
	if err := os.MkdirAll(to, 0o700); err != nil {
		return path, err
	}
	to = filepath.Join(to, time.Now().UTC().Format("20060102T150405.000000000")+"-"+filepath.Base(path))
	if err := os.Rename(path, to); err != nil {
		return path, err
	}
	syncDir(dir)
	return to, nil
}
