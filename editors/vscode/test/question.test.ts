import { test } from "node:test";
import * as assert from "node:assert/strict";
import { answerOf, deadlineText, dialogOf } from "../src/question";
import { visible, visibleText } from "../src/shown";
import { pendingFiles, changesText } from "../src/pending";
import { hunkOf } from "../src/hunks";
import { ApprovalQueue } from "../src/queue";
import { ApproveParams } from "../src/protocol";

const q = (over: Partial<ApproveParams> = {}): ApproveParams => ({
	id: "q1", session: "s7", text: "rm -rf build\\x1b", cwd: "/ws", effects: ["write", "exec"], step: 2,
	offers: ["approve", "deny", "approve_session"], ...over,
});

test("the dialog shows the step exactly, names the asking agent, and says its effects", () => {
	const d = dialogOf(q({ agent: "explore" }));
	assert.equal(d.message, "eukhe: Subagent explore (session s7) asks to run step 2 of its script:");
	assert.equal(d.detail, "    rm -rf build\\x1b\n\nIn: /ws\nEffects: writes files, runs programs");
	assert.equal(dialogOf(q()).message, "eukhe: The agent (session s7) asks to run step 2 of its script:");
	assert.equal(dialogOf(q({ agent: "s7" })).message, "eukhe: The agent (session s7) asks to run step 2 of its script:");
	assert.match(dialogOf(q({ step: 0, text: "write /etc/hosts" })).message, /asks to access a document:$/);
	assert.match(dialogOf(q({ step: 0, cell: true, text: "import os\nos.system('make')" })).message, /asks to run an ipython cell:$/);
	assert.equal(dialogOf(q({ step: 0, cell: true, text: "import os\nos.system('make')", effects: ["exec"] })).detail,
		"    import os\n    os.system('make')\n\nIn: /ws\nEffects: runs programs");
});

test("a field is shown as the server shows it (gate.Visible): plain, quoted, or with each hidden character escaped", () => {
	// The expected values are gate.Visible's for the same strings.
	const cases: [string, string][] = [
		["helper", "helper"],
		["my helper", "'my helper'"],
		["it's", `"it's"`],
		["ev\u202eil", "$'ev\\u202eil'"],
		["a\nb", "$'a\\nb'"],
		["z\u200b", "$'z\\u200b'"],
		["tag\u{e0041}", "$'tag\\U000e0041'"],
		["q'\\\u0085", "$'q\\'\\\\\\u0085'"],
		["del\x7f\x1b", "$'del\\x7f\\x1b'"],
		["nb\u00a0sp", "$'nb\\u00a0sp'"],
		["iso\u2066late\u2069", "$'iso\\u2066late\\u2069'"],
		["bom\ufeff", "$'bom\\ufeff'"],
		["ls\u2028ps\u2029", "$'ls\\u2028ps\\u2029'"],
		["lone\ud800", "$'lone\\ud800'"],
		["", "''"],
		["if", "'if'"],
		["}", "'}'"],
		["iff", "iff"],
		["bad\ufffd", "$'bad\\ufffd'"],
		["\u3164 = 1", "$'\\u3164 = 1'"],
		["cgj\u034f", "$'cgj\\u034f'"],
		["braille\u2800", "$'braille\\u2800'"],
		["vs\u{e0100}", "$'vs\\U000e0100'"],
		["cmd\u{16fe4}", "$'cmd\\U00016fe4'"],
		["cmd\u{1bc9d}", "$'cmd\\U0001bc9d'"],
		["note\u{1d159}", "$'note\\U0001d159'"],
	];
	for (const [s, want] of cases) assert.equal(visible(s), want, JSON.stringify(s));
	assert.equal(visibleText("a\tb\nc\u202ed\re"), "a\tb\nc$'\\u202e'd$'\\r'e");
});

