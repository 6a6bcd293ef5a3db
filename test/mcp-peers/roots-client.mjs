// An MCP client from the TypeScript SDK that offers roots, for the Go
// tests of eukhe mcp (cmd/eukhe/roots_peers_test.go). It starts the eukhe
// binary given as the first argument, without --root, in the current
// directory, answers roots/list with the file: URI given as the second,
// reads the third argument's path, says its roots changed, and reads it
// again. It prints one JSON line per result, {"text": T, "isError": B},
// and {"error": E} for anything the client reports as wrong.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const print = (v) => process.stdout.write(JSON.stringify(v) + '\n');
const [binary, rootURI, path] = process.argv.slice(2);

const client = new Client({ name: 'roots-test', version: '1' }, { capabilities: { roots: { listChanged: true } } });
client.onerror = (e) => print({ error: String(e) });
client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: rootURI, name: 'project' }] }));
const transport = new StdioClientTransport({ command: binary, args: ['mcp'], cwd: process.cwd(), env: process.env, stderr: 'inherit' });
await client.connect(transport);

const read = async () => {
  try {
    const r = await client.callTool({ name: 'read', arguments: { path } });
    print({ text: r.content[0].text, isError: !!r.isError });
  } catch (e) {
    print({ text: String(e), isError: true });
  }
};
await read();
await client.sendRootsListChanged();
await read();
await client.close();
