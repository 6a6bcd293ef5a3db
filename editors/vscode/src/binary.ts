// Finding the eukhe binary and checking that it speaks our eukhe/*
// extension. Pure: no vscode import, the file system comes in as a function.

import * as path from "node:path";
import { experimentalKey, Method, ServerCapabilities } from "./protocol";

export const installHint =
	"Install the eukhe package for your platform (it holds the binary), " +
	"or a release archive's eukhe on PATH, or `go install github.com/eukhe/eukhe/cmd/eukhe@latest`, " +
	"or set `eukhe.path` to the binary.";

export interface Where {
	setting: string; // eukhe.path, "" when unset
	bundled: string; // the extension's own bin/ directory (a per-platform package holds eukhe there)
	pathEnv: string; // $PATH
	home: string; // the user's home directory
	windows: boolean;
}

export type Found = { path: string } | { error: string };

// findBinary looks at the setting, then the binary the per-platform
// package holds, then PATH, then ~/go/bin, in that order. The setting
// comes first because it is the user's explicit choice (a build of their
// own); a setting that names no executable is an error of its own (it is
// not silently passed over for another binary).
export function findBinary(w: Where, isExecutable: (p: string) => boolean): Found {
	const exe = w.windows ? "eukhe.exe" : "eukhe";
	if (w.setting !== "") {
		const p = expandHome(w.setting, w.home);
		if (isExecutable(p)) return { path: p };
		return { error: `eukhe: the setting eukhe.path names ${p}, which is not an executable file. Fix the setting, or clear it to use eukhe from PATH.` };
	}
	if (w.bundled !== "") {
		const p = path.join(w.bundled, exe);
		if (isExecutable(p)) return { path: p };
	}
	const sep = w.windows ? ";" : ":";
	for (const dir of w.pathEnv.split(sep)) {
		if (dir === "") continue;
		const p = path.join(dir, exe);
		if (isExecutable(p)) return { path: p };
	}
	const goBin = path.join(w.home, "go", "bin", exe);
	if (isExecutable(goBin)) return { path: goBin };
	const inPackage = w.bundled !== "" ? `none in this package's ${w.bundled}, ` : "";
	return { error: `eukhe: no eukhe binary found (eukhe.path is empty, ${inPackage}none on PATH, none in ${path.join(w.home, "go", "bin")}). ${installHint}` };
}

function expandHome(p: string, home: string): string {
	if (p === "~") return home;
	if (p.startsWith("~/")) return path.join(home, p.slice(2));
	return p;
}

// The version of the eukhe/* extension this client speaks, and the
// client → server methods it calls.
export const wantVersion = 1;
export const wantMethods = [Method.tool, Method.reviewDecision];

// versionProblem reads initialize's result and says what is wrong with
// the server, for the user, or undefined when it will do.
export function versionProblem(result: unknown, binary: string): string | undefined {
	const caps = (result as { capabilities?: { experimental?: Record<string, unknown> } } | undefined)?.capabilities;
	const ex = caps?.experimental?.[experimentalKey] as Partial<ServerCapabilities> | undefined;
	const upgrade = `Update it: ${installHint}`;
	if (!ex || typeof ex.version !== "number") {
		return `eukhe: ${binary} is too old: its language server does not offer the eukhe extension. ${upgrade}`;
	}
	if (ex.version < wantVersion) {
		return `eukhe: ${binary} speaks version ${ex.version} of the eukhe extension; this extension needs ${wantVersion}. ${upgrade}`;
	}
	const missing = wantMethods.filter((m) => !(ex.methods ?? []).includes(m));
	if (missing.length > 0) {
		return `eukhe: ${binary} does not answer ${missing.join(", ")}. ${upgrade}`;
	}
	return undefined;
}
