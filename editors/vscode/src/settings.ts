// The contributed `utf8lint.*` settings, mapped to what the server reads from
// `workspace/configuration` (section `utf8lint`): the keys of utf8lint.toml,
// plus `workspace-scan`. Pure, so it is unit-tested without VS Code.

/** The levels `[lints]` takes. */
export const LEVELS = ["allow", "warn", "deny"] as const;
export type Level = (typeof LEVELS)[number];

/** The policies `[bom]` takes. */
export const BOM_POLICIES = ["forbid", "allow", "require"] as const;
export type BomPolicy = (typeof BOM_POLICIES)[number];

/** The settings as VS Code holds them (`workspace.getConfiguration('utf8lint')`). */
export interface ExtensionSettings {
  lints?: unknown;
  bom?: unknown;
  maxPerFile?: unknown;
  workspaceScan?: unknown;
  // `path` and `trace.server` are the extension's own and not sent on.
  [other: string]: unknown;
}

/** What the server receives: utf8lint.toml's keys. */
export interface ServerSettings {
  lints?: Record<string, Level>;
  bom?: Record<string, BomPolicy>;
  "max-per-file"?: number;
  "workspace-scan"?: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function pickEnum<T extends string>(
  value: unknown,
  allowed: readonly T[],
  what: string,
  warnings: string[],
): Record<string, T> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) {
    warnings.push(`utf8lint.${what} must be an object; ignored`);
    return undefined;
  }
  const out: Record<string, T> = {};
  for (const [key, raw] of Object.entries(value)) {
    const v = typeof raw === "string" ? raw.trim().toLowerCase() : raw;
    if (typeof v === "string" && (allowed as readonly string[]).includes(v)) {
      out[key] = v as T;
    } else {
      warnings.push(
        `utf8lint.${what}: "${key}" must be ${allowed.map((a) => `"${a}"`).join(", ")}; got ${JSON.stringify(raw)}; ignored`,
      );
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Whether the user set a key (e.g. `workspaceScan`) at any level, rather than it holding its default. */
export type IsExplicit = (key: string) => boolean;

/**
 * Maps the extension's settings to the server's. Keys the user did not set
 * (empty objects, null) are left out so that utf8lint.toml and the server's
 * defaults apply. `workspaceScan` is sent only when the user set it
 * (`isExplicit`): its default, on, means "on under the server's size limit",
 * which the server applies when the key is absent, while an explicit `true`
 * scans a workspace of any size. Invalid entries are dropped and described in
 * `warnings`.
 */
export function toServerSettings(settings: ExtensionSettings | null | undefined, isExplicit?: IsExplicit): {
  settings: ServerSettings;
  warnings: string[];
} {
  const warnings: string[] = [];
  const out: ServerSettings = {};
  const s = settings ?? {};
  const lints = pickEnum(s.lints, LEVELS, "lints", warnings);
  if (lints) out.lints = lints;
  const bom = pickEnum(s.bom, BOM_POLICIES, "bom", warnings);
  if (bom) out.bom = bom;
  const max = s.maxPerFile;
  if (max !== undefined && max !== null) {
    if (typeof max === "number" && Number.isInteger(max) && max >= 0) {
      out["max-per-file"] = max;
    } else {
      warnings.push(`utf8lint.maxPerFile must be a whole number, 0 or more; got ${JSON.stringify(max)}; ignored`);
    }
  }
  const scan = s.workspaceScan;
  if (scan !== undefined && scan !== null && (isExplicit === undefined || isExplicit("workspaceScan"))) {
    if (typeof scan === "boolean") {
      out["workspace-scan"] = scan;
    } else {
      warnings.push(`utf8lint.workspaceScan must be true or false; got ${JSON.stringify(scan)}; ignored`);
    }
  }
  return { settings: out, warnings };
}

/** The configuration section the server asks for. */
export const SECTION = "utf8lint";

/**
 * Answers one `workspace/configuration` item: the mapped settings for section
 * `utf8lint`, and whatever VS Code answered for any other section.
 */
export function answerConfigurationItem(
  section: string | undefined,
  vscodeValue: unknown,
  isExplicit?: IsExplicit,
): unknown {
  if (section === SECTION) {
    return toServerSettings(isRecord(vscodeValue) ? vscodeValue : undefined, isExplicit).settings;
  }
  return vscodeValue;
}
