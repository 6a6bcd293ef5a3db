// driver.mjs drives a real VS Code workbench (code-server, at the URL of
// argv[2]) in headless Chromium through puppeteer-core, for
// vscode_test.go: one JSON command a line on stdin, one JSON answer a line
// on stdout ({"ok": value} or {"error": text}). It decides nothing: the
// Go test says what to do and judges what it sees.
//
// Commands: ready, status, open {name}, type {name, line, text, delay},
// text {name}, lenses {name}, click {name, lens, nth},
// dialog, button {text}, close, key {key, name}, probe, shot {path},
// eol {name, eol}, quit.
import puppeteer from "puppeteer-core";
import readline from "node:readline";

const url = process.argv[2];
const browser = await puppeteer.launch({
	executablePath: process.env.EUKHE_CHROMIUM || "/usr/bin/chromium",
	headless: true,
	// root in CI: Chromium's own sandbox needs an unprivileged user
	args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,900"],
	defaultViewport: { width: 1400, height: 900 },
});
const page = (await browser.pages())[0] || (await browser.newPage());
const logs = [];
page.on("console", (m) => logs.length < 200 && logs.push(`${m.type()}: ${m.text()}`));
page.on("pageerror", (e) => logs.length < 200 && logs.push(`pageerror: ${e.message}`));

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// until polls f until it gives a truthy value, or fails after ms.
async function until(what, f, ms = 30000) {
	const end = Date.now() + ms;
	for (;;) {
		const v = await f();
		if (v) return v;
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
		await sleep(100);
	}
}

// tab is the editor tab of the file name, or null.
async function tab(name) {
	for (const t of await page.$$(".tabs-container .tab")) {
		const label = await t.evaluate((e) => e.getAttribute("data-resource-name") || e.getAttribute("aria-label") || "");
		if (label === name || label.startsWith(name + ",") || label.startsWith(name + " ")) return t;
	}
	return null;
}

// isActive: the editor of name is the active group's front editor.
function isActive(name) {
	return page.evaluate((n) => {
		const a = document.querySelector(".editor-group-container.active .tab.active");
		return !!a && (a.getAttribute("data-resource-name") === n || (a.getAttribute("aria-label") || "").startsWith(n));
	}, name);
}

// activate brings the editor of name to the front (it must be open). An
// editor already in front is left alone: a click on its tab moves the
// focus to the tab and back into the editor, and each focus of the
// editor restarts the workbench's CodeLens debounce (the lens request
// runs only after the editor has kept the focus for the debounce, the
// running average of how long the lens requests took, at least 250 ms).
// Polled every 200 ms, a click each time starved the request: under load
// the review's lenses were never asked for.
async function activate(name) {
	if (await isActive(name)) return;
	const t = await until(`the tab of ${name}`, () => tab(name));
	await t.click();
	await until(`${name} to be the active editor`, () => isActive(name));
}

// editorText is the text the active editor shows, line by line (the
// files of the test are short enough to show whole).
function editorText() {
	return page.evaluate(() => {
		const lines = [...document.querySelectorAll(".editor-group-container.active .monaco-editor .view-lines .view-line")];
		lines.sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top));
		return lines.map((l) => l.textContent.replace(/\u00a0/g, " ")).join("\n");
	});
}

