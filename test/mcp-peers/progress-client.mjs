// An MCP client from the TypeScript SDK that shows progress, for the Go
// tests of eukhe mcp (cmd/eukhe/progress_peers_test.go). It starts the
// eukhe binary given as the first argument (in the current directory) and
// makes the calls given as the second, a JSON array of
//
//   {"tool": "bash", "arguments": {...}, "progress": true}
//
// one after another; a call with progress passes onprogress, so the SDK
// sends a progressToken. It prints one JSON line per event:
// {"call": N, "progress": P, "message": M} for each notification,
// {"call": N, "text": T, "isError": B} for each result, and
// {"error": E} for anything the client reports as wrong.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const print = (v) => process.stdout.write(JSON.stringify(v) + '\n');

const client = new Client({ name: 'progress-test', version: '1' });
client.onerror = (e) => print({ error: String(e) });
const transport = new StdioClientTransport({ command: process.argv[2], args: ['mcp'], cwd: process.cwd(), env: process.env, stderr: 'inherit' });
await client.connect(transport);

const calls = JSON.parse(process.argv[3]);
for (const [n, c] of calls.entries()) {
  const options = { timeout: 600000 };
  if (c.progress) {
    options.onprogress = (p) => print({ call: n, progress: p.progress, message: p.message });
  }
  try {
    const r = await client.callTool({ name: c.tool, arguments: c.arguments }, undefined, options);
    print({ call: n, text: r.content[0].text, isError: !!r.isError });
  } catch (e) {
    print({ call: n, text: String(e), isError: true });
  }
}
await client.close();
