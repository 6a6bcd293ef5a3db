// The twenty-fourth red team's rows on the extension's text check of
// workspace/applyEdit (applyedit.ts, client.ts handleApplyEdit), over the
// fake vscode module; each asserts the safe, true outcome. The two that
// got through are held since stop 41 (the check stands right before the
// apply now, and a named document that is not open refuses the edit). A
// row that gets through would be skipped unless EUKHE_OPEN_ATTACKS=1, and
// say OPEN in its name.

import "./fake-vscode";
import { test } from "node:test";
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { applyChecked, textHash, textsMoved } from "../src/applyedit";
import { FakeDocument, Uri, workspace } from "./fake-vscode";

const same = (u: string) => u;

// Go's protocol.TextHash of the same texts as eukhe decodes them from the
// didOpen JSON (lsp/redteam24_test.go TestRedteam24_TheTextHashIsNodesOnOddTexts
// pins these): a lone surrogate is U+FFFD on both sides, a BOM and CRLF
// are kept by both.
test("redteam24: the hash of a lone surrogate, a BOM and CRLF is Go's", () => {
	assert.equal(textHash("a\ud800b"), "05087813392efc16fe8ff448920c6328e53af865df39419436659d9ffda90f7b");
	assert.equal(textHash("a\ufffdb"), "05087813392efc16fe8ff448920c6328e53af865df39419436659d9ffda90f7b");
	assert.equal(textHash("\ufeffone\r\ntwo\r\n"), "a9a5637007682248b93591487526cc6783e927916db7c68ebcc8ef5852587d02");
	// JSON.stringify writes the lone surrogate escaped: what the server gets
	assert.equal(JSON.stringify("a\ud800b"), '"a\\ud800b"');
});

function tmpFile(text: string): string {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), "eukhe-redteam24-"));
	const file = path.join(dir, "a.txt");
	fs.writeFileSync(file, text);
	return file;
}

// applyChecked (the middleware's path for an edit with texts) with the
// fake module: the conversion yields a macrotask, as
// vscode-languageclient's converter and its Semaphore do, during which
// the extension host takes the main thread's document events (between);
// the apply appends each document change's line, opening a closed file
// from disk as VS Code's workspace.applyEdit does.
async function applyLikeTheClient(params: any, between: () => void): Promise<{ applied: boolean; failureReason?: string }> {
	return applyChecked<any>(params, {
		convert: async (edit) => {
			setImmediate(between);
			await new Promise((r) => setImmediate(r));
			return edit;
		},
		documents: () => workspace.textDocuments as any,
		asUri: same,
		apply: async (edit: any) => {
			for (const dc of edit.documentChanges) {
				let doc = workspace.textDocuments.find((d) => d.uri.toString() === dc.textDocument.uri);
				if (!doc) {
					doc = new FakeDocument(Uri.parse(dc.textDocument.uri), fs.readFileSync(Uri.parse(dc.textDocument.uri).fsPath, "utf8"));
					workspace.textDocuments.push(doc);
				}
				doc.text += dc.append; // the edit: a line added at the end
			}
			return true;
		},
	});
}

// Held since stop 41 (it was open, medium: the bug the change fixes,
// through a narrower window): the text check ran in the middleware, before vscode-languageclient's
// Semaphore yields a macrotask and converts the edit; the version check
// runs after. A document closed and opened again in that window (at
// version 1, as the edit's) passes both checks, and the edit made on its
// old text lands on the new one. The check belongs right before the apply,
// with the version check (validateWorkspaceEdit), not before the
// conversion.
test("redteam24: a reopen during the conversion does not take the edit", async () => {
	const file = tmpFile("disk one\ndisk two\n");
	workspace.textDocuments.length = 0;
	const doc = new FakeDocument(Uri.file(file), "one\ntwo\nthree\n");
	workspace.textDocuments.push(doc);
	const u = doc.uri.toString();
	const params = { edit: { documentChanges: [{ textDocument: { uri: u, version: 1 }, append: "FOUR\n" }] }, eukhe: { texts: { [u]: textHash("one\ntwo\nthree\n") } } };
	let reopened: FakeDocument | undefined;
	const res = await applyLikeTheClient(params, () => {
		workspace.textDocuments.length = 0; // closed, unsaved text dropped
		reopened = new FakeDocument(Uri.file(file), fs.readFileSync(file, "utf8")); // opened again: version 1
		workspace.textDocuments.push(reopened);
	});
	const text = reopened?.text;
	workspace.textDocuments.length = 0;
	assert.ok(!res.applied && text === "disk one\ndisk two\n", `applied ${res.applied}: the reopened document holds ${JSON.stringify(text)}, an edit made on other text`);
});

// Held since stop 41 (it was open, medium: an edit lands on text it was
// not made on). The user closes
// the document without saving while the edit is on its way (eukhe sends
// edits only for documents open in the editor, so the texts name it).
// textsMoved skips a document that is not open, vscode-languageclient's
// version check skips it too, and VS Code's workspace.applyEdit opens the
// file from disk and applies the edit there: the disk's text gets a line
// made for the unsaved text, in a dirty buffer the user did not open. A
// document the texts name and VS Code does not hold must refuse the edit.
test("redteam24: a document closed without saving before the check does not take the edit", async () => {
	const file = tmpFile("disk one\ndisk two\n");
	workspace.textDocuments.length = 0; // a.txt was open at "one\ntwo\nthree\n", closed unsaved
	const u = Uri.file(file).toString();
	const params = { edit: { documentChanges: [{ textDocument: { uri: u, version: 4 }, append: "FOUR\n" }] }, eukhe: { texts: { [u]: textHash("one\ntwo\nthree\n") } } };
	const res = await applyLikeTheClient(params, () => {});
	const doc = workspace.textDocuments.find((d) => d.uri.toString() === u);
	workspace.textDocuments.length = 0;
	assert.ok(!res.applied, `applied: VS Code opened a.txt from disk and it holds ${JSON.stringify(doc?.text)}`);
});

// Held: a multi-document edit where the second document's text moved is
// refused whole (nothing of the first is applied), and a document the
// texts do not name is not looked at.
test("redteam24: one moved document of two refuses the whole edit", () => {
	const a = new FakeDocument(Uri.file(tmpFile("a\n")), "a\n");
	const b = new FakeDocument(Uri.file(tmpFile("b\n")), "b typed\n");
	const params = { edit: {}, eukhe: { texts: { [a.uri.toString()]: textHash("a\n"), [b.uri.toString()]: textHash("b\n") } } };
	const why = textsMoved(params, [a, b] as any, same);
	assert.ok(why && why.includes("nothing was applied"), why);
	assert.equal(textsMoved({ edit: {}, eukhe: { texts: { [a.uri.toString()]: textHash("a\n") } } }, [a, b] as any, same), undefined);
});

// Held: a malformed member (texts not an object, a hash not a string)
// never throws out of the middleware (an exception would answer the
// server an error for an edit the user could have had).
test("redteam24: malformed texts do not throw", () => {
	const a = new FakeDocument(Uri.file(tmpFile("a\n")), "a\n");
	for (const eukhe of [null, 1, "x", { texts: null }, { texts: "s" }, { texts: [1, 2] }, { texts: { [a.uri.toString()]: 5 } }]) {
		assert.doesNotThrow(() => textsMoved({ edit: {}, eukhe }, [a] as any, same));
	}
	// a hash that is not a string is not the document's: refused, not applied
	assert.ok(textsMoved({ edit: {}, eukhe: { texts: { [a.uri.toString()]: 5 } } }, [a] as any, same));
});
