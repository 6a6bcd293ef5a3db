// Properties of the dialog's escapes over generated fields: what is shown
// holds no character that hides or moves text and no line break, reads
// back (as bash reads it) as the field itself, and a step shown indented
// has no line at the margin. A seeded generator, so a failure repeats.

import { test } from "node:test";
import * as assert from "node:assert/strict";
import { indented, visible, visibleText } from "../src/shown";

// pieces: plain text, shell characters and reserved words, lines that
// look like a dialog's actions, and characters the dialog must escape.
const pieces = [
	"a", "Z", "9", "reviewer", "/ws/sub", "é", "中", "😀", "e\u0301",
	" ", "'", '"', "\\", "$", "`", "#", "~", "=", "*", "[", "{", "}", "!", "if", "[[", "in",
	"[Allow]", "1. Allow", "Request Actions:",
	"\n", "\t", "\r", "\x01", "\x07", "\x1b", "\x7f", "\u0085", "\u009b", "\u00a0", "\u00ad",
	"\u061c", "\u200b", "\u200d", "\u200e", "\u200f", "\u2028", "\u2029", "\u202a", "\u202e",
	"\u2060", "\u2066", "\u2069", "\ufeff", "\ue000", "\ufffd", "\u{e0041}", "\u{f0000}", "\ud800", "\udfff",
];

// mulberry32: a small seeded generator.
function generator(seed: number): () => number {
	return () => {
		seed = (seed + 0x6d2b79f5) | 0;
		let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

function fields(n: number): string[] {
	const next = generator(15);
	const out = [...pieces];
	for (let i = 0; i < n; i++) {
		const k = Math.floor(next() * 11);
		let s = "";
		for (let j = 0; j < k; j++) s += pieces[Math.floor(next() * pieces.length)];
		out.push(s);
	}
	return out;
}

// moves matches a character that hides or moves text, or breaks a line.
const moves = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}\p{Zl}\p{Zp}\u00a0\ufffd]/u;

// readBack is a shown field as bash reads it: '…', "…", $'…' or plain.
function readBack(shown: string): string {
	if (shown.startsWith("$'") && shown.endsWith("'")) {
		const body = shown.slice(2, -1);
		const named: Record<string, string> = { a: "\x07", b: "\b", t: "\t", n: "\n", v: "\v", f: "\f", r: "\r", "'": "'", "\\": "\\" };
		let out = "";
		for (let i = 0; i < body.length; i++) {
			if (body[i] !== "\\") {
				out += body[i];
				continue;
			}
			const c = body[++i];
			const width = { x: 2, u: 4, U: 8 }[c as "x" | "u" | "U"];
			if (width) {
				out += String.fromCodePoint(parseInt(body.slice(i + 1, i + 1 + width), 16));
				i += width;
			} else {
				assert.ok(c in named, `unknown escape \\${c} in ${shown}`);
				out += named[c];
			}
		}
		return out;
	}
	if (shown.startsWith("'") && shown.endsWith("'")) return shown.slice(1, -1);
	if (shown.startsWith('"') && shown.endsWith('"')) return shown.slice(1, -1).replace(/\\(["\\`$])/g, "$1");
	return shown;
}

test("a shown field holds nothing that hides or moves text, and reads back as the field", () => {
	for (const s of fields(3000)) {
		const shown = visible(s);
		assert.doesNotMatch(shown, moves, JSON.stringify(s));
		assert.equal(readBack(shown), s, `${JSON.stringify(s)} shown as ${shown}`);
	}
});

test("a shown step keeps its lines and tabs, escapes the rest, and indented has no line at the margin", () => {
	for (const s of fields(3000)) {
		const shown = visibleText(s);
		assert.equal(shown.split("\n").length, s.split("\n").length, JSON.stringify(s));
		assert.doesNotMatch(shown.replace(/[\n\t]/g, ""), moves, JSON.stringify(s));
		for (const line of indented(shown).split("\n")) assert.ok(line.startsWith("    "), `${JSON.stringify(line)} of ${JSON.stringify(s)}`);
	}
});
