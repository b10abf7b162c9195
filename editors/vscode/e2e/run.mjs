// The extension in a real VS Code: code-server serves the workbench, headless
// Chromium (driven by playwright-core) opens it, and the test asserts what a
// user sees. Run through run.sh, which installs the dependencies and builds
// the self-contained .vsix:
//   node run.mjs --vsix utf8lint-linux-x64.vsix --out ../../../target/e2e-vscode
// Screenshots, the Problems panel's text and the editor's logs land in --out.
//
// Every wait is for something on the screen or on disk, with a timeout; no
// step is retried, so a run that passes is one a user would have seen.

import { spawn, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));
const TIMEOUT = 30_000;
const CHROMIUM = process.env.UTF8LINT_E2E_CHROMIUM || "/usr/bin/chromium";

// ---------------------------------------------------------------- arguments

function parseArgs(argv) {
  const args = { vsix: undefined, out: undefined };
  for (let i = 0; i < argv.length; i += 2) {
    const [key, value] = [argv[i], argv[i + 1]];
    if (key === "--vsix") args.vsix = value;
    else if (key === "--out") args.out = value;
    else throw new Error(`unknown argument ${JSON.stringify(key)}; usage: node run.mjs --vsix FILE --out DIR`);
  }
  if (!args.vsix || !args.out) throw new Error("usage: node run.mjs --vsix FILE --out DIR");
  return { vsix: path.resolve(args.vsix), out: path.resolve(args.out) };
}

// ----------------------------------------------------------------- fixtures

/** The workspace's files, byte for byte. */
const FIXTURES = {
  "clean.txt": Buffer.from("all good\n"),
  // A leading BOM, which RFC 8259 forbids in JSON.
  "data.json": Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"name": "utf8lint", "ok": true}\n')]),
  // `\xFF` never appears in UTF-8; `\xC0\xAE` is an overlong ".".
  "invalid.txt": Buffer.from([...Buffer.from("abc "), 0xff, ...Buffer.from(" def\nx"), 0xc0, 0xae, ...Buffer.from("y\n")]),
  // U+FEFF inside a line (the seam of two files concatenated).
  "feff.txt": Buffer.from("hello\u{feff}world\n"),
  // windows-1252 / ISO-8859-1 French.
  "latin1.txt": Buffer.from("Le café de la garçon: crème brûlée et naïveté, déjà vu à l'hôtel.\n", "latin1"),
  // Three U+FEFF joining words in Python: one to allow, two to fix at once.
  "join.py": Buffer.from("x = 'a\u{feff}b'\ny = 'c\u{feff}d'\nz = 'e\u{feff}f'\n"),
};

/** What the Problems panel must list: [file, severity, message, code, line, column]. */
const EXPECTED_PROBLEMS = [
  ["data.json", "Error", "JSON must not start with a byte-order mark (U+FEFF, invisible in the editor)", "U003", 1, 1],
  ["invalid.txt", "Error", "byte `\\xFF` never appears in UTF-8", "U001", 1, 5],
  ["invalid.txt", "Error", "overlong 2-byte encoding of U+002E FULL STOP", "U001", 2, 2],
  ["latin1.txt", "Error", "this file is not UTF-8: it looks like ISO-8859-1 or windows-1252 (Western European)", "U005", 1, 7],
  ["feff.txt", "Warning", "U+FEFF used as a word joiner", "U002", 1, 6],
  ["join.py", "Warning", "U+FEFF used as a word joiner", "U002", 1, 7],
  ["join.py", "Warning", "U+FEFF used as a word joiner", "U002", 2, 7],
  ["join.py", "Warning", "U+FEFF used as a word joiner", "U002", 3, 7],
];

/** Explorer badges from the workspace scan: file -> problem count (absent: none). */
const EXPECTED_BADGES = { "clean.txt": 0, "data.json": 1, "feff.txt": 1, "invalid.txt": 2, "latin1.txt": 1, "join.py": 3 };

/** How a quick fix that rewrites the file on disk ends its title. */
const DISK_FIX_MARK = "rewrites the file on disk)";

// ------------------------------------------------------------------ helpers

function fail(message) {
  throw new Error(message);
}

function check(condition, message) {
  if (!condition) fail(message);
}

/** PATH without any directory that holds a `utf8lint`: the extension must use its bundled one. */
function pathWithoutUtf8lint(pathVar) {
  const kept = [];
  for (const dir of (pathVar || "/usr/bin:/bin").split(path.delimiter)) {
    if (!dir) continue;
    try {
      fs.accessSync(path.join(dir, "utf8lint"), fs.constants.X_OK);
    } catch {
      kept.push(dir);
    }
  }
  return kept.join(path.delimiter);
}

