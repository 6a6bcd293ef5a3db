// The slice of a language client connection the eukhe glue uses. Both
// vscode-languageclient's LanguageClient and a vscode-jsonrpc
// MessageConnection (the tests) provide it.

export interface Token {
	isCancellationRequested: boolean;
	onCancellationRequested(listener: () => void): unknown;
}

// Handlers take the params as the server sends them (protocol.ts types them).
/* eslint-disable @typescript-eslint/no-explicit-any */
export interface Conn {
	onRequest(method: string, handler: (params: any, token: Token) => unknown): { dispose(): unknown };
	onNotification(method: string, handler: (params: any) => void): { dispose(): unknown };
	sendRequest(method: string, params: unknown): Promise<unknown>;
}
/* eslint-enable @typescript-eslint/no-explicit-any */
