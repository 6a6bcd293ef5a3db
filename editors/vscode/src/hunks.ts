// The hunks under review, by document, and how they follow later edits of
// the document. Pure: no vscode import. Lines are 0-based; a hunk covers
// lines [start, end) (start == end: a pure deletion, shown at start).

import { Range, ReviewHunk, ReviewParams } from "./protocol";

export interface Hunk {
	editId: string;
	uri: string;
	hunk: number;
	start: number;
	end: number;
	before: string;
	after: string;
}

// A text change as VS Code reports it: the range replaced, and the text
// that replaced it.
export interface Change {
	range: Range;
	text: string;
}

export function hunkOf(editId: string, h: ReviewHunk): Hunk {
	const { start, end } = h.range;
	// A range ends at the start of the next line, or inside a last line
	// without a newline.
	const last = end.character > 0 ? end.line + 1 : end.line;
	return { editId, uri: h.uri, hunk: h.hunk, start: start.line, end: Math.max(last, start.line), before: h.before, after: h.after };
}

function newlines(s: string): number {
	let n = 0;
	for (const c of s) if (c === "\n") n++;
	return n;
}

// shift moves a hunk through one change of its document: a change that
// ends at or before the hunk's first line moves it; one that starts at or
// after the line below it leaves it; one inside it grows or shrinks it.
export function shift(h: Hunk, c: Change): void {
	const delta = newlines(c.text) - (c.range.end.line - c.range.start.line);
	const { start, end } = c.range;
	if (end.line < h.start || (end.line === h.start && end.character === 0)) {
		h.start += delta;
		h.end += delta;
		return;
	}
	if (start.line >= h.end) return;
	h.end = Math.max(h.start, h.end + delta);
}

export class ReviewBook {
	private byUri = new Map<string, Hunk[]>();

	add(p: ReviewParams): string[] {
		const uris = new Set<string>();
		for (const rh of p.hunks) {
			const list = this.byUri.get(rh.uri) ?? [];
			list.push(hunkOf(p.editId, rh));
			list.sort((a, b) => a.start - b.start);
			this.byUri.set(rh.uri, list);
			uris.add(rh.uri);
		}
		return [...uris];
	}

	hunks(uri: string): Hunk[] {
		return this.byUri.get(uri) ?? [];
	}

	uris(): string[] {
		return [...this.byUri.keys()];
	}

	all(): Hunk[] {
		return [...this.byUri.values()].flat();
	}

	// editIds lists the edits with hunks pending, in one document or all.
	editIds(uri?: string): string[] {
		const hs = uri === undefined ? this.all() : this.hunks(uri);
		return [...new Set(hs.map((h) => h.editId))];
	}

	// decided drops what a decision took out of review: one hunk, a file's
	// hunks of an edit, or a whole edit.
	decided(editId: string, uri?: string, hunk?: number): void {
		for (const [u, list] of this.byUri) {
			if (uri !== undefined && u !== uri) continue;
			const rest = list.filter((h) => h.editId !== editId || (hunk !== undefined && h.hunk !== hunk));
			if (rest.length === 0) this.byUri.delete(u);
			else this.byUri.set(u, rest);
		}
	}

	// changed follows edits of a document, in the order VS Code reports them.
	changed(uri: string, changes: readonly Change[]): boolean {
		const list = this.byUri.get(uri);
		if (!list) return false;
		for (const c of changes) for (const h of list) shift(h, c);
		return true;
	}

	// next finds the hunk after (or before, with back) a line, wrapping.
	next(uri: string, line: number, back = false): Hunk | undefined {
		const list = this.hunks(uri);
		if (list.length === 0) return undefined;
		if (back) return [...list].reverse().find((h) => h.start < line) ?? list[list.length - 1];
		return list.find((h) => h.start > line) ?? list[0];
	}
}
