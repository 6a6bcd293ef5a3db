// eukhe/approve as a modal dialog; eukhe/approvalSettled drops a question
// answered elsewhere. The words and buttons come from question.ts, the
// one-at-a-time order from queue.ts.

import * as vscode from "vscode";
import { Conn, Token } from "./conn";
import { ApprovalSettledParams, ApproveParams, ApproveResult, Method } from "./protocol";
import { answerOf, deadlineOf, dialogOf } from "./question";
import { ApprovalQueue } from "./queue";

export async function showQuestion(p: ApproveParams): Promise<string> {
	const d = dialogOf(p, deadlineOf(p));
	const items: vscode.MessageItem[] = d.buttons.map((b) => ({ title: b.title }));
	// modal: VS Code adds its own Cancel (Escape), which answers undefined:
	// a denial. Deny comes first, so Enter alone denies too.
	const picked = await vscode.window.showWarningMessage(d.message, { modal: true, detail: d.detail }, ...items);
	return answerOf(d, picked?.title);
}

export const approvalsItemId = "questions";

export function registerApprovals(conn: Conn): vscode.Disposable {
	// Its own id (VS Code prefixes the extension's): hiding the settings
	// item from the status bar's menu must not hide this one.
	const status = vscode.window.createStatusBarItem(approvalsItemId, vscode.StatusBarAlignment.Left, 100);
	status.name = "eukhe questions";
	const changed = (n: number) => {
		status.text = `$(shield) eukhe: ${n} question${n === 1 ? "" : "s"}`;
		status.tooltip = "Agent steps waiting for your approval (shown one at a time)";
		if (n > 0) status.show();
		else status.hide();
	};
	// The dialog says when an unanswered question is denied from the
	// server's deadline (approval.timeoutSeconds); the server times it out.
	const queue = new ApprovalQueue((p) => showQuestion(p), changed);
	const subs = [
		conn.onRequest(Method.approve, async (p: ApproveParams, token: Token): Promise<ApproveResult> => {
			token?.onCancellationRequested(() => queue.settle(p.id));
			return { answer: await queue.ask(p) };
		}),
		conn.onNotification(Method.approvalSettled, (p: ApprovalSettledParams) => {
			// A question that timed out says so here, as in the terminal:
			// the user who looked away learns why the step did not run.
			if (p.reason && queue.has(p.id)) void vscode.window.showInformationMessage(`eukhe: a question ${p.reason}; the step did not run.`);
			queue.settle(p.id);
		}),
	];
	return new vscode.Disposable(() => {
		for (const s of subs) s.dispose();
		status.dispose();
	});
}
