// The VS Code side: starts `sqsguard server` over stdio with
// vscode-languageclient and wires its two commands. Every decision is in
// server.ts (tested without VS Code); this file only asks VS Code for
// what those decisions need and hands the answers over.

import * as vscode from "vscode";
import {
  CloseAction,
  type CloseHandlerResult,
  DidChangeConfigurationNotification,
  ErrorAction,
  type ErrorHandlerResult,
  LanguageClient,
  type LanguageClientOptions,
  type ServerOptions,
} from "vscode-languageclient/node";

import {
  FIX_ALL_KIND,
  RestartBudget,
  SECTION,
  candidates,
  configurationChange,
  documentSelector,
  resolveServer,
  serverSettings,
} from "./server";

/** Reads a key of the `sqsguard` section as it is now. */
const current = (key: string): unknown => vscode.workspace.getConfiguration(SECTION).get(key);

let client: LanguageClient | undefined;
let output: vscode.LogOutputChannel | undefined;
const budget = new RestartBudget();
/** Serialises starts and stops (a restart while one is under way waits for it). */
let pending: Promise<void> = Promise.resolve();

export function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel("sqsguard", { log: true });
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand("sqsguard.restart", () => {
      budget.reset();
      return queue(() => restart(context));
    }),
    vscode.commands.registerCommand("sqsguard.fixAll", fixAll),
    vscode.workspace.onDidChangeConfiguration((e) => {
      // The other settings reach the running server (synchronize below).
      if (e.affectsConfiguration(`${SECTION}.path`)) {
        budget.reset();
        void queue(() => restart(context));
      }
    }),
  );
  return queue(() => start(context));
}

export function deactivate(): Promise<void> {
  return queue(stop);
}

function queue(step: () => Promise<void>): Promise<void> {
  pending = pending.then(step, step);
  return pending;
}

async function restart(context: vscode.ExtensionContext): Promise<void> {
  await stop();
  await start(context);
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  if (running !== undefined) {
    try {
      await running.stop();
    } catch {
      // A server that already died has nothing to stop.
    }
  }
}

async function start(context: vscode.ExtensionContext): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const found = await resolveServer(
    candidates({
      configuredPath: config.get<string | null>("path"),
      extensionPath: context.extensionPath,
      workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
    }),
  );
  if ("error" in found) {
    output?.error(found.error);
    const choice = await vscode.window.showErrorMessage(found.error, "Open Settings");
    if (choice === "Open Settings") {
      void vscode.commands.executeCommand("workbench.action.openSettings", `${SECTION}.path`);
    }
    return;
  }
  for (const why of found.tried) {
    output?.warn(`skipped ${why}`);
  }
  output?.info(`starting ${found.command} server (${found.origin})`);

  // No `transport`: vscode-languageclient would add `--stdio`, which
  // `sqsguard server` does not take; stdio is what it speaks.
  const serverOptions: ServerOptions = { command: found.command, args: ["server"] };
  const clientOptions: LanguageClientOptions = {
    documentSelector: documentSelector(),
    // Read at each (re)start, so a restart sends the current settings.
    initializationOptions: () => serverSettings(current),
    // After the start and at each change of a sqsguard.* setting, the
    // server is sent workspace/didChangeConfiguration: the same settings
    // as initializationOptions, under the `sqsguard` key it reads them
    // from (the middleware sends them instead of the raw section).
    synchronize: { configurationSection: SECTION },
    middleware: {
      workspace: {
        didChangeConfiguration: () =>
          started.sendNotification(DidChangeConfigurationNotification.type, configurationChange(current)),
      },
    },
    outputChannel: output,
    errorHandler: {
      error: (): ErrorHandlerResult => ({ action: ErrorAction.Continue }),
      closed: (): CloseHandlerResult =>
        budget.crashed(Date.now())
          ? { action: CloseAction.Restart, handled: true }
          : { action: CloseAction.DoNotRestart, message: budget.message() },
    },
  };
  const started = new LanguageClient(SECTION, "sqsguard", serverOptions, clientOptions);
  client = started;
  try {
    await started.start();
  } catch (e) {
    // The client has shown why already; leave it stopped until a restart.
    output?.error(`the server did not start: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Applies the server's "fix all" to the active document. */
async function fixAll(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined) {
    return;
  }
  const document = editor.document;
  const whole = new vscode.Range(new vscode.Position(0, 0), document.lineAt(document.lineCount - 1).range.end);
  const kind = vscode.CodeActionKind.Empty.append(FIX_ALL_KIND);
  const actions =
    (await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[] | undefined>(
      "vscode.executeCodeActionProvider",
      document.uri,
      whole,
      FIX_ALL_KIND,
    )) ?? [];
  const fix = actions.find(
    // A Command's `command` is its id; a CodeAction's, if any, an object.
    (a): a is vscode.CodeAction =>
      typeof a.command !== "string" && (a as vscode.CodeAction).kind !== undefined && kind.contains((a as vscode.CodeAction).kind!),
  );
  if (fix?.edit === undefined) {
    void vscode.window.showInformationMessage("sqsguard: nothing to fix in this file.");
    return;
  }
  await vscode.workspace.applyEdit(fix.edit);
}
