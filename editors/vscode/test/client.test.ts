// The built extension (out/main.js) end to end, under the fake `vscode`
// module: activate() finds the server bundled in the extension, the real
// vscode-languageclient starts the real `utf8lint lsp`, documents opened in
// the fake workspace are synced, and the diagnostics the client converts land
// in VS Code's diagnostic collection (UTF-16 ranges, codes with links).
// Settings changes and "Restart Server" are exercised too.
//
// The binary: $UTF8LINT_BIN, else ../../target/debug/utf8lint; skipped with
// UTF8LINT_SKIP_PROTOCOL=1, like the protocol test.

import assert from "node:assert/strict";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { after, before, describe, test } from "node:test";

import type { FakeState } from "./fake-vscode";
import { serverBinary, vscodeDecode } from "./lsp-harness";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const vscode = require("vscode");
const fake: FakeState & {
  textDocuments: unknown[];
  diagnostics: Map<string, FakeDiagnostic[]>;
  events: Record<string, { fire(e: unknown): void; event: (l: (e: unknown) => void) => { dispose(): void } }>;
} = vscode.__state;

interface FakeDiagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  message: string;
  severity: number;
  source?: string;
  code?: string | number | { value: string | number; target: { toString(): string } };
}

const ERROR = 0; // vscode.DiagnosticSeverity.Error
const binary = serverBinary();
const skip = process.env.UTF8LINT_SKIP_PROTOCOL === "1" ? "UTF8LINT_SKIP_PROTOCOL=1" : false;

function codeOf(d: FakeDiagnostic): string | undefined {
  if (d.code === undefined) return undefined;
  return typeof d.code === "object" ? String(d.code.value) : String(d.code);
}

/** Waits until `ok()` holds, waking on each diagnostics change. */
async function until(what: string, ok: () => boolean, ms = 15000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) {
      const dump = JSON.stringify(Object.fromEntries(fake.diagnostics), null, 1);
      const log = fake.log.map((l) => `${l.level}: ${l.message}`).join("\n");
      throw new Error(`timed out waiting for ${what}\ndiagnostics: ${dump}\nlog:\n${log.slice(-3000)}`);
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 200);
      const sub = fake.events.diagnostics!.event(() => {
        clearTimeout(timer);
        sub.dispose();
        resolve();
      });
    });
  }
}

