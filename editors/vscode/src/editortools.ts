// The editor's own tools lent to the agents (eukhe/joinTool; agents reach
// them through dyn): what they are, and their text from plain data. Pure:
// no vscode import; hosttools.ts gathers the data.

import { JoinToolParams } from "./protocol";

export const toolNames = { diagnostics: "vscode/diagnostics", editors: "vscode/editors", selection: "vscode/selection" } as const;

export const editorTools: JoinToolParams[] = [
	{
		name: toolNames.diagnostics,
		description: "The problems VS Code shows (errors, warnings) for one file, or for the whole workspace without a path.",
		inputSchema: { type: "object", properties: { path: { type: "string", description: "a file, relative to the workspace root" } } },
	},
	{
		name: toolNames.editors,
		description: "The documents open in VS Code, and which have unsaved changes.",
		inputSchema: { type: "object", properties: {} },
	},
	{
		name: toolNames.selection,
		description: "The user's current selection in VS Code: its file, range and text.",
		inputSchema: { type: "object", properties: {} },
	},
];

export interface Problem {
	path: string;
	line: number; // 0-based, as VS Code
	character: number;
	severity: number; // vscode.DiagnosticSeverity: 0 error, 1 warning, 2 information, 3 hint
	message: string;
	source?: string;
}

const severities = ["error", "warning", "info", "hint"];
export const maxProblems = 200;

// problemsText writes one problem a line, path:LINE:COL (1-based).
export function problemsText(ps: Problem[], scope: string): string {
	if (ps.length === 0) return `No problems in ${scope}.`;
	const rows = ps.slice(0, maxProblems).map((p) => {
		const src = p.source ? ` [${p.source}]` : "";
		return `${p.path}:${p.line + 1}:${p.character + 1}: ${severities[p.severity] ?? "problem"}: ${p.message.replace(/\n/g, " ")}${src}`;
	});
	if (ps.length > maxProblems) rows.push(`(${ps.length - maxProblems} more problems not shown; ask for one file with "path")`);
	return rows.join("\n");
}

export function editorsText(docs: { path: string; dirty: boolean }[]): string {
	if (docs.length === 0) return "No documents are open.";
	return docs.map((d) => (d.dirty ? `${d.path} (unsaved changes)` : d.path)).join("\n");
}

export interface Selected {
	path: string;
	start: { line: number; character: number };
	end: { line: number; character: number };
	text: string;
}

export function selectionText(s: Selected | undefined): string {
	if (!s) return "No editor is active.";
	const at = `${s.path}:${s.start.line + 1}:${s.start.character + 1}-${s.end.line + 1}:${s.end.character + 1}`;
	return s.text === "" ? `${at} (the cursor; nothing selected)` : `${at}\n${s.text}`;
}
