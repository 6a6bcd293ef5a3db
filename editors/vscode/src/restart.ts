// eukhe: Restart server: each folder's server stopped and started again,
// with the binary eukhe.path names now (a new build, a changed setting).

import * as vscode from "vscode";

export const restartCommand = "eukhe.restartServer";

export function registerRestart(
	folders: () => readonly vscode.WorkspaceFolder[],
	restartFolder: (f: vscode.WorkspaceFolder) => Promise<void>,
	running: () => number,
	log: (line: string) => void,
): vscode.Disposable {
	return vscode.commands.registerCommand(restartCommand, async () => {
		for (const f of folders()) await restartFolder(f);
		const n = running();
		log(`restarted: ${n} server${n === 1 ? "" : "s"} running`);
	});
}
