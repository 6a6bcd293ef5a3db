// The manifest as a newcomer meets it: keybindings that take no key VS
// Code already uses and that the README lists, categories, the MIT
// license with its file, the "eukhe: Restart server" command, and no
// setting that repeats the server's approval timeout.

import "./fake-vscode";
import { test } from "node:test";
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { commands } from "./fake-vscode";

const root = path.join(__dirname, "..", "..");
const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");

// Keys of VS Code's default keybindings that an extension could be tempted
// to take (Preferences: Open Default Keyboard Shortcuts (JSON)); none of
// ours may be one of them, on any platform.
const builtIn = new Set([
	"alt+f5", "shift+alt+f5", "alt+f8", "shift+alt+f8", "f7", "shift+f7", "f8", "shift+f8",
	"ctrl+alt+n", "ctrl+alt+y", "cmd+alt+y", "cmd+alt+n",
	"ctrl+k ctrl+c", "ctrl+k ctrl+u", "ctrl+k ctrl+s", "ctrl+k ctrl+o", "ctrl+k ctrl+w", "ctrl+k ctrl+x",
	"ctrl+k ctrl+i", "ctrl+k ctrl+f", "ctrl+k ctrl+0", "ctrl+k ctrl+j", "ctrl+k ctrl+t", "ctrl+k ctrl+h",
	"ctrl+k m", "ctrl+k p", "ctrl+k r", "ctrl+k o", "ctrl+k s", "ctrl+k f", "ctrl+k u", "ctrl+k w", "ctrl+k z",
	"ctrl+k v", "ctrl+k d", "ctrl+k e", "ctrl+k enter", "ctrl+k shift+enter", "ctrl+k h", "ctrl+k i", "ctrl+k t",
	"cmd+k cmd+c", "cmd+k cmd+u", "cmd+k cmd+s", "cmd+k m", "cmd+k p", "cmd+k r", "cmd+k o", "cmd+k s",
	"cmd+k f", "cmd+k u", "cmd+k w", "cmd+k z", "cmd+k v", "cmd+k d", "cmd+k e", "cmd+k enter",
	"alt+]", "alt+[", "ctrl+enter", "ctrl+backspace", "ctrl+shift+enter",
]);

test("no keybinding takes a key VS Code already uses, and the README lists each", () => {
	const bindings: { command: string; key: string; mac?: string }[] = manifest.contributes.keybindings;
	assert.ok(bindings.length > 0);
	for (const b of bindings) {
		for (const key of [b.key, b.mac].filter((k): k is string => !!k)) {
			assert.equal(builtIn.has(key), false, `${b.command}: ${key} is a VS Code default keybinding`);
		}
		const title = manifest.contributes.commands.find((c: { command: string }) => c.command === b.command)?.title;
		assert.ok(title, b.command);
		const shown = b.key.split(" ").map((chord) => chord.split("+").map((k) => k.length === 1 ? k.toUpperCase() : k[0].toUpperCase() + k.slice(1)).join("+")).join(" ");
		assert.ok(readme.includes(shown), `the README does not list ${shown} (${b.command})`);
	}
});

test("categories, the MIT license and its file, vsce without --skip-license", () => {
	assert.ok(Array.isArray(manifest.categories) && manifest.categories.length > 0);
	assert.equal(manifest.license, "MIT");
	assert.equal(fs.readFileSync(path.join(root, "LICENSE"), "utf8"), fs.readFileSync(path.join(root, "..", "..", "LICENSE"), "utf8"));
	assert.doesNotMatch(manifest.scripts.package, /--skip-license/);
	assert.match(fs.readFileSync(path.join(root, ".vscodeignore"), "utf8"), /^!LICENSE$/m);
});

test("the approval timeout is the server's alone: no VS Code setting repeats it", () => {
	const props = Object.keys(manifest.contributes.configuration.properties);
	assert.deepEqual(props.filter((p) => /timeout/i.test(p)), []);
});

test("eukhe: Restart server is a command, registered at activation", async () => {
	assert.ok(manifest.contributes.commands.some((c: { command: string; title: string; category: string }) =>
		c.command === "eukhe.restartServer" && c.title === "Restart server" && c.category === "eukhe"));
	const { registerRestart } = await import("../src/restart.js");
	const calls: string[] = [];
	const lines: string[] = [];
	const folder = (name: string) => ({ name, index: 0, uri: { fsPath: "/" + name } }) as never;
	let running = 0;
	const d = registerRestart(() => [folder("a"), folder("b")], async (f: { name: string }) => {
		calls.push(f.name);
		running++;
	}, () => running, (l) => lines.push(l));
	await commands.executeCommand("eukhe.restartServer");
	assert.deepEqual(calls, ["a", "b"]);
	assert.deepEqual(lines, ["restarted: 2 servers running"]);
	d.dispose();
	// The extension registers it (it is in the bundle's activate).
	assert.match(fs.readFileSync(path.join(root, "src", "extension.ts"), "utf8"), /registerRestart\(/);
});
