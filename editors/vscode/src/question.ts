// What an approval dialog says and offers, from an eukhe/approve question.
// Pure: no vscode import.

import { Answer, ApproveParams } from "./protocol";
import { indented, visible, visibleText } from "./shown";

export interface Button {
	title: string;
	answer: string;
}

export interface Dialog {
	message: string;
	detail: string;
	// In order. The first is the default (Enter): it is always Deny, so
	// the dialog never defaults to yes; closing it (Escape) is a denial too.
	buttons: Button[];
}

const effectWords: Record<string, string> = {
	read: "reads files",
	write: "writes files",
	exec: "runs programs",
	net: "uses the network",
	outside: "reaches outside the workspace",
	protected: "touches protected files (settings, .git)",
	secret: "touches secrets",
};

export function effectsInWords(effects: string[]): string {
	if (effects.length === 0) return "no effects named";
	return effects.map((e) => effectWords[e] ?? visible(e)).join(", ");
}

// asker names who asks: the subagent by name, or the session's own agent
// (an agent attached without a name relays under its session id). The
// name and the session are shown as the server shows them (visible).
export function asker(p: ApproveParams): string {
	const session = p.session ? ` (session ${visible(p.session)})` : "";
	return p.agent && p.agent !== p.session ? `Subagent ${visible(p.agent)}${session}` : `The agent${session}`;
}

// deadlineOf is the question's deadline as the server sent it, or
// undefined when it sent none (or one that is not a time).
export function deadlineOf(p: ApproveParams): Date | undefined {
	if (!p.deadline) return undefined;
	const d = new Date(p.deadline);
	return isNaN(d.getTime()) ? undefined : d;
}

// deadlineText says when an unanswered question is denied (the server's
// approval.timeoutSeconds; the extension only shows it).
export function deadlineText(deadline: Date): string {
	const two = (n: number) => String(n).padStart(2, "0");
	return `Unanswered by ${two(deadline.getHours())}:${two(deadline.getMinutes())}:${two(deadline.getSeconds())}, it is denied.`;
}

// dialogOf is the dialog of a question. Nothing the agent wrote can pose
// as a line of the dialog's own (a fake list of actions above the real
// one): every line of the step is indented, and the name, the session,
// the directory and an unknown effect are escaped (shown.ts).
export function dialogOf(p: ApproveParams, deadline?: Date): Dialog {
	const what = p.step > 0 ? `run step ${p.step} of its script` : p.cell ? "run an ipython cell" : "access a document";
	const lines = [indented(visibleText(p.text ?? "")), ""];
	if (p.cwd) lines.push(`In: ${visible(p.cwd)}`);
	lines.push(`Effects: ${effectsInWords(p.effects)}`);
	if (deadline) lines.push("", deadlineText(deadline));
	const buttons: Button[] = [{ title: "Deny", answer: Answer.deny }];
	if (p.offers.includes(Answer.approve)) buttons.push({ title: "Allow", answer: Answer.approve });
	if (p.offers.includes(Answer.approveSession)) {
		buttons.push({ title: "Allow for this session", answer: Answer.approveSession });
	}
	return { message: `eukhe: ${asker(p)} asks to ${what}:`, detail: lines.join("\n"), buttons };
}

// answerOf maps the button the user chose (undefined: the dialog was
// closed) to the answer; anything unknown is a denial.
export function answerOf(d: Dialog, title: string | undefined): string {
	return d.buttons.find((b) => b.title === title)?.answer ?? Answer.deny;
}
