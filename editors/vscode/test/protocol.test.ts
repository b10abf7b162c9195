// The protocol test: the real `utf8lint lsp`, driven the way VS Code drives
// it. Each file is written to a temporary workspace with its real bytes and
// opened with the text VS Code would send: invalid bytes already replaced by
// U+FFFD, the leading BOM stripped. The server must see the truth on disk
// and answer in UTF-16 positions, with astral characters before each finding.
//
// The binary: $UTF8LINT_BIN, else ../../target/debug/utf8lint (from
// editors/vscode). Set UTF8LINT_SKIP_PROTOCOL=1 to skip when no server is
// built (the test fails otherwise, so that CI cannot pass without it), and
// UTF8LINT_PROTOCOL_DUMP=out.json to keep every publishDiagnostics.

import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, before, describe, test } from "node:test";

import type { CodeAction, Command, Diagnostic, Hover, Range } from "vscode-languageserver-protocol";

import { serverBinary, VsCodeLikeClient, vscodeClientCapabilities, vscodeDecode, type Published } from "./lsp-harness";

const enc = (s: string) => Buffer.from(s, "utf8");
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The workspace: name → exact bytes on disk. */
const FILES: Record<string, Buffer> = {
  // U+FEFF after an astral character inside a word (line 1), and at a line start (line 2).
  "feff.txt": enc("line one\n😀 a\uFEFFb\n\uFEFFstart\n"),
  // Invalid bytes after astral characters: FF FE (two maximal subparts), and C0 AE (an overlong ".").
  "invalid.txt": Buffer.concat([
    enc("😀 café "),
    Buffer.from([0xff, 0xfe]),
    enc(" end\n𝄞x"),
    Buffer.from([0xc0, 0xae]),
    enc("y\n"),
  ]),
  // JSON forbids a BOM (RFC 8259 8.1); the editor's text does not hold it.
  "data.json": Buffer.concat([BOM, enc('{"emoji": "😀"}\n')]),
  // A BOM is allowed in .txt by default...
  "bom-allowed.txt": Buffer.concat([BOM, enc("hello\n")]),
  // ...and forbidden for this file through the utf8lint.bom setting.
  "bom-forced.txt": Buffer.concat([BOM, enc("hello\n")]),
  // CRLF line ends, which VS Code keeps in the text.
  "crlf.txt": Buffer.concat([enc("a\r\n😀"), Buffer.from([0xff]), enc("\r\n")]),
};

/** What `workspace.getConfiguration('utf8lint')` returns in this test's VS Code. */
const VSCODE_SETTINGS = {
  lints: { stray_feff: "deny" },
  bom: { "bom-forced.txt": "forbid" },
  maxPerFile: 100,
  workspaceScan: false,
  path: null,
  trace: { server: "off" },
};

const ERROR = 1;

function r(sl: number, sc: number, el: number, ec: number): Range {
  return { start: { line: sl, character: sc }, end: { line: el, character: ec } };
}

function byCode(p: Published | undefined, code: string): Diagnostic[] {
  return (p?.diagnostics ?? []).filter((d) => d.code === code);
}

/** A diagnostic's message as text (LSP 3.18 allows MarkupContent). */
function msg(d: Diagnostic): string {
  return typeof d.message === "string" ? d.message : d.message.value;
}

function sameRange(a: Range, b: Range): boolean {
  return (
    a.start.line === b.start.line &&
    a.start.character === b.start.character &&
    a.end.line === b.end.line &&
    a.end.character === b.end.character
  );
}

function hasRange(ds: Diagnostic[], range: Range): boolean {
  return ds.some((d) => sameRange(d.range, range));
}

const binary = serverBinary();
const skip = process.env.UTF8LINT_SKIP_PROTOCOL === "1" ? "UTF8LINT_SKIP_PROTOCOL=1" : false;

