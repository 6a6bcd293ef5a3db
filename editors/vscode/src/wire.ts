// wire hangs the eukhe/* handlers on a connection: the extension's
// LanguageClient, or the tests' vscode-jsonrpc connection.

import * as vscode from "vscode";
import { registerApprovals } from "./approve";
import { Conn } from "./conn";
import { registerIssues } from "./issues";
import { Review } from "./review";
import { registerSave } from "./save";

export function wire(conn: Conn, out: vscode.OutputChannel): { review: Review; disposable: vscode.Disposable } {
	const review = new Review(conn, () => vscode.workspace.getConfiguration("eukhe").get<boolean>("review", true));
	const subs = [registerSave(conn), registerApprovals(conn), registerIssues(conn, out), review.register()];
	return { review, disposable: new vscode.Disposable(() => subs.forEach((s) => s.dispose())) };
}
