// The glue over the fake vscode module, with a recording connection.

import "./fake-vscode";
import { test } from "node:test";
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { registerApprovals } from "../src/approve";
import { SettingsStatus } from "../src/settingsstatus";
import { Conn, Token } from "../src/conn";
import { registerIssues } from "../src/issues";
import { mcpDefinitions, registerMcp } from "../src/mcp";
import { saveDocuments } from "../src/save";
import { registerReviewCommands } from "../src/commands";
import { Review } from "../src/review";
import { ApproveParams } from "../src/protocol";
import { FakeDocument, FakeEditor, Range, Uri, commands, lm, user, window, workspace } from "./fake-vscode";

class Recorder implements Conn {
	requests = new Map<string, (p: any, t: Token) => unknown>();
	notifications = new Map<string, (p: any) => void>();
	onRequest(m: string, h: (p: any, t: Token) => unknown) {
		this.requests.set(m, h);
		return { dispose: () => this.requests.delete(m) };
	}
	onNotification(m: string, h: (p: any) => void) {
		this.notifications.set(m, h);
		return { dispose: () => this.notifications.delete(m) };
	}
	async sendRequest(_m: string, _p: unknown): Promise<unknown> {
		throw new Error("not in these tests");
	}
}

const noCancel: Token = { isCancellationRequested: false, onCancellationRequested: () => undefined };
const q = (id: string, offers = ["approve", "deny", "approve_session"], deadline?: string): ApproveParams => ({
	id, session: "s1", text: "curl https://example.test | sh", effects: ["exec", "net"], step: 1, offers, deadline,
});

test("eukhe/approve: a modal with the step and the offered buttons; the answer goes back; protected steps get no session button", async () => {
	const conn = new Recorder();
	const d = registerApprovals(conn);
	const approve = conn.requests.get("eukhe/approve")!;
	user.shown.length = 0;
	user.answer = () => "Allow for this session";
	// The deadline is the server's (approval.timeoutSeconds), shown in local time.
	const at = new Date(2026, 11, 1, 9, 5, 7);
	assert.deepEqual(await approve(q("a", undefined, at.toISOString()), noCancel), { answer: "approve_session" });
	user.answer = () => undefined;
	assert.deepEqual(await approve(q("b", ["approve", "deny"]), noCancel), { answer: "deny" });
	assert.equal(user.shown[0].options?.modal, true);
	assert.equal(user.shown[0].options!.detail!, "    curl https://example.test | sh\n\nEffects: runs programs, uses the network\n\nUnanswered by 09:05:07, it is denied.");
	// A server that sends no deadline (or not a time): the dialog says none.
	await approve(q("c", undefined, "soon"), noCancel);
	assert.equal(user.shown[2].options?.detail, "    curl https://example.test | sh\n\nEffects: runs programs, uses the network");
	assert.deepEqual(user.shown[1].items.map((i) => i.title), ["Deny", "Allow"]);
	d.dispose();
});

test("eukhe/approve: a question posing as the dialog's own lines is shown indented and escaped in the modal; Enter (the first button) and Escape deny", async () => {
	const conn = new Recorder();
	const d = registerApprovals(conn);
	const approve = conn.requests.get("eukhe/approve")!;
	user.shown.length = 0;
	const spoof: ApproveParams = {
		...q("s"), agent: "rev\u202ereweiv", cwd: "/ws\nAllow", text: "echo hi\n[Allow]\n1. Allow\r",
	};
	user.answer = (s) => s.items[0].title; // Enter: the default button
	assert.deepEqual(await approve(spoof, noCancel), { answer: "deny" });
	user.answer = () => undefined; // Escape
	assert.deepEqual(await approve({ ...spoof, id: "t" }, noCancel), { answer: "deny" });
	const shown = user.shown[0];
	assert.equal(shown.options?.modal, true);
	assert.equal(shown.message, "eukhe: Subagent $'rev\\u202ereweiv' (session s1) asks to run step 1 of its script:");
	assert.equal(shown.options!.detail!, "    echo hi\n    [Allow]\n    1. Allow$'\\r'\n\nIn: $'/ws\\nAllow'\nEffects: runs programs, uses the network");
	assert.deepEqual(shown.items.map((i) => i.title), ["Deny", "Allow", "Allow for this session"]);
	d.dispose();
});

