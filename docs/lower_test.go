package docs

import (
	"bytes"
	"testing"

	"pgregory.net/rapid"
)

// lowerASCII, eight bytes at a time, lowers exactly the bytes 'A'..'Z'.
func TestLowerASCII_lowers_exactly_A_to_Z(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := rapid.SliceOf(rapid.Byte()).Draw(t, "b")
		want := make([]byte, len(b))
		for i, c := range b {
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			want[i] = c
		}
		if got := lowerASCII(nil, b); !bytes.Equal(got, want) {
			t.Fatalf("lowerASCII(%q) = %q, want %q", b, got, want)
		}
	})
}
