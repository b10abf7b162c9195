//! utf8lint's rules. Bytes, a path and a [`Policy`] go in; [`Diagnostic`]s
//! with byte spans into the original bytes, explanations and fixes come out.
//!
//! The crate does no I/O and knows nothing of the language server protocol:
//! the CLI and the language server both call [`check`] and nothing else to
//! decide what is wrong.
#![deny(missing_docs)]

mod candidates;
mod code_syntax;
mod control_bytes;
mod diagnostic;
mod errors;
mod fix;
mod level;
mod locate;
mod policy;
mod render;
mod rules;
mod scan;
mod shown;
mod sniff;
mod suppress;
mod text;
mod text_scan;

pub use diagnostic::Diagnostic;
pub use fix::{Applicability, Applied, Edit, Fix, apply_fixes, plan_fixes, write_fixes};
pub use level::Level;
pub use locate::{Locator, Position};
pub use policy::{
    BomPolicy, BomRule, Charset, DEFAULT_MAX_PER_RULE, LintLevels, Policy, PolicySource,
};
pub use render::{FixVia, RenderOptions, render_concise, render_human};
pub use rules::bom_formats::{BOM_FORMATS, BomFormat, FileName, SHEBANG, bom_format_of};
pub use rules::non_utf8_path::check_path;
pub use rules::replacement_character::diagnostic as replacement_character_diagnostic;
pub use rules::stray_feff::diagnostic as stray_feff_diagnostic;
pub use rules::{FixSafety, Fixability, Reads, Rule, Status};
pub use shown::{Keep, shown_per_rule};
pub use sniff::{BinaryEvidence, NoText, Sniff, Wide, WideForm, sniff};
pub use suppress::FILE_ALLOW_LINES;
pub use text::{escape_lossless, escape_shown, windows_1252_char};

use std::ops::Range;
use std::path::Path;

/// The text of U016's tables of the characters below U+0800, which
/// `utf8lint generate` writes to `rules/confusable/tables.rs`.
#[doc(hidden)]
pub fn confusable_tables_source() -> String {
    rules::confusable::tables_source()
}

/// What this crate's own integration tests, benches and examples (which
/// enable the `testing` feature) reach past the API for: the U005
/// verdict, its crate-private thresholds to pin from both sides, and the
/// absolute caps on what a report shows. Not an API.
#[cfg(feature = "testing")]
#[doc(hidden)]
pub mod testing {
    use crate::rules::not_utf8 as u005;

    use utf8lint_codec::Subpart;

    /// The U005 legacy verdict on `bytes` (see `legacy_verdict`): the
    /// name of the encoding it finds, if any.
    pub fn legacy_verdict(
        bytes: &[u8],
        error_count: usize,
        first_errors: &[Subpart],
    ) -> Option<&'static str> {
        u005::legacy_verdict(bytes, error_count, first_errors).map(|v| v.name)
    }

    /// See the constant of the same name in the cap.
    pub const MAX_SHOWN_PER_RULE: usize = crate::shown::MAX_SHOWN_PER_RULE;
    /// See the constant of the same name in the scan.
    pub const MAX_SHOWN_SEQUENCES: usize = crate::errors::MAX_SHOWN_SEQUENCES;

    /// See the constant of the same name in the sample.
    pub const MIN_LEGACY_NON_ASCII: usize = u005::MIN_LEGACY_NON_ASCII;
    /// See the constant of the same name in the verdict.
    pub const MIN_LEGACY_LETTER_PERCENT: usize = u005::MIN_LEGACY_LETTER_PERCENT;
    /// See the constant of the same name in the sniff.
    pub const MIN_BINARY_CONTROL_PERCENT: usize = crate::sniff::MIN_BINARY_CONTROL_PERCENT;
    /// See the constant of the same name in the sniff.
    pub const BINARY_SNIFF_BYTES: usize = crate::sniff::BINARY_SNIFF_BYTES;
    /// See the constant of the same name in the verdict.
    pub const MIN_ONE_SCRIPT_PERCENT: usize = u005::MIN_ONE_SCRIPT_PERCENT;
    /// See the constant of the same name in the sample.
    pub const LEGACY_SAMPLE_BYTES: usize = u005::LEGACY_SAMPLE_BYTES;
    /// See the constant of the same name in the sample.
    pub const LEGACY_SCAN_BYTES: usize = u005::LEGACY_SCAN_BYTES;
    /// See the constant of the same name in the detector.
    pub const MIN_DETECTOR_SCORE: i64 = u005::MIN_DETECTOR_SCORE;
    /// See the constant of the same name in the detector.
    pub const MIN_DETECTOR_MARGIN_PERCENT: i64 = u005::MIN_DETECTOR_MARGIN_PERCENT;
    /// See the constant of the same name in the verdict.
    pub const MAX_UTF8_LIKE_PERCENT: usize = u005::MAX_UTF8_LIKE_PERCENT;
    /// See the constant of the same name in the verdict.
    pub const MAX_UTF8_PER_ERROR: usize = u005::MAX_UTF8_PER_ERROR;

    /// Whether the detector's score identifies its guess over a rival.
    pub fn detector_identifies(score: i64, rival: Option<i64>) -> bool {
        u005::detector_identifies(score, rival)
    }
}

