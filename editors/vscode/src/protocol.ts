// The eukhe/* LSP extension, as the server's protocol package defines it
// (protocol/README.md in the repository). Wire types only: no logic.
// protocol/typescript_test.go checks every interface here against its Go
// type (JSON field names, optional exactly when omitempty, kinds) and the
// Method and Answer values against the Go constants.

export const Method = {
	// Client → server requests.
	tool: "eukhe/tool",
	reviewDecision: "eukhe/reviewDecision",
	joinTool: "eukhe/joinTool",
	quitTool: "eukhe/quitTool",
	settingsStatus: "eukhe/settingsStatus",
	// Server → client.
	saveDocuments: "eukhe/saveDocuments",
	review: "eukhe/review",
	approve: "eukhe/approve",
	approvalSettled: "eukhe/approvalSettled",
	toolIssue: "eukhe/toolIssue",
	runTool: "eukhe/runTool",
} as const;

// The key under capabilities.experimental where both sides describe eukhe.
export const experimentalKey = "eukhe";

export interface ClientCapabilities {
	kind?: string;
	methods?: string[];
	// The client checks every document's version of a workspace edit
	// before it applies any, version 0 included (the Neovim plugin's).
	checksVersions?: boolean;
	// The client checks, before it applies a workspace edit, that every
	// open document it names holds the text whose hash the server sent
	// (EditTexts), and applies nothing otherwise (applyedit.ts).
	checksTexts?: boolean;
}

// EditTexts: what the server adds to workspace/applyEdit's params, under
// experimentalKey, for a client that checksTexts: each document's URI to
// the SHA-256 (hex) of the text its edit was made on.
export interface EditTexts {
	texts: Record<string, string>;
}

export interface ServerCapabilities {
	version: number;
	methods: string[];
}

export interface Position {
	line: number;
	character: number;
}

export interface Range {
	start: Position;
	end: Position;
}

export interface ToolParams {
	name: string;
	arguments: unknown;
	session?: string;
	// A work-done progress token (string or number): a long grep or glob
	// reports $/progress on it.
	workDoneToken?: unknown;
}

export interface ToolResult {
	text: string;
	isError: boolean;
}

export interface SaveDocumentsParams {
	uris: string[];
}

export interface SaveDocumentsResult {
	saved: string[];
}

export interface ReviewHunk {
	uri: string;
	hunk: number;
	range: Range;
	before: string;
	after: string;
}

export interface ReviewParams {
	editId: string;
	hunks: ReviewHunk[];
}

export type Decision = "keep" | "undo";

export interface ReviewDecisionParams {
	editId: string;
	uri?: string;
	hunk?: number;
	decision: Decision;
}

export interface ReviewDecisionResult {
	applied: boolean;
	message: string;
}

export const Answer = {
	approve: "approve",
	deny: "deny",
	approveSession: "approve_session",
} as const;

export interface ApproveParams {
	id: string;
	session: string;
	agent?: string;
	text: string;
	cwd?: string;
	effects: string[];
	step: number;
	// An ipython cell: text is its code, run as one step with the effect exec.
	cell?: boolean;
	offers: string[];
	// When the question, unanswered, is denied (RFC 3339): the server's
	// approval.timeoutSeconds. Absent from a server that does not say.
	deadline?: string;
}

export interface ApproveResult {
	answer: string;
}

export interface ApprovalSettledParams {
	id: string;
	answer?: string;
	reason?: string;
}

export interface ToolIssueParams {
	session: string;
	tool: string;
	description: string;
}

export interface JoinToolParams {
	name: string;
	description: string;
	inputSchema: unknown;
}

export interface RunToolParams {
	name: string;
	session: string;
	arguments: unknown;
}

export interface RunToolResult {
	text: string;
	isError?: boolean;
}

// eukhe/settingsStatus (params: an empty object): every settings file the
// server reads, user file first, and the confinement in force.
export interface SettingsStatusResult {
	files: SettingsFileStatus[];
	// "bubblewrap", "landlock (why)" or "none (why)".
	confinement?: string;
}

// One file: level "ok", "warning" or "error", each problem as
// "FILE:LINE:COL: what" (or "FILE: what").
export interface SettingsFileStatus {
	file: string;
	level: string;
	problems?: string[];
}
