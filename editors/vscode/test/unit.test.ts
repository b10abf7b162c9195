// Unit tests of the extension's pure logic (binary resolution, settings
// mapping) and of its glue with a fake `vscode` module (test/fake-vscode.cjs,
// installed by test/vscode-hook.cjs).

import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, test } from "node:test";

import {
  binaryName,
  bundledPath,
  expandSettingPath,
  findOnPath,
  INSTALL_HINT,
  resolveBinary,
  type ResolveEnv,
} from "../src/resolve";
import { answerConfigurationItem, toServerSettings } from "../src/settings";
import * as extension from "../src/extension";
import type { FakeState } from "./fake-vscode";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const fake: FakeState = require("vscode").__state;

function fakeEnv(files: string[], options: Partial<ResolveEnv> = {}): ResolveEnv {
  const set = new Set(files);
  return {
    platform: "linux",
    env: { PATH: "/usr/local/bin:/usr/bin" },
    homeDir: "/home/u",
    isExecutable: (f) => set.has(f),
    ...options,
  };
}

describe("binary resolution", () => {
  const ext = "/ext/utf8lint-0.1.0";

  test("the utf8lint.path setting comes first", () => {
    const env = fakeEnv(["/opt/u8/utf8lint", `${ext}/bundled/utf8lint`, "/usr/bin/utf8lint"]);
    assert.deepEqual(resolveBinary({ settingPath: "/opt/u8/utf8lint", extensionPath: ext }, env), {
      ok: true,
      path: "/opt/u8/utf8lint",
      source: "setting",
    });
  });

  test("then the bundled binary", () => {
    const env = fakeEnv([`${ext}/bundled/utf8lint`, "/usr/bin/utf8lint"]);
    assert.deepEqual(resolveBinary({ settingPath: null, extensionPath: ext }, env), {
      ok: true,
      path: `${ext}/bundled/utf8lint`,
      source: "bundled",
    });
    // An empty or blank setting counts as unset.
    assert.equal(resolveBinary({ settingPath: "  ", extensionPath: ext }, env).ok, true);
  });

  test("then PATH, in PATH order", () => {
    const env = fakeEnv(["/usr/bin/utf8lint", "/usr/local/bin/utf8lint"]);
    assert.deepEqual(resolveBinary({ settingPath: undefined, extensionPath: ext }, env), {
      ok: true,
      path: "/usr/local/bin/utf8lint",
      source: "path",
    });
  });

  test("a setting that points nowhere is an error, not a silent fallback", () => {
    const env = fakeEnv([`${ext}/bundled/utf8lint`, "/usr/bin/utf8lint"]);
    const r = resolveBinary({ settingPath: "/nope/utf8lint", extensionPath: ext }, env);
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.kind === "setting-missing");
    assert.match(!r.ok ? r.message : "", /`utf8lint\.path` setting points to \/nope\/utf8lint/);
  });

  test("nothing found: the message names the three places and the fix", () => {
    const r = resolveBinary({ settingPath: null, extensionPath: ext }, fakeEnv([]));
    assert.ok(!r.ok);
    assert.equal(r.kind, "not-found");
    assert.match(r.message, /utf8lint\.path/);
    assert.match(r.message, /bundled with the extension \(\/ext\/utf8lint-0\.1\.0\/bundled\/utf8lint: absent\)/);
    assert.match(r.message, /PATH/);
    assert.match(r.message, /cargo install --path \./);
    assert.ok(r.message.endsWith(INSTALL_HINT));
  });

  test("Windows: utf8lint.exe, PATHEXT, ';' separators and quoted entries", () => {
    assert.equal(binaryName("win32"), "utf8lint.exe");
    assert.equal(bundledPath("C:\\ext", "win32"), "C:\\ext\\bundled\\utf8lint.exe");
    const env = fakeEnv(["C:\\Tools\\utf8lint.exe"], {
      platform: "win32",
      env: { Path: '"C:\\Program Files\\x";C:\\Tools', PATHEXT: ".COM;.EXE" },
    });
    assert.equal(findOnPath(env), "C:\\Tools\\utf8lint.exe");
    const r = resolveBinary({ settingPath: null, extensionPath: "C:\\ext" }, env);
    assert.deepEqual(r, { ok: true, path: "C:\\Tools\\utf8lint.exe", source: "path" });
  });

  test("the setting expands ~, ${workspaceFolder}, ${env:..} and relative paths", () => {
    const env = fakeEnv([], { env: { CARGO_HOME: "/c" } });
    const ws = { workspaceFolder: "/ws" };
    assert.equal(expandSettingPath("~/.cargo/bin/utf8lint", ws, env), "/home/u/.cargo/bin/utf8lint");
    assert.equal(expandSettingPath("${workspaceFolder}/target/debug/utf8lint", ws, env), "/ws/target/debug/utf8lint");
    assert.equal(expandSettingPath("${env:CARGO_HOME}/bin/utf8lint", ws, env), "/c/bin/utf8lint");
    assert.equal(expandSettingPath("target/release/utf8lint", ws, env), "/ws/target/release/utf8lint");
    assert.equal(expandSettingPath("target/release/utf8lint", {}, env), "target/release/utf8lint");
  });
});

