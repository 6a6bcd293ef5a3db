// A coding agent in a few lines: `eukhe mcp --root DIR` over stdio
// (newline-delimited JSON-RPC), which attaches to the editor's server.

import * as cp from "node:child_process";
import * as readline from "node:readline";

export class Agent {
	private proc: cp.ChildProcess;
	private waiting = new Map<number, (m: any) => void>();
	private id = 0;
	stderr = "";

	constructor(binary: string, root: string) {
		this.proc = cp.spawn(binary, ["mcp", "--root", root], { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
		this.proc.stderr!.on("data", (d) => (this.stderr += d));
		readline.createInterface({ input: this.proc.stdout! }).on("line", (line) => {
			const m = JSON.parse(line);
			if (m.id !== undefined) this.waiting.get(m.id)?.(m);
		});
	}

	request(method: string, params: unknown): Promise<any> {
		const id = ++this.id;
		this.proc.stdin!.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
		return new Promise((resolve) => this.waiting.set(id, resolve));
	}

	async start(): Promise<void> {
		await this.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "vscode-test-agent", version: "1" } });
		this.proc.stdin!.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
	}

	// call runs a tool and gives its text.
	async call(name: string, args: unknown): Promise<string> {
		const r = await this.request("tools/call", { name, arguments: args });
		if (r.error) throw new Error(`${name}: ${r.error.message}\n${this.stderr}`);
		return (r.result.content ?? []).map((c: { text?: string }) => c.text ?? "").join("\n");
	}

	stop(): void {
		this.proc.kill();
	}
}
