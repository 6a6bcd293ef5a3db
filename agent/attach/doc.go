// Package attach is eukhe mcp's link to the editor's eukhe server: the
// agent's MCP lines piped to the server that serves the root, and the
// session going on headless when that server goes away, or attaching when
// one comes up later. It speaks protocol's hello and MCP's JSON-RPC lines;
// where the server is found (the discovery directory) is injected by cmd.
//
// Law → file:
//   - attach is only a pipe (DESIGN.md §7): one hello line naming the root
//     and the parent, then every line copied both ways; a refused hello
//     leaves the agent's output untouched and the session headless:
//     attach.go (Attach, sayHello).
//   - the editor going away while attached leaves the agent its tools:
//     each call in flight is answered once with goneText, the agent's
//     initialize is replayed to the headless session (its answer dropped)
//     and every line not delivered is delivered there: failover.go (relay).
//     The agent's input ending, and the server closing because of it, is
//     never a failover, whichever is seen first (attach.go's inputEnded;
//     TestAClientThatEndsIsNoServerGone: a client that closed while the
//     editor still ran was said to be the editor going away).
//   - an editor that comes up later is attached at the next tools/call, one
//     that quits later is left the same way; each change is said once,
//     before the text of the next tool result, which keeps the rest of its
//     answer (TestLaw_ANoteGoesBeforeAToolResultAndKeepsIt): late.go.
package attach