describe("settings mapping", () => {
  test("camelCase settings become utf8lint.toml keys", () => {
    const { settings, warnings } = toServerSettings({
      lints: { stray_feff: "deny", U004: "allow" },
      bom: { "*.csv": "require", "*.json": "forbid" },
      maxPerFile: 50,
      workspaceScan: false,
      path: "/x/utf8lint",
      trace: { server: "verbose" },
    });
    assert.deepEqual(settings, {
      lints: { stray_feff: "deny", U004: "allow" },
      bom: { "*.csv": "require", "*.json": "forbid" },
      "max-per-file": 50,
      "workspace-scan": false,
    });
    assert.deepEqual(warnings, []);
  });

  test("unset, null and empty settings are left out so utf8lint.toml applies", () => {
    assert.deepEqual(toServerSettings({ lints: {}, bom: {}, maxPerFile: null, workspaceScan: undefined }).settings, {});
    assert.deepEqual(toServerSettings(undefined).settings, {});
    assert.deepEqual(toServerSettings({ maxPerFile: 0 }).settings, { "max-per-file": 0 });
  });

  test("workspaceScan is sent only when the user set it (the server applies its size limit otherwise)", () => {
    const defaults = { lints: {}, bom: {}, maxPerFile: null, workspaceScan: true };
    assert.deepEqual(toServerSettings(defaults, () => false).settings, {});
    assert.deepEqual(toServerSettings(defaults, (k) => k === "workspaceScan").settings, { "workspace-scan": true });
    assert.deepEqual(toServerSettings({ workspaceScan: false }, (k) => k === "workspaceScan").settings, {
      "workspace-scan": false,
    });
    assert.deepEqual(answerConfigurationItem("utf8lint", defaults, () => false), {});
  });

  test("invalid values are dropped with a warning", () => {
    const { settings, warnings } = toServerSettings({
      lints: { stray_feff: "error", invalid_utf8: " Deny " },
      bom: ["*.json"],
      maxPerFile: -1,
      workspaceScan: "yes",
    });
    assert.deepEqual(settings, { lints: { invalid_utf8: "deny" } });
    assert.equal(warnings.length, 4);
    assert.match(warnings[0]!, /utf8lint\.lints: "stray_feff" must be "allow", "warn", "deny"/);
    assert.match(warnings[1]!, /utf8lint\.bom must be an object/);
    assert.match(warnings[2]!, /maxPerFile/);
    assert.match(warnings[3]!, /workspaceScan/);
  });

  test("workspace/configuration answers: section utf8lint mapped, others untouched", () => {
    assert.deepEqual(answerConfigurationItem("utf8lint", { maxPerFile: 3, workspaceScan: true }), {
      "max-per-file": 3,
      "workspace-scan": true,
    });
    assert.deepEqual(answerConfigurationItem("utf8lint", null), {});
    assert.deepEqual(answerConfigurationItem("files", { encoding: "utf8" }), { encoding: "utf8" });
  });
});