/** The processes whose executable lies under `dir` (Linux /proc). */
function processesUnder(dir) {
  const found = [];
  for (const pid of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const exe = fs.readlinkSync(`/proc/${pid}/exe`);
      if (exe.startsWith(dir + path.sep)) found.push({ pid: Number(pid), exe });
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}

/** Polls `probe` until it returns a truthy value; fails with `what` after the timeout. */
async function until(what, probe, timeout = TIMEOUT) {
  const end = Date.now() + timeout;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) fail(`timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A Problems row that is a finding's related information (its whole message), not a finding or a file. */
function isRelatedRow(aria) {
  return !/^(Error|Warning|Info): /.test(aria) && !/^\d+ problems? in file /.test(aria);
}

function hex(bytes) {
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join(" ");
}

// ---------------------------------------------------------- code-server

function startCodeServer(codeServer, common, workspace, env) {
  const child = spawn(
    codeServer,
    [...common, "--bind-addr", "127.0.0.1:0", "--auth", "none", "--disable-telemetry", "--disable-update-check", "--disable-workspace-trust", workspace],
    { env, detached: true, stdio: ["ignore", "pipe", "pipe"] },
  );
  let log = "";
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`code-server did not start within 60 s:\n${log}`)), 60_000);
    const onData = (chunk) => {
      log += chunk;
      // Port 0: the kernel picks a free port, which code-server prints.
      const m = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`code-server exited (${code ?? signal}) before listening:\n${log}`));
    });
  });
  return { child, url, log: () => log };
}

function stopCodeServer(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    // detached: the extension host and the language server are in its group.
    process.kill(-child.pid, "SIGTERM");
  } catch {
    // Already gone.
  }
}

// ------------------------------------------------------------ the workbench

class Workbench {
  constructor(page, out) {
    this.page = page;
    this.out = out;
    this.shots = [];
  }

  async shot(name) {
    const file = path.join(this.out, `${name}.png`);
    await this.page.screenshot({ path: file });
    this.shots.push(file);
  }

  /** Opens a file through Quick Open (Ctrl+P), as a user would, and waits for its tab. */
  async open(name) {
    const page = this.page;
    await page.keyboard.press("Control+P");
    const input = page.locator(".quick-input-widget .quick-input-box input");
    await input.waitFor({ state: "visible", timeout: TIMEOUT });
    await input.fill(name);
    await page.locator(".quick-input-widget .monaco-list-row", { hasText: name }).first().waitFor({ timeout: TIMEOUT });
    await page.keyboard.press("Enter");
    await page.locator(".tabs-container .tab.active", { hasText: name }).waitFor({ timeout: TIMEOUT });
    await page.locator(".editor-instance .monaco-editor.focused").waitFor({ timeout: TIMEOUT });
  }

  /** Moves the cursor with Go to Line (Ctrl+G) and waits for the status bar to show it. */
  async goTo(line, column) {
    const page = this.page;
    await page.keyboard.press("Control+G");
    const input = page.locator(".quick-input-widget .quick-input-box input");
    await input.waitFor({ state: "visible", timeout: TIMEOUT });
    await input.fill(`:${line}:${column}`);
    await page.keyboard.press("Enter");
    await page.locator("#status\\.editor\\.selection", { hasText: `Ln ${line}, Col ${column}` }).waitFor({ timeout: TIMEOUT });
  }

  async statusText(id) {
    return (await this.page.locator(`#${id.replace(/\./g, "\\.")}`).innerText()).trim();
  }

  async activeTabDirty() {
    return this.page.locator(".tabs-container .tab.active.dirty").count().then((n) => n > 0);
  }

  /**
   * Opens the quick-fix menu (Ctrl+.) and returns its rows' texts once it
   * shows; [] when VS Code says "No code actions available" instead.
   */
  async quickFixMenu() {
    const page = this.page;
    await page.keyboard.press("Control+.");
    const rows = page.locator(".action-widget .monaco-list-row.action");
    const none = page.locator(".monaco-editor-overlaymessage", { hasText: "No code actions available" });
    await rows.first().or(none).waitFor({ state: "visible", timeout: TIMEOUT });
    if (await none.isVisible()) return [];
    return rows.evaluateAll((rs) => rs.map((r) => r.innerText.trim()));
  }

  /**
   * Opens the quick-fix menu until its rows satisfy `wanted`, closing it in
   * between, and returns the rows (left open). A file's fixes come with the
   * findings the server publishes once it is open (the workspace scan's carry
   * none), and VS Code may drop the light bulb's own update when they arrive:
   * a user presses Ctrl+. again, and so does this.
   */
  async quickFixMenuUntil(what, wanted) {
    let last = [];
    try {
      return await until(what, async () => {
        last = await this.quickFixMenu();
        if (wanted(last)) return last;
        await this.closeMenu();
        return false;
      });
    } catch (err) {
      fail(`${err.message}; the menu last showed ${JSON.stringify(last)}`);
    }
  }

  /** Picks a quick-fix row with the keyboard (reliable, unlike a click), checking that it has focus first. */
  async pickQuickFix(titlePart) {
    const page = this.page;
    const titles = await page.locator(".action-widget .monaco-list-row.action").evaluateAll((rs) => rs.map((r) => r.innerText.trim()));
    const index = titles.findIndex((t) => t.includes(titlePart));
    check(index >= 0, `no quick fix containing ${JSON.stringify(titlePart)} in ${JSON.stringify(titles)}`);
    // The menu opens with the first row focused; headers are not focusable.
    for (let i = 0; i < index; i++) await page.keyboard.press("ArrowDown");
    const focused = page.locator(".action-widget .monaco-list-row.action.focused");
    await focused.filter({ hasText: titlePart }).waitFor({ timeout: TIMEOUT });
    await page.keyboard.press("Enter");
    await page.locator(".action-widget").waitFor({ state: "hidden", timeout: TIMEOUT });
  }

  async closeMenu() {
    await this.page.keyboard.press("Escape");
    await this.page.locator(".action-widget, .monaco-editor-overlaymessage").first().waitFor({ state: "hidden", timeout: TIMEOUT });
  }

  /** The Problems rows under `file`'s header, as [aria-label, text]. */
  async problemRowsOf(file) {
    const rows = await this.problemRows();
    const out = [];
    let current;
    for (const [aria, text] of rows) {
      const header = /^(\d+) problems? in file (.+) of folder/.exec(aria);
      if (header) current = header[2];
      else if (current === file && !isRelatedRow(aria)) out.push([aria, text]);
    }
    return out;
  }

  /** Waits until `file`'s Problems rows satisfy `wanted`, and returns them. */
  async problemsFor(file, what, wanted) {
    let last = [];
    try {
      return await until(what, async () => {
        last = await this.problemRowsOf(file);
        return wanted(last) ? last : false;
      });
    } catch (err) {
      fail(`${err.message}; the Problems panel last showed ${JSON.stringify(last)} for ${file}`);
    }
  }

  /** The Problems panel's rows as [aria-label, text, link of the code], in order. */
  async problemRows() {
    return this.page.locator(".markers-panel .monaco-list-row").evaluateAll((rs) =>
      rs.map((r) => [
        r.getAttribute("aria-label") ?? "",
        r.innerText.replace(/\s*\n\s*/g, " | ").trim(),
        r.querySelector("a.monaco-link:has(.marker-code)")?.getAttribute("href") ?? "",
      ]),
    );
  }
}

