// eukhe/saveDocuments: save exactly the named open documents, as the user
// would (format on save is VS Code's business).

import * as vscode from "vscode";
import { Conn } from "./conn";
import { Method, SaveDocumentsParams, SaveDocumentsResult } from "./protocol";

export async function saveDocuments(p: SaveDocumentsParams): Promise<SaveDocumentsResult> {
	const saved: string[] = [];
	for (const u of p.uris) {
		const key = vscode.Uri.parse(u).toString();
		const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
		if (doc && (await doc.save())) saved.push(u);
	}
	return { saved };
}

export function registerSave(conn: Conn): vscode.Disposable {
	return conn.onRequest(Method.saveDocuments, (p: SaveDocumentsParams) => saveDocuments(p)) as vscode.Disposable;
}