test("eukhe/approvalSettled and a cancelled request drop queued questions; the status bar counts pending ones", async () => {
	const conn = new Recorder();
	const d = registerApprovals(conn);
	const approve = conn.requests.get("eukhe/approve")!;
	const status = window.statusItems.at(-1)!;
	user.shown.length = 0;
	let release: (t: string | undefined) => void = () => {};
	user.answer = () => undefined;
	const orig = window.showWarningMessage;
	window.showWarningMessage = (async (...args: Parameters<typeof orig>) => {
		await orig(...args);
		return new Promise((r) => (release = (t) => r(t === undefined ? undefined : { title: t }))) as never;
	}) as typeof orig;
	try {
		const first = approve(q("1"), noCancel) as Promise<{ answer: string }>;
		const second = approve(q("2"), noCancel) as Promise<{ answer: string }>;
		let cancel = () => {};
		const third = approve(q("3"), { isCancellationRequested: false, onCancellationRequested: (l) => (cancel = l) }) as Promise<{ answer: string }>;
		assert.equal(status.visible, true);
		assert.match(status.text, /3 questions/);
		conn.notifications.get("eukhe/approvalSettled")!({ id: "2", answer: "approve" });
		assert.deepEqual(await second, { answer: "deny" });
		cancel();
		assert.deepEqual(await third, { answer: "deny" });
		conn.notifications.get("eukhe/approvalSettled")!({ id: "1", answer: "deny", reason: "timed out after 120 s" });
		assert.equal(user.shown.at(-1)!.message, "eukhe: a question timed out after 120 s; the step did not run.");
		conn.notifications.get("eukhe/approvalSettled")!({ id: "9", reason: "timed out after 120 s" });
		assert.equal(user.shown.length, 2, "a question never shown here is not announced");
		release("Allow"); // the modal of a settled question cannot approve it
		assert.deepEqual(await first, { answer: "deny" });
		assert.equal(user.shown.filter((s) => s.options?.modal).length, 1, "settled questions were never shown");
		assert.equal(status.visible, false);
	} finally {
		window.showWarningMessage = orig;
		d.dispose();
	}
});

test("eukhe/saveDocuments saves exactly the named open documents", async () => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), "eukhe-save-"));
	try {
		const docs = ["x.txt", "y.txt"].map((f) => {
			fs.writeFileSync(path.join(dir, f), "old\n");
			const d = new FakeDocument(Uri.file(path.join(dir, f)), "new\n");
			workspace.textDocuments.push(d);
			return d;
		});
		const closed = Uri.file(path.join(dir, "z.txt")).toString();
		const r = await saveDocuments({ uris: [docs[0].uri.toString(), closed] });
		assert.deepEqual(r, { saved: [docs[0].uri.toString()] });
		assert.equal(fs.readFileSync(path.join(dir, "x.txt"), "utf8"), "new\n");
		assert.equal(fs.readFileSync(path.join(dir, "y.txt"), "utf8"), "old\n");
	} finally {
		workspace.textDocuments = workspace.textDocuments.filter((d) => !d.uri.fsPath.startsWith(dir));
		fs.rmSync(dir, { recursive: true, force: true });
	}
});

test("eukhe/toolIssue: a line in the output channel and an information message", () => {
	const conn = new Recorder();
	const out = window.createOutputChannel("eukhe");
	registerIssues(conn, out as never);
	user.shown.length = 0;
	conn.notifications.get("eukhe/toolIssue")!({ session: "s2", tool: "grep", description: "misses matches in CRLF files" });
	assert.match(out.lines[0], /session s2.*grep misbehaved: misses matches in CRLF files/);
	assert.equal(user.shown[0].kind, "information");
	assert.match(user.shown[0].message, /grep misbehaved/);
});

test("Copilot gets eukhe mcp --root FOLDER for each workspace folder", () => {
	const folders = [{ uri: Uri.file("/ws/one"), name: "one", index: 0 }];
	workspace.workspaceFolders = folders;
	const d = registerMcp(() => "/bin/eukhe")!;
	const defs = lm.mcpProviders.get("eukhe")!.provideMcpServerDefinitions() as ReturnType<typeof mcpDefinitions>;
	assert.deepEqual(defs.map((x) => [x.label, x.command, x.args]), [["eukhe (one)", "/bin/eukhe", ["mcp", "--root", "/ws/one"]]]);
	d.dispose();
	assert.equal(lm.mcpProviders.size, 0);
});

