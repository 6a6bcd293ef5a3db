// VS Code's side of the LSP connection, as vscode-languageclient plays it,
// over the fake vscode module: the capabilities VS Code really sends,
// didOpen/didChange/didSave from the fake documents, and
// workspace/applyEdit with VS Code's order: every text edit's version is
// checked before any is applied (textOnlyTransactional).

import * as cp from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter, ProtocolConnection } from "vscode-languageserver-protocol/node";
import { withEukhe } from "../src/caps";
import { FakeDocument, Range, Position, Uri, workspace } from "./fake-vscode";

// vscodeCapabilities are what vscode-languageclient (8.x to 11.x)
// advertises for the parts eukhe reads.
export function vscodeCapabilities() {
	return withEukhe({
		workspace: {
			applyEdit: true,
			workspaceEdit: {
				documentChanges: true,
				resourceOperations: ["create", "rename", "delete"],
				failureHandling: "textOnlyTransactional",
				normalizesLineEndings: true,
				changeAnnotationSupport: { groupsOnLabel: true },
				metadataSupport: true,
				snippetEditSupport: true,
			},
			workspaceFolders: true,
			didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
		},
		textDocument: {
			synchronization: { dynamicRegistration: true, willSave: true, willSaveWaitUntil: true, didSave: true },
		},
		window: {
			showMessage: { messageActionItem: { additionalPropertiesSupport: true } },
			showDocument: { support: true },
			workDoneProgress: true,
		},
		general: { positionEncodings: ["utf-16"] },
	} as { experimental?: unknown });
}

function offsetAt(text: string, p: Position): number {
	let line = 0;
	let i = 0;
	while (line < p.line) {
		const nl = text.indexOf("\n", i);
		if (nl < 0) return text.length;
		i = nl + 1;
		line++;
	}
	return Math.min(i + p.character, text.length);
}

interface LspTextEdit {
	range: { start: Position; end: Position };
	newText: string;
}

export class Editor {
	conn: ProtocolConnection;
	proc: cp.ChildProcess;
	stderr = "";

	// env: the server's environment (default: the tests' own).
	constructor(binary: string, readonly root: string, env?: NodeJS.ProcessEnv) {
		this.proc = cp.spawn(binary, ["lsp"], { cwd: root, env, stdio: ["pipe", "pipe", "pipe"] });
		this.proc.stderr!.on("data", (d) => (this.stderr += d));
		this.conn = createProtocolConnection(new StreamMessageReader(this.proc.stdout!), new StreamMessageWriter(this.proc.stdin!));
		this.conn.onRequest("workspace/applyEdit", (p: { edit: { documentChanges?: unknown[] } }) => this.applyEdit(p.edit));
		workspace.changed.event((e) =>
			this.conn.sendNotification("textDocument/didChange", {
				textDocument: { uri: e.document.uri.toString(), version: e.document.version },
				contentChanges: e.contentChanges.map((c) => ({ range: c.range, text: c.text })),
			}),
		);
		workspace.saved.event((d) => this.conn.sendNotification("textDocument/didSave", { textDocument: { uri: d.uri.toString() } }));
	}

	async initialize(): Promise<any> {
		this.conn.listen();
		const uri = Uri.file(this.root).toString();
		const r = await this.conn.sendRequest("initialize", {
			processId: process.pid,
			clientInfo: { name: "Visual Studio Code", version: "1.101.0" },
			rootUri: uri,
			workspaceFolders: [{ uri, name: path.basename(this.root) }],
			capabilities: vscodeCapabilities(),
		});
		await this.conn.sendNotification("initialized", {});
		return r;
	}

	open(rel: string): FakeDocument {
		const file = path.join(this.root, rel);
		const doc = new FakeDocument(Uri.file(file), fs.readFileSync(file, "utf8"));
		workspace.textDocuments.push(doc);
		void this.conn.sendNotification("textDocument/didOpen", {
			textDocument: { uri: doc.uri.toString(), languageId: "plaintext", version: doc.version, text: doc.text },
		});
		return doc;
	}

	// applyEdit checks every text edit's version first, then applies.
	applyEdit(edit: { documentChanges?: unknown[] }): { applied: boolean } {
		const changes = (edit.documentChanges ?? []) as { kind?: string; textDocument?: { uri: string; version: number | null }; edits?: LspTextEdit[] }[];
		const doc = (uri: string) => workspace.textDocuments.find((d) => d.uri.toString() === uri);
		for (const c of changes) {
			if (c.kind || !c.textDocument) continue;
			const d = doc(c.textDocument.uri);
			if (!d || (c.textDocument.version !== null && c.textDocument.version !== d.version)) return { applied: false };
		}
		for (const c of changes) {
			if (c.kind) return { applied: false }; // file operations: not needed by these tests
			const d = doc(c.textDocument!.uri)!;
			// Last edit first, so earlier positions stay valid; didChange
			// carries them in the same order.
			const edits = [...c.edits!].sort((a, b) => offsetAt(d.text, b.range.start) - offsetAt(d.text, a.range.start));
			const contentChanges = edits.map((e) => {
				d.text = d.text.slice(0, offsetAt(d.text, e.range.start)) + e.newText + d.text.slice(offsetAt(d.text, e.range.end));
				return { range: new Range(e.range.start, e.range.end), text: e.newText };
			});
			d.version++;
			workspace.changed.fire({ document: d, contentChanges });
		}
		return { applied: true };
	}

	async close(): Promise<void> {
		try {
			await this.conn.sendRequest("shutdown");
			await this.conn.sendNotification("exit");
		} catch {
			// the server is gone already
		}
		this.conn.dispose();
		this.proc.kill();
	}
}