/// What [`check`] is asked about one file's bytes.
#[derive(Clone, Copy, Debug)]
pub struct CheckOptions<'a> {
    /// The file's path: it picks the built-in BOM rule when the policy has
    /// none (JSON, `.php`, ...); it is never opened.
    pub path: &'a Path,
    /// What the rules check.
    pub policy: &'a Policy,
    /// Which findings are kept: [`Keep::Shown`] for a report,
    /// [`Keep::Fixes`] for applying every fix in one run, [`Keep::Every`]
    /// for a baseline or a chosen alternative.
    pub keep: Keep,
    /// The caller's [`sniff`] of these bytes said [`Sniff::Text`]: no
    /// binary signature and no UTF-16/32 form, which `check` then does not
    /// look for again.
    pub sniffed_text: bool,
}

impl<'a> CheckOptions<'a> {
    /// The options of a report on the file at `path` under `policy`
    /// ([`Keep::Shown`]).
    pub fn new(path: &'a Path, policy: &'a Policy) -> Self {
        CheckOptions {
            path,
            policy,
            keep: Keep::Shown,
            sniffed_text: false,
        }
    }

    /// The same options, keeping what `keep` says.
    pub fn keeping(self, keep: Keep) -> Self {
        CheckOptions { keep, ..self }
    }

    /// The same options, for bytes that [`sniff`] called [`Sniff::Text`].
    pub fn sniffed_as_text(self) -> Self {
        CheckOptions {
            sniffed_text: true,
            ..self
        }
    }
}

/// Checks one file's bytes: the one entry to the rules, for both front
/// ends.
///
/// One pass over the bytes finds every ill-formed sequence, every U+FEFF
/// and the characters of the text rules; the whole-file rules then decide
/// from what it found. A file with ill-formed sequences is first judged by
/// U005 on a count of those alone: legacy text gets its one finding without
/// the per-byte pass whose findings it would replace. Diagnostics come out
/// in byte order. With [`Keep::Shown`], at most
/// [`shown_per_rule`]`(policy.max_per_rule)` per rule (never more than
/// 10,000, even when `max_per_rule` is 0), then one summary per rule with
/// the exact count of the rest; with [`Keep::Every`], every finding with
/// no cap and no summary (not for display: its size grows with the file's
/// findings); with [`Keep::Fixes`], every finding stripped to what fixing
/// needs, each rule's merged as they are found.
///
/// Inline suppressions (`utf8lint: allow(rule)` trailing on a finding's
/// line or alone on the line before, `utf8lint: file-allow(rule)` in the
/// first lines) are applied here, so every front end honours them; a
/// suppression that does nothing is reported as [`Rule::UnusedSuppression`].
pub fn check(bytes: &[u8], options: CheckOptions<'_>) -> Vec<Diagnostic> {
    let CheckOptions {
        path,
        policy,
        keep,
        sniffed_text,
    } = options;
    let (mut found, summaries, directives) =
        check_unsuppressed(bytes, path, policy, keep, sniffed_text);
    // What each fix may touch, by the file's path and the finding's place.
    rules::fix_scope::settle(path, &mut found);
    rules::text_chars::scope_non_ascii_fixes(bytes, path, &mut found);
    match suppress::Suppressions::find_in(bytes, directives.as_deref()) {
        None => found,
        // A suppression covers single findings, which merging lost: the
        // file is checked again with every finding whole, then merged.
        Some(_) if keep == Keep::Fixes => {
            let every = check(bytes, options.keeping(Keep::Every));
            let mut merged = Vec::with_capacity(every.len().min(1024));
            for d in every {
                shown::keep_merged(&mut merged, d);
            }
            merged
        }
        Some(suppressions) => {
            let cap = match keep {
                Keep::Shown => shown_per_rule(policy.max_per_rule),
                Keep::Every | Keep::Fixes => 0,
            };
            suppressions.apply(
                bytes,
                found,
                summaries,
                policy.levels.get(Rule::UnusedSuppression),
                cap,
            )
        }
    }
}

