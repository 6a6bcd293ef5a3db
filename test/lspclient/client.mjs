// A plain LSP client of eukhe lsp, built on a library nobody here wrote
// (vscode-languageserver-protocol over vscode-jsonrpc), announcing modest
// capabilities: no documentChanges, utf-16 positions only (or the
// encodings Helix offers), no window.showMessage, no experimental.eukhe.
// Its documents are JavaScript strings; positions are converted to and
// from the encoding the server chose. How it answers workspace/applyEdit is the scenario's to
// choose (applyMode).

import { spawn } from "node:child_process";
import { pathToFileURL } from "node:url";
import path from "node:path";
import fs from "node:fs";
import * as lsp from "vscode-languageserver-protocol/node";

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// modestCapabilities: what a small editor announces.
export function modestCapabilities({ applyEdit = true, encodings = ["utf-16"] } = {}) {
	return {
		workspace: { applyEdit, workspaceEdit: { documentChanges: false }, workspaceFolders: true },
		general: { positionEncodings: encodings },
		textDocument: { synchronization: { dynamicRegistration: false, didSave: false } },
	};
}

// units is the length of s in the position encoding enc: UTF-16 code
// units, UTF-8 bytes or code points (utf-32).
export function units(s, enc) {
	if (enc === "utf-8") return Buffer.byteLength(s, "utf8");
	if (enc === "utf-32") return [...s].length;
	return s.length;
}

// offsetOf is the string index of an LSP position in encoding enc.
export function offsetOf(text, pos, enc = "utf-16") {
	let off = 0;
	for (let line = 0; line < pos.line; line++) {
		const nl = text.indexOf("\n", off);
		if (nl < 0) return text.length;
		off = nl + 1;
	}
	let end = text.indexOf("\n", off);
	if (end < 0) end = text.length;
	let n = 0;
	for (const ch of text.slice(off, end)) {
		if (n >= pos.character) break;
		n += units(ch, enc);
		off += ch.length;
	}
	return off;
}

// applyTextEdits applies LSP text edits (non-overlapping, against the
// same text, positions in encoding enc) to text.
export function applyTextEdits(text, edits, enc = "utf-16") {
	const spans = edits
		.map((e) => ({ start: offsetOf(text, e.range.start, enc), end: offsetOf(text, e.range.end, enc), newText: e.newText }))
		.sort((a, b) => b.start - a.start);
	for (const s of spans) text = text.slice(0, s.start) + s.newText + text.slice(s.end);
	return text;
}

// positionOf is the LSP position in encoding enc of a string index.
export function positionOf(text, off, enc = "utf-16") {
	const before = text.slice(0, off);
	const line = before.split("\n").length - 1;
	return { line, character: units(before.slice(before.lastIndexOf("\n") + 1), enc) };
}

export class Client {
	constructor({ bin, root, capabilities = modestCapabilities() }) {
		this.bin = bin;
		this.root = root;
		this.capabilities = capabilities;
		this.docs = new Map(); // name → {uri, text, version}
		this.applyRequests = []; // the params of each workspace/applyEdit
		this.messageRequests = []; // window/showMessageRequest params (unhandled: MethodNotFound)
		this.shown = []; // window/showMessage params
		this.stderr = "";
		// applyMode: "apply" applies and sends didChange before replying;
		// "lie" replies applied: true and applies nothing; "late" replies
		// applied: true at once and applies + sends didChange after lateMs;
		// "refuse" replies applied: false.
		this.applyMode = "apply";
		this.lateMs = 0;
		this.pending = []; // late didChanges in flight
	}

	uri(name) {
		return pathToFileURL(path.join(this.root, name)).href;
	}

	nameOf(uri) {
		for (const [n, d] of this.docs) if (d.uri === uri) return n;
		return undefined;
	}

	async start() {
		this.proc = spawn(this.bin, ["lsp"], { cwd: this.root, stdio: ["pipe", "pipe", "pipe"] });
		this.proc.stderr.on("data", (d) => (this.stderr += d));
		this.exited = new Promise((r) => this.proc.on("exit", (code, signal) => r({ code, signal })));
		this.conn = lsp.createProtocolConnection(
			new lsp.StreamMessageReader(this.proc.stdout),
			new lsp.StreamMessageWriter(this.proc.stdin),
		);
		this.conn.onRequest(lsp.ApplyWorkspaceEditRequest.type, (p) => this.onApplyEdit(p));
		this.conn.onNotification(lsp.ShowMessageNotification.type, (p) => this.shown.push(p));
		this.conn.onNotification(lsp.LogMessageNotification.type, () => {});
		// window/showMessageRequest is left unhandled: the library answers
		// MethodNotFound, as Helix does. It is recorded on the way.
		this.conn.onUnhandledNotification(() => {});
		this.conn.onRequest((method, params) => {
			if (method === "window/showMessageRequest") this.messageRequests.push(params);
			return new lsp.ResponseError(lsp.ErrorCodes.MethodNotFound, `Unhandled method ${method}`);
		});
		this.conn.listen();
		const rootUri = pathToFileURL(this.root).href;
		this.init = await this.conn.sendRequest(lsp.InitializeRequest.type, {
			processId: process.pid,
			clientInfo: { name: "plain", version: "1" },
			rootUri,
			workspaceFolders: [{ uri: rootUri, name: path.basename(this.root) }],
			capabilities: this.capabilities,
		});
		await this.conn.sendNotification(lsp.InitializedNotification.type, {});
		// The positions of every message from here on: the server's choice.
		this.enc = this.init.capabilities.positionEncoding ?? "utf-16";
	}