const commands = {
	async ready() {
		await page.goto(url, { waitUntil: "domcontentloaded", timeout: 60000 });
		await until("the workbench", () => page.$(".monaco-workbench .part.statusbar"), 90000);
		return true;
	},
	// status: the status bar items' ids, texts and tooltips (aria labels).
	async status() {
		return page.evaluate(() =>
			[...document.querySelectorAll(".part.statusbar .statusbar-item")].map((e) => ({
				id: e.id,
				text: e.textContent.trim(),
				label: (e.querySelector("a") || e).getAttribute("aria-label") || "",
			})),
		);
	},
	async open({ name }) {
		if (!(await tab(name))) {
			await page.keyboard.down("Control");
			await page.keyboard.press("KeyP");
			await page.keyboard.up("Control");
			await until("quick open", () => page.$(".quick-input-widget:not([style*='display: none']) input"));
			await sleep(200);
			await page.keyboard.type(name);
			await until(`quick open to list ${name}`, () =>
				page.evaluate((n) => [...document.querySelectorAll(".quick-input-list .monaco-list-row")].some((r) => r.textContent.includes(n)), name),
			);
			await sleep(300);
			await page.keyboard.press("Enter");
		}
		await activate(name);
		await until(`${name}'s text`, () => page.$(".editor-group-container.active .monaco-editor .view-lines .view-line"));
		return true;
	},
	// type: the keys of text at the end of line (1-based) of name, delay
	// ms apart.
	async type({ name, line, text, delay = 20 }) {
		await activate(name);
		await page.click(".editor-group-container.active .monaco-editor .view-lines");
		await page.keyboard.down("Control");
		await page.keyboard.press("Home");
		await page.keyboard.up("Control");
		for (let i = 1; i < line; i++) await page.keyboard.press("ArrowDown");
		await page.keyboard.press("End");
		await page.keyboard.type(text, { delay });
		return true;
	},
	// save: Ctrl+S in name's editor, as the user saves.
	async save({ name }) {
		await activate(name);
		await page.click(".editor-group-container.active .monaco-editor .view-lines");
		await page.keyboard.down("Control");
		await page.keyboard.press("KeyS");
		await page.keyboard.up("Control");
		return true;
	},
	async text({ name }) {
		await activate(name);
		return editorText();
	},
	// lenses: the CodeLens texts name's editor shows, top to bottom.
	async lenses({ name }) {
		await activate(name);
		return page.evaluate(() =>
			[...document.querySelectorAll(".editor-group-container.active .monaco-editor .codelens-decoration")]
				.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)
				.map((d) => d.textContent.replace(/\u00a0/g, " ").trim()),
		);
	},
	// click: the nth (0-based) lens link whose text is lens in name's
	// editor, clicked with the mouse at its place (lenses are drawn anew
	// as the document changes, so no element is held between looking and
	// clicking).
	async click({ name, lens, nth = 0 }) {
		await activate(name);
		const at = await until(`lens "${lens}" number ${nth + 1} in ${name}`, () =>
			page.evaluate(
				(lens, nth) => {
					const links = [...document.querySelectorAll(".editor-group-container.active .monaco-editor .codelens-decoration a")]
						.filter((a) => a.textContent.trim() === lens)
						.map((a) => a.getBoundingClientRect())
						.filter((r) => r.width > 0 && r.height > 0)
						.sort((x, y) => x.top - y.top);
					const r = links[nth];
					return r ? { x: r.left + r.width / 2, y: r.top + r.height / 2 } : null;
				},
				lens,
				nth,
			),
		10000);
		await page.mouse.click(at.x, at.y);
		return true;
	},
	// dialog: the modal dialog showing (message, detail, buttons), or null.
	async dialog() {
		return page.evaluate(() => {
			const d = document.querySelector(".monaco-dialog-box");
			if (!d) return null;
			const txt = (s) => (d.querySelector(s) || { textContent: "" }).textContent.trim();
			return {
				message: txt(".dialog-message-text"),
				detail: txt(".dialog-message-detail"),
				buttons: [...d.querySelectorAll(".dialog-buttons .monaco-button")].map((b) => b.textContent.trim()),
				closeControl: !!d.querySelector(".dialog-toolbar .codicon-dialog-close"),
			};
		});
	},
	// probe: what the active editor draws, for a failure's report: its
	// tab, lens decorations, view zones (where lenses live) and line
	// decorations by class.
	async probe() {
		return page.evaluate(() => {
			const ed = document.querySelector(".editor-group-container.active .monaco-editor");
			if (!ed) return null;
			const classes = {};
			for (const e of ed.querySelectorAll(".view-overlays > div > div")) for (const c of e.classList) classes[c] = (classes[c] || 0) + 1;
			const tab = document.querySelector(".editor-group-container.active .tab.active");
			return {
				tab: tab && tab.getAttribute("aria-label"),
				lenses: ed.querySelectorAll(".codelens-decoration").length,
				zones: ed.querySelectorAll(".view-zones > div").length,
				overlays: classes,
			};
		});
	},
	// button: a click on the showing dialog's button whose text is text.
	async button({ text }) {
		const at = await until(`the dialog's button ${text}`, () =>
			page.evaluate((text) => {
				const b = [...document.querySelectorAll(".monaco-dialog-box .dialog-buttons .monaco-button")].find((b) => b.textContent.trim() === text);
				if (!b) return null;
				const r = b.getBoundingClientRect();
				return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
			}, text),
		10000);
		await page.mouse.click(at.x, at.y);
		return true;
	},
	// close: a click on the showing dialog's close control (the X of its
	// toolbar, VS Code's "Close Dialog" action).
	async close() {
		const at = await until("the dialog's close control", () =>
			page.evaluate(() => {
				const b = document.querySelector(".monaco-dialog-box .dialog-toolbar .codicon-dialog-close");
				if (!b) return null;
				const r = b.getBoundingClientRect();
				return r.width > 0 && r.height > 0 ? { x: r.left + r.width / 2, y: r.top + r.height / 2 } : null;
			}),
		10000);
		await page.mouse.click(at.x, at.y);
		return true;
	},
	// key: a key or a chord ("Control+KeyZ"), into name's editor when
	// name is given (it gets the focus first).
	async key({ key, name }) {
		if (name) {
			await activate(name);
			await page.click(".editor-group-container.active .monaco-editor .view-lines");
		}
		const parts = key.split("+");
		const last = parts.pop();
		for (const m of parts) await page.keyboard.down(m);
		await page.keyboard.press(last);
		for (const m of parts.reverse()) await page.keyboard.up(m);
		return true;
	},
	// shot: a picture of the page (gives the console), or with clip of
	// the active editor group alone, cut at height pixels, toasts hidden
	// first (README's picture; gives the clip and where the editor's
	// parts lie in the page, for the test to judge).
	async shot({ path, clip, height }) {
		if (!clip) {
			await page.screenshot({ path });
			return logs;
		}
		if (await page.$(".notification-toast")) {
			await page.keyboard.press("Escape"); // notifications.hideToasts
			await until("the toasts to hide", async () => !(await page.$(".notification-toast")), 5000);
		}
		// The browser scrolls a box whose overflow is hidden to show an
		// element that takes the focus (the editor's hidden textarea sits
		// at its cursor), which the workbench's layout never undoes: the
		// editor then sat left of its group, its line numbers, its lenses'
		// "Keep all" and the first columns of each line outside the
		// picture (the first README picture). Each box in the editor and
		// above it is put back; the editor's own horizontal scroll is brought back
		// to column 0 by a wheel over its lines.
		const layout = () =>
			page.evaluate((h) => {
				const g = document.querySelector(".editor-group-container.active");
				const ed = g.querySelector(".monaco-editor");
				const moved = [];
				const boxes = [...ed.querySelectorAll("*")];
				for (let e = ed; e; e = e.parentElement) boxes.push(e);
				for (const e of boxes) {
					if (e.scrollLeft || e.scrollTop) {
						moved.push(`${e.className || e.tagName}: ${e.scrollLeft},${e.scrollTop}`);
						e.scrollLeft = 0;
						e.scrollTop = 0;
					}
				}
				window.scrollTo(0, 0);
				const box = (e) => {
					const b = e.getBoundingClientRect();
					return { x: b.left, y: b.top, width: b.width, height: b.height };
				};
				const b = g.getBoundingClientRect();
				const lines = ed.querySelector(".lines-content");
				const text = [...ed.querySelectorAll(".view-line > span")].map(box).filter((r) => r.width > 0);
				return {
					clip: { x: b.left, y: b.top, width: b.width, height: Math.min(b.height, h || b.height) },
					editor: box(ed),
					margin: box(ed.querySelector(".margin")),
					scrollLeft: lines ? -parseFloat(lines.style.left || "0") : 0,
					lenses: [...ed.querySelectorAll(".codelens-decoration")].map((e) => ({ text: e.textContent, ...box(e) })),
					lines: text,
					moved,
				};
			}, height);
		let l = await layout();
		if (l.scrollLeft > 0) {
			await page.mouse.move(l.editor.x + l.editor.width / 2, l.editor.y + 40);
			await page.mouse.wheel({ deltaX: -100000 });
			await until("the editor to scroll to column 0", async () => (l = await layout()).scrollLeft <= 0, 5000);
			await page.mouse.move(0, 0);
		}
		await page.screenshot({ path, clip: l.clip });
		return l;
	},
	// eol: name's line endings switched to eol ("LF" or "CRLF") as the
	// user does it: a click on the status bar's end-of-line item, then the
	// choice in its quick pick. Gives the item's text after the switch.
	async eol({ name, eol }) {
		await activate(name);
		const item = await until("the status bar's end-of-line item", () => page.$("#status\\.editor\\.eol a, #status\\.editor\\.eol"));
		await item.click();
		await until("the end-of-line quick pick", () => page.$(".quick-input-widget:not([style*='display: none']) input"));
		await sleep(200);
		await page.keyboard.type(eol);
		await until(`the quick pick to list ${eol}`, () =>
			page.evaluate((e) => [...document.querySelectorAll(".quick-input-list .monaco-list-row")].some((r) => r.textContent.trim().startsWith(e)), eol),
		);
		await sleep(200);
		await page.keyboard.press("Enter");
		return until(`the end-of-line item to say ${eol}`, () =>
			page.evaluate((e) => {
				const i = document.querySelector("#status\\.editor\\.eol");
				return i && i.textContent.trim() === e ? i.textContent.trim() : null;
			}, eol),
		);
	},
	async quit() {
		await browser.close();
		process.exit(0);
	},
};

const rl = readline.createInterface({ input: process.stdin });
for await (const line of rl) {
	let answer;
	try {
		const cmd = JSON.parse(line);
		const f = commands[cmd.cmd];
		if (!f) throw new Error(`no command ${cmd.cmd}`);
		answer = { ok: (await f(cmd)) ?? null };
	} catch (e) {
		answer = { error: String(e && e.stack ? e.stack : e) };
	}
	process.stdout.write(JSON.stringify(answer) + "\n");
}
await browser.close();
