package agent

import "context"

// URLReading is the read of an internal URL (S7.5, S7.6, S7.9) that the
// read tool hands every path holding "://". The URL reader (urls.Reader)
// implements it; bound is the read's output bound in bytes. Clients is
// what its mcp:// reads reach (urls.ResourceSource).
type URLReading interface {
	Read(ctx context.Context, raw string, bound int) (text string, err error)
}
