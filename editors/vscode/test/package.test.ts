// The package: `npm run package` (esbuild bundle, then vsce with
// --no-dependencies: the bundle holds them) builds a vsix with the bundle
// and the manifest and nothing of the sources; the bundle requires only
// vscode and Node's built-ins.

import { test } from "node:test";
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { builtinModules } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { zipNames } from "./zip";

const root = path.join(__dirname, "..", "..");

test("npm run package builds a vsix with dist/extension.js and package.json, no sources", () => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), "eukhe-vsix-"));
	try {
		const vsix = path.join(dir, "eukhe.vsix");
		execFileSync("npm", ["run", "--silent", "package", "--", "--out", vsix], { cwd: root, stdio: "pipe", timeout: 120_000 });
		const names = zipNames(fs.readFileSync(vsix));
		assert.ok(names.includes("extension/dist/extension.js"), names.join("\n"));
		assert.ok(names.includes("extension/package.json"), names.join("\n"));
		const stray = names.filter((n) => /^extension\/(src|test|out|node_modules)\//.test(n) || n.endsWith(".map"));
		assert.deepEqual(stray, []);
		const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
		assert.equal(manifest.main, "./dist/extension.js");
		// The bundle holds the dependencies: it requires only vscode and Node's built-ins.
		const bundle = fs.readFileSync(path.join(root, "dist", "extension.js"), "utf8");
		const required = new Set([...bundle.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]));
		assert.ok(required.has("vscode"));
		const foreign = [...required].filter((r) => r !== "vscode" && !builtinModules.includes(r.replace(/^node:/, "")));
		assert.deepEqual(foreign, []);
		assert.match(bundle, /activate/);
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
});