// -------------------------------------------------------------------- steps

/** The Explorer marks the files with findings from the workspace scan, before any file is opened. */
async function explorerBadges(wb) {
  const page = wb.page;
  const rows = page.locator(".explorer-folders-view .monaco-list-row");
  await rows.first().waitFor({ timeout: 60_000 });
  check((await page.locator(".tabs-container .tab").count()) === 0, "an editor is open before the Explorer check");
  // The badge count is in the label's aria-label ("... • 2 problems in this file").
  const badge = (name) =>
    page
      .locator(`.explorer-folders-view .monaco-list-row[aria-label="${name}"] .monaco-icon-label`)
      .evaluate((l) => ({ aria: l.getAttribute("aria-label") ?? "", after: getComputedStyle(l, "::after").content, color: getComputedStyle(l.querySelector(".label-name")).color }));
  const want = (n) => (n === 0 ? null : `${n} problem${n === 1 ? "" : "s"} in this file`);
  await until("the Explorer badges from the workspace scan", async () => {
    for (const [name, n] of Object.entries(EXPECTED_BADGES)) {
      const { aria } = await badge(name);
      if (want(n) && !aria.endsWith(want(n))) return false;
    }
    return true;
  }, 60_000);
  const seen = {};
  for (const [name, n] of Object.entries(EXPECTED_BADGES)) {
    const b = await badge(name);
    seen[name] = b;
    if (n === 0) {
      check(!b.aria.includes("problem"), `${name} is clean but the Explorer says ${JSON.stringify(b.aria)}`);
      check(b.after === "none", `${name} is clean but has the badge ${b.after}`);
    } else {
      check(b.after === `"${n}"`, `${name}: Explorer badge ${b.after}, expected "${n}"`);
    }
  }
  check(seen["clean.txt"].color !== seen["invalid.txt"].color, "a file with errors is drawn in the same colour as a clean one");
  check((await page.locator(".tabs-container .tab").count()) === 0, "an editor opened during the Explorer check");
  await wb.shot("1-explorer");
  return seen;
}