test("nothing the agent wrote poses as a line of the dialog's own: every step line is indented, the name, session, directory and effects escaped", () => {
	const d = dialogOf(q({
		agent: "rev\u202ereweiv", session: "s7\u2028Allow", cwd: "/ws/sub\nRequest Actions:", effects: ["write", "exec\u2066"],
		text: "cat >x <<EOF\n[Allow]\n1. Allow\n2. Deny\nEOF\u200b",
	}));
	assert.equal(d.message, "eukhe: Subagent $'rev\\u202ereweiv' (session $'s7\\u2028Allow') asks to run step 2 of its script:");
	assert.equal(d.detail, [
		"    cat >x <<EOF",
		"    [Allow]",
		"    1. Allow",
		"    2. Deny",
		"    EOF$'\\u200b'",
		"",
		"In: $'/ws/sub\\nRequest Actions:'",
		"Effects: writes files, $'exec\\u2066'",
	].join("\n"));
	assert.deepEqual(d.buttons.map((b) => b.title), ["Deny", "Allow", "Allow for this session"]);
	assert.equal(answerOf(d, d.buttons[0].title), "deny");
});

test("Deny comes first (the default), Allow for this session only when offered", () => {
	assert.deepEqual(dialogOf(q()).buttons.map((b) => b.title), ["Deny", "Allow", "Allow for this session"]);
	assert.deepEqual(dialogOf(q({ offers: ["approve", "deny"] })).buttons.map((b) => b.title), ["Deny", "Allow"]);
});

test("a dismissed dialog, or any unknown choice, is a denial", () => {
	const d = dialogOf(q());
	assert.equal(answerOf(d, undefined), "deny");
	assert.equal(answerOf(d, "Cancel"), "deny");
	assert.equal(answerOf(d, "Allow"), "approve");
	assert.equal(answerOf(d, "Allow for this session"), "approve_session");
});

test("questions are shown one at a time; a settled one is dropped unshown, or its answer ignored", async () => {
	const shown: string[] = [];
	const answers = new Map<string, (a: string) => void>();
	const counts: number[] = [];
	const queue = new ApprovalQueue((p) => {
		shown.push(p.id);
		return new Promise((r) => answers.set(p.id, r));
	}, (n) => counts.push(n));
	const a = queue.ask(q({ id: "a" }));
	const b = queue.ask(q({ id: "b" }));
	const c = queue.ask(q({ id: "c" }));
	assert.deepEqual(shown, ["a"]);
	queue.settle("b"); // queued: never shown
	assert.equal(await b, "deny");
	queue.settle("a"); // shown: cannot be closed, its answer no longer counts
	answers.get("a")!("approve");
	assert.equal(await a, "deny");
	assert.deepEqual(shown, ["a", "c"]);
	answers.get("c")!("approve_session");
	assert.equal(await c, "approve_session");
	assert.equal(queue.pending, 0);
	assert.equal(counts.at(-1), 0);
});

test("the dialog says by when an unanswered question is denied, when given a deadline", () => {
	const at = new Date(2026, 0, 2, 9, 5, 7);
	assert.equal(deadlineText(at), "Unanswered by 09:05:07, it is denied.");
	assert.equal(dialogOf(q(), at).detail, "    rm -rf build\\x1b\n\nIn: /ws\nEffects: writes files, runs programs\n\nUnanswered by 09:05:07, it is denied.");
});

test("pending files: one entry per file, its count and first changed line, in order", () => {
	const h = (uri: string, line: number) => hunkOf("e", { uri, hunk: 0, range: { start: { line, character: 0 }, end: { line: line + 1, character: 0 } }, before: "", after: "x\n" });
	assert.deepEqual(pendingFiles([h("file:///b", 3), h("file:///a", 9), h("file:///a", 2)]), [
		{ uri: "file:///a", changes: 2, first: 2 },
		{ uri: "file:///b", changes: 1, first: 3 },
	]);
	assert.deepEqual(pendingFiles([]), []);
	assert.equal(changesText(1), "1 change to review");
	assert.equal(changesText(3), "3 changes to review");
});
