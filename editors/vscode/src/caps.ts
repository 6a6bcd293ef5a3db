// What this client tells the server at initialize, under
// capabilities.experimental.eukhe.

import { ClientCapabilities, Method } from "./protocol";

// The server → client eukhe/* methods this extension implements.
export const clientMethods: string[] = [
	Method.saveDocuments,
	Method.review,
	Method.approve,
	Method.approvalSettled,
	Method.toolIssue,
	Method.runTool,
];

export function clientCapabilities(): ClientCapabilities {
	return { kind: "vscode", methods: [...clientMethods], checksTexts: true };
}

// withEukhe adds the eukhe block to an LSP client capabilities object.
export function withEukhe<T extends { experimental?: unknown }>(caps: T): T {
	const ex = (caps.experimental ?? {}) as Record<string, unknown>;
	caps.experimental = { ...ex, eukhe: clientCapabilities() };
	return caps;
}
