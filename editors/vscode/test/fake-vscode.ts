// A fake of the slice of the `vscode` API the extension's glue uses,
// installed as the module "vscode" for the tests. Typed loosely; each piece
// behaves as VS Code documents it (a modal showWarningMessage resolves to
// the chosen item, or undefined when dismissed).

import Module = require("node:module");
import * as fs from "node:fs";
import * as url from "node:url";

type Listener<T> = (e: T) => unknown;

export class EventEmitter<T> {
	private listeners = new Set<Listener<T>>();
	event = (l: Listener<T>) => {
		this.listeners.add(l);
		return new Disposable(() => this.listeners.delete(l));
	};
	fire(e: T): void {
		for (const l of [...this.listeners]) l(e);
	}
	dispose(): void {
		this.listeners.clear();
	}
}

export class Disposable {
	constructor(private fn: () => unknown) {}
	static from(...ds: { dispose(): unknown }[]): Disposable {
		return new Disposable(() => ds.forEach((d) => d.dispose()));
	}
	dispose(): void {
		this.fn();
	}
}

export class Uri {
	private constructor(private s: string) {}
	static parse(s: string): Uri {
		return new Uri(s);
	}
	static file(p: string): Uri {
		return new Uri(url.pathToFileURL(p).href);
	}
	get scheme(): string {
		return this.s.slice(0, this.s.indexOf(":"));
	}
	get fsPath(): string {
		return url.fileURLToPath(this.s);
	}
	toString(): string {
		return this.s;
	}
}

export class Position {
	constructor(readonly line: number, readonly character: number) {}
}

export class Range {
	readonly start: Position;
	readonly end: Position;
	constructor(a: Position | number, b: Position | number, c?: number, d?: number) {
		this.start = typeof a === "number" ? new Position(a, b as number) : a;
		this.end = typeof a === "number" ? new Position(c!, d!) : (b as Position);
	}
}

export class Selection extends Range {
	get active(): Position {
		return this.end;
	}
}

export class CodeLens {
	constructor(readonly range: Range, readonly command?: { title: string; command: string; arguments?: unknown[] }) {}
}

export class ThemeColor {
	constructor(readonly id: string) {}
}

export class MarkdownString {
	value = "";
	appendText(s: string): this {
		this.value += s;
		return this;
	}
	appendCodeblock(s: string): this {
		this.value += "\n```\n" + s + "\n```\n";
		return this;
	}
}

export class McpStdioServerDefinition {
	constructor(readonly label: string, readonly command: string, readonly args: string[]) {}
}

export const StatusBarAlignment = { Left: 1, Right: 2 };
export const OverviewRulerLane = { Left: 1, Center: 2, Right: 4, Full: 7 };
export const TextEditorRevealType = { Default: 0, InCenter: 1, InCenterIfOutsideViewport: 2, AtTop: 3 };

// FakeDocument is an open document: its text, version and file.
export class FakeDocument {
	version = 1;
	constructor(readonly uri: Uri, public text: string) {}
	get fileName(): string {
		return this.uri.fsPath;
	}
	get isDirty(): boolean {
		return fs.readFileSync(this.uri.fsPath, "utf8") !== this.text;
	}
	getText(range?: Range): string {
		if (!range) return this.text;
		const at = (p: Position) => {
			let i = 0;
			for (let l = 0; l < p.line; l++) i = this.text.indexOf("\n", i) + 1;
			return i + p.character;
		};
		return this.text.slice(at(range.start), at(range.end));
	}
	async save(): Promise<boolean> {
		fs.writeFileSync(this.uri.fsPath, this.text);
		workspace.saved.fire(this);
		return true;
	}
}

// FakeEditor is a visible editor of a document: it keeps the last
// decorations set per decoration type, as VS Code replaces them.
export interface FakeDecorationType {
	key: string;
	options: any;
	dispose(): void;
}

export class FakeEditor {
	decorations = new Map<FakeDecorationType, any[]>();
	constructor(readonly document: FakeDocument, public selection = new Selection(0, 0, 0, 0)) {}
	setDecorations(type: FakeDecorationType, options: any[]): void {
		this.decorations.set(type, options);
	}
	// decorated gives the decorations of the types whose options pass is.
	decorated(is: (options: any) => boolean): any[] {
		return [...this.decorations].filter(([t]) => is(t.options)).flatMap(([, o]) => o);
	}
}

export interface Shown {
	kind: "warning" | "information" | "error";
	message: string;
	options?: { modal?: boolean; detail?: string };
	items: { title: string }[];
}

// The user: answers each message with the title it returns (undefined: the
// dialog is dismissed).
// Quick picks: pick returns the chosen item's index (undefined: dismissed).
export interface Picked {
	items: { label: string; description?: string }[];
	options?: { placeHolder?: string };
}
export const user = {
	answer: (_s: Shown): string | undefined => undefined,
	shown: [] as Shown[],
	pick: (_p: Picked): number | undefined => undefined,
	picks: [] as Picked[],
};

function show(kind: Shown["kind"]) {
	return async (message: string, ...rest: unknown[]) => {
		let options: Shown["options"];
		if (rest.length > 0 && typeof rest[0] === "object" && rest[0] !== null && !("title" in rest[0])) options = rest.shift() as Shown["options"];
		const items = rest.map((r) => (typeof r === "string" ? { title: r } : (r as { title: string })));
		const s: Shown = { kind, message, options, items };
		user.shown.push(s);
		const title = user.answer(s);
		const item = rest.find((r) => (typeof r === "string" ? r : (r as { title: string }).title) === title);
		return item;
	};
}

