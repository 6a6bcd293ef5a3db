// eukhe/settingsStatus shown: each settings problem the server reports as
// a warning, once while it lasts; the confinement in force in the status
// bar item (warning-coloured, and said once, when it is "none"); the whole
// status in the output channel on the command. The words of every problem
// and of the confinement are the server's: this only shows them.

import * as vscode from "vscode";
import { Conn } from "./conn";
import { Method, SettingsStatusResult } from "./protocol";

export const showSettingsStatusCommand = "eukhe.showSettingsStatus";

// maxWarnings: the most warnings one answer of the server raises.
export const maxWarnings = 3;

// A problem as the user is told it: the server's line (which says, for a
// file that failed to load, that its last good settings stay in force).
export function problemsOf(res: SettingsStatusResult): string[] {
	return res.files.flatMap((f) => (f.problems ?? []).map((p) => `eukhe settings: ${p}`));
}

// unconfined: the server says a step's programs run with all the user's rights.
export function unconfined(confinement: string | undefined): boolean {
	return confinement !== undefined && /^none\b/.test(confinement);
}

export function confinementWarning(confinement: string): string {
	return `eukhe: the agent's shell steps run unconfined: ${confinement}. A step's programs can do all you can.`;
}

// statusLines is the whole status of one folder's server, for the output channel.
export function statusLines(folder: string, res: SettingsStatusResult | string): string[] {
	if (typeof res === "string") return [`settings status of ${folder}: ${res}`];
	const lines = [`settings status of ${folder}:`, `  confinement: ${res.confinement ?? "(the server does not say)"}`];
	for (const f of res.files) {
		lines.push(`  ${f.file}: ${f.level}`);
		for (const p of f.problems ?? []) lines.push(`    ${p}`);
	}
	return lines;
}

// StatusItem is the view of the status bar item: text, tooltip, warning.
export interface StatusItem {
	text: string;
	tooltip: string;
	warn: boolean;
}

// itemOf summarizes every folder's status: it warns when any folder's
// steps run unconfined.
export function itemOf(byFolder: Map<string, SettingsStatusResult>): StatusItem {
	const confinements = [...byFolder].map(([folder, r]) => ({ folder, c: r.confinement ?? "(the server does not say)" }));
	const warn = confinements.some((x) => unconfined(x.c));
	const distinct = new Set(confinements.map((x) => x.c));
	const conf =
		distinct.size <= 1
			? [`Confinement of the agent's shell steps: ${[...distinct][0] ?? "unknown"}`]
			: ["Confinement of the agent's shell steps:", ...confinements.map((x) => `${x.folder}: ${x.c}`)];
	const problems = [...byFolder.values()].reduce((n, r) => n + problemsOf(r).length, 0);
	const tail = problems === 0 ? "Settings: no problems" : `Settings: ${problems} problem${problems === 1 ? "" : "s"}`;
	return {
		text: warn ? "$(warning) eukhe: unconfined" : "$(shield) eukhe",
		tooltip: [...conf, tail, "Click for the whole settings status"].join("\n"),
		warn,
	};
}

// The server's unasked words that follow a settings change: a problem
// (window/showMessage) or a file loaded (a log line).
const settingsMessage = /^eukhe settings /;
const settingsLog = /^eukhe lsp: settings: /;

export const settingsItemId = "settings";

export class SettingsStatus {
	// Its own id, apart from the questions' item (approve.ts): each can be
	// hidden alone.
	readonly item = vscode.window.createStatusBarItem(settingsItemId, vscode.StatusBarAlignment.Left, 99);
	private byFolder = new Map<string, SettingsStatusResult>();
	private shown = new Set<string>();
	private toldUnconfined = false;

	constructor() {
		this.item.name = "eukhe settings";
		this.item.command = showSettingsStatusCommand;
	}

	// ask gets a server's status, or why it could not.
	async ask(conn: Conn): Promise<SettingsStatusResult | string> {
		try {
			const r = (await conn.sendRequest(Method.settingsStatus, {})) as SettingsStatusResult | null;
			if (!r || !Array.isArray(r.files)) return "the server answered eukhe/settingsStatus without files (an older eukhe?)";
			return r;
		} catch (e) {
			return `eukhe/settingsStatus failed: ${e instanceof Error ? e.message : String(e)}`;
		}
	}

