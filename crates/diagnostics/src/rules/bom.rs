//! U003 `forbidden_bom` and U004 `missing_bom`: the leading byte-order mark
//! against the policy, with the policy's source in the message.

use std::path::Path;

use crate::rules::bom_formats::{builtin_bom_rule, may_require_bom};
use crate::{BomPolicy, Diagnostic, Edit, Fix, Level, Policy, PolicySource, Rule};

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The BOM finding for the file at `path`, if any, by the rule `policy`
/// gives it. `valid` says whether the whole file is well-formed UTF-8 (then
/// stripping or adding the mark is safe).
pub(crate) fn check(
    bytes: &[u8],
    path: &Path,
    policy: &Policy,
    forbidden_level: Level,
    missing_level: Level,
    valid: bool,
) -> Option<Diagnostic> {
    let has_bom = bytes.starts_with(BOM);
    // Without a BOM only a `require` can find anything: a configured one,
    // or the table's for the few formats that need a mark. Most files skip
    // the format lookup (and the copy of the configured rule: `charset =
    // utf-8` in an `.editorconfig` forbids one for every file).
    if !has_bom
        && match &policy.bom {
            Some(rule) => !requires(rule.policy),
            None => !may_require_bom(path),
        }
    {
        return None;
    }
    let builtin = builtin_bom_rule(path, bytes);
    let configured = policy.bom.clone().unwrap_or_else(|| builtin.clone());
    // A `require` that does not name this file's format explicitly never
    // applies to a format that forbids a byte-order mark (`"*" = "require"`
    // must not break JSON, `#!` scripts or PHP): the format's rule does.
    let format_forbids = builtin.policy == BomPolicy::Forbid;
    let rule = &if requires(configured.policy)
        && format_forbids
        && !names_format(&configured.source, path)
    {
        builtin.clone()
    } else {
        configured
    };
    // `require-unless-ascii`: a file of ASCII alone reads the same in every
    // code page, with or without the mark.
    let required = match rule.policy {
        BomPolicy::Require => true,
        BomPolicy::RequireUnlessAscii => !bytes.is_ascii(),
        BomPolicy::Forbid | BomPolicy::Allow => false,
    };
    match rule.policy {
        BomPolicy::Forbid if has_bom && forbidden_level != Level::Allow => {
            let message = match &rule.source {
                PolicySource::Builtin { why, .. } => (*why).to_string(),
                PolicySource::Config { key, .. } => {
                    format!("utf8lint.toml forbids a byte-order mark for `{key}`")
                }
                PolicySource::EditorConfig { value, .. } => {
                    format!(
                        "`.editorconfig` says charset = {value}, which means no byte-order mark"
                    )
                }
                PolicySource::CommandLine { flag } => {
                    format!("a byte-order mark is forbidden here (`{flag}`)")
                }
            };
            let title = "remove the byte-order mark (the file gets 3 bytes shorter: its size, checksums and signatures change)";
            let fix = Fix::new(
                if valid {
                    crate::Applicability::Safe
                } else {
                    crate::Applicability::Unsafe
                },
                title,
                vec![Edit::delete(0..BOM.len())],
            );
            let mut d = Diagnostic::new(Rule::ForbiddenBom, forbidden_level, 0..BOM.len(), message)
                .with_label("`\\xEF\\xBB\\xBF` byte-order mark")
                .with_note(format!("policy: {}", rule.source.describe()))
                .with_fix(fix);
            if let PolicySource::Builtin { format, .. } = rule.source
                && format == "JSON"
            {
                d.notes.push(
                        "RFC 8259 section 8.1: implementations MUST NOT add a byte order mark to JSON text"
                            .into(),
                    );
            }
            d.policy_source = Some(rule.source.clone());
            Some(d)
        }
        BomPolicy::Require | BomPolicy::RequireUnlessAscii
            if required && !has_bom && missing_level != Level::Allow =>
        {
            let message = match &rule.source {
                PolicySource::EditorConfig { value, .. } => {
                    format!(
                        "`.editorconfig` says charset = {value}, but the file has no byte-order mark"
                    )
                }
                PolicySource::Config { key, .. } => {
                    format!(
                        "utf8lint.toml requires a byte-order mark for `{key}`, but the file has none"
                    )
                }
                PolicySource::Builtin { why, .. } => {
                    format!("the file has no byte-order mark: {why}")
                }
                PolicySource::CommandLine { flag } => {
                    format!("a byte-order mark is required here (`{flag}`), but the file has none")
                }
            };
            // Named explicitly over a format that forbids one: reported,
            // but adding it is never safe (a `#!` script stops running,
            // JSON parsers reject it).
            let fix = Fix::new(
                if valid && !format_forbids {
                    crate::Applicability::Safe
                } else {
                    crate::Applicability::Unsafe
                },
                "add the byte-order mark `\\xEF\\xBB\\xBF` (the file gets 3 bytes longer)",
                vec![Edit::insert(0, BOM)],
            );
            let mut d = Diagnostic::new(Rule::MissingBom, missing_level, 0..0, message)
                .with_label("no byte-order mark here")
                .with_note(format!("policy: {}", rule.source.describe()))
                .with_fix(fix);
            if let PolicySource::Builtin { why, reference, .. } = builtin.source
                && format_forbids
            {
                d.notes.push(format!(
                    "but {why} ({reference}): adding one is an unsafe fix here"
                ));
            }
            d.policy_source = Some(rule.source.clone());
            Some(d)
        }
        _ => None,
    }
}

fn requires(policy: BomPolicy) -> bool {
    matches!(policy, BomPolicy::Require | BomPolicy::RequireUnlessAscii)
}

/// Whether the source of a `require` names `path`'s format explicitly: a
/// glob (or `.editorconfig` section) whose last component has no wildcard
/// (the file itself), or ends in the file's own extension (`*.json`).
/// Catch-alls (`*`, `**`, `scripts/*`, `*.{json,txt}`) do not: a project
/// that requires a BOM everywhere did not mean its JSON and its scripts.
fn names_format(source: &PolicySource, path: &Path) -> bool {
    let glob = match source {
        PolicySource::Config { key, .. } => key.as_str(),
        PolicySource::EditorConfig { section, .. } => {
            section.trim().trim_start_matches('[').trim_end_matches(']')
        }
        PolicySource::Builtin { .. } | PolicySource::CommandLine { .. } => return false,
    };
    let last = glob.rsplit('/').next().unwrap_or(glob);
    if !last.contains(['*', '?', '[', '{']) {
        return !last.is_empty();
    }
    let Some(ext) = path.extension().and_then(|e| e.to_str()) else {
        return false;
    };
    last.rsplit_once('.').is_some_and(|(_, suffix)| {
        !suffix.is_empty()
            && suffix.eq_ignore_ascii_case(ext)
            && !suffix.contains(['*', '?', '[', '{'])
    })
}
