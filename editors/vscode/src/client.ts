// One eukhe language server per workspace folder: `eukhe lsp` over stdio,
// with the eukhe/* handlers wired to it.

import * as vscode from "vscode";
import { CancellationToken, LanguageClient, StaticFeature, FeatureState } from "vscode-languageclient/node";
import { versionProblem } from "./binary";
import { applyChecked, textsOf } from "./applyedit";
import { withEukhe } from "./caps";
import { Conn } from "./conn";
import { Review } from "./review";
import { joinEditorTools } from "./hosttools";
import { SettingsStatus } from "./settingsstatus";
import { wire } from "./wire";

// The eukhe block under capabilities.experimental, as a static feature.
class EukheFeature implements StaticFeature {
	fillClientCapabilities(caps: { experimental?: unknown }): void {
		withEukhe(caps);
	}
	initialize(): void {}
	getState(): FeatureState {
		return { kind: "static" };
	}
	clear(): void {}
}

export interface Folder {
	client: LanguageClient;
	// root is the folder's path, the key of its settings status.
	root: string;
	review: Review;
	dispose(): Promise<void>;
}

export async function startFolder(folder: vscode.WorkspaceFolder, binary: string, out: vscode.LogOutputChannel, status: SettingsStatus): Promise<Folder> {
	const client: LanguageClient = new LanguageClient(
		`eukhe-${folder.index}`,
		`eukhe (${folder.name})`,
		{ command: binary, args: ["lsp"], options: { cwd: folder.uri.fsPath } },
		{
			documentSelector: [{ scheme: "file", pattern: `${folder.uri.fsPath.replace(/\\/g, "/")}/**/*` }],
			workspaceFolder: folder,
			outputChannel: out,
			middleware: {
				workspace: {
					// the texts the edit was made on, checked with the
					// versions right before the apply (applyedit.ts)
					handleApplyEdit: (params, next) => {
						if (!textsOf(params)) {
							return next(params, CancellationToken.None);
						}
						const c: LanguageClient = client;
						return applyChecked<vscode.WorkspaceEdit>(params, {
							convert: (): Promise<vscode.WorkspaceEdit> => c.protocol2CodeConverter.asWorkspaceEdit(params.edit),
							documents: () => vscode.workspace.textDocuments,
							asUri: (u: string): string => c.protocol2CodeConverter.asUri(u).toString(),
							apply: (edit: vscode.WorkspaceEdit): Thenable<boolean> => vscode.workspace.applyEdit(edit, { isRefactoring: params.metadata?.isRefactoring }),
						});
					},
				},
			},
		},
	);
	client.registerFeature(new EukheFeature());
	const { review, disposable } = wire(client as unknown as Conn, out);
	try {
		await client.start();
	} catch (e) {
		disposable.dispose();
		throw new Error(`eukhe: ${binary} lsp did not start for ${folder.uri.fsPath}: ${e instanceof Error ? e.message : String(e)}. Check the eukhe log (command "eukhe: Show the log").`);
	}
	const problem = versionProblem(client.initializeResult, binary);
	if (problem) {
		disposable.dispose();
		await client.stop();
		throw new Error(problem);
	}
	// The settings problems and the confinement: asked now, and again
	// whenever the server says a settings file changed.
	const root = folder.uri.fsPath;
	const watching = status.watch(root, client as unknown as Conn, out);
	void watching.refresh().then((r) => {
		if (typeof r === "string") out.warn(`eukhe: the settings status of ${root} is not shown: ${r}`);
	});
	let tools: vscode.Disposable | undefined;
	try {
		tools = await joinEditorTools(client as unknown as Conn, folder.uri.fsPath);
	} catch (e) {
		out.warn(`eukhe: the editor's tools were not lent to the agents: ${e instanceof Error ? e.message : String(e)}`);
	}
	return {
		client,
		root,
		review,
		dispose: async () => {
			watching.dispose();
			tools?.dispose();
			disposable.dispose();
			await client.stop();
		},
	};
}
