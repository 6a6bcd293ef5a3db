// The review commands, shared by every folder's server: each goes to the
// server whose review holds the hunk or file.

import * as vscode from "vscode";
import { changesText, pendingFiles } from "./pending";
import { Decision } from "./protocol";
import { Command, Review } from "./review";

export function registerReviewCommands(reviews: () => Review[]): vscode.Disposable {
	const hunk = (d: Decision) => async (editId: string, uri: string, n: number) => {
		await reviews().find((r) => r.owns(editId, uri))?.decide(d, editId, uri, n);
	};
	const file = (d: Decision) => async (uri?: string) => {
		const u = uri ?? vscode.window.activeTextEditor?.document.uri.toString();
		if (u === undefined) return;
		for (const r of reviews()) await r.decideFile(d, u);
	};
	const all = (d: Decision) => async () => {
		for (const r of reviews()) await r.decideAll(d);
	};
	const step = (back: boolean) => () => {
		const ed = vscode.window.activeTextEditor;
		if (!ed) return;
		const uri = ed.document.uri.toString();
		for (const r of reviews()) {
			const h = r.book.next(uri, ed.selection.active.line, back);
			if (!h) continue;
			const at = new vscode.Position(h.start, 0);
			ed.selection = new vscode.Selection(at, at);
			ed.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
			return;
		}
	};
	// files: a quick pick of the files with changes to review; the pick
	// opens the file at its first change.
	const files = async () => {
		const pending = pendingFiles(reviews().flatMap((r) => r.book.all()));
		if (pending.length === 0) {
			void vscode.window.showInformationMessage("eukhe: no changes of the agent wait for review.");
			return;
		}
		const items = pending.map((f) => ({ label: vscode.workspace.asRelativePath(vscode.Uri.parse(f.uri)), description: changesText(f.changes), file: f }));
		const picked = await vscode.window.showQuickPick(items, { placeHolder: "Files with changes of the agent to review" });
		if (!picked) return;
		const at = new vscode.Range(picked.file.first, 0, picked.file.first, 0);
		await vscode.window.showTextDocument(vscode.Uri.parse(picked.file.uri), { selection: at });
	};
	const subs = [
		vscode.commands.registerCommand(Command.reviewFiles, files),
		vscode.commands.registerCommand(Command.keepHunk, hunk("keep")),
		vscode.commands.registerCommand(Command.undoHunk, hunk("undo")),
		vscode.commands.registerCommand(Command.keepFile, file("keep")),
		vscode.commands.registerCommand(Command.undoFile, file("undo")),
		vscode.commands.registerCommand(Command.keepAll, all("keep")),
		vscode.commands.registerCommand(Command.undoAll, all("undo")),
		vscode.commands.registerCommand(Command.nextHunk, step(false)),
		vscode.commands.registerCommand(Command.previousHunk, step(true)),
	];
	return new vscode.Disposable(() => subs.forEach((s) => s.dispose()));
}
