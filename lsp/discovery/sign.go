package discovery

import (
	"bytes"
	"crypto/hmac"
	"encoding/hex"
	"encoding/json"
	"errors"
	"path/filepath"

	"github.com/eukhe/eukhe/internal/userkey"
)

// An entry is signed (HMAC-SHA256) with a key only eukhe reads: the
// user's discovery key, $XDG_STATE_HOME/eukhe/discovery/key (default
// ~/.local/state), which the sandbox hides from every step and the gate
// judges secret (internal/userkey). An agent's step can make a directory
// named as another eukhe's socket directory, and a file of an entry's
// name in it — copied, moved, linked or unpacked there under names its
// words never show — but not sign one: an eukhe started with that
// directory as its XDG_RUNTIME_DIR or TMPDIR reads no entry whose MAC
// does not verify, so no planted server becomes its editor or answers its
// questions. The MAC covers the entry's bytes as written, the socket path
// among them; the socket must lie beside the entry (besideIt), so a
// signed entry copied elsewhere names a socket that is not beside it.
//
// The file is the entry's JSON with the MAC as its last member:
// {"pid":…,…,"mac":"<64 hex>"}. The MAC is over the same bytes without
// that member: the JSON up to it, then "}".

// macDomain keeps a discovery MAC from being valid as any other MAC made
// with the same key.
const macDomain = "eukhe discovery entry v1"

// macMember is what precedes the MAC at the end of a signed entry.
var macMember = []byte(`,"mac":"`)

// KeyDir is the directory of the user's discovery key for env ("NAME" →
// value): $XDG_STATE_HOME/eukhe/discovery, default ~/.local/state; "" when
// neither is absolute (no entry can then be signed or read).
func KeyDir(env map[string]string) string {
	state := env["XDG_STATE_HOME"]
	if !filepath.IsAbs(state) {
		if !filepath.IsAbs(env["HOME"]) {
			return ""
		}
		state = filepath.Join(env["HOME"], ".local", "state")
	}
	return filepath.Join(state, "eukhe", "discovery")
}

// errNoStateDir is why a Place with no key directory signs nothing.
var errNoStateDir = errors.New("eukhe has no state directory to keep its discovery key in: set HOME or XDG_STATE_HOME")

// signedEntry is e's file: its JSON with the MAC under key last.
func signedEntry(key []byte, e Entry) []byte {
	data, _ := json.Marshal(e)
	body := data[:len(data)-1] // without the closing brace
	mac := userkey.MAC(key, macDomain, data)
	out := append(append([]byte{}, body...), macMember...)
	out = append(out, hex.EncodeToString(mac)...)
	return append(out, '"', '}')
}

// verifiedEntry is the entry in a file's bytes when key signed them.
func verifiedEntry(key, file []byte) (Entry, bool) {
	var e Entry
	if len(key) == 0 {
		return e, false
	}
	i := bytes.LastIndex(file, macMember)
	if i < 0 || !bytes.HasSuffix(file, []byte(`"}`)) {
		return e, false
	}
	got := file[i+len(macMember) : len(file)-2]
	data := append(append([]byte{}, file[:i]...), '}')
	// the hex as written, lower case: a file is valid in one spelling
	if !hmac.Equal(got, []byte(hex.EncodeToString(userkey.MAC(key, macDomain, data)))) {
		return e, false
	}
	return e, json.Unmarshal(data, &e) == nil
}
