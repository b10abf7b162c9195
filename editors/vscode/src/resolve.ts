// Finding the `utf8lint` binary: the `utf8lint.path` setting, then the binary
// bundled in the extension, then `PATH`. Pure: every effect (the file system,
// the environment, the platform) comes in through `ResolveEnv`, so the order
// and the error messages are unit-tested without VS Code.

import * as path from "node:path";

/** Everything resolution reads from the outside world. */
export interface ResolveEnv {
  /** `process.platform`. */
  platform: NodeJS.Platform;
  /** The environment (`PATH`, `PATHEXT`, `HOME`/`USERPROFILE`). */
  env: Record<string, string | undefined>;
  /** Whether `file` exists and is a file the user may execute. */
  isExecutable(file: string): boolean;
  /** The user's home directory, for `~`. */
  homeDir: string;
}

/** What the extension knows when it looks for the server. */
export interface ResolveInput {
  /** The `utf8lint.path` setting as configured (may be empty or null). */
  settingPath: string | null | undefined;
  /** The extension's install directory (`context.extensionPath`). */
  extensionPath: string;
  /** The first workspace folder, if any: `${workspaceFolder}` and relative paths. */
  workspaceFolder?: string;
}

/** Where the binary came from. */
export type BinarySource = "setting" | "bundled" | "path";

export type Resolution =
  | { ok: true; path: string; source: BinarySource }
  | { ok: false; kind: "setting-missing" | "not-found"; message: string };

/** `utf8lint` or `utf8lint.exe`. */
export function binaryName(platform: NodeJS.Platform): string {
  return platform === "win32" ? "utf8lint.exe" : "utf8lint";
}

/** The bundled binary's path: `<extension>/bundled/utf8lint[.exe]`. */
export function bundledPath(extensionPath: string, platform: NodeJS.Platform): string {
  return pathApi(platform).join(extensionPath, "bundled", binaryName(platform));
}

function pathApi(platform: NodeJS.Platform): typeof path.posix {
  return platform === "win32" ? path.win32 : path.posix;
}

/**
 * Expands `~`, `${userHome}`, `${workspaceFolder}` and `${env:NAME}` in the
 * setting, and makes a relative path absolute against the workspace folder.
 */
export function expandSettingPath(
  raw: string,
  input: Pick<ResolveInput, "workspaceFolder">,
  env: ResolveEnv,
): string {
  const p = pathApi(env.platform);
  let value = raw.trim();
  if (value === "~" || value.startsWith("~/") || value.startsWith("~\\")) {
    value = env.homeDir + value.slice(1);
  }
  value = value.replace(/\$\{(userHome|workspaceFolder|env:[^}]+)\}/g, (whole, name: string) => {
    if (name === "userHome") return env.homeDir;
    if (name === "workspaceFolder") return input.workspaceFolder ?? whole;
    return env.env[name.slice(4)] ?? "";
  });
  if (!p.isAbsolute(value) && input.workspaceFolder !== undefined) {
    value = p.join(input.workspaceFolder, value);
  }
  return p.normalize(value);
}

/** The `PATH` entries, split the platform's way; empty entries dropped. */
function pathEntries(env: ResolveEnv): string[] {
  const raw = env.platform === "win32" ? (env.env.PATH ?? env.env.Path ?? "") : (env.env.PATH ?? "");
  const sep = env.platform === "win32" ? ";" : ":";
  return raw
    .split(sep)
    .map((d) => d.trim().replace(/^"(.*)"$/, "$1"))
    .filter((d) => d.length > 0);
}

/** The first `utf8lint` on `PATH` (with `PATHEXT` on Windows), if any. */
export function findOnPath(env: ResolveEnv): string | undefined {
  const p = pathApi(env.platform);
  const names =
    env.platform === "win32"
      ? (env.env.PATHEXT ?? ".COM;.EXE;.BAT;.CMD")
          .split(";")
          .filter((e) => e.length > 0)
          .map((ext) => "utf8lint" + ext.toLowerCase())
      : ["utf8lint"];
  for (const dir of pathEntries(env)) {
    for (const name of names) {
      const candidate = p.join(dir, name);
      if (env.isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/** How to get a binary, said once for both error messages. */
export const INSTALL_HINT =
  "Install it with `cargo install --path .` in a utf8lint checkout (it lands in ~/.cargo/bin, which must be on PATH), " +
  "or set `utf8lint.path` to the binary.";

/**
 * Finds the server binary, in this order:
 * 1. the `utf8lint.path` setting (when set it must exist: no silent fallback),
 * 2. `bundled/utf8lint[.exe]` inside the extension,
 * 3. `utf8lint[.exe]` on `PATH`.
 */
export function resolveBinary(input: ResolveInput, env: ResolveEnv): Resolution {
  const setting = input.settingPath?.trim();
  if (setting) {
    const expanded = expandSettingPath(setting, input, env);
    if (env.isExecutable(expanded)) {
      return { ok: true, path: expanded, source: "setting" };
    }
    return {
      ok: false,
      kind: "setting-missing",
      message:
        `utf8lint: the \`utf8lint.path\` setting points to ${expanded}, which is not an executable file. ` +
        `Fix the path, or clear the setting to use the bundled binary or \`utf8lint\` on PATH.`,
    };
  }
  const bundled = bundledPath(input.extensionPath, env.platform);
  if (env.isExecutable(bundled)) {
    return { ok: true, path: bundled, source: "bundled" };
  }
  const onPath = findOnPath(env);
  if (onPath !== undefined) {
    return { ok: true, path: onPath, source: "path" };
  }
  return {
    ok: false,
    kind: "not-found",
    message:
      `utf8lint: cannot find the \`${binaryName(env.platform)}\` binary. Looked in: ` +
      `(1) the \`utf8lint.path\` setting (not set), ` +
      `(2) the binary bundled with the extension (${bundled}: absent), ` +
      `(3) PATH. ` +
      INSTALL_HINT,
  };
}
