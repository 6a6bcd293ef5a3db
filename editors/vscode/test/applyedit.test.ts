// The text check of workspace/applyEdit (applyedit.ts) over the fake
// vscode module, with hashes made as the server makes them (SHA-256 hex).

import "./fake-vscode";
import { test } from "node:test";
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { textHash, textsMoved } from "../src/applyedit";
import { clientCapabilities } from "../src/caps";
import { FakeDocument, Uri, workspace } from "./fake-vscode";

// the server's TextHash of "one\ntwo\n" (protocol.TextHash in Go,
// TestTextHashIsTheExtensionsSHA256)
const oneTwo = "c3f9c8c283a2b1f2f1896f27a01cbe3cddc0c9d93f752e4639035a0f5b36f6e8";

test("the client says it checks texts", () => {
	assert.equal(clientCapabilities().checksTexts, true);
});

test("textHash is SHA-256 in hex", () => {
	assert.equal(textHash(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	assert.equal(textHash("é\n").length, 64);
	assert.equal(textHash("one\ntwo\n"), oneTwo);
});

test("an open document holding the text the edit was made on passes; another text refuses it", () => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), "eukhe-applyedit-"));
	const file = path.join(dir, "a.txt");
	fs.writeFileSync(file, "disk\n");
	const doc = new FakeDocument(Uri.file(file), "one\ntwo\n");
	const docs = [doc] as any;
	const same = (u: string) => u;
	const params = { edit: {}, eukhe: { texts: { [doc.uri.toString()]: textHash("one\ntwo\n") } } };
	assert.equal(textsMoved(params, docs, same), undefined);
	doc.text = "disk\n"; // closed and opened again at the disk's text
	const why = textsMoved(params, docs, same);
	assert.ok(why && why.includes("nothing was applied"), why);
	// no texts named: nothing to check; a document named and not open
	// (closed on the way): VS Code would open it from disk, refused
	assert.equal(textsMoved({ edit: {} }, docs, same), undefined);
	const closed = textsMoved({ edit: {}, eukhe: { texts: { "file:///elsewhere/b.txt": "00" } } }, docs, same);
	assert.ok(closed && closed.includes("not open"), closed);
	workspace.textDocuments.length = 0;
});