describe(`protocol: ${binary} lsp, as VS Code drives it`, { skip }, () => {
  let root: string;
  let client: VsCodeLikeClient;

  before(async () => {
    assert.ok(
      fs.existsSync(binary),
      `no server binary at ${binary}: build it (cargo build --bin utf8lint) or set UTF8LINT_BIN (UTF8LINT_SKIP_PROTOCOL=1 skips this test)`,
    );
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "utf8lint-vscode-")));
    for (const [name, bytes] of Object.entries(FILES)) fs.writeFileSync(path.join(root, name), bytes);
    client = new VsCodeLikeClient(binary, root, VSCODE_SETTINGS);
    await client.initialize();
  });

  after(async () => {
    // UTF8LINT_PROTOCOL_DUMP=file.json keeps every publishDiagnostics, for debugging and docs.
    const dump = process.env.UTF8LINT_PROTOCOL_DUMP;
    if (dump && client) {
      const all = Object.fromEntries([...client.published].map(([uri, list]) => [uri.replace(/^.*\//, ""), list]));
      fs.writeFileSync(dump, JSON.stringify(all, null, 1));
    }
    await client?.shutdown();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  test("initialize: the capabilities are vscode-languageclient's own, and the server answers UTF-16", () => {
    const caps = vscodeClientCapabilities();
    assert.deepEqual(caps.general?.positionEncodings, ["utf-16"]);
    assert.equal(caps.textDocument?.publishDiagnostics?.codeDescriptionSupport, true);
    assert.equal(caps.textDocument?.publishDiagnostics?.dataSupport, true);
    assert.equal(caps.textDocument?.codeAction?.dataSupport, true);
    assert.ok(caps.textDocument?.codeAction?.codeActionLiteralSupport);
    assert.deepEqual(caps.textDocument?.codeAction?.resolveSupport?.properties, ["edit", "command"]);
    assert.equal(caps.workspace?.configuration, true);

    const server = client.initializeResult!.capabilities;
    // vscode-languageclient throws "Unsupported position encoding" for anything else.
    assert.ok(
      server.positionEncoding === undefined || server.positionEncoding === "utf-16",
      `positionEncoding ${server.positionEncoding}`,
    );
    assert.ok(client.syncKind === 1 || client.syncKind === 2, `textDocumentSync ${JSON.stringify(server.textDocumentSync)}`);
    assert.ok(server.codeActionProvider, "codeActionProvider");
  });

  test("invalid bytes: U001 on the U+FFFD the editor shows, in UTF-16 after astral characters", async () => {
    const { uri, text } = await client.openFile("invalid.txt", "plaintext");
    assert.equal(text, "😀 café \uFFFD\uFFFD end\n𝄞x\uFFFD\uFFFDy\n", "VS Code's lossy decoding");
    const p = await client.waitFor(uri, (p) => byCode(p, "U001").length >= 2, "two U001 diagnostics");
    const all = JSON.stringify(p.diagnostics, null, 1);
    // Saving from VS Code would write EF BF BD for good: one warning says so, with the byte count (FF FE C0 AE).
    const isSaveWarning = (d: Diagnostic) => /sav(e|ing)/i.test(msg(d)) && /\b4\b/.test(msg(d));
    const saveWarnings = p.diagnostics.filter(isSaveWarning);
    assert.equal(saveWarnings.length, 1, `one "saving will replace 4 bytes" diagnostic: ${all}`);
    // The findings: one diagnostic per run of maximal subparts, or one per subpart.
    const u001 = byCode(p, "U001").filter((d) => !isSaveWarning(d));
    assert.ok(
      hasRange(u001, r(0, 8, 0, 10)) || (hasRange(u001, r(0, 8, 0, 9)) && hasRange(u001, r(0, 9, 0, 10))),
      `FF FE at 0:8-0:10 (😀 is 2 UTF-16 units): ${all}`,
    );
    assert.ok(
      hasRange(u001, r(1, 3, 1, 5)) || (hasRange(u001, r(1, 3, 1, 4)) && hasRange(u001, r(1, 4, 1, 5))),
      `C0 AE at 1:3-1:5 (𝄞 is 2 UTF-16 units): ${all}`,
    );
    for (const d of u001) {
      assert.equal(d.source, "utf8lint");
      assert.equal(d.severity, ERROR, `invalid_utf8 is deny by default: ${all}`);
      assert.match(d.codeDescription?.href ?? "", /U001/, "codeDescription.href links to the explanation");
    }

    const hover = await client.connection.sendRequest<Hover | null>("textDocument/hover", {
      textDocument: { uri },
      position: { line: 0, character: 8 },
    });
    assert.ok(hover, "hover on a finding");
    assert.match(JSON.stringify(hover.contents), /FF/i, "the hover shows the bytes in hex");
  });

  test("a BOM on disk: U003 at 0:0 for JSON though the editor's text has none", async () => {
    const { uri, text } = await client.openFile("data.json", "json");
    assert.ok(!text.startsWith("\uFEFF"), "VS Code strips the BOM");
    const p = await client.waitFor(uri, (p) => byCode(p, "U003").length > 0, "U003");
    const [d] = byCode(p, "U003");
    assert.deepEqual(d!.range.start, { line: 0, character: 0 });
    assert.equal(d!.range.end.line, 0);
    assert.equal(d!.severity, ERROR);
    assert.match(msg(d!), /invisible in the editor/, "the headline says the editor does not show the BOM");
  });

  test("settings reach the server: utf8lint.bom forbids a BOM the .txt default allows", async () => {
    const allowed = await client.openFile("bom-allowed.txt", "plaintext");
    const forced = await client.openFile("bom-forced.txt", "plaintext");
    const p = await client.waitFor(forced.uri, (p) => byCode(p, "U003").length > 0, "U003 from the utf8lint.bom setting");
    assert.deepEqual(byCode(p, "U003")[0]!.range.start, { line: 0, character: 0 });
    assert.equal(byCode(client.latest(allowed.uri), "U003").length, 0, client.describe(allowed.uri));
    assert.ok(client.configurationRequests.length > 0, "the server asked for workspace/configuration");
  });

  test("stray U+FEFF: U002 (deny through utf8lint.lints), quick fix, fixAll, save", async () => {
    const { uri, text } = await client.openFile("feff.txt", "plaintext");
    assert.equal(text, "line one\n😀 a\uFEFFb\n\uFEFFstart\n");
    let p = await client.waitFor(uri, (p) => byCode(p, "U002").length >= 2, "two U002");
    const u002 = byCode(p, "U002");
    assert.ok(hasRange(u002, r(1, 4, 1, 5)), `U+FEFF after "😀 a" at 1:4: ${JSON.stringify(u002.map((d) => d.range))}`);
    assert.ok(hasRange(u002, r(2, 0, 2, 1)), `U+FEFF at 2:0: ${JSON.stringify(u002.map((d) => d.range))}`);
    for (const d of u002) assert.equal(d.severity, ERROR, "utf8lint.lints { stray_feff: deny } applies");

    // The quick fix for the one inside a word, as the light bulb asks for it.
    const target = u002.find((d) => d.range.start.line === 1)!;
    const actions = await client.connection.sendRequest<(CodeAction | Command)[] | null>("textDocument/codeAction", {
      textDocument: { uri },
      range: target.range,
      context: { diagnostics: [target], triggerKind: 1 },
    });
    const quickfixes = (actions ?? []).filter((a): a is CodeAction => "kind" in a && a.kind === "quickfix");
    assert.ok(quickfixes.length > 0, `a quickfix: ${JSON.stringify(actions)}`);
    let fix = quickfixes.find((a) => a.isPreferred) ?? quickfixes[0]!;
    if (!fix.edit && fix.data !== undefined) {
      fix = await client.connection.sendRequest<CodeAction>("codeAction/resolve", fix);
    }
    assert.ok(fix.edit, `the quick fix carries a WorkspaceEdit: ${JSON.stringify(fix)}`);
    await client.applyWorkspaceEdit(fix.edit);
    const fixed = client.docs.get(uri)!.getText();
    assert.ok(!fixed.split("\n")[1]!.includes("\uFEFF"), `line 1 after the fix: ${JSON.stringify(fixed)}`);
    p = await client.waitFor(
      uri,
      (p) => (p.version === undefined || p.version === 2) && byCode(p, "U002").every((d) => d.range.start.line !== 1),
      "the fixed U002 to go away (version 2)",
    );
    assert.ok(hasRange(byCode(p, "U002"), r(2, 0, 2, 1)), `the other U002 stays: ${JSON.stringify(p.diagnostics)}`);

    // source.fixAll (editor.codeActionsOnSave) deletes the line-start one: a Safe fix.
    const all = await client.connection.sendRequest<(CodeAction | Command)[] | null>("textDocument/codeAction", {
      textDocument: { uri },
      range: r(0, 0, 3, 0),
      context: { diagnostics: [], only: ["source.fixAll"], triggerKind: 2 },
    });
    let fixAll = (all ?? []).find((a): a is CodeAction => "kind" in a && a.kind === "source.fixAll.utf8lint");
    assert.ok(fixAll, `a source.fixAll.utf8lint action: ${JSON.stringify(all)}`);
    if (!fixAll.edit && fixAll.data !== undefined) {
      fixAll = await client.connection.sendRequest<CodeAction>("codeAction/resolve", fixAll);
    }
    assert.ok(fixAll.edit, JSON.stringify(fixAll));
    await client.applyWorkspaceEdit(fixAll.edit);
    const text3 = client.docs.get(uri)!.getText();
    assert.ok(!text3.includes("\uFEFF"), JSON.stringify(text3));
    await client.waitFor(uri, (p) => (p.version === undefined || p.version === 3) && byCode(p, "U002").length === 0, "no U002 at version 3");

    // Save as VS Code does (the text, UTF-8, no BOM); the disk now agrees.
    fs.writeFileSync(path.join(root, "feff.txt"), Buffer.from(text3, "utf8"));
    await client.connection.sendNotification("textDocument/didSave", { textDocument: { uri }, text: text3 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(byCode(client.latest(uri), "U002").length, 0, client.describe(uri));
  });

  test("CRLF line ends: positions count lines as VS Code does", async () => {
    const { uri, text } = await client.openFile("crlf.txt", "plaintext");
    assert.equal(text, "a\r\n😀\uFFFD\r\n");
    const p = await client.waitFor(uri, (p) => byCode(p, "U001").length > 0, "U001");
    assert.ok(hasRange(byCode(p, "U001"), r(1, 2, 1, 3)), JSON.stringify(p.diagnostics));
  });

  test("unsaved edits: findings follow the text, and a fix on disk is refused", async (t) => {
    const uri = (await import("node:url")).pathToFileURL(path.join(root, "invalid.txt")).href;
    assert.ok(client.docs.has(uri), "invalid.txt is open (an earlier test)");
    const before = fs.readFileSync(path.join(root, "invalid.txt"));
    const commandsOf = async (d: Diagnostic): Promise<Command[]> => {
      const actions = await client.connection.sendRequest<(CodeAction | Command)[] | null>("textDocument/codeAction", {
        textDocument: { uri },
        range: d.range,
        context: { diagnostics: [d], triggerKind: 1 },
      });
      return (actions ?? []).flatMap((a) =>
        typeof a.command === "string" ? [a as Command] : a.command !== undefined ? [a.command] : [],
      );
    };
    // While the buffer is clean, the U001 run offers its fix on disk as a command.
    const clean = client.latest(uri)!;
    const run = byCode(clean, "U001").find((d) => d.severity === ERROR && d.range.start.line === 0)!;
    const offered = await commandsOf(run);
    assert.ok(offered.length > 0, "a fix-on-disk command for the invalid bytes while the buffer is clean");

    await client.edit(uri, [{ range: r(0, 0, 0, 0), newText: "XX" }]);
    const p = await client.waitFor(
      uri,
      (p) => (p.version === undefined || p.version === 2) && p.diagnostics.some((d) => d.range.start.line === 0 && d.range.start.character === 10),
      "a finding on the shifted U+FFFD at 0:10 (version 2)",
    );
    const shifted = p.diagnostics.find((d) => d.range.start.line === 0 && d.range.start.character === 10)!;
    const whileDirty = await commandsOf(shifted);
    t.diagnostic(`${whileDirty.length} fix-on-disk command(s) offered while the buffer has unsaved edits`);
    // A command obtained before the edit (a light bulb opened earlier) is refused now.
    for (const command of [...offered, ...whileDirty]) {
      await assert.rejects(
        client.connection.sendRequest("workspace/executeCommand", { command: command.command, arguments: command.arguments }),
        (err: Error) => /unsaved/i.test(err.message),
      );
    }
    assert.deepEqual(fs.readFileSync(path.join(root, "invalid.txt")), before, "the file on disk is untouched");
  });

  test("a fix on disk through workspace/executeCommand: strip the BOM of a clean JSON file", async () => {
    const file = path.join(root, "data.json");
    const uri = (await import("node:url")).pathToFileURL(file).href;
    const p = await client.waitFor(uri, (p) => byCode(p, "U003").length > 0, "U003");
    const d = byCode(p, "U003")[0]!;
    const actions = await client.connection.sendRequest<(CodeAction | Command)[] | null>("textDocument/codeAction", {
      textDocument: { uri },
      range: d.range,
      context: { diagnostics: [d], triggerKind: 1 },
    });
    let action = (actions ?? []).find((a): a is CodeAction => "kind" in a && a.kind === "quickfix" && a.command !== undefined && !a.edit);
    if (!action) {
      const unresolved = (actions ?? []).find((a): a is CodeAction => "kind" in a && a.kind === "quickfix" && a.data !== undefined);
      if (unresolved) action = await client.connection.sendRequest<CodeAction>("codeAction/resolve", unresolved);
    }
    assert.ok(action?.command, `a quickfix that runs a command: ${JSON.stringify(actions)}`);
    await client.connection.sendRequest("workspace/executeCommand", {
      command: action.command.command,
      arguments: action.command.arguments,
    });
    const bytes = fs.readFileSync(file);
    assert.deepEqual(bytes.subarray(0, 1), Buffer.from("{"), `the BOM is gone from disk: ${bytes.subarray(0, 4).toString("hex")}`);
    assert.deepEqual(bytes, enc('{"emoji": "😀"}\n'), "nothing else changed");
    // VS Code's file watcher reports the change too.
    await client.connection.sendNotification("workspace/didChangeWatchedFiles", { changes: [{ uri, type: 2 }] });
    await client.waitFor(uri, (p) => byCode(p, "U003").length === 0, "U003 to go away");
  });

  test("untitled documents get the text-level rules, and closing clears them", async () => {
    const uri = "untitled:Untitled-1";
    await client.open(uri, "plaintext", "😀 x\uFEFFy \uFFFD\n");
    const p = await client.waitFor(uri, (p) => byCode(p, "U002").length > 0, "U002 on an untitled document");
    assert.ok(hasRange(byCode(p, "U002"), r(0, 4, 0, 5)), JSON.stringify(p.diagnostics));
    await client.close(uri);
    await client.waitFor(uri, (p) => p.diagnostics.length === 0, "an empty publish after didClose");
  });

  test("the server is still alive", async () => {
    assert.equal(client.exited, undefined, client.stderr);
    // A request after everything: the server answers.
    const hover = await client.connection.sendRequest("textDocument/hover", {
      textDocument: { uri: "file:///no/such/file.txt" },
      position: { line: 99, character: 99 },
    }).catch((err: unknown) => ({ error: String(err) }));
    assert.ok(hover === null || typeof hover === "object");
  });
});

// vscodeDecode is VS Code's decoding: pin the two facts the test relies on.
test("the lossy decoding VS Code applies: one U+FFFD per maximal subpart, BOM stripped", () => {
  assert.equal(vscodeDecode(Buffer.from([0xef, 0xbb, 0xbf, 0x61])), "a");
  assert.equal(vscodeDecode(Buffer.from([0xe2, 0x82, 0xc3, 0xa9])), "\uFFFDé");
  assert.equal(vscodeDecode(Buffer.from([0xc0, 0xae])), "\uFFFD\uFFFD");
  assert.equal(vscodeDecode(Buffer.from([0x61, 0xef, 0xbb, 0xbf])), "a\uFEFF");
});
