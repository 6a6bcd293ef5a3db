// Inline review of the agent's edits: on eukhe/review the changed lines
// get a background and gutter mark, the removed text a hover, each hunk a
// "Keep | Undo" CodeLens and each file "Keep all | Undo all"; decisions go
// to the server as eukhe/reviewDecision. Hunk state and its tracking
// through later edits live in hunks.ts.

import * as vscode from "vscode";
import { Conn } from "./conn";
import { Hunk, ReviewBook } from "./hunks";
import { Decision, Method, ReviewDecisionParams, ReviewDecisionResult, ReviewParams } from "./protocol";

export const Command = {
	keepHunk: "eukhe.keepHunk",
	undoHunk: "eukhe.undoHunk",
	keepFile: "eukhe.keepFile",
	undoFile: "eukhe.undoFile",
	keepAll: "eukhe.keepAll",
	undoAll: "eukhe.undoAll",
	nextHunk: "eukhe.nextHunk",
	previousHunk: "eukhe.previousHunk",
	reviewFiles: "eukhe.reviewFiles",
} as const;

const key = (u: string) => vscode.Uri.parse(u).toString();

// Review is one server's review: its hunks, lenses and decorations.
export class Review implements vscode.CodeLensProvider {
	readonly book = new ReviewBook();
	private lenses = new vscode.EventEmitter<void>();
	readonly onDidChangeCodeLenses = this.lenses.event;
	private added = vscode.window.createTextEditorDecorationType({
		isWholeLine: true,
		backgroundColor: new vscode.ThemeColor("diffEditor.insertedLineBackground"),
		overviewRulerColor: new vscode.ThemeColor("editorOverviewRuler.addedForeground"),
		overviewRulerLane: vscode.OverviewRulerLane.Left,
	});
	private removed = vscode.window.createTextEditorDecorationType({
		isWholeLine: true,
		after: { color: new vscode.ThemeColor("editorGhostText.foreground") },
	});
	private subs: { dispose(): unknown }[] = [];

	constructor(private conn: Conn, private enabled: () => boolean = () => true) {}

	register(): vscode.Disposable {
		this.subs.push(
			this.conn.onNotification(Method.review, (p: ReviewParams) => this.announced(p)),
			vscode.languages.registerCodeLensProvider({ scheme: "file" }, this),
			vscode.workspace.onDidChangeTextDocument((e) => {
				if (this.book.changed(e.document.uri.toString(), e.contentChanges)) this.refresh();
			}),
			vscode.window.onDidChangeVisibleTextEditors(() => this.decorate()),
			this.added,
			this.removed,
		);
		return new vscode.Disposable(() => this.subs.forEach((s) => s.dispose()));
	}

	announced(p: ReviewParams): void {
		if (!this.enabled()) return;
		this.book.add({ editId: p.editId, hunks: p.hunks.map((h) => ({ ...h, uri: key(h.uri) })) });
		this.refresh();
	}

	owns(editId: string, uri?: string): boolean {
		return (uri === undefined ? this.book.all() : this.book.hunks(key(uri))).some((h) => h.editId === editId);
	}

	// decide sends one decision and, when the server took it, drops what
	// it decided; when it did not, tells the user why.
	async decide(d: Decision, editId: string, uri?: string, hunk?: number): Promise<ReviewDecisionResult> {
		const p: ReviewDecisionParams = { editId, decision: d };
		if (uri !== undefined) p.uri = uri;
		if (hunk !== undefined) p.hunk = hunk;
		const r = (await this.conn.sendRequest(Method.reviewDecision, p)) as ReviewDecisionResult;
		if (r.applied) this.book.decided(editId, uri === undefined ? undefined : key(uri), hunk);
		else void vscode.window.showWarningMessage(`eukhe: ${r.message}`);
		this.refresh();
		return r;
	}

	// decideFile and decideAll decide every pending edit of a file, or all.
	async decideFile(d: Decision, uri: string): Promise<void> {
		for (const id of this.book.editIds(key(uri))) await this.decide(d, id, uri);
	}

	async decideAll(d: Decision): Promise<void> {
		for (const id of this.book.editIds()) await this.decide(d, id);
	}

	provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
		const hunks = this.book.hunks(doc.uri.toString());
		if (hunks.length === 0) return [];
		const uri = doc.uri.toString();
		const top = new vscode.Range(0, 0, 0, 0);
		const lenses = [
			new vscode.CodeLens(top, { title: "Keep all", command: Command.keepFile, arguments: [uri] }),
			new vscode.CodeLens(top, { title: "Undo all", command: Command.undoFile, arguments: [uri] }),
		];
		for (const h of hunks) {
			const at = new vscode.Range(h.start, 0, h.start, 0);
			lenses.push(
				new vscode.CodeLens(at, { title: "Keep", command: Command.keepHunk, arguments: [h.editId, uri, h.hunk] }),
				new vscode.CodeLens(at, { title: "Undo", command: Command.undoHunk, arguments: [h.editId, uri, h.hunk] }),
			);
		}
		return lenses;
	}

	refresh(): void {
		this.lenses.fire();
		this.decorate();
	}

	private decorate(): void {
		for (const ed of vscode.window.visibleTextEditors) {
			const hunks = this.book.hunks(ed.document.uri.toString());
			ed.setDecorations(this.added, hunks.filter((h) => h.end > h.start).map(addedLines));
			ed.setDecorations(this.removed, hunks.filter((h) => h.end === h.start).map(removedMark));
		}
	}
}

function removedHover(h: Hunk): vscode.MarkdownString {
	const md = new vscode.MarkdownString();
	md.appendText(h.before === "" ? "Inserted by the agent." : "The agent replaced:\n");
	if (h.before !== "") md.appendCodeblock(h.before);
	return md;
}

function addedLines(h: Hunk): vscode.DecorationOptions {
	return { range: new vscode.Range(h.start, 0, h.end - 1, 0), hoverMessage: removedHover(h) };
}

function removedMark(h: Hunk): vscode.DecorationOptions {
	const n = h.before.split("\n").length - (h.before.endsWith("\n") ? 1 : 0);
	return {
		range: new vscode.Range(h.start, 0, h.start, 0),
		hoverMessage: removedHover(h),
		renderOptions: { after: { contentText: `  − ${n} line${n === 1 ? "" : "s"} removed by the agent` } },
	};
}