export const window = {
	showWarningMessage: show("warning"),
	showInformationMessage: show("information"),
	showErrorMessage: show("error"),
	createOutputChannel: (name: string) => {
		const lines: string[] = [];
		const log = (s: string) => lines.push(s);
		return { name, lines, append: log, appendLine: log, info: log, warn: log, error: log, debug: log, trace: log, show() {}, hide() {}, clear() {}, dispose() {} };
	},
	showQuickPick: async <T extends { label: string }>(items: T[], options?: Picked["options"]): Promise<T | undefined> => {
		const p: Picked = { items, options };
		user.picks.push(p);
		const i = user.pick(p);
		return i === undefined ? undefined : items[i];
	},
	// shownDocuments records showTextDocument: the file and the selection.
	shownDocuments: [] as { uri: string; selection?: Range }[],
	showTextDocument: async (uri: Uri, options?: { selection?: Range }) => {
		window.shownDocuments.push({ uri: uri.toString(), selection: options?.selection });
		return undefined;
	},
	statusItems: [] as { id: string; name?: string; text: string; visible: boolean }[],
	// createStatusBarItem(id?, alignment?, priority?): as in VS Code, an
	// item created without an id gets the extension's id ("eukhe.eukhe"),
	// one with an id the extension's id and its own.
	createStatusBarItem: (id?: string | number) => {
		const itemId = typeof id === "string" ? `eukhe.eukhe.${id}` : "eukhe.eukhe";
		const item = { id: itemId, name: undefined as string | undefined, text: "", tooltip: "", visible: false, show() { item.visible = true; }, hide() { item.visible = false; }, dispose() {} };
		window.statusItems.push(item);
		return item;
	},
	createTextEditorDecorationType: (options: unknown): FakeDecorationType => ({ key: `deco${++decorations}`, options, dispose() {} }),
	visibleTextEditors: [] as unknown[],
	activeTextEditor: undefined as unknown,
	onDidChangeVisibleTextEditors: new EventEmitter<unknown>().event,
};
let decorations = 0;

export const workspace = {
	workspaceFolders: [] as { uri: Uri; name: string; index: number }[],
	settings: {} as Record<string, unknown>,
	getConfiguration: (section: string) => ({
		get: <T>(key: string, d: T): T => (workspace.settings[`${section}.${key}`] as T) ?? d,
	}),
	textDocuments: [] as FakeDocument[],
	changed: new EventEmitter<{ document: FakeDocument; contentChanges: { range: Range; text: string }[] }>(),
	saved: new EventEmitter<FakeDocument>(),
	get onDidChangeTextDocument() {
		return workspace.changed.event;
	},
	get onDidSaveTextDocument() {
		return workspace.saved.event;
	},
	onDidChangeWorkspaceFolders: new EventEmitter<unknown>().event,
	// asRelativePath: the path under the workspace folder holding it, as VS Code shows it.
	asRelativePath: (uri: Uri): string => {
		const f = workspace.workspaceFolders.find((w) => uri.fsPath.startsWith(w.uri.fsPath + "/"));
		return f ? uri.fsPath.slice(f.uri.fsPath.length + 1) : uri.fsPath;
	},
};

export const DiagnosticSeverity = { Error: 0, Warning: 1, Information: 2, Hint: 3 };

export interface FakeDiagnostic {
	range: Range;
	message: string;
	severity: number;
	source?: string;
}

export const languages = {
	diagnostics: new Map<string, FakeDiagnostic[]>(),
	getDiagnostics: (uri?: Uri): any => {
		if (uri) return languages.diagnostics.get(uri.toString()) ?? [];
		return [...languages.diagnostics].map(([u, ds]) => [Uri.parse(u), ds]);
	},
	codeLensProviders: [] as { provideCodeLenses(d: unknown): CodeLens[] }[],
	registerCodeLensProvider: (_selector: unknown, p: { provideCodeLenses(d: unknown): CodeLens[] }) => {
		languages.codeLensProviders.push(p);
		return new Disposable(() => languages.codeLensProviders.splice(languages.codeLensProviders.indexOf(p), 1));
	},
};

const registry = new Map<string, (...args: any[]) => unknown>();
export const commands = {
	registerCommand: (id: string, fn: (...args: any[]) => unknown) => {
		if (registry.has(id)) throw new Error(`command '${id}' already exists`);
		registry.set(id, fn);
		return new Disposable(() => registry.delete(id));
	},
	executeCommand: async (id: string, ...args: unknown[]) => {
		const fn = registry.get(id);
		if (!fn) throw new Error(`command '${id}' not found`);
		return fn(...args);
	},
};

export const lm = {
	mcpProviders: new Map<string, { provideMcpServerDefinitions(): unknown[] }>(),
	registerMcpServerDefinitionProvider: (id: string, p: { provideMcpServerDefinitions(): unknown[] }) => {
		lm.mcpProviders.set(id, p);
		return new Disposable(() => lm.mcpProviders.delete(id));
	},
};

const fake = {
	EventEmitter, Disposable, Uri, Position, Range, Selection, CodeLens, ThemeColor, MarkdownString, McpStdioServerDefinition,
	StatusBarAlignment, OverviewRulerLane, DiagnosticSeverity, TextEditorRevealType, window, workspace, languages, commands, lm,
};

const load = (Module as any)._load;
(Module as any)._load = function (request: string, ...rest: unknown[]) {
	if (request === "vscode") return fake;
	return load.call(this, request, ...rest);
};
