// eukhe/toolIssue: an agent reported a tool that misbehaved.

import * as vscode from "vscode";
import { Conn } from "./conn";
import { Method, ToolIssueParams } from "./protocol";

export function issueText(p: ToolIssueParams): string {
	return `eukhe: an agent (session ${p.session}) reports that the tool ${p.tool} misbehaved: ${p.description}`;
}

export function registerIssues(conn: Conn, out: vscode.OutputChannel): vscode.Disposable {
	return conn.onNotification(Method.toolIssue, (p: ToolIssueParams) => {
		const text = issueText(p);
		out.appendLine(`${new Date().toISOString()} ${text}`);
		void vscode.window.showInformationMessage(text);
	}) as vscode.Disposable;
}
