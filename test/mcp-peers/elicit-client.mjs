// An MCP client from the TypeScript SDK that declares elicitation, for the
// Go tests of eukhe mcp (cmd/eukhe/headless_test.go). It starts the eukhe
// binary given as the first argument (in the current directory), then
// reads commands from standard input, one JSON object a line:
//
//   {"answer": "allow" | "deny" | "decline" | "cancel" | "wait"}
//       how the next elicitations are answered ("wait": never, until the
//       request is cancelled)
//   {"bash": "script"}   calls bash and prints {"text", "isError"}
//
// and prints one JSON line per event: {"elicit": message, "enum": [...]}
// when asked, {"cancelled": true} when a waiting request was cancelled.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import readline from 'node:readline';

const print = (v) => process.stdout.write(JSON.stringify(v) + '\n');
let answer = 'deny';

const client = new Client({ name: 'elicit-test', version: '1' }, { capabilities: { elicitation: {} } });
client.setRequestHandler(ElicitRequestSchema, async (req, extra) => {
  print({ elicit: req.params.message, enum: req.params.requestedSchema.properties.answer.enum });
  if (answer === 'wait') {
    await new Promise((resolve) => extra.signal.addEventListener('abort', resolve));
    print({ cancelled: true });
    return { action: 'cancel' };
  }
  if (answer === 'decline' || answer === 'cancel') return { action: answer };
  return { action: 'accept', content: { answer } };
});

const transport = new StdioClientTransport({ command: process.argv[2], args: ['mcp'], cwd: process.cwd(), env: process.env, stderr: 'inherit' });
await client.connect(transport);
print({ ready: true });

const rl = readline.createInterface({ input: process.stdin });
for await (const line of rl) {
  const cmd = JSON.parse(line);
  if (cmd.answer) {
    answer = cmd.answer;
    print({ ok: true });
  } else if (cmd.bash) {
    client.callTool({ name: 'bash', arguments: { script: cmd.bash } }, undefined, { timeout: 600000 }).then(
      (r) => print({ text: r.content[0].text, isError: !!r.isError }),
      (e) => print({ text: String(e), isError: true }));
  }
}
await client.close();
