// The eukhe extension: a server per workspace folder, the review commands,
// and the MCP server definition for VS Code's agents. It holds no rule:
// the server decides, this shows and answers.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import { findBinary } from "./binary";
import { startFolder, Folder } from "./client";
import { Conn } from "./conn";
import { registerReviewCommands } from "./commands";
import { registerMcp } from "./mcp";
import { registerRestart } from "./restart";
import { registerShowSettingsStatus, SettingsStatus } from "./settingsstatus";

const folders = new Map<string, Folder>();
let out: vscode.LogOutputChannel | undefined;
let status: SettingsStatus | undefined;

function isExecutable(p: string): boolean {
	try {
		fs.accessSync(p, fs.constants.X_OK);
		return fs.statSync(p).isFile();
	} catch {
		return false;
	}
}

export function binary(): { path: string } | { error: string } {
	const setting = vscode.workspace.getConfiguration("eukhe").get<string>("path", "");
	// the bundle is dist/extension.js; a per-platform package holds eukhe in bin/ beside dist/
	const bundled = path.join(__dirname, "..", "bin");
	return findBinary({ setting, bundled, pathEnv: process.env.PATH ?? "", home: os.homedir(), windows: process.platform === "win32" }, isExecutable);
}

async function start(folder: vscode.WorkspaceFolder): Promise<void> {
	const b = binary();
	if ("error" in b) return fail(b.error);
	try {
		folders.set(folder.uri.toString(), await startFolder(folder, b.path, out!, status!));
	} catch (e) {
		fail(e instanceof Error ? e.message : String(e));
	}
}

function fail(message: string): void {
	out?.appendLine(message);
	void vscode.window.showErrorMessage(message, "Open Settings").then((pick) => {
		if (pick) void vscode.commands.executeCommand("workbench.action.openSettings", "eukhe.path");
	});
}

async function stop(folder: vscode.WorkspaceFolder): Promise<void> {
	const f = folders.get(folder.uri.toString());
	folders.delete(folder.uri.toString());
	await f?.dispose();
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
	out = vscode.window.createOutputChannel("eukhe", { log: true });
	status = new SettingsStatus();
	context.subscriptions.push(
		out,
		status,
		registerShowSettingsStatus(status, () => [...folders.values()].map((f) => ({ folder: f.root, conn: f.client as unknown as Conn })), out),
		registerReviewCommands(() => [...folders.values()].map((f) => f.review)),
		vscode.commands.registerCommand("eukhe.showOutput", () => out?.show()),
		registerRestart(
			() => vscode.workspace.workspaceFolders ?? [],
			async (f) => {
				await stop(f);
				await start(f);
			},
			() => folders.size,
			(line) => out?.info(line),
		),
		vscode.workspace.onDidChangeWorkspaceFolders(async (e) => {
			for (const f of e.removed) await stop(f);
			for (const f of e.added) await start(f);
		}),
	);
	const mcp = registerMcp(() => {
		const b = binary();
		return "path" in b ? b.path : undefined;
	});
	if (mcp) context.subscriptions.push(mcp);
	await Promise.all((vscode.workspace.workspaceFolders ?? []).map(start));
}

export async function deactivate(): Promise<void> {
	await Promise.all([...folders.values()].map((f) => f.dispose()));
	folders.clear();
}
