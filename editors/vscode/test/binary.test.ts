import { test } from "node:test";
import * as assert from "node:assert/strict";
import { findBinary, versionProblem } from "../src/binary";

const where = { setting: "", bundled: "", pathEnv: "/usr/bin:/opt/eukhe/bin", home: "/home/u", windows: false };

test("the binary comes from the setting first, then PATH, then ~/go/bin", () => {
	const all = (p: string) => ["/x/eukhe", "/opt/eukhe/bin/eukhe", "/home/u/go/bin/eukhe"].includes(p);
	assert.deepEqual(findBinary({ ...where, setting: "/x/eukhe" }, all), { path: "/x/eukhe" });
	assert.deepEqual(findBinary(where, all), { path: "/opt/eukhe/bin/eukhe" });
	assert.deepEqual(findBinary(where, (p) => p === "/home/u/go/bin/eukhe"), { path: "/home/u/go/bin/eukhe" });
	assert.deepEqual(findBinary({ ...where, setting: "~/bin/eukhe" }, (p) => p === "/home/u/bin/eukhe"), { path: "/home/u/bin/eukhe" });
});

test("the platform package's own binary comes after the setting and before PATH", () => {
	const w = { ...where, bundled: "/ext/eukhe-0.1.0/bin" };
	const all = (p: string) => ["/x/eukhe", "/ext/eukhe-0.1.0/bin/eukhe", "/opt/eukhe/bin/eukhe"].includes(p);
	assert.deepEqual(findBinary({ ...w, setting: "/x/eukhe" }, all), { path: "/x/eukhe" });
	assert.deepEqual(findBinary(w, all), { path: "/ext/eukhe-0.1.0/bin/eukhe" });
	assert.deepEqual(findBinary(w, (p) => p === "/opt/eukhe/bin/eukhe"), { path: "/opt/eukhe/bin/eukhe" });
	const win = { ...w, windows: true, bundled: "C:\\ext\\bin", pathEnv: "" };
	const r = findBinary(win, (p) => p.endsWith("eukhe.exe"));
	assert.ok("path" in r && r.path.endsWith("eukhe.exe"), JSON.stringify(r));
});

test("a missing binary is an error that says how to fix it", () => {
	const r = findBinary(where, () => false);
	assert.ok("error" in r);
	assert.match(r.error, /no eukhe binary found/);
	assert.match(r.error, /go install github.com\/eukhe\/eukhe\/cmd\/eukhe@latest/);
	const bad = findBinary({ ...where, setting: "/nope/eukhe" }, () => false);
	assert.ok("error" in bad);
	assert.match(bad.error, /eukhe.path names \/nope\/eukhe/);
});

test("the version handshake reads experimental.eukhe of initialize's result", () => {
	const ok = { capabilities: { experimental: { eukhe: { version: 1, methods: ["eukhe/tool", "eukhe/reviewDecision"] } } } };
	assert.equal(versionProblem(ok, "/b/eukhe"), undefined);
	assert.match(versionProblem({ capabilities: {} }, "/b/eukhe")!, /\/b\/eukhe is too old.*go install/);
	assert.match(versionProblem({ capabilities: { experimental: { eukhe: { version: 0, methods: [] } } } }, "e")!, /speaks version 0/);
	assert.match(versionProblem({ capabilities: { experimental: { eukhe: { version: 1, methods: ["eukhe/tool"] } } } }, "e")!, /does not answer eukhe\/reviewDecision/);
});