/// For each `(rule, byte offset)`, whether an inline suppression in
/// `bytes` covers a finding of that rule starting there: for findings a
/// front end makes itself (the language server's U+FEFF and U+FFFD in an
/// editor's unsaved text), which [`check`] never sees.
pub fn suppressed(bytes: &[u8], findings: &[(Rule, usize)]) -> Vec<bool> {
    suppress::Suppressions::covered(bytes, findings)
}

/// Every finding, before inline suppressions; how many of the last ones are
/// per-rule summaries of findings not shown; and, when the one pass over
/// the bytes found them, the only blocks where a suppression's marker may
/// be (`None`: anywhere).
fn check_unsuppressed(
    bytes: &[u8],
    path: &Path,
    policy: &Policy,
    keep: Keep,
    sniffed_text: bool,
) -> (Vec<Diagnostic>, usize, Option<Vec<Range<usize>>>) {
    let levels = &policy.levels;
    let mismatch = levels.get(Rule::CharsetMismatch);
    if matches!(policy.charset, Charset::Other { .. }) {
        // The project says this file is not meant to be UTF-8: no UTF-8
        // rule applies, unless its bytes contradict that declaration.
        let evidence = rules::charset_mismatch::Evidence {
            valid: utf8lint_codec::is_valid(bytes),
            errors: 0,
            first_error: None,
            legacy: None,
            detected: None,
        };
        return (
            rules::charset_mismatch::check(bytes, path, &policy.charset, mismatch, &evidence),
            0,
            None,
        );
    }
    let not_utf8 = levels.get(Rule::NotUtf8);
    // With U005 allowed, a UTF-16/32 file is so on purpose, and its bytes
    // read as UTF-8 get no finding either.
    let on = not_utf8 != Level::Allow;
    if let Some(form) = sniff::wrong_bom(bytes) {
        let d = on.then(|| rules::not_utf8::wrong_bom_diagnostic(bytes, form, not_utf8));
        return (d.into_iter().collect(), 0, None);
    }
    // Text to the sniff is neither UTF-16 nor UTF-32 (its test is this one).
    if let Some(wide) = (!sniffed_text).then(|| sniff::wide(bytes)).flatten() {
        let d = on.then(|| rules::not_utf8::wide_diagnostic(bytes, path, wide, not_utf8));
        return (d.into_iter().collect(), 0, None);
    }
    let scan = match scan::scan_valid(bytes, path, policy, keep) {
        Some(scan) => scan,
        None => {
            // U005 first, on the first ill-formed sequences and a sample:
            // for a legacy file it replaces every finding the full pass
            // would make, at a fraction of that pass's cost.
            // Asked even when U005 is allowed: allowing it says the file is
            // legacy on purpose, and its bytes read as UTF-8 (one U001 per
            // byte, characters that are not there) say nothing either.
            if let Some((d, errors, detected)) = rules::not_utf8::legacy_finding(
                bytes,
                path,
                not_utf8,
                match keep {
                    Keep::Shown => shown_per_rule(policy.max_per_rule),
                    Keep::Every | Keep::Fixes => 0,
                },
            ) {
                // A declaration that says UTF-8 is still contradicted (U009,
                // whose fix names what the bytes are).
                let evidence = rules::charset_mismatch::Evidence {
                    valid: false,
                    errors: errors.count,
                    first_error: errors.first.first().map(|s| s.range()),
                    legacy: d.fix.as_ref().and_then(Fix::transcoded_from),
                    detected,
                };
                let declared = rules::charset_mismatch::check(
                    bytes,
                    path,
                    &policy.charset,
                    mismatch,
                    &evidence,
                );
                let d = (not_utf8 != Level::Allow).then_some(d);
                return (d.into_iter().chain(declared).collect(), 0, None);
            }
            scan::scan_with_errors(bytes, path, policy, keep)
        }
    };
    let evidence = rules::charset_mismatch::Evidence {
        valid: scan.errors.count == 0,
        errors: scan.errors.count,
        first_error: scan.errors.first.first().map(|s| s.range()),
        legacy: None,
        detected: None,
    };
    let mut out = scan.diagnostics;
    let mut summaries = scan.summaries;
    let text = scan.text;
    if text.iso_2022_escape
        && not_utf8 != Level::Allow
        && scan.errors.count == 0
        && let Some(d) = rules::not_utf8::iso_2022_jp_diagnostic(bytes, path, not_utf8)
    {
        return (vec![d], 0, None);
    }
    out.extend(text.diagnostics);
    summaries.extend(text.summaries);
    if let Some(d) = rules::bom::check(
        bytes,
        path,
        policy,
        levels.get(Rule::ForbiddenBom),
        levels.get(Rule::MissingBom),
        scan.errors.count == 0,
    ) {
        out.insert(0, d);
    }
    out.extend(rules::charset_mismatch::check(
        bytes,
        path,
        &policy.charset,
        mismatch,
        &evidence,
    ));
    let shown = keep.cap(policy.max_per_rule);
    // Where the scan looked, the blocks that hold a non-ASCII byte: none in
    // an ASCII file, which U017 and U018 then do not read.
    let non_ascii = scan.non_ascii.as_deref();
    if scan.errors.count == 0 {
        rules::lookalike_punctuation::check(
            bytes,
            path,
            non_ascii,
            levels.get(Rule::LookalikePunctuation),
            shown,
            &mut out,
            &mut summaries,
        );
    }
    if !non_ascii.is_some_and(<[_]>::is_empty) {
        rules::hidden_payload::check(
            bytes,
            path,
            non_ascii,
            scan.text_candidates.as_deref(),
            policy.agent_instructions,
            levels.get(Rule::HiddenPayload),
            shown,
            &mut out,
            &mut summaries,
        );
    }
    out.sort_by_key(|d| (d.span.start, d.rule));
    let count = summaries.len();
    out.extend(summaries);
    (out, count, scan.directives)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Keep::Fixes` keeps one merged finding per rule's run, counting
    /// them all and holding all their edits, and the same fixes as
    /// `Keep::Every`; a suppressed finding stays out of it.
    #[test]
    fn fixes_are_kept_merged_with_their_count() {
        let policy = Policy::default();
        let options = CheckOptions::new(Path::new("a.txt"), &policy);
        let bytes = "a\u{FEFF}".repeat(1000).into_bytes();
        let merged = check(&bytes, options.keeping(Keep::Fixes));
        let every = check(&bytes, options.keeping(Keep::Every));
        assert_eq!(every.len(), 1000);
        assert_eq!(merged.len(), 1, "{merged:?}");
        assert_eq!(merged[0].findings, 1000);
        assert!(merged[0].message.is_empty() && merged[0].notes.is_empty());
        let edits = |found: &[Diagnostic]| -> Vec<Edit> {
            found
                .iter()
                .flat_map(|d| d.fix.iter().flat_map(|f| f.edits().iter().cloned()))
                .collect()
        };
        assert_eq!(edits(&merged), edits(&every));

        let suppressed = "a\u{FEFF}b // utf8lint: allow(stray_feff)\nc\u{FEFF}d\ne\u{FEFF}f\n";
        let merged = check(suppressed.as_bytes(), options.keeping(Keep::Fixes));
        let counted: usize = merged
            .iter()
            .filter(|d| d.rule == Rule::StrayFeff)
            .map(|d| d.findings)
            .sum();
        assert_eq!(counted, 2, "{merged:?}");
        assert_eq!(edits(&merged).len(), 2);
    }

    /// Bytes the sniff calls text get the same findings whether or not
    /// `check` is told so: a UTF-16 mark before UTF-8 text among them.
    #[test]
    fn text_to_the_sniff_is_checked_the_same_when_told_so() {
        let policy = Policy::default();
        let path = Path::new("a.txt");
        let cases: [&[u8]; 7] = [
            b"",
            b"plain ascii\n",
            b"caf\xE9 cr\xE8me br\xFBl\xE9e, d\xE9j\xE0 vu\n",
            b"\xFF\xFEcaf\xC3\xA9\n",
            b"a\x01b\x02c text with a few controls and more text after them\n",
            "bidi \u{202E}x and \u{FEFF} stray\n".as_bytes(),
            b"\xEF\xBB\xBFbom then text\n",
        ];
        let mut texts = 0;
        for bytes in cases {
            if sniff(bytes) != Sniff::Text {
                continue;
            }
            texts += 1;
            let options = CheckOptions::new(path, &policy);
            assert_eq!(
                check(bytes, options.sniffed_as_text()),
                check(bytes, options),
                "{bytes:02X?}"
            );
        }
        assert_eq!(texts, cases.len());
        // A UTF-16 file is not text to the sniff, and is found as such.
        let wide = b"\xFF\xFEa\0b\0c\0\n\0";
        assert!(matches!(sniff(wide), Sniff::Wide(_)));
        let found = check(wide, CheckOptions::new(path, &policy));
        assert!(found.iter().any(|d| d.rule == Rule::NotUtf8), "{found:?}");
    }
}
