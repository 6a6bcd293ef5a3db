// The approval questions of one server, one dialog at a time (VS Code
// shows one modal at a time). Pure: the dialog is a function passed in.

import { Answer, ApproveParams } from "./protocol";

export type Show = (p: ApproveParams) => Promise<string>;

interface Waiting {
	p: ApproveParams;
	settled: boolean; // answered elsewhere: its answer no longer counts
	resolve: (answer: string) => void;
}

export class ApprovalQueue {
	private waiting: Waiting[] = [];
	private showing: Waiting | undefined;

	constructor(private show: Show, private changed: (pending: number) => void = () => {}) {}

	get pending(): number {
		return this.waiting.length + (this.showing ? 1 : 0);
	}

	// ask resolves to the user's answer, or deny when the question was
	// settled elsewhere before the user answered it.
	ask(p: ApproveParams): Promise<string> {
		return new Promise((resolve) => {
			this.waiting.push({ p, settled: false, resolve });
			this.changed(this.pending);
			this.next();
		});
	}

	// settle drops a question answered elsewhere: a queued one is never
	// shown; a shown one cannot be closed (a VS Code modal cannot be closed
	// from code), but its answer is thrown away.
	settle(id: string): void {
		const i = this.waiting.findIndex((w) => w.p.id === id);
		if (i >= 0) {
			const [w] = this.waiting.splice(i, 1);
			w.resolve(Answer.deny);
			this.changed(this.pending);
		}
		if (this.showing?.p.id === id) this.showing.settled = true;
	}

	// has says whether the question is queued or shown here.
	has(id: string): boolean {
		return this.showing?.p.id === id || this.waiting.some((w) => w.p.id === id);
	}

	isSettled(id: string): boolean {
		return this.showing?.p.id === id && this.showing.settled;
	}

	private next(): void {
		if (this.showing) return;
		const w = this.waiting.shift();
		if (!w) return;
		this.showing = w;
		const done = (answer: string) => {
			this.showing = undefined;
			w.resolve(w.settled ? Answer.deny : answer);
			this.changed(this.pending);
			this.next();
		};
		this.show(w.p).then(done, () => done(Answer.deny));
	}
}
