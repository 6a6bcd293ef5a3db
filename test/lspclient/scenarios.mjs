// Scenarios of a plain LSP client against eukhe lsp: `node scenarios.mjs
// NAME` runs one in the workspace $EUKHE_ROOT with the binary $EUKHE_BIN
// and prints what it saw as one JSON object (the Go test beside it judges
// it); a scenario that throws prints {"error": …} and exits 1.

import { Client, Agent, tagOf, modestCapabilities, sleep } from "./client.mjs";

const bin = process.env.EUKHE_BIN;
const root = process.env.EUKHE_ROOT;

// A line with characters outside the BMP (two UTF-16 units each) and a
// combining mark, so utf-8, utf-16 and code-point columns all differ.
const face = "😀 é\u0301 ünï ";

const scenarios = {
	// No documentChanges, utf-16 only: the unsaved text typed after
	// astral characters is read back exactly, and an agent edit of two
	// open documents comes as `changes` (no versions), lands, and says so.
	async changes(c, out) {
		await c.open("a.txt", `${face}one\ntwo\n`);
		await c.open("b.txt", "b one\nb two\n");
		const a = c.docs.get("a.txt");
		await c.type("a.txt", a.text.indexOf("one"), "TYPED ");
		out.encoding = c.init.capabilities.positionEncoding ?? "utf-16 (default)";
		out.client_encoding = c.enc;
		const ra = await c.tool("read", { path: "a.txt" });
		const rb = await c.tool("read", { path: "b.txt" });
		out.read = ra.text;
		const r = await c.tool("edit", {
			patch: `[a.txt#${tagOf(ra.text)}]\n@@ 1\n+${face}EDITED\n[b.txt#${tagOf(rb.text)}]\n@@ 2\n+b TWO\n`,
		});
		out.edit = r.text;
		out.edit_is_error = r.isError;
		out.requests = c.applyRequests.map((p) => ({
			changes: p.edit.changes !== undefined,
			documentChanges: p.edit.documentChanges !== undefined,
		}));
		out.a = c.docs.get("a.txt").text;
		out.b = c.docs.get("b.txt").text;
		out.read_after = (await c.tool("read", { path: "a.txt" })).text;
	},

	// workspace.applyEdit false: an open document is never sent an edit;
	// the agent is told why, and nothing changes.
	async noApplyEdit(c, out) {
		await c.open("a.txt", "a one\n");
		await c.type("a.txt", 0, "typed ");
		const ra = await c.tool("read", { path: "a.txt" });
		const r = await c.tool("edit", { patch: `[a.txt#${tagOf(ra.text)}]\n@@ 1\n+EDITED\n` });
		out.edit = r.text;
		out.edit_is_error = r.isError;
		out.requests = c.applyRequests.length;
		out.a = c.docs.get("a.txt").text;
	},

	// applied: true with nothing applied and no didChange: the reply must
	// not claim the edit landed, and the copy eukhe keeps stays the
	// buffer's.
	async lie(c, out) {
		await c.open("a.txt", "a one\na two\n");
		const ra = await c.tool("read", { path: "a.txt" });
		c.applyMode = "lie";
		const r = await c.tool("edit", { patch: `[a.txt#${tagOf(ra.text)}]\n@@ 1\n+EDITED\n` });
		out.edit = r.text;
		out.edit_is_error = r.isError;
		c.applyMode = "apply";
		out.read_after = (await c.tool("read", { path: "a.txt" })).text;
		out.a = c.docs.get("a.txt").text;
	},

	// applied: true at once, the edit and its didChange only after
	// $EUKHE_LATE_MS: the reply must never say "not applied" about an edit
	// that lands; once it lands, reads see it and the next edit works.
	async late(c, out) {
		await c.open("a.txt", "a one\na two\n");
		const ra = await c.tool("read", { path: "a.txt" });
		c.applyMode = "late";
		c.lateMs = Number(process.env.EUKHE_LATE_MS || 3000);
		const r = await c.tool("edit", { patch: `[a.txt#${tagOf(ra.text)}]\n@@ 1\n+EDITED\n` });
		out.edit = r.text;
		out.edit_is_error = r.isError;
		await Promise.all(c.pending);
		c.applyMode = "apply";
		await sleep(200);
		out.apply_requests = c.applyRequests.length;
		const rb = await c.tool("read", { path: "a.txt" });
		out.read_after = rb.text;
		const r2 = await c.tool("edit", { patch: `[a.txt#${tagOf(rb.text)}]\n@@ 2\n+TWO\n` });
		out.edit2 = r2.text;
		out.a = c.docs.get("a.txt").text;
	},

	// didChange out of version order on the wire, as Helix sends it under
	// fast typing (3, 1, 2, 5, 4): the copy eukhe serves is the in-order
	// text, or the document is refused as unknown; never a third text.
	async outOfOrder(c, out) {
		await c.open("a.txt", "a one\na two\n");
		// Five keys typed at the start of line 1, each change against the
		// text the one before it made; in any other order the letters land
		// elsewhere.
		const notes = [];
		["h", "e", "l", "l", "o"].forEach((key, i) => notes.push(c.change("a.txt", i, i, key)));
		out.expected = c.docs.get("a.txt").text;
		for (const v of [3, 1, 2, 5, 4]) await c.send(notes[v - 1]);
		await sleep(100);
		const r = await c.tool("read", { path: "a.txt" });
		out.read = r.text;
		out.read_is_error = r.isError;
		// Then a user keeps typing, in order.
		await c.type("a.txt", 0, "X");
		out.expected_after = c.docs.get("a.txt").text;
		const r2 = await c.tool("read", { path: "a.txt" });
		out.read_after = r2.text;
		out.read_after_is_error = r2.isError;
	},

	// Fast typing (200 keys, in order, each sent at once) with reads in
	// flight among the keys: every read gives the text of some version
	// the client had, never a third text.
	async typingReads(c, out) {
		await c.open("a.txt", `${face}one\ntwo\n`);
		// A read shows a last line without its newline as if it had one.
		const shown = (t) => (t === "" || t.endsWith("\n") ? t : t + "\n");
		const versions = new Set([shown(c.docs.get("a.txt").text)]);
		const reads = [];
		// mulberry32: the same keys every run.
		let seed = 7;
		const rand = (n) => {
			seed = (seed + 0x6d2b79f5) | 0;
			let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
			x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
			return ((x ^ (x >>> 14)) >>> 0) % n;
		};
		for (let i = 0; i < 200; i++) {
			const d = c.docs.get("a.txt");
			const at = rand(d.text.length + 1);
			// A key, a newline now and then, a backspace now and then, never
			// splitting a surrogate pair.
			const safe = (k) => k > 0 && k < d.text.length && /[\uDC00-\uDFFF]/.test(d.text[k]) ? k - 1 : k;
			const k = safe(at);
			const r = rand(10);
			if (r === 0 && k > 0) {
				const from = safe(k - 1);
				c.send(c.change("a.txt", from, k, ""));
			} else {
				c.send(c.change("a.txt", k, k, r === 1 ? "\n" : ["é", "😀", "x", "a"][rand(4)]));
			}
			versions.add(shown(c.docs.get("a.txt").text));
			if (i % 10 === 9) reads.push(c.tool("read", { path: "a.txt", raw: true }));
		}
		// A raw read is a header line, then the text.
		const body = (g) => g.text.slice(g.text.indexOf("\n") + 1);
		const got = await Promise.all(reads);
		out.reads = got.length;
		out.third = got.filter((g) => g.isError || !versions.has(body(g))).map((g) => g.text);
		out.final = shown(c.docs.get("a.txt").text);
		const last = await c.tool("read", { path: "a.txt", raw: true });
		out.final_read = body(last);
	},

	// A client that reorders its didChange (2 before 1, as Helix does)
	// and then loses one on the way (4 comes, 3 never does): once eukhe
	// stops waiting for it, the document is unknown: reads and edits of it
	// are refused, saying how to re-sync, never served from a copy that
	// skipped a change. (A gap from a client never seen to reorder is its
	// numbering, as Neovim's changedtick: it applies.)
	async gap(c, out) {
		await c.open("a.txt", "a one\na two\n");
		const notes = [];
		["h", "e", "l", "l"].forEach((key, i) => notes.push(c.change("a.txt", i, i, key)));
		for (const v of [2, 1, 4]) await c.send(notes[v - 1]);
		await sleep(Number(process.env.EUKHE_GAP_MS || 3000));
		const r = await c.tool("read", { path: "a.txt" });
		out.read = r.text;
		out.read_is_error = r.isError;
		const e = await c.tool("edit", { patch: "[a.txt#00000000]\n@@ 1\n+EDITED\n" });
		out.edit = e.text;
		out.edit_is_error = e.isError;
		out.apply_requests = c.applyRequests.length;
	},

	// An editor that cannot show questions (showMessageRequest answered
	// MethodNotFound, as Helix does): an attached agent's gated step is
	// refused at once saying so, the editor is not asked again, and the
	// user is told once.
	async noDialogs(c, out) {
		await c.open("a.txt", "a one\n");
		const ag = await Agent.start(bin, root);
		try {
			await ag.init();
			let t0 = performance.now();
			out.first = await ag.call("bash", { script: "sh -c 'echo ran > gated.txt'" });
			out.first_ms = performance.now() - t0;
			t0 = performance.now();
			out.second = await ag.call("bash", { script: "sh -c 'echo ran > gated2.txt'" });
			out.second_ms = performance.now() - t0;
		} finally {
			await ag.stop();
			out.agent_stderr = ag.stderr;
		}
		out.message_requests = c.messageRequests.map((p) => p.actions.map((a) => a.title));
		out.shown = c.shown.map((p) => p.message);
	},
};

const name = process.argv[2];
const out = { scenario: name };
const capabilities = modestCapabilities({
	applyEdit: name !== "noApplyEdit",
	encodings: (process.env.EUKHE_ENCODINGS || "utf-16").split(","),
});
const c = new Client({ bin, root, capabilities });
let failed = false;
try {
	if (!scenarios[name]) throw new Error(`no scenario ${name}: ${Object.keys(scenarios).join(", ")}`);
	await c.start();
	await scenarios[name](c, out);
} catch (e) {
	out.error = String(e?.stack ?? e);
	failed = true;
} finally {
	const end = await c.stop();
	out.exit = end;
	out.stderr = c.stderr;
}
process.stdout.write(JSON.stringify(out) + "\n");
process.exit(failed ? 1 : 0);
