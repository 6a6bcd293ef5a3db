package docs

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/eukhe/eukhe/internal/userkey"
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
	setAsideDir  = "set-aside"
)

// journalKey is the key of the journals of dir (userkey: read each time,
// made when there is none, never replacing one).
func journalKey(dir string) ([]byte, error) {
	k, err := userkey.Key(dir)
	if err != nil {
		return nil, fmt.Errorf("the journal key %s: %w", filepath.Join(dir, userkey.Name), err)
	}
	return k, nil
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