/** The Problems panel lists each finding with its message, code and position. */
async function problemsPanel(wb, out) {
  const page = wb.page;
  await page.keyboard.press("Control+Shift+M");
  await page.locator(".markers-panel").waitFor({ timeout: TIMEOUT });
  const wanted = EXPECTED_PROBLEMS.length + new Set(EXPECTED_PROBLEMS.map((p) => p[0])).size;
  // Each finding whose headline is shorter than its message has a row of
  // related information under it, with the whole message.
  let related = [];
  const rows = await until(`${wanted} rows in the Problems panel`, async () => {
    const all = await wb.problemRows();
    const r = all.filter(([aria]) => !isRelatedRow(aria));
    related = all.filter(([aria]) => isRelatedRow(aria));
    return r.length === wanted ? r : false;
  });
  check(
    related.some(([, text]) => text.includes("JSON forbids a byte-order mark")),
    `no related-information row with the BOM's whole message: ${JSON.stringify(related)}`,
  );
  fs.writeFileSync(
    path.join(out, "problems.txt"),
    rows.map(([aria, text, href]) => `${text}\n    aria-label: ${aria}\n${href ? `    code link: ${href}\n` : ""}`).join(""),
  );
  let file;
  const found = [];
  for (const [aria, text, href] of rows) {
    const header = /^(\d+) problems? in file (.+) of folder/.exec(aria);
    if (header) {
      file = header[2];
      continue;
    }
    // A finding with related information says how many places it refers to.
    const m = /^(Error|Warning|Info): (.*) at line (\d+) and character (\d+)\.(?: This problem has references to \d+ locations?\.)? generated by utf8lint$/.exec(aria);
    check(m, `a Problems row that is not utf8lint's: ${JSON.stringify(aria)}`);
    const code = /\butf8lint \| (U\d{3}) \| \[Ln (\d+), Col (\d+)\]$/.exec(text);
    check(code, `the Problems row ${JSON.stringify(text)} shows no code and position`);
    check(code[2] === m[3] && code[3] === m[4], `row ${JSON.stringify(text)}: the shown position differs from ${aria}`);
    // The code is a link to its explanation.
    check(href.endsWith(`/explanations/${code[1]}.md`), `row ${JSON.stringify(text)}: the code links to ${JSON.stringify(href)}`);
    found.push([file, m[1], m[2], code[1], Number(m[3]), Number(m[4])]);
  }
  const key = (p) => JSON.stringify(p);
  const missing = EXPECTED_PROBLEMS.filter((p) => !found.some((f) => key(f) === key(p)));
  const extra = found.filter((f) => !EXPECTED_PROBLEMS.some((p) => key(f) === key(p)));
  check(missing.length === 0 && extra.length === 0, `Problems panel: missing ${key(missing)}, unexpected ${key(extra)}`);
  const counts = await page.locator("#status\\.problems").getAttribute("aria-label");
  check(/Errors: 4/.test(counts ?? "") && /Warnings: 4/.test(counts ?? ""), `status bar problem counts: ${JSON.stringify(counts)}`);
  await wb.shot("2-problems");
  return found;
}

/** Hovering the squiggle under an invalid byte shows what the bytes are. */
async function hover(wb) {
  const page = wb.page;
  await wb.open("invalid.txt");
  await page.locator(".editor-instance .view-overlays .squiggly-error").first().waitFor({ timeout: TIMEOUT });
  // Point at the U+FFFD that VS Code shows for `\xFF` (line 1, column 5), as
  // a user would: the character's box on screen, read from the rendered line.
  const point = await until("line 1 of invalid.txt on screen", () =>
    page.evaluate(() => {
      const line = [...document.querySelectorAll(".editor-instance .view-lines .view-line")].find((l) => l.style.top === "0px");
      if (!line) return null;
      const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
      let offset = 4;
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (offset < n.length) {
          if (n.data[offset] !== "\uFFFD") return null;
          const range = document.createRange();
          range.setStart(n, offset);
          range.setEnd(n, offset + 1);
          const b = range.getBoundingClientRect();
          return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
        }
        offset -= n.length;
      }
      return null;
    }),
  );
  await page.mouse.move(point.x, point.y);
  const widget = page.locator(".monaco-hover:visible", { hasText: "bytes 4..5 of the file on disk" });
  await widget.waitFor({ state: "visible", timeout: TIMEOUT });
  const text = await widget.innerText();
  for (const part of ["byte `\\xFF` never appears in UTF-8", "bytes 4..5 of the file on disk", "is not part of UTF-8 at all", "U001 explained"]) {
    check(text.includes(part), `the hover lacks ${JSON.stringify(part)}:\n${text}`);
  }
  // The headline once: VS Code shows the diagnostic's, the server's hover does not repeat it.
  const headlines = text.split("byte `\\xFF` never appears in UTF-8").length - 1;
  check(headlines === 1, `the hover shows the headline ${headlines} times:\n${text}`);
  await wb.shot("3-hover");
  await page.mouse.move(5, 5);
  return text;
}

