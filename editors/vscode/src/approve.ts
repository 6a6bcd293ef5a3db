// eukhe/approve as a modal dialog; eukhe/approvalSettled drops a question
// answered elsewhere. The words and buttons come from question.ts, the
// one-at-a-time order from queue.ts.

import * as vscode from "vscode";
import { Conn, Token } from "./conn";
import { ApprovalSettledParams, ApproveParams, ApproveResult, Method } from "./protocol";
import { answerOf, dialogOf } from "./question";
import { ApprovalQueue } from "./queue";

export async function showQuestion(p: ApproveParams, deadline?: Date): Promise<string> {
	const d = dialogOf(p, deadline);
	const items: vscode.MessageItem[] = d.buttons.map((b) => ({ title: b.title }));
	// modal: VS Code adds its own Cancel (Escape), which answers undefined:
	// a denial. Deny comes first, so Enter alone denies too.
	const picked = await vscode.window.showWarningMessage(d.message, { modal: true, detail: d.detail }, ...items);
	return answerOf(d, picked?.title);
}

export function registerApprovals(conn: Conn): vscode.Disposable {
	const status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 100);
	const changed = (n: number) => {
		status.text = `$(shield) eukhe: ${n} question${n === 1 ? "" : "s"}`;
		status.tooltip = "Agent steps waiting for your approval (shown one at a time)";
		if (n > 0) status.show();
		else status.hide();
	};
	// eukhe.approvalTimeoutDisplay: the server's timeout, for the dialog
	// to say when it ends (0: not said); the server times out either way.
	const deadlines = new Map<string, Date>();
	const queue = new ApprovalQueue((p) => showQuestion(p, deadlines.get(p.id)), changed);
	const subs = [
		conn.onRequest(Method.approve, async (p: ApproveParams, token: Token): Promise<ApproveResult> => {
			const seconds = vscode.workspace.getConfiguration("eukhe").get<number>("approvalTimeoutDisplay", 120);
			if (seconds > 0) deadlines.set(p.id, new Date(Date.now() + seconds * 1000));
			token?.onCancellationRequested(() => queue.settle(p.id));
			try {
				return { answer: await queue.ask(p) };
			} finally {
				deadlines.delete(p.id);
			}
		}),
		conn.onNotification(Method.approvalSettled, (p: ApprovalSettledParams) => queue.settle(p.id)),
	];
	return new vscode.Disposable(() => {
		for (const s of subs) s.dispose();
		status.dispose();
	});
}