describe("the built extension with the real server", { skip }, () => {
  let tmp: string;
  let ws: string;
  let extension: { activate(ctx: unknown): Promise<void>; deactivate(): Promise<void> };
  const subscriptions: { dispose(): void }[] = [];

  const open = (name: string, languageId: string): { uri: string } => {
    const file = path.join(ws, name);
    const doc = vscode.__makeDocument(vscode.Uri.file(file), languageId, vscodeDecode(fs.readFileSync(file)));
    fake.textDocuments.push(doc);
    fake.events.open!.fire(doc);
    return { uri: doc.uri.toString() };
  };
  const diagnosticsOf = (uri: string): FakeDiagnostic[] => fake.diagnostics.get(uri) ?? [];

  before(async () => {
    assert.ok(fs.existsSync(binary), `no server binary at ${binary} (set UTF8LINT_BIN, or UTF8LINT_SKIP_PROTOCOL=1)`);
    const main = path.join(__dirname, "..", "out", "main.js");
    assert.ok(fs.existsSync(main), "out/main.js: run `npm run build` first");
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "utf8lint-client-")));
    // The extension's install directory, with the server "bundled" in it.
    const extDir = path.join(tmp, "extension");
    fs.mkdirSync(path.join(extDir, "bundled"), { recursive: true });
    fs.symlinkSync(binary, path.join(extDir, "bundled", process.platform === "win32" ? "utf8lint.exe" : "utf8lint"));
    ws = path.join(tmp, "ws");
    fs.mkdirSync(ws);
    fs.writeFileSync(path.join(ws, "feff.txt"), "😀 a\uFEFFb\n");
    fs.writeFileSync(path.join(ws, "invalid.txt"), Buffer.concat([Buffer.from("𝄞 x"), Buffer.from([0xff]), Buffer.from("y\n")]));
    fs.writeFileSync(path.join(ws, "data.json"), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("{}\n")]));
    fake.workspaceFolders = [{ uri: vscode.Uri.file(ws), name: "ws", index: 0 } as never];
    fake.settings = { lints: { stray_feff: "deny" }, workspaceScan: false };
    // The bundle, as VS Code loads it.
    extension = createRequire(__filename)(main);
    await extension.activate({ extensionPath: extDir, subscriptions });
  });

  after(async () => {
    await extension?.deactivate();
    subscriptions.forEach((d) => d.dispose());
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test("activation: the bundled binary is found and the client starts without an error", () => {
    assert.ok(
      fake.log.some((l) => /found through the bundled binary/.test(l.message)),
      fake.log.map((l) => l.message).join("\n"),
    );
    const errors = fake.calls.filter((c) => c.name === "window.showErrorMessage");
    assert.deepEqual(errors, [], "no error message (an 'Unsupported position encoding' would show here)");
  });

  test("diagnostics reach VS Code's collection in UTF-16 positions, with codes and links", async () => {
    const feff = open("feff.txt", "plaintext");
    const invalid = open("invalid.txt", "plaintext");
    const json = open("data.json", "json");
    await until("U002, U001 and U003", () =>
      diagnosticsOf(feff.uri).some((d) => codeOf(d) === "U002" && d.severity === ERROR) &&
      diagnosticsOf(invalid.uri).some((d) => codeOf(d) === "U001") &&
      diagnosticsOf(json.uri).some((d) => codeOf(d) === "U003"),
    );
    const u002 = diagnosticsOf(feff.uri).find((d) => codeOf(d) === "U002")!;
    assert.deepEqual([u002.range.start.line, u002.range.start.character, u002.range.end.character], [0, 4, 5]);
    assert.equal(u002.source, "utf8lint");
    assert.ok(typeof u002.code === "object" && /U002/.test(u002.code.target.toString()), "code links to the explanation");
    const u001 = diagnosticsOf(invalid.uri).find((d) => codeOf(d) === "U001" && d.severity === ERROR)!;
    assert.deepEqual([u001.range.start.line, u001.range.start.character, u001.range.end.character], [0, 4, 5], "after 𝄞 (2 UTF-16 units)");
    const u003 = diagnosticsOf(json.uri).find((d) => codeOf(d) === "U003")!;
    assert.deepEqual([u003.range.start.line, u003.range.start.character], [0, 0]);
  });

  test("untitled documents are synced too", async () => {
    const doc = vscode.__makeDocument(vscode.Uri.parse("untitled:Untitled-1"), "plaintext", "x\uFEFFy\n");
    fake.textDocuments.push(doc);
    fake.events.open!.fire(doc);
    await until("U002 on the untitled document", () => diagnosticsOf("untitled:Untitled-1").some((d) => codeOf(d) === "U002"));
  });

  test("a settings change is sent to the server", async () => {
    const feff = vscode.Uri.file(path.join(ws, "feff.txt")).toString();
    fake.settings = { lints: { stray_feff: "allow" }, workspaceScan: false };
    fake.events.configuration!.fire({ affectsConfiguration: (s: string) => s === "utf8lint" || s === "utf8lint.lints" });
    await until("U002 to go away (stray_feff = allow)", () => !diagnosticsOf(feff).some((d) => codeOf(d) === "U002"));
  });

  test("Restart Server starts a new server that picks up the open documents", async () => {
    fake.diagnostics.clear();
    await fake.commands.get("utf8lint.restartServer")!();
    const invalid = vscode.Uri.file(path.join(ws, "invalid.txt")).toString();
    await until("U001 again after the restart", () => diagnosticsOf(invalid).some((d) => codeOf(d) === "U001"));
    assert.equal(fake.log.filter((l) => /^Starting /.test(l.message)).length, 2, "started twice");
  });
});