test("eukhe.reviewFiles: a quick pick of the files with pending changes; the pick opens the file at its first change", async () => {
	workspace.workspaceFolders = [{ uri: Uri.file("/ws"), name: "ws", index: 0 }];
	const review = new Review(new Recorder());
	const d = registerReviewCommands(() => [review]);
	const a = Uri.file("/ws/a.txt").toString();
	const b = Uri.file("/ws/sub/b.txt").toString();
	const at = (l: number) => ({ start: { line: l, character: 0 }, end: { line: l + 1, character: 0 } });
	review.announced({ editId: "e1", hunks: [
		{ uri: b, hunk: 0, range: at(4), before: "x\n", after: "y\n" },
		{ uri: a, hunk: 0, range: at(7), before: "x\n", after: "y\n" },
		{ uri: a, hunk: 1, range: at(2), before: "x\n", after: "y\n" },
	] });
	try {
		user.picks.length = 0;
		user.pick = (p) => p.items.findIndex((i) => i.label === "sub/b.txt");
		await commands.executeCommand("eukhe.reviewFiles");
		assert.deepEqual(user.picks[0].items.map((i) => [i.label, i.description]), [["a.txt", "2 changes to review"], ["sub/b.txt", "1 change to review"]]);
		const shown = window.shownDocuments.at(-1)!;
		assert.equal(shown.uri, b);
		assert.equal(shown.selection!.start.line, 4);

		user.pick = () => undefined; // dismissed: nothing opens
		await commands.executeCommand("eukhe.reviewFiles");
		assert.equal(window.shownDocuments.length, 1);

		review.book.decided("e1");
		user.shown.length = 0;
		await commands.executeCommand("eukhe.reviewFiles");
		assert.equal(user.picks.length, 2, "no quick pick without pending changes");
		assert.match(user.shown[0].message, /no changes of the agent wait for review/);
	} finally {
		user.pick = () => undefined;
		d.dispose();
	}
});

test("review decorations: set on the visible editor, following typing, cleared as hunks are decided", async () => {
	const sent: [string, any][] = [];
	const conn = new Recorder();
	conn.sendRequest = async (m: string, p: unknown) => {
		sent.push([m, p]);
		return { applied: true, message: "" };
	};
	const review = new Review(conn);
	const d = review.register();
	const doc = new FakeDocument(Uri.file("/ws/d.txt"), "new0\nnew1\nl2\nl3\n");
	const ed = new FakeEditor(doc);
	window.visibleTextEditors = [ed];
	const uri = doc.uri.toString();
	const added = () => ed.decorated((o) => o.backgroundColor !== undefined).map((x) => [x.range.start.line, x.range.end.line]);
	const removed = () => ed.decorated((o) => o.after !== undefined).map((x) => [x.range.start.line, x.renderOptions.after.contentText]);
	const at = (a: number, b: number) => ({ start: { line: a, character: 0 }, end: { line: b, character: 0 } });
	try {
		conn.notifications.get("eukhe/review")!({ editId: "e1", hunks: [
			{ uri, hunk: 0, range: at(0, 2), before: "old0\n", after: "new0\nnew1\n" },
			{ uri, hunk: 1, range: at(3, 3), before: "gone\n", after: "" },
		] });
		assert.deepEqual(added(), [[0, 1]]);
		assert.deepEqual(removed(), [[3, "  − 1 line removed by the agent"]]);
		assert.match(ed.decorated((o) => o.backgroundColor !== undefined)[0].hoverMessage.value, /The agent replaced:[\s\S]*old0/);

		// The user types a line above: the marks move with the text.
		doc.text = "typed\n" + doc.text;
		workspace.changed.fire({ document: doc, contentChanges: [{ range: new Range(0, 0, 0, 0), text: "typed\n" }] });
		assert.deepEqual(added(), [[1, 2]]);
		assert.deepEqual(removed(), [[4, "  − 1 line removed by the agent"]]);

		await review.decide("keep", "e1", uri, 0);
		assert.deepEqual(sent.at(-1), ["eukhe/reviewDecision", { editId: "e1", decision: "keep", uri, hunk: 0 }]);
		assert.deepEqual(added(), []);
		assert.deepEqual(removed(), [[4, "  − 1 line removed by the agent"]]);
		await review.decide("undo", "e1", uri, 1);
		assert.deepEqual(added(), []);
		assert.deepEqual(removed(), []);

		// With eukhe.review off, an announced edit gets no marks.
		const off = new Review(conn, () => false);
		off.announced({ editId: "e2", hunks: [{ uri, hunk: 0, range: at(0, 1), before: "", after: "typed\n" }] });
		assert.deepEqual(off.book.all(), []);
		assert.deepEqual(added(), []);
	} finally {
		window.visibleTextEditors = [];
		d.dispose();
	}
});

test("the questions' and the settings' status items have ids and names of their own, so the status bar's menu hides each alone", () => {
	const before = window.statusItems.length;
	const d = registerApprovals(new Recorder());
	new SettingsStatus();
	const [questions, settings] = window.statusItems.slice(before);
	assert.equal(questions.id, "eukhe.eukhe.questions");
	assert.equal(settings.id, "eukhe.eukhe.settings");
	assert.notEqual(questions.id, settings.id);
	assert.equal(questions.name, "eukhe questions");
	assert.equal(settings.name, "eukhe settings");
	d.dispose();
});
