package docs

import (
	"fmt"
	"strconv"

	"github.com/cespare/xxhash/v2"
)

// Digest is the full xxh64 of the exact bytes a read saw. Sessions keep
// digests; the model sees a Tag.
type Digest uint64

// DigestOf hashes bytes.
func DigestOf(b []byte) Digest { return Digest(xxhash.Sum64(b)) }

// Tag is what the model sees of a digest: its low 32 bits.
type Tag uint32

// Tag of a digest.
func (d Digest) Tag() Tag { return Tag(uint32(d)) }

// String spells a tag as 8 lowercase hex digits (DESIGN.md §3.1).
func (t Tag) String() string { return fmt.Sprintf("%08x", uint32(t)) }

// ParseTag reads 8 hex digits.
func ParseTag(s string) (Tag, error) {
	if len(s) != 8 {
		return 0, fmt.Errorf("a tag is 8 hex digits as read shows it, like #7f3a91c2; got %q", s)
	}
	v, err := strconv.ParseUint(s, 16, 32)
	if err != nil {
		return 0, fmt.Errorf("a tag is 8 hex digits as read shows it, like #7f3a91c2; got %q", s)
	}
	return Tag(v), nil
}

// MaxSnapshotFileBytes is the one size limit of S8.10: a larger file has no
// tag; it is read in ranges and changed with write or bash.
const MaxSnapshotFileBytes = 4 << 20