	async open(name, text) {
		const d = { uri: this.uri(name), text, version: 0 };
		this.docs.set(name, d);
		await this.conn.sendNotification(lsp.DidOpenTextDocumentNotification.type, {
			textDocument: { uri: d.uri, languageId: "plaintext", version: d.version, text },
		});
	}

	// change edits the document as a user does and gives the incremental
	// didChange notification's params, not sent (a scenario may reorder).
	change(name, start, end, text) {
		const d = this.docs.get(name);
		const range = { start: positionOf(d.text, start, this.enc), end: positionOf(d.text, end, this.enc) };
		d.text = d.text.slice(0, start) + text + d.text.slice(end);
		d.version++;
		return { textDocument: { uri: d.uri, version: d.version }, contentChanges: [{ range, text }] };
	}

	// type inserts text at a string index and sends the didChange.
	async type(name, at, text) {
		await this.send(this.change(name, at, at, text));
	}

	async send(params) {
		await this.conn.sendNotification(lsp.DidChangeTextDocumentNotification.type, params);
	}

	// onApplyEdit applies a WorkspaceEdit's changes (documentChanges is not
	// announced; a client that does not announce it may still read it, so
	// both are recorded and both are applied) as applyMode says.
	async onApplyEdit(p) {
		this.applyRequests.push(p);
		if (this.applyMode === "refuse") return { applied: false, failureReason: "refused by the test" };
		if (this.applyMode === "lie") return { applied: true };
		const byName = [];
		for (const [uri, edits] of Object.entries(p.edit.changes ?? {})) byName.push([this.nameOf(uri), edits]);
		for (const dc of p.edit.documentChanges ?? []) {
			if (dc.textDocument) byName.push([this.nameOf(dc.textDocument.uri), dc.edits]);
		}
		const apply = async () => {
			for (const [name, edits] of byName) {
				const d = this.docs.get(name);
				if (!d) continue;
				d.text = applyTextEdits(d.text, edits, this.enc);
				d.version++;
				await this.send({ textDocument: { uri: d.uri, version: d.version }, contentChanges: [{ text: d.text }] });
			}
		};
		if (this.applyMode === "late") {
			this.pending.push(sleep(this.lateMs).then(apply));
			return { applied: true };
		}
		await apply();
		return { applied: true };
	}

	// tool runs one document tool on an eukhe/tool session.
	async tool(name, args, session = "s1") {
		return this.conn.sendRequest("eukhe/tool", { name, arguments: args, session });
	}

	async stop() {
		await Promise.all(this.pending);
		try {
			await this.conn.sendRequest(lsp.ShutdownRequest.type);
			await this.conn.sendNotification(lsp.ExitNotification.type);
		} catch {
			// the server may be gone; its exit status says so
		}
		const t = setTimeout(() => this.proc.kill("SIGKILL"), 10000);
		const end = await this.exited;
		clearTimeout(t);
		this.conn.dispose();
		return end;
	}
}

// tagOf is the tag of a read's header "[path#TAG]".
export function tagOf(text) {
	const m = /^\[[^\]#]*#([0-9a-f]+)\]/m.exec(text);
	return m ? m[1] : "";
}

// Agent is an `eukhe mcp` attached to the client's server through its
// socket, spoken to in line JSON-RPC.
export class Agent {
	constructor(bin, root) {
		this.proc = spawn(bin, ["mcp"], { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
		this.stderr = "";
		this.proc.stderr.on("data", (d) => (this.stderr += d));
		this.waiting = new Map();
		this.id = 0;
		let partial = "";
		this.proc.stdout.on("data", (d) => {
			const parts = (partial + d).split("\n");
			partial = parts.pop();
			for (const line of parts) {
				let m;
				try {
					m = JSON.parse(line);
				} catch {
					continue;
				}
				const w = this.waiting.get(m.id);
				if (w) {
					this.waiting.delete(m.id);
					m.error ? w.reject(new Error(JSON.stringify(m.error))) : w.resolve(m.result);
				}
			}
		});
	}

	// start is an Agent started once the client's eukhe lsp has published
	// its socket in the discovery directory ($XDG_RUNTIME_DIR/eukhe, else
	// /tmp/eukhe-UID): started before, eukhe mcp finds no editor and runs
	// headless.
	static async start(bin, root) {
		const dir = process.env.XDG_RUNTIME_DIR
			? path.join(process.env.XDG_RUNTIME_DIR, "eukhe")
			: `/tmp/eukhe-${process.getuid()}`;
		for (let waited = 0; ; waited += 20) {
			let names = [];
			try {
				names = fs.readdirSync(dir);
			} catch {}
			if (names.some((n) => n.endsWith(".json"))) {
				return new Agent(bin, root);
			}
			if (waited > 30000) {
				throw new Error(`eukhe lsp never published its socket in ${dir}`);
			}
			await sleep(20);
		}
	}

	rpc(method, params) {
		const id = ++this.id;
		this.proc.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
		return new Promise((resolve, reject) => this.waiting.set(id, { resolve, reject }));
	}

	async init() {
		await this.rpc("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "lspclient-test", version: "1" } });
		this.proc.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
	}

	async call(name, args) {
		const r = await this.rpc("tools/call", { name, arguments: args });
		return r.content[0].text;
	}

	async stop() {
		this.proc.stdin.end();
		await new Promise((r) => this.proc.on("exit", r));
	}
}