/** No disk fix on a dirty buffer; after undo it is offered, and applying it strips the BOM on disk. */
async function bomFix(wb, file) {
  const page = wb.page;
  await wb.open("data.json");
  await until("the status bar to say UTF-8 with BOM", async () => (await wb.statusText("status.editor.encoding")) === "UTF-8 with BOM");
  // The disk fix is offered on the clean buffer first, so that its absence
  // below means "not on a dirty buffer", not "not published yet".
  await wb.goTo(1, 1);
  const isBomFix = (t) => t.includes("remove the byte-order mark") && t.includes(DISK_FIX_MARK);
  const before = await wb.quickFixMenuUntil("the BOM's disk fix on the clean buffer", (rows) => rows.some(isBomFix));
  await wb.closeMenu();
  // Dirty the buffer: a space at the end of the file.
  await page.keyboard.press("Control+End");
  await page.keyboard.type(" ");
  await until("the tab to show unsaved changes", () => wb.activeTabDirty());
  await wb.goTo(1, 1);
  const dirtyMenu = await wb.quickFixMenu();
  await wb.shot("4-quickfix-dirty");
  check(!dirtyMenu.some((t) => t.includes(DISK_FIX_MARK)), `a disk fix is offered on a buffer with unsaved changes: ${JSON.stringify(dirtyMenu)}`);
  await wb.closeMenu();
  // Undo: the buffer is the file on disk again.
  await page.keyboard.press("Control+Z");
  await until("the tab to be clean after undo", async () => !(await wb.activeTabDirty()));
  await wb.goTo(1, 1);
  const cleanMenu = await wb.quickFixMenuUntil("the BOM's disk fix after undo", (rows) => rows.some(isBomFix));
  await wb.shot("5-quickfix-clean");
  const title = cleanMenu.find(isBomFix);
  check(fs.readFileSync(file)[0] === 0xef, "data.json lost its BOM before the fix was applied");
  await wb.pickQuickFix(title);
  const bytes = await until("data.json on disk without its BOM", () => {
    const b = fs.readFileSync(file);
    return b[0] !== 0xef ? b : false;
  });
  check(bytes.equals(FIXTURES["data.json"].subarray(3)), `data.json after the fix: ${hex(bytes)}`);
  // VS Code reloads the file it had open, and shows the encoding it now has.
  await until("the status bar to say UTF-8 after the reload", async () => (await wb.statusText("status.editor.encoding")) === "UTF-8");
  check(!(await wb.activeTabDirty()), "the editor has unsaved changes after the disk fix");
  await until("the U003 row to leave the Problems panel", async () => !(await wb.problemRows()).some(([a]) => a.includes("byte-order mark")));
  await wb.shot("6-bom-fixed");
  return { before, dirtyMenu, cleanMenu, title };
}

/** The in-editor fix of a stray U+FEFF, saved: no EF BB BF left on disk. */
async function feffFix(wb, file) {
  const page = wb.page;
  await wb.open("feff.txt");
  await wb.goTo(1, 6);
  const isTextFix = (t) => t.includes("U+2060") && !t.includes(DISK_FIX_MARK);
  const menu = await wb.quickFixMenuUntil("the in-editor fix replacing U+FEFF with U+2060", (rows) => rows.some(isTextFix));
  await wb.shot("7-quickfix-feff");
  const title = menu.find(isTextFix);
  await wb.pickQuickFix(title);
  await until("the tab to show the fixed, unsaved text", () => wb.activeTabDirty());
  await page.keyboard.press("Control+S");
  await until("the tab to be saved", async () => !(await wb.activeTabDirty()));
  const bytes = await until("feff.txt rewritten on disk", () => {
    const b = fs.readFileSync(file);
    return b.equals(FIXTURES["feff.txt"]) ? false : b;
  });
  check(bytes.indexOf(Buffer.from([0xef, 0xbb, 0xbf])) < 0, `feff.txt still holds EF BB BF: ${hex(bytes)}`);
  check(bytes.equals(Buffer.from("hello\u2060world\n")), `feff.txt after the fix: ${hex(bytes)}`);
  await until("feff.txt's U002 row to leave the Problems panel", async () => !(await wb.problemRowsOf("feff.txt")).some(([a]) => a.includes("U+FEFF")));
  await wb.shot("8-feff-fixed");
  return { menu, title };
}

/**
 * A Latin-1 file opened in the editor: VS Code shows each invalid byte as
 * U+FFFD, which is its own decoding, not bytes lost on disk. The rows are
 * the verdict (U005) and the warning that saving would replace the bytes
 * (U001), never U007.
 */
async function latin1Open(wb) {
  await wb.open("latin1.txt");
  const rows = await wb.problemsFor("latin1.txt", "the open Latin-1 file's findings (the save warning)", (r) =>
    r.some(([aria]) => aria.includes("saving from this editor will replace the 11 invalid bytes")),
  );
  check(rows.some(([, text]) => text.includes("U005")), `latin1.txt has no U005 row: ${JSON.stringify(rows)}`);
  check(!rows.some(([, text]) => text.includes("U007")), `latin1.txt has U007 rows for the editor's own U+FFFD: ${JSON.stringify(rows)}`);
  check(rows.length === 2, `latin1.txt rows: ${JSON.stringify(rows)}`);
  await wb.shot("9-latin1-open");
  return rows;
}

/**
 * Ctrl+. on a U+FEFF in Python offers the allow actions and fix-all; "Allow
 * on this line" inserts the trailing comment, which silences that finding
 * at once and, saved, on disk; "Fix all" fixes the other two.
 */
