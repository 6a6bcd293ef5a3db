import { test } from "node:test";
import * as assert from "node:assert/strict";
import { ReviewBook, hunkOf } from "../src/hunks";

const r = (sl: number, sc: number, el: number, ec: number) => ({ start: { line: sl, character: sc }, end: { line: el, character: ec } });
const U = "file:///ws/a.txt";

function book(): ReviewBook {
	const b = new ReviewBook();
	b.add({ editId: "e1", hunks: [
		{ uri: U, hunk: 0, range: r(2, 0, 4, 0), before: "x\n", after: "y\nz\n" }, // lines 2-3
		{ uri: U, hunk: 1, range: r(10, 0, 10, 0), before: "gone\n", after: "" }, // a deletion at 10
	] });
	return b;
}

test("a range ending inside a last line without newline covers that line", () => {
	assert.deepEqual([hunkOf("e", { uri: U, hunk: 0, range: r(5, 0, 5, 3), before: "", after: "abc" })].map((h) => [h.start, h.end]), [[5, 6]]);
});

test("hunks follow lines inserted or deleted above them, and grow with edits inside", () => {
	const b = book();
	b.changed(U, [{ range: r(0, 0, 0, 0), text: "new\nnew\n" }]); // two lines above
	assert.deepEqual(b.hunks(U).map((h) => [h.start, h.end]), [[4, 6], [12, 12]]);
	b.changed(U, [{ range: r(5, 1, 5, 1), text: "\nmore" }]); // a line inside hunk 0
	assert.deepEqual(b.hunks(U).map((h) => [h.start, h.end]), [[4, 7], [13, 13]]);
	b.changed(U, [{ range: r(0, 0, 2, 0), text: "" }]); // two lines deleted above
	assert.deepEqual(b.hunks(U).map((h) => [h.start, h.end]), [[2, 5], [11, 11]]);
	b.changed(U, [{ range: r(20, 0, 20, 0), text: "below\n" }]); // below: nothing moves
	assert.deepEqual(b.hunks(U).map((h) => [h.start, h.end]), [[2, 5], [11, 11]]);
	b.changed(U, [{ range: r(2, 0, 2, 0), text: "typed\n" }]); // at the hunk's first line: pushes it down
	assert.deepEqual(b.hunks(U).map((h) => [h.start, h.end]), [[3, 6], [12, 12]]);
});

test("decisions drop a hunk, a file's hunks of an edit, or the edit", () => {
	const b = book();
	b.add({ editId: "e2", hunks: [{ uri: U, hunk: 0, range: r(30, 0, 31, 0), before: "", after: "q\n" }] });
	b.decided("e1", U, 1);
	assert.deepEqual(b.hunks(U).map((h) => `${h.editId}/${h.hunk}`), ["e1/0", "e2/0"]);
	assert.deepEqual(b.editIds(U), ["e1", "e2"]);
	b.decided("e1", U);
	assert.deepEqual(b.hunks(U).map((h) => `${h.editId}/${h.hunk}`), ["e2/0"]);
	b.decided("e2");
	assert.deepEqual(b.uris(), []);
});

test("next and previous hunk wrap around", () => {
	const b = book();
	assert.equal(b.next(U, 0)!.hunk, 0);
	assert.equal(b.next(U, 2)!.hunk, 1);
	assert.equal(b.next(U, 10)!.hunk, 0);
	assert.equal(b.next(U, 10, true)!.hunk, 0);
	assert.equal(b.next(U, 1, true)!.hunk, 1);
});
