// Lends the editor's tools (editortools.ts) to the agents: eukhe/joinTool
// after initialize, eukhe/runTool runs one.

import * as path from "node:path";
import * as vscode from "vscode";
import { Conn } from "./conn";
import { editorTools, editorsText, Problem, problemsText, selectionText, toolNames } from "./editortools";
import { Method, RunToolParams, RunToolResult } from "./protocol";

function rel(root: string, u: vscode.Uri): string {
	if (u.scheme !== "file") return u.toString();
	const r = path.relative(root, u.fsPath);
	return r.startsWith("..") || path.isAbsolute(r) ? u.fsPath : r;
}

function problems(root: string, u: vscode.Uri, ds: readonly vscode.Diagnostic[]): Problem[] {
	return ds.map((d) => ({ path: rel(root, u), line: d.range.start.line, character: d.range.start.character, severity: d.severity, message: d.message, source: d.source }));
}

export function runEditorTool(root: string, p: RunToolParams): RunToolResult {
	const args = (p.arguments ?? {}) as { path?: unknown };
	switch (p.name) {
		case toolNames.diagnostics: {
			if (typeof args.path === "string" && args.path !== "") {
				const u = vscode.Uri.file(path.resolve(root, args.path));
				return { text: problemsText(problems(root, u, vscode.languages.getDiagnostics(u)), args.path) };
			}
			const all = vscode.languages.getDiagnostics().flatMap(([u, ds]) => problems(root, u, ds));
			return { text: problemsText(all, "the workspace") };
		}
		case toolNames.editors:
			return { text: editorsText(vscode.workspace.textDocuments.filter((d) => d.uri.scheme === "file").map((d) => ({ path: rel(root, d.uri), dirty: d.isDirty }))) };
		case toolNames.selection: {
			const ed = vscode.window.activeTextEditor;
			if (!ed) return { text: selectionText(undefined) };
			const s = ed.selection;
			return { text: selectionText({ path: rel(root, ed.document.uri), start: s.start, end: s.end, text: ed.document.getText(s) }) };
		}
	}
	return { text: `${p.name}: VS Code lends no such tool (it lends ${editorTools.map((t) => t.name).join(", ")})`, isError: true };
}

// joinEditorTools lends the tools; call it once the server is initialized.
export async function joinEditorTools(conn: Conn, root: string): Promise<vscode.Disposable> {
	const sub = conn.onRequest(Method.runTool, (p: RunToolParams) => runEditorTool(root, p));
	for (const t of editorTools) await conn.sendRequest(Method.joinTool, t);
	return new vscode.Disposable(() => sub.dispose());
}
