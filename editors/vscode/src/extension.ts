// The utf8lint extension: starts `utf8lint lsp` for every file and untitled
// document, passes the `utf8lint.*` settings to it, and offers "Restart
// Server" and "Show Output".

import * as fs from "node:fs";
import * as os from "node:os";
import * as vscode from "vscode";
import {
  DidChangeConfigurationNotification,
  LanguageClient,
  type LanguageClientOptions,
  type ServerOptions,
} from "vscode-languageclient/node";

import { resolveBinary, type ResolveEnv, type Resolution } from "./resolve";
import { answerConfigurationItem, type IsExplicit, SECTION, toServerSettings } from "./settings";

const OPEN_SETTINGS = "Open Settings";
const SHOW_OUTPUT = "Show Output";

let client: LanguageClient | undefined;
let output: vscode.LogOutputChannel | undefined;
let traceOutput: vscode.OutputChannel | undefined;
let traceLog: vscode.LogOutputChannel | undefined;

/** The real world, for `resolveBinary`. */
export function nodeResolveEnv(): ResolveEnv {
  return {
    platform: process.platform,
    env: process.env,
    homeDir: os.homedir(),
    isExecutable(file: string): boolean {
      try {
        if (!fs.statSync(file).isFile()) return false;
        if (process.platform !== "win32") fs.accessSync(file, fs.constants.X_OK);
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** Resolves the binary from the current settings. */
export function findServer(context: Pick<vscode.ExtensionContext, "extensionPath">, env: ResolveEnv): Resolution {
  const config = vscode.workspace.getConfiguration(SECTION);
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === "file");
  return resolveBinary(
    {
      settingPath: config.get<string | null>("path"),
      extensionPath: context.extensionPath,
      workspaceFolder: folder?.uri.fsPath,
    },
    env,
  );
}

/** Whether a `utf8lint.*` key is set in user, workspace or folder settings (not just its default). */
export function explicitIn(scope: vscode.Uri | undefined): IsExplicit {
  const config = vscode.workspace.getConfiguration(SECTION, scope);
  return (key) => {
    const i = config.inspect(key);
    return (
      i !== undefined &&
      [i.globalValue, i.workspaceValue, i.workspaceFolderValue, i.globalLanguageValue, i.workspaceLanguageValue, i.workspaceFolderLanguageValue].some(
        (v) => v !== undefined,
      )
    );
  };
}

/** Shows a resolution error with a button that opens the `utf8lint.path` setting. */
async function reportMissingBinary(message: string): Promise<void> {
  output?.error(message);
  const choice = await vscode.window.showErrorMessage(message, OPEN_SETTINGS, SHOW_OUTPUT);
  if (choice === OPEN_SETTINGS) {
    await vscode.commands.executeCommand("workbench.action.openSettings", "utf8lint.path");
  } else if (choice === SHOW_OUTPUT) {
    output?.show();
  }
}

/**
 * A log channel whose every line is shown, written to a plain output
 * channel: the client writes traces at trace level, which a log channel
 * hides until its level is raised by hand, so `utf8lint.trace.server` alone
 * would show nothing.
 */
export function alwaysShown(plain: vscode.OutputChannel): vscode.LogOutputChannel {
  const line = (level: string) => (message: string | Error, ...args: unknown[]) =>
    plain.appendLine(`[${level}] ${message instanceof Error ? message.message : message}${args.length ? " " + args.map(String).join(" ") : ""}`);
  return Object.assign(Object.create(plain) as vscode.OutputChannel, {
    logLevel: vscode.LogLevel?.Trace ?? 1,
    onDidChangeLogLevel: () => ({ dispose() {} }),
    trace: line("trace"),
    debug: line("debug"),
    info: line("info"),
    warn: line("warn"),
    error: line("error"),
  }) as vscode.LogOutputChannel;
}

/** The client's options; traces go to `traceChannel`. */
export function clientOptions(channel: vscode.LogOutputChannel, traceChannel: vscode.LogOutputChannel = channel): LanguageClientOptions {
  return {
    documentSelector: [{ scheme: "file" }, { scheme: "untitled" }],
    outputChannel: channel,
    traceOutputChannel: traceChannel,
    // A failed `initialize` is reported once, by startClient, with the binary's path.
    initializationFailedHandler: (error) => {
      channel.error(`initialize failed: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    },
    middleware: {
      workspace: {
        // The server asks for section `utf8lint` and reads utf8lint.toml's
        // keys (`max-per-file`, `workspace-scan`): map VS Code's camelCase.
        configuration: async (params, token, next) => {
          const answers = await next(params, token);
          if (!Array.isArray(answers)) return answers;
          return answers.map((value: unknown, i: number) => {
            const item = params.items[i];
            const scope = item?.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined;
            return answerConfigurationItem(item?.section, value, explicitIn(scope));
          });
        },
      },
    },
  };
}

async function startClient(context: vscode.ExtensionContext): Promise<void> {
  const channel = output!;
  const found = findServer(context, nodeResolveEnv());
  if (!found.ok) {
    void reportMissingBinary(found.message);
    return;
  }
  channel.info(`Starting ${found.path} lsp (found through ${found.source === "path" ? "PATH" : found.source === "bundled" ? "the bundled binary" : "the utf8lint.path setting"})`);
  const serverOptions: ServerOptions = {
    command: found.path,
    args: ["lsp"],
  };
  const next = new LanguageClient("utf8lint", "utf8lint", serverOptions, clientOptions(channel, traceLog));
  client = next;
  try {
    await next.start();
  } catch (err) {
    client = undefined;
    void next.dispose().catch(() => undefined);
    const message =
      `utf8lint: the language server (${found.path} lsp) failed to start: ${err instanceof Error ? err.message : String(err)}. ` +
      `Is it a utf8lint build with the \`lsp\` subcommand? Its error output is in the utf8lint output channel.`;
    channel.error(message);
    const choice = await vscode.window.showErrorMessage(message, SHOW_OUTPUT, OPEN_SETTINGS);
    if (choice === SHOW_OUTPUT) channel.show();
    else if (choice === OPEN_SETTINGS) await vscode.commands.executeCommand("workbench.action.openSettings", "utf8lint.path");
  }
}

async function stopClient(): Promise<void> {
  const running = client;
  client = undefined;
  if (running) {
    try {
      await running.stop();
    } catch (err) {
      output?.warn(`stopping the server: ${String(err)}`);
    }
  }
}

async function restart(context: vscode.ExtensionContext): Promise<void> {
  await stopClient();
  await startClient(context);
}

/** Pushes the mapped settings; the server also re-reads them through `workspace/configuration`. */
function notifyConfiguration(): void {
  if (!client?.isRunning()) return;
  const raw = vscode.workspace.getConfiguration(SECTION);
  const { settings, warnings } = toServerSettings(
    {
      lints: raw.get("lints"),
      bom: raw.get("bom"),
      maxPerFile: raw.get("maxPerFile"),
      workspaceScan: raw.get("workspaceScan"),
    },
    explicitIn(undefined),
  );
  for (const w of warnings) output?.warn(w);
  void client.sendNotification(DidChangeConfigurationNotification.type, { settings: { [SECTION]: settings } });
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel("utf8lint", { log: true });
  traceOutput = vscode.window.createOutputChannel("utf8lint Trace");
  traceLog = alwaysShown(traceOutput);
  context.subscriptions.push(
    output,
    traceOutput,
    vscode.commands.registerCommand("utf8lint.restartServer", () => restart(context)),
    vscode.commands.registerCommand("utf8lint.showOutput", () => output?.show()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("utf8lint.path")) {
        void restart(context);
      } else if (
        ["lints", "bom", "maxPerFile", "workspaceScan"].some((key) => event.affectsConfiguration(`${SECTION}.${key}`))
      ) {
        notifyConfiguration();
      }
    }),
  );
  await startClient(context);
}

export async function deactivate(): Promise<void> {
  await stopClient();
}
