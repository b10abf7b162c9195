// A VS Code-shaped LSP client in plain Node, for the protocol test: it speaks
// to the real `utf8lint lsp` through vscode-jsonrpc (the transport VS Code's
// client is built on), sends the capabilities vscode-languageclient itself
// computes, answers the server's requests as VS Code would, and records every
// `textDocument/publishDiagnostics`, or, as vscode-languageclient does with a
// server that offers them, the pulled diagnostics (`textDocument/diagnostic`
// after each open and change, and for every open document on
// `workspace/diagnostic/refresh`) in the same list.

import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";

import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from "vscode-jsonrpc/node";
import type {
  ClientCapabilities,
  Diagnostic,
  DocumentDiagnosticReport,
  InitializeResult,
  PublishDiagnosticsParams,
  TextDocumentContentChangeEvent,
  TextEdit,
  WorkspaceEdit,
} from "vscode-languageserver-protocol";
import { TextDocument } from "vscode-languageserver-textdocument";
import { LanguageClient } from "vscode-languageclient/node";

import { answerConfigurationItem } from "../src/settings";

/** The server binary: `UTF8LINT_BIN`, else the workspace's debug build. */
export function serverBinary(): string {
  const fromEnv = process.env.UTF8LINT_BIN;
  if (fromEnv) return path.resolve(fromEnv);
  const exe = process.platform === "win32" ? "utf8lint.exe" : "utf8lint";
  // out-test/ -> editors/vscode -> repository root
  return path.resolve(__dirname, "..", "..", "..", "target", "debug", exe);
}

/**
 * The `ClientCapabilities` vscode-languageclient sends, computed by the
 * library itself (under the fake `vscode` module), so the test offers
 * exactly what VS Code offers: `general.positionEncodings: ["utf-16"]`,
 * `publishDiagnostics.codeDescriptionSupport`/`dataSupport`, code action
 * literals with `data` and `resolveSupport`, `workspace.configuration`, ...
 */
export function vscodeClientCapabilities(): ClientCapabilities {
  const client = new LanguageClient(
    "utf8lint",
    "utf8lint",
    { command: "utf8lint", args: ["lsp"] },
    { documentSelector: [{ scheme: "file" }, { scheme: "untitled" }] },
  );
  const compute = (client as unknown as { computeClientCapabilities(): ClientCapabilities }).computeClientCapabilities;
  return compute.call(client);
}

/** How VS Code turns file bytes into document text: lossy UTF-8 (one U+FFFD per maximal subpart), leading BOM stripped. */
export function vscodeDecode(bytes: Uint8Array): string {
  return new TextDecoder("utf-8", { fatal: false, ignoreBOM: false }).decode(bytes);
}

export interface Published {
  version: number | undefined;
  diagnostics: Diagnostic[];
}

export class VsCodeLikeClient {
  readonly child: ChildProcessWithoutNullStreams;
  readonly connection: MessageConnection;
  readonly published = new Map<string, Published[]>();
  readonly logs: string[] = [];
  readonly configurationRequests: unknown[] = [];
  readonly docs = new Map<string, TextDocument>();
  initializeResult: InitializeResult | undefined;
  stderr = "";
  exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private waiters: (() => void)[] = [];
  /** Pulled diagnostics: the last result id and items per document. */
  private readonly pulled = new Map<string, { resultId?: string; items: Diagnostic[] }>();