	// refresh asks a folder's server and shows what is new, unless the
	// folder's server stopped meanwhile (live false).
	async refresh(folder: string, conn: Conn, live: () => boolean = () => true): Promise<SettingsStatusResult | string> {
		const r = await this.ask(conn);
		if (typeof r !== "string" && live()) this.update(folder, r);
		return r;
	}

	update(folder: string, res: SettingsStatusResult): void {
		this.byFolder.set(folder, res);
		const now = new Set([...this.byFolder.values()].flatMap(problemsOf));
		// A problem fixed and made again is new again.
		for (const p of this.shown) if (!now.has(p)) this.shown.delete(p);
		const fresh = [...now].filter((p) => !this.shown.has(p));
		fresh.forEach((p) => this.shown.add(p));
		// A project file can hold any number of unknown keys: a few
		// warnings, then one for the rest.
		const told = fresh.length > maxWarnings ? fresh.slice(0, maxWarnings - 1) : fresh;
		if (told.length < fresh.length) told.push(`eukhe settings: ${fresh.length - told.length} more problems`);
		for (const p of told) {
			void vscode.window.showWarningMessage(p, "Show Settings Status").then((pick) => {
				if (pick) void vscode.commands.executeCommand(showSettingsStatusCommand);
			});
		}
		if (unconfined(res.confinement) && !this.toldUnconfined) {
			this.toldUnconfined = true;
			void vscode.window.showWarningMessage(confinementWarning(res.confinement!));
		}
		this.draw();
	}

	forget(folder: string): void {
		this.byFolder.delete(folder);
		this.draw();
	}

	private draw(): void {
		if (this.byFolder.size === 0) {
			this.item.hide();
			return;
		}
		const v = itemOf(this.byFolder);
		this.item.text = v.text;
		this.item.tooltip = v.tooltip;
		this.item.backgroundColor = v.warn ? new vscode.ThemeColor("statusBarItem.warningBackground") : undefined;
		this.item.show();
	}

	// watch asks again whenever the server says a settings file changed:
	// it takes over window/showMessage and window/logMessage, showing and
	// logging every other message as vscode-languageclient does.
	// Its refresh asks now; an answer that comes after dispose is dropped.
	watch(folder: string, conn: Conn, out: vscode.LogOutputChannel): { refresh(): Promise<SettingsStatusResult | string>; dispose(): void } {
		let live = true;
		const refresh = () => this.refresh(folder, conn, () => live);
		const again = () => void refresh();
		const subs = [
			conn.onNotification("window/showMessage", (m: { type: number; message: string }) => {
				if (settingsMessage.test(m.message)) return again();
				const show = m.type === 1 ? vscode.window.showErrorMessage : m.type === 2 ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
				void show(m.message);
			}),
			conn.onNotification("window/logMessage", (m: { type: number; message: string }) => {
				if (m.type === 1) out.error(m.message);
				else if (m.type === 2) out.warn(m.message);
				else if (m.type === 3) out.info(m.message);
				else if (m.type === 5) out.debug(m.message);
				else out.appendLine(m.message);
				if (settingsLog.test(m.message)) again();
			}),
		];
		return {
			refresh,
			dispose: () => {
				live = false;
				subs.forEach((s) => s.dispose());
				this.forget(folder);
			},
		};
	}

	dispose(): void {
		this.item.dispose();
	}
}

// registerShowSettingsStatus: the command asks every folder's server and
// writes the whole status to the output channel, then reveals it.
export function registerShowSettingsStatus(
	status: SettingsStatus,
	servers: () => { folder: string; conn: Conn }[],
	out: vscode.OutputChannel,
): vscode.Disposable {
	return vscode.commands.registerCommand(showSettingsStatusCommand, async () => {
		const all = servers();
		if (all.length === 0) out.appendLine("settings status: no eukhe server is running (open a workspace folder, or run \"eukhe: Restart server\")");
		for (const s of all) for (const l of statusLines(s.folder, await status.refresh(s.folder, s.conn))) out.appendLine(l);
		out.show(true);
	});
}