async function allowAndFixAll(wb, file) {
  const page = wb.page;
  await wb.open("join.py");
  await wb.goTo(1, 7);
  const wanted = ["Allow `stray_feff` on this line", "Allow `stray_feff` in this file", "Fix all `stray_feff` findings in this file"];
  const menu = await wb.quickFixMenuUntil("the allow and fix-all actions", (rows) => wanted.every((w) => rows.some((t) => t.includes(w))));
  await wb.shot("10-quickfix-allow");
  // In a string literal the finding's own fix is the literal's escape.
  check(menu.some((t) => t.includes("\\uFEFF")), `the finding's own fix is missing beside the allow actions: ${JSON.stringify(menu)}`);
  await wb.pickQuickFix(wanted[0]);
  await until("the tab to show the inserted comment, unsaved", () => wb.activeTabDirty());
  // Silenced before saving: two rows left, lines 2 and 3.
  const rows = await wb.problemsFor("join.py", "line 1's finding to leave the Problems panel", (r) => r.length === 2);
  check(rows.every(([aria]) => !/at line 1 /.test(aria)), `join.py rows after allow: ${JSON.stringify(rows)}`);
  await page.keyboard.press("Control+S");
  await until("the tab to be saved", async () => !(await wb.activeTabDirty()));
  const allowed = await until("join.py with the comment on disk", () => {
    const text = fs.readFileSync(file, "utf8");
    return text.includes("utf8lint") ? text : false;
  });
  check(
    allowed === "x = 'a\u{feff}b'  # utf8lint: allow(stray_feff)\ny = 'c\u{feff}d'\nz = 'e\u{feff}f'\n",
    `join.py after the allow action: ${JSON.stringify(allowed)}`,
  );
  // Fix all of the kind, from line 2.
  await wb.goTo(2, 7);
  await wb.quickFixMenuUntil("fix-all on line 2", (r) => r.some((t) => t.includes(wanted[2])));
  await wb.pickQuickFix(wanted[2]);
  await until("the tab to show the fixed, unsaved text", () => wb.activeTabDirty());
  await page.keyboard.press("Control+S");
  await until("the tab to be saved", async () => !(await wb.activeTabDirty()));
  const fixed = await until("join.py fixed on disk", () => {
    const text = fs.readFileSync(file, "utf8");
    return text.includes("\\uFEFF") ? text : false;
  });
  check(
    fixed === "x = 'a\u{feff}b'  # utf8lint: allow(stray_feff)\ny = 'c\\uFEFFd'\nz = 'e\\uFEFFf'\n",
    `join.py after fix-all: ${JSON.stringify(fixed)}`,
  );
  await wb.problemsFor("join.py", "join.py to leave the Problems panel", (r) => r.length === 0);
  await wb.shot("11-fix-all");
  return { menu, allowed, fixed };
}

/** Opens `name`, saves it with Ctrl+S (clean or not) and returns its bytes after the save. */
async function saveAndRead(wb, file) {
  await wb.page.keyboard.press("Control+S");
  await until("the tab to be saved", async () => !(await wb.activeTabDirty()));
  // A save is written asynchronously: give one the time to land before the
  // bytes are compared (the comparison, not the time, is the check).
  await new Promise((r) => setTimeout(r, 2000));
  return fs.readFileSync(file);
}

/**
 * The allow actions on a Latin-1 file, which VS Code holds as U+FFFD for
 * every accented letter: each one leaves the buffer alone and writes the
 * comment into the file on disk, between its own bytes; VS Code reloads
 * it, the finding goes and the comment is no unused suppression. Then the
 * user saves. VS Code writes its text on Ctrl+S even when the buffer is
 * unmodified, so a save of the same file with no action at all is the
 * baseline: the action must not make the save lose anything the baseline
 * keeps. Each file is created now (the workspace scan's counts above stay).
 */