  /** `settings` is what `workspace.getConfiguration('utf8lint')` would return. */
  constructor(
    readonly binary: string,
    readonly root: string,
    public settings: Record<string, unknown>,
  ) {
    this.child = spawn(binary, ["lsp"], { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
    this.child.stderr.setEncoding("utf8");
    this.child.stderr.on("data", (chunk: string) => {
      this.stderr += chunk;
    });
    this.child.on("exit", (code, signal) => {
      this.exited = { code, signal };
      this.wake();
    });
    this.connection = createMessageConnection(
      new StreamMessageReader(this.child.stdout),
      new StreamMessageWriter(this.child.stdin),
    );
    this.connection.onNotification("textDocument/publishDiagnostics", (params: PublishDiagnosticsParams) => {
      const list = this.published.get(params.uri) ?? [];
      list.push({ version: params.version, diagnostics: params.diagnostics });
      this.published.set(params.uri, list);
      this.wake();
    });
    this.connection.onNotification("window/logMessage", (params: { type: number; message: string }) => {
      this.logs.push(`[log ${params.type}] ${params.message}`);
    });
    this.connection.onNotification("window/showMessage", (params: { type: number; message: string }) => {
      this.logs.push(`[show ${params.type}] ${params.message}`);
    });
    this.connection.onNotification(() => {
      /* $/progress and the like */
    });
    this.connection.onRequest("workspace/configuration", (params: { items: { section?: string; scopeUri?: string }[] }) => {
      this.configurationRequests.push(params);
      // What the extension's middleware answers: VS Code's value, mapped.
      return params.items.map((item) =>
        answerConfigurationItem(item.section, item.section === "utf8lint" ? this.settings : null),
      );
    });
    this.connection.onRequest("workspace/diagnostic/refresh", () => {
      for (const uri of this.docs.keys()) this.pull(uri);
      return null;
    });
    this.connection.onRequest("workspace/applyEdit", (params: { edit: WorkspaceEdit }) => {
      this.applyWorkspaceEdit(params.edit);
      return { applied: true };
    });
    // client/registerCapability, window/workDoneProgress/create,
    // window/showMessageRequest, */refresh: accepted as VS Code does.
    this.connection.onRequest(() => null);
    this.connection.listen();
  }

  /** Whether the server offers pull diagnostics (the client then pulls, as VS Code's does). */
  get pulls(): boolean {
    return this.initializeResult?.capabilities.diagnosticProvider !== undefined;
  }

  /** Pulls `uri`'s diagnostics, recorded as a publish of the version it was asked for. */
  private pull(uri: string): void {
    const doc = this.docs.get(uri);
    if (!this.pulls || !doc) return;
    const version = doc.version;
    const previous = this.pulled.get(uri);
    this.connection
      .sendRequest<DocumentDiagnosticReport>("textDocument/diagnostic", {
        textDocument: { uri },
        previousResultId: previous?.resultId,
      })
      .then(
        (report) => {
          const items = report.kind === "full" ? report.items : (previous?.items ?? []);
          this.pulled.set(uri, { resultId: report.resultId, items });
          const list = this.published.get(uri) ?? [];
          list.push({ version, diagnostics: items });
          this.published.set(uri, list);
          this.wake();
        },
        () => undefined,
      );
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    waiters.forEach((w) => w());
  }

  async initialize(): Promise<InitializeResult> {
    const rootUri = pathToFileURL(this.root).href;
    const result = await this.connection.sendRequest<InitializeResult>("initialize", {
      processId: process.pid,
      clientInfo: { name: "Visual Studio Code", version: "1.91.0" },
      locale: "en",
      rootPath: this.root,
      rootUri,
      capabilities: vscodeClientCapabilities(),
      trace: "off",
      workspaceFolders: [{ uri: rootUri, name: path.basename(this.root) }],
    });
    this.initializeResult = result;
    await this.connection.sendNotification("initialized", {});
    return result;
  }

  /** The server's text sync kind: 1 full, 2 incremental. */
  get syncKind(): number {
    const sync = this.initializeResult?.capabilities.textDocumentSync;
    if (typeof sync === "number") return sync;
    return sync?.change ?? 0;
  }

  /** Opens `file` (relative to the root) as VS Code does: the text is the decoded bytes. */
  async openFile(file: string, languageId: string): Promise<{ uri: string; text: string }> {
    const full = path.join(this.root, file);
    const text = vscodeDecode(fs.readFileSync(full));
    const uri = pathToFileURL(full).href;
    await this.open(uri, languageId, text);
    return { uri, text };
  }

  async open(uri: string, languageId: string, text: string): Promise<void> {
    this.docs.set(uri, TextDocument.create(uri, languageId, 1, text));
    await this.connection.sendNotification("textDocument/didOpen", {
      textDocument: { uri, languageId, version: 1, text },
    });
    this.pull(uri);
  }

  async close(uri: string): Promise<void> {
    this.docs.delete(uri);
    if (this.pulled.delete(uri)) {
      // vscode-languageclient forgets a closed document's pulled diagnostics.
      const list = this.published.get(uri) ?? [];
      list.push({ version: undefined, diagnostics: [] });
      this.published.set(uri, list);
      this.wake();
    }
    await this.connection.sendNotification("textDocument/didClose", { textDocument: { uri } });
  }

  /** Applies edits to the document and sends `didChange` the way VS Code would for the server's sync kind. */
  async edit(uri: string, edits: TextEdit[]): Promise<TextDocument> {
    const doc = this.docs.get(uri);
    if (!doc) throw new Error(`edit of a document that is not open: ${uri}`);
    const version = doc.version + 1;
    const newText = TextDocument.applyEdits(doc, edits);
    let contentChanges: TextDocumentContentChangeEvent[];
    if (this.syncKind === 2) {
      // Last edit first, so each change's range is valid when it is applied.
      const sorted = [...edits].sort((a, b) => doc.offsetAt(b.range.start) - doc.offsetAt(a.range.start));
      contentChanges = sorted.map((e) => ({
        range: e.range,
        rangeLength: doc.offsetAt(e.range.end) - doc.offsetAt(e.range.start),
        text: e.newText,
      }));
    } else {
      contentChanges = [{ text: newText }];
    }
    const next = TextDocument.create(uri, doc.languageId, version, newText);
    this.docs.set(uri, next);
    await this.connection.sendNotification("textDocument/didChange", {
      textDocument: { uri, version },
      contentChanges,
    });
    this.pull(uri);
    return next;
  }

  /** Applies a WorkspaceEdit (`documentChanges` or `changes`) to the open documents, sending `didChange`. */
  async applyWorkspaceEdit(edit: WorkspaceEdit): Promise<void> {
    const byUri = new Map<string, TextEdit[]>();
    for (const change of edit.documentChanges ?? []) {
      if (!("textDocument" in change)) throw new Error(`resource operations are not expected here: ${JSON.stringify(change)}`);
      const doc = this.docs.get(change.textDocument.uri);
      if (doc && change.textDocument.version !== null && change.textDocument.version !== doc.version) {
        throw new Error(`edit for version ${change.textDocument.version}, document is at ${doc.version}`);
      }
      byUri.set(change.textDocument.uri, [
        ...(byUri.get(change.textDocument.uri) ?? []),
        // A SnippetTextEdit (LSP 3.18) inserts its snippet's text.
        ...change.edits.map((e): TextEdit => ("newText" in e ? e : { range: e.range, newText: e.snippet.value })),
      ]);
    }
    for (const [uri, edits] of Object.entries(edit.changes ?? {})) {
      byUri.set(uri, [...(byUri.get(uri) ?? []), ...edits]);
    }
    for (const [uri, edits] of byUri) await this.edit(uri, edits);
  }

  /** The last publish for `uri`, if any. */
  latest(uri: string): Published | undefined {
    const list = this.published.get(uri);
    return list?.[list.length - 1];
  }

  /**
   * Waits until the latest publish for `uri` satisfies `ok` (checked at each
   * publish), or fails after `ms` with what was published.
   */
  async waitFor(uri: string, ok: (p: Published) => boolean, what: string, ms = 15000): Promise<Published> {
    const deadline = Date.now() + ms;
    for (;;) {
      const last = this.latest(uri);
      if (last && ok(last)) return last;
      if (this.exited) throw new Error(`the server exited (${JSON.stringify(this.exited)}) while waiting for ${what}\n${this.describe(uri)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}\n${this.describe(uri)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 250));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  describe(uri: string): string {
    return (
      `publishes for ${uri}: ${JSON.stringify(this.published.get(uri) ?? [], null, 1)}\n` +
      `server log: ${this.logs.slice(-20).join("\n")}\nstderr: ${this.stderr.slice(-2000)}`
    );
  }

  async shutdown(): Promise<void> {
    if (!this.exited) {
      try {
        await Promise.race([
          (async () => {
            await this.connection.sendRequest("shutdown");
            await this.connection.sendNotification("exit");
          })(),
          new Promise((resolve) => setTimeout(resolve, 3000)),
        ]);
      } catch {
        /* the server may already be gone */
      }
      await Promise.race([
        new Promise<void>((resolve) => (this.exited ? resolve() : this.child.once("exit", () => resolve()))),
        new Promise((resolve) => setTimeout(resolve, 3000)),
      ]);
    }
    if (!this.exited) this.child.kill();
    this.connection.dispose();
  }
}
