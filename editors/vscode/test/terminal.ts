// A second interactive client: `eukhe approvals --root DIR`, which attaches
// to the editor's server over its discovery socket, prints each question
// and reads y / N on stdin.

import * as cp from "node:child_process";

export class Terminal {
	private proc: cp.ChildProcess;
	stdout = "";
	stderr = "";

	constructor(binary: string, root: string) {
		this.proc = cp.spawn(binary, ["approvals", "--root", root], { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
		this.proc.stdout!.on("data", (d) => (this.stdout += d));
		this.proc.stderr!.on("data", (d) => (this.stderr += d));
	}

	// count is how many times the terminal printed text.
	count(text: string): number {
		return this.stdout.split(text).length - 1;
	}

	answer(line: string): void {
		this.proc.stdin!.write(line + "\n");
	}

	stop(): void {
		this.proc.kill();
	}
}