describe("the extension with a fake vscode", () => {
  let savedPath: string | undefined;
  let tmp: string;

  beforeEach(() => {
    savedPath = process.env.PATH;
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "utf8lint-ext-"));
    fake.settings = {};
    fake.calls = [];
    fake.log = [];
    fake.errorChoice = undefined;
    fake.workspaceFolders = undefined;
  });
  afterEach(() => {
    process.env.PATH = savedPath;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test("findServer reads utf8lint.path and the workspace folder from VS Code", () => {
    const bin = path.join(tmp, "bin", "utf8lint");
    fs.mkdirSync(path.dirname(bin));
    fs.writeFileSync(bin, "#!/bin/sh\n", { mode: 0o755 });
    fake.workspaceFolders = [{ uri: { scheme: "file", fsPath: tmp } }];
    fake.settings = { path: "bin/utf8lint" };
    const env = extension.nodeResolveEnv();
    assert.deepEqual(extension.findServer({ extensionPath: "/nonexistent" }, env), {
      ok: true,
      path: bin,
      source: "setting",
    });
    // A bundled binary is found when the setting is unset.
    fake.settings = {};
    const bundled = path.join(tmp, "bundled", process.platform === "win32" ? "utf8lint.exe" : "utf8lint");
    fs.mkdirSync(path.dirname(bundled));
    fs.writeFileSync(bundled, "#!/bin/sh\n", { mode: 0o755 });
    assert.deepEqual(extension.findServer({ extensionPath: tmp }, env), { ok: true, path: bundled, source: "bundled" });
    // A file without the execute bit is not a binary.
    fs.chmodSync(bundled, 0o644);
    process.env.PATH = "";
    if (process.platform !== "win32") {
      assert.equal(extension.findServer({ extensionPath: tmp }, env).ok, false);
    }
  });

  test("activate without a binary: output channel, commands, and an error with an Open Settings button", async () => {
    process.env.PATH = path.join(tmp, "empty");
    fake.errorChoice = "Open Settings";
    const subscriptions: { dispose(): void }[] = [];
    await extension.activate({ extensionPath: tmp, subscriptions } as never);

    const channel = fake.calls.find((c) => c.name === "window.createOutputChannel");
    assert.deepEqual(channel?.args, ["utf8lint", { log: true }]);

    const registered = fake.calls.filter((c) => c.name === "commands.registerCommand").map((c) => c.args[0]);
    const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "package.json"), "utf8"));
    const contributed = manifest.contributes.commands.map((c: { command: string }) => c.command);
    assert.deepEqual(registered.sort(), [...contributed].sort());
    assert.deepEqual(contributed.sort(), ["utf8lint.restartServer", "utf8lint.showOutput"]);

    // Give the button's promise a turn.
    await new Promise((resolve) => setImmediate(resolve));
    const shown = fake.calls.find((c) => c.name === "window.showErrorMessage");
    assert.ok(shown, "an error message is shown");
    const [message, ...buttons] = shown.args as string[];
    assert.match(message!, /cannot find the `utf8lint` binary/);
    assert.match(message!, /utf8lint\.path/);
    assert.match(message!, /bundled/);
    assert.match(message!, /PATH/);
    assert.match(message!, /cargo install --path \./);
    assert.ok(buttons.includes("Open Settings"));
    const opened = fake.calls.find((c) => c.name === "commands.executeCommand");
    assert.deepEqual(opened?.args, ["workbench.action.openSettings", "utf8lint.path"]);
    assert.ok(fake.log.some((l) => l.level === "error" && /cannot find/.test(l.message)), "logged to the channel");

    // "Show Output" reveals the channel.
    await fake.commands.get("utf8lint.showOutput")!();
    assert.ok(fake.calls.some((c) => c.name === "output.show"));
    subscriptions.forEach((d) => d.dispose());
    await extension.deactivate();
  });

  test("a binary that is not a language server: one message naming it", { skip: process.platform === "win32" }, async () => {
    const bundled = path.join(tmp, "bundled", "utf8lint");
    fs.mkdirSync(path.dirname(bundled));
    fs.writeFileSync(bundled, "#!/bin/sh\necho 'error: unrecognized subcommand lsp' >&2\nexit 2\n", { mode: 0o755 });
    process.env.PATH = path.join(tmp, "empty");
    const subscriptions: { dispose(): void }[] = [];
    await extension.activate({ extensionPath: tmp, subscriptions } as never);
    const ours = fake.calls.filter(
      (c) => c.name === "window.showErrorMessage" && /utf8lint: the language server .* failed to start/.test(String(c.args[0])),
    );
    assert.equal(ours.length, 1, JSON.stringify(fake.calls));
    assert.ok(String(ours[0]!.args[0]).includes(bundled), "names the binary");
    assert.match(String(ours[0]!.args[0]), /`lsp` subcommand/);
    // The server's stderr arrives on its own schedule: wait for it (up to 5 s).
    for (let i = 0; i < 100 && !fake.log.some((l) => /unrecognized subcommand lsp/.test(l.message)); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(fake.log.some((l) => /unrecognized subcommand lsp/.test(l.message)), "the server's stderr is in the output channel");
    subscriptions.forEach((d) => d.dispose());
    await extension.deactivate();
  });

  test("utf8lint.path is a machine setting a workspace cannot set, and restricted when untrusted", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "package.json"), "utf8"));
    assert.equal(manifest.contributes.configuration.properties["utf8lint.path"].scope, "machine");
    const untrusted = manifest.capabilities.untrustedWorkspaces;
    assert.equal(untrusted.supported, "limited");
    assert.deepEqual(untrusted.restrictedConfigurations, ["utf8lint.path"]);
    assert.match(untrusted.description, /utf8lint\.path/);
  });

  test("traces go to a plain channel, shown without raising a log level", async () => {
    const vscodeFake = require("vscode") as { window: { createOutputChannel(n: string, o?: unknown): never } };
    const channel = vscodeFake.window.createOutputChannel("t", { log: true });
    const lines: string[] = [];
    const plain = { appendLine: (l: string) => lines.push(l) } as never;
    const trace = extension.alwaysShown(plain);
    const options = extension.clientOptions(channel, trace);
    assert.equal(options.traceOutputChannel, trace);
    assert.equal(options.outputChannel, channel);
    // Written whatever any log level says.
    options.traceOutputChannel!.trace("Sending request 'initialize - (0)'.");
    assert.deepEqual(lines, ["[trace] Sending request 'initialize - (0)'."]);
    const subscriptions: { dispose(): void }[] = [];
    process.env.PATH = path.join(tmp, "empty");
    await extension.activate({ extensionPath: tmp, subscriptions } as never);
    const created = fake.calls.filter((c) => c.name === "window.createOutputChannel").map((c) => c.args);
    assert.deepEqual(created.slice(-2), [["utf8lint", { log: true }], ["utf8lint Trace", undefined]]);
    subscriptions.forEach((d) => d.dispose());
    await extension.deactivate();
  });

  test("the client is set up for file and untitled documents and maps workspace/configuration", async () => {
    const channel = (require("vscode") as { window: { createOutputChannel(n: string, o: unknown): never } }).window.createOutputChannel("t", { log: true });
    const options = extension.clientOptions(channel);
    assert.deepEqual(options.documentSelector, [{ scheme: "file" }, { scheme: "untitled" }]);
    const middleware = options.middleware!.workspace!.configuration!;
    const params = { items: [{ section: "utf8lint", scopeUri: "file:///w/a.txt" }, { section: "editor" }] };
    const next = async () => [{ lints: { stray_feff: "deny" }, maxPerFile: 10, workspaceScan: true, path: null }, { tabSize: 4 }];
    // workspaceScan at its default: left to the server.
    fake.settings = { lints: { stray_feff: "deny" }, maxPerFile: 10 };
    assert.deepEqual(await middleware(params, {} as never, next as never), [
      { lints: { stray_feff: "deny" }, "max-per-file": 10 },
      { tabSize: 4 },
    ]);
    // Set by the user: passed on.
    fake.settings = { lints: { stray_feff: "deny" }, maxPerFile: 10, workspaceScan: true };
    assert.deepEqual(await middleware(params, {} as never, next as never), [
      { lints: { stray_feff: "deny" }, "max-per-file": 10, "workspace-scan": true },
      { tabSize: 4 },
    ]);
  });
});