async function legacyAllow(wb, workspace) {
  const disk = Buffer.from('msgid "café"\nmsgstr "déjà vu"\n', "latin1");
  const comment = (text) => Buffer.from(`# utf8lint: ${text}\n`);
  // What a save writes for `bytes` as VS Code decodes them (lossy UTF-8).
  const lossy = (bytes) => Buffer.from(bytes.toString("utf8"), "utf8");
  const baselineFile = path.join(workspace, "untouched.po");
  // All three at once, and opened once the Explorer lists them.
  for (const name of ["untouched.po", "line.po", "file.po"]) fs.writeFileSync(path.join(workspace, name), disk);
  for (const name of ["untouched.po", "line.po", "file.po"]) {
    await wb.page.locator(`.explorer-folders-view .monaco-list-row[aria-label="${name}"]`).waitFor({ timeout: TIMEOUT });
  }
  // Opened from the Explorer: Quick Open's file search can lag behind
  // files created while VS Code runs.
  const openListed = async (name) => {
    await wb.page.locator(`.explorer-folders-view .monaco-list-row[aria-label="${name}"]`).dblclick();
    await wb.page.locator(".tabs-container .tab.active", { hasText: name }).waitFor({ timeout: TIMEOUT });
    await wb.page.locator(".editor-instance .monaco-editor.focused").waitFor({ timeout: TIMEOUT });
  };
  await openListed("untouched.po");
  const baseline = await saveAndRead(wb, baselineFile);
  const saveKeepsBytes = baseline.equals(disk);
  check(saveKeepsBytes || baseline.equals(lossy(disk)), `untouched.po after a plain save: ${hex(baseline)}`);
  const cases = [
    ["line.po", "Allow `not_utf8` on this line", Buffer.concat([comment("allow(not_utf8)"), disk])],
    ["file.po", "Allow `not_utf8` in this file", Buffer.concat([comment("file-allow(not_utf8)"), disk])],
  ];
  const seen = { baseline: { saveKeepsBytes, bytes: hex(baseline) } };
  for (const [name, action, want] of cases) {
    const file = path.join(workspace, name);
    await openListed(name);
    // On the `é` of line 1, inside the U005 finding.
    await wb.goTo(1, 11);
    const title = `${action} (${DISK_FIX_MARK}`;
    const menu = await wb.quickFixMenuUntil(`${action} on ${name}, on disk`, (rows) => rows.some((t) => t.includes(title)));
    check(!menu.some((t) => t.includes(action) && !t.includes(DISK_FIX_MARK)), `${name}: an allow action that edits the buffer: ${JSON.stringify(menu)}`);
    await wb.shot(`12-legacy-allow-${name}`);
    await wb.pickQuickFix(title);
    const written = await until(`${name} with the comment on disk`, () => {
      const b = fs.readFileSync(file);
      return b.equals(disk) ? false : b;
    });
    check(written.equals(want), `${name} after ${action}: ${hex(written)}`);
    check(!(await wb.activeTabDirty()), `${name}: the allow action made the buffer dirty`);
    await wb.problemsFor(name, `${name}'s U005 to leave the Problems panel`, (r) => !r.some(([, text]) => text.includes("U005")));
    const rows = await wb.problemRowsOf(name);
    check(!rows.some(([, text]) => text.includes("U015")), `${name}: ${JSON.stringify(rows)}`);
    // The user saves: the action's bytes, as the baseline's save keeps them.
    const saved = await saveAndRead(wb, file);
    const expected = saveKeepsBytes ? want : lossy(want);
    check(saved.equals(expected), `${name} after saving: ${hex(saved)}, expected ${hex(expected)}`);
    seen[name] = { menu, title, written: hex(written), saved: hex(saved) };
  }
  if (!saveKeepsBytes) {
    console.log("NOTICE: VS Code's Ctrl+S on an unmodified Latin-1 buffer writes U+FFFD for its bytes, with or without any utf8lint action");
  }
  await wb.shot("13-legacy-allow-saved");
  return seen;
}

/**
 * A bidi control typed into a clean file is in the Problems panel before
 * any save (the server checks the buffer as typed), while the file on disk
 * is untouched; undone, the row goes and the tab is clean again.
 */
async function typedBidi(wb, file) {
  const page = wb.page;
  await wb.open("clean.txt");
  await wb.goTo(1, 4);
  await page.keyboard.insertText("\u202E");
  await until("the tab to show the typed control, unsaved", () => wb.activeTabDirty());
  // The panel lists every file's problems and renders only the rows in
  // view: it is filtered to this file's while they are read.
  const filter = page.getByPlaceholder("Filter (e.g.", { exact: false }).first();
  const onlyThisFile = async (what, wanted) => {
    await filter.fill("**/clean.txt");
    try {
      return await wb.problemsFor("clean.txt", what, wanted);
    } finally {
      await filter.fill("");
    }
  };
  const rows = await onlyThisFile("the typed U+202E in the Problems panel, before a save", (r) =>
    r.some(([, text]) => text.includes("U010")),
  );
  const disk = fs.readFileSync(file);
  check(disk.equals(FIXTURES["clean.txt"]), `clean.txt changed on disk before a save: ${hex(disk)}`);
  await wb.shot("14-typed-bidi");
  await wb.open("clean.txt");
  await page.keyboard.press("Control+Z");
  await until("the tab to be clean after undo", async () => !(await wb.activeTabDirty()));
  await onlyThisFile("the undone U+202E to leave the Problems panel", (r) => r.length === 0);
  return rows;
}

// --------------------------------------------------------------------- main

