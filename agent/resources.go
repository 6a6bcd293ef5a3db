package agent

import "context"

// ResourceSource (urls_source.go) is what an mcp:// read reaches; Clients
// implements it.

// URLReading is the read of an internal URL (S7.5, S7.6, S7.9) that the
// read tool hands every path holding "://". The URL reader implements it;
// bound is the read's output bound in bytes.
type URLReading interface {
	Read(ctx context.Context, raw string, bound int) (text string, err error)
}
