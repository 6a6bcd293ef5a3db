// eukhe's tools for VS Code's own agents (Copilot's agent mode): an MCP
// server definition that runs `eukhe mcp --root FOLDER`, which attaches to
// this window's eukhe server, so its edits come back through the review
// and its questions as the dialogs of this extension.

import * as vscode from "vscode";

export const providerId = "eukhe";

export function mcpDefinitions(binary: string, folders: readonly vscode.WorkspaceFolder[]): vscode.McpStdioServerDefinition[] {
	return folders.map((f) => new vscode.McpStdioServerDefinition(`eukhe (${f.name})`, binary, ["mcp", "--root", f.uri.fsPath]));
}

export function registerMcp(binary: () => string | undefined): vscode.Disposable | undefined {
	const lm = vscode.lm as Partial<typeof vscode.lm> | undefined;
	if (!lm?.registerMcpServerDefinitionProvider) return undefined; // VS Code before 1.101
	const changed = new vscode.EventEmitter<void>();
	const folders = vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire());
	const provider = lm.registerMcpServerDefinitionProvider(providerId, {
		onDidChangeMcpServerDefinitions: changed.event,
		provideMcpServerDefinitions: () => {
			const b = binary();
			return b ? mcpDefinitions(b, vscode.workspace.workspaceFolders ?? []) : [];
		},
	});
	return vscode.Disposable.from(provider, folders, changed);
}