async function main() {
  const { vsix, out } = parseArgs(process.argv.slice(2));
  check(fs.existsSync(vsix), `no extension at ${vsix}`);
  check(fs.existsSync(CHROMIUM), `no Chromium at ${CHROMIUM} (Debian: apt-get install chromium; or set UTF8LINT_E2E_CHROMIUM)`);
  const codeServer = path.join(here, "node_modules", ".bin", "code-server");
  check(fs.existsSync(codeServer), `no code-server in ${here}/node_modules: run install.sh`);
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });

  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "utf8lint-e2e-"));
  const dir = (name) => {
    const d = path.join(scratch, name);
    fs.mkdirSync(d, { recursive: true });
    return d;
  };
  const home = dir("home");
  const userData = dir("user-data");
  const extensions = dir("extensions");
  const workspace = dir("workspace");
  const profile = dir("chromium-profile");
  for (const [name, bytes] of Object.entries(FIXTURES)) fs.writeFileSync(path.join(workspace, name), bytes);
  fs.mkdirSync(path.join(userData, "User"), { recursive: true });
  fs.writeFileSync(
    path.join(userData, "User", "settings.json"),
    JSON.stringify(
      {
        // The browser build saves after a delay by default; the dirty-buffer step needs unsaved text.
        "files.autoSave": "off",
        "workbench.startupEditor": "none",
        "security.workspace.trust.enabled": false,
        "extensions.autoCheckUpdates": false,
        "extensions.autoUpdate": false,
        "workbench.tips.enabled": false,
        "telemetry.telemetryLevel": "off",
        "chat.commandCenter.enabled": false,
        "workbench.secondarySideBar.defaultVisibility": "hidden",
        // The LSP traffic, in the artefacts (logs/*/exthost1/output_logging_*/*utf8lint Trace.log).
        "utf8lint.trace.server": "verbose",
      },
      null,
      2,
    ),
  );

  // Nothing from the real home, and no utf8lint but the bundled one.
  const env = {
    PATH: pathWithoutUtf8lint(process.env.PATH),
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, ".config"),
    XDG_DATA_HOME: path.join(home, ".local", "share"),
    XDG_CACHE_HOME: path.join(home, ".cache"),
    TMPDIR: os.tmpdir(),
    LANG: "C.UTF-8",
  };
  const common = ["--user-data-dir", userData, "--extensions-dir", extensions];

  // "4.100.3 <commit> with Code 1.100.3": the first line names both versions.
  const version = execFileSync(codeServer, ["--version"], { env, encoding: "utf8", timeout: 60_000 }).trim().split("\n").pop();
  const installed = execFileSync(codeServer, [...common, "--install-extension", vsix], { env, encoding: "utf8", timeout: 120_000 });
  check(/was successfully installed/.test(installed), `installing ${vsix}:\n${installed}`);

  const server = startCodeServer(codeServer, common, workspace, env);
  let context;
  let wb;
  const report = { ok: false, steps: {} };
  try {
    const url = await server.url;
    const health = await fetch(`${url}/healthz`);
    check(health.ok, `${url}/healthz answered ${health.status}`);
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      // Tall enough for the Problems panel (a third of the window) to show
      // every row at once: its list renders only the rows in view.
      viewport: { width: 1280, height: 1400 },
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    const page = context.pages()[0] ?? (await context.newPage());
    wb = new Workbench(page, out);
    await page.goto(`${url}/?folder=${encodeURIComponent(workspace)}`);
    await page.locator(".monaco-workbench").waitFor({ timeout: 60_000 });

    report.steps.explorer = await explorerBadges(wb);
    // The server running is the bundled one, found with no setting and nothing on PATH.
    const servers = await until("the bundled utf8lint to run", () => {
      const p = processesUnder(extensions).filter((x) => path.basename(x.exe) === "utf8lint");
      return p.length ? p : false;
    });
    check(servers.every((s) => s.exe.endsWith(path.join("bundled", "utf8lint"))), `the server runs from ${JSON.stringify(servers)}`);
    report.steps.server = servers.map((s) => path.relative(extensions, s.exe));
    report.steps.problems = await problemsPanel(wb, out);
    report.steps.hover = await hover(wb);
    report.steps.bom = await bomFix(wb, path.join(workspace, "data.json"));
    report.steps.feff = await feffFix(wb, path.join(workspace, "feff.txt"));
    report.steps.latin1 = await latin1Open(wb);
    report.steps.legacyAllow = await legacyAllow(wb, workspace);
    report.steps.allow = await allowAndFixAll(wb, path.join(workspace, "join.py"));
    report.steps.typedBidi = await typedBidi(wb, path.join(workspace, "clean.txt"));
    report.ok = true;
  } catch (err) {
    report.error = err instanceof Error ? err.stack ?? err.message : String(err);
    if (wb) await wb.shot("failure").catch(() => undefined);
    throw err;
  } finally {
    fs.writeFileSync(path.join(out, "report.json"), JSON.stringify(report, null, 2) + "\n");
    if (context) await context.close().catch(() => undefined);
    stopCodeServer(server.child);
    fs.writeFileSync(path.join(out, "code-server.log"), server.log());
    // The editor's own logs, the utf8lint output channels among them.
    const logs = path.join(userData, "logs");
    if (fs.existsSync(logs)) fs.cpSync(logs, path.join(out, "logs"), { recursive: true });
    if (process.env.UTF8LINT_E2E_KEEP === "1") console.log(`kept ${scratch}`);
    else fs.rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`ok: the extension in code-server ${version}: Explorer badges, ${EXPECTED_PROBLEMS.length} Problems rows, hover, quick fixes (no disk fix on a dirty buffer), BOM fix on disk, U+FEFF fix saved, a Latin-1 file without U007, allow on this line, fix all of a kind, allow on a Latin-1 file written on disk and saved byte for byte, a typed U+202E shown before a save`);
  console.log(`artefacts: ${out}`);
}

main().catch((err) => {
  console.error(`vscode e2e FAILED: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});
