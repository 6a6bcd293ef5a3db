// workspace/applyEdit with the texts checked right before the apply. A
// document closed and opened again in VS Code starts its versions again
// at 1, so an edit the server made on its old text passes
// vscode-languageclient's version check and lands on the new text. The
// server names the text each document's edit was made on by its hash
// (EditTexts, under "eukhe" in the params, sent because this client says
// checksTexts), and nothing is applied when a document it names holds
// another text, or is not open any more (VS Code would open it from disk
// and apply the edit there).
//
// The check must stand where vscode-languageclient checks versions: after
// the edit's conversion (which yields to the event loop, where VS Code's
// document events are taken) and with no wait before the apply. The
// client offers no hook there, so an edit with texts is converted, checked
// (texts, then versions as the client checks them) and applied here
// (applyChecked); one without goes the client's own way.

import { createHash } from "node:crypto";
import * as vscode from "vscode";
import { EditTexts, experimentalKey } from "./protocol";

// textHash is protocol.TextHash: SHA-256, lowercase hex, of the text in
// UTF-8.
export function textHash(text: string): string {
	return createHash("sha256").update(text, "utf8").digest("hex");
}

// textsOf gives the texts the params name, or undefined.
export function textsOf(params: unknown): Record<string, unknown> | undefined {
	const texts = (params as Record<string, EditTexts | undefined> | undefined)?.[experimentalKey]?.texts;
	return texts && typeof texts === "object" ? (texts as Record<string, unknown>) : undefined;
}

// textsMoved says why a document the edit names holds another text than
// the edit was made on, or is not open, or undefined. asUri turns a URI
// of the params into VS Code's spelling of it.
export function textsMoved(params: unknown, docs: readonly vscode.TextDocument[], asUri: (u: string) => string): string | undefined {
	const texts = textsOf(params);
	if (!texts) {
		return undefined;
	}
	for (const [u, want] of Object.entries(texts)) {
		const key = asUri(u);
		const doc = docs.find((d) => d.uri.toString() === key);
		if (!doc) {
			return `${key} is not open in VS Code any more (closed while the edit was on its way): nothing was applied`;
		}
		if (textHash(doc.getText()) !== want) {
			return `${vscode.workspace.asRelativePath(doc.uri)} holds another text in VS Code than the edit was made on (closed and opened again?): nothing was applied`;
		}
	}
	return undefined;
}

// versionsMoved is vscode-languageclient's version check
// (validateWorkspaceEdit), with its reason: an open document at another
// version than its text document edit's.
export function versionsMoved(params: unknown, docs: readonly vscode.TextDocument[], asUri: (u: string) => string): string | undefined {
	const changes = (params as { edit?: { documentChanges?: unknown[] } } | undefined)?.edit?.documentChanges;
	for (const dc of Array.isArray(changes) ? changes : []) {
		const td = (dc as { textDocument?: { uri?: unknown; version?: unknown } } | undefined)?.textDocument;
		if (!td || typeof td.uri !== "string" || typeof td.version !== "number" || td.version < 0) {
			continue;
		}
		const key = asUri(td.uri);
		const doc = docs.find((d) => d.uri.toString() === key);
		if (doc && doc.version !== td.version) {
			return `${vscode.workspace.asRelativePath(doc.uri)} changed in VS Code (version ${doc.version}; the edit was made at version ${td.version}): nothing was applied`;
		}
	}
	return undefined;
}

// ApplyDeps are what applyChecked does through VS Code (client.ts gives
// vscode-languageclient's converter and VS Code's own calls).
export interface ApplyDeps<E> {
	convert(edit: unknown): Promise<E>;
	documents(): readonly vscode.TextDocument[];
	asUri(u: string): string;
	apply(edit: E): Thenable<boolean>;
}

// applyChecked converts the edit, checks its texts and versions on the
// documents VS Code holds then, and applies it, with nothing awaited
// between the check and the apply.
export async function applyChecked<E>(params: { edit: unknown }, d: ApplyDeps<E>): Promise<{ applied: boolean; failureReason?: string }> {
	const converted = await d.convert(params.edit);
	const docs = d.documents();
	const why = textsMoved(params, docs, d.asUri) ?? versionsMoved(params, docs, d.asUri);
	if (why) {
		return { applied: false, failureReason: why };
	}
	return { applied: await d.apply(converted) };
}
