// The files with hunks pending review, for the "Review the agent's
// changes" quick pick. Pure: no vscode import.

import { Hunk } from "./hunks";

export interface PendingFile {
	uri: string;
	changes: number;
	first: number; // the first pending hunk's line
}

export function pendingFiles(hunks: Hunk[]): PendingFile[] {
	const byUri = new Map<string, PendingFile>();
	for (const h of hunks) {
		const f = byUri.get(h.uri);
		if (!f) byUri.set(h.uri, { uri: h.uri, changes: 1, first: h.start });
		else {
			f.changes++;
			f.first = Math.min(f.first, h.start);
		}
	}
	return [...byUri.values()].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
}

export function changesText(n: number): string {
	return `${n} change${n === 1 ? "" : "s"} to review`;
}
