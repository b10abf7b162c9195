//! The editor's text, for what it knows: the rules that read characters
//! (`Rule::reads`) check the text as typed, and their fixes are edits of
//! that text, made through the fix gate as every fix is; the rules that
//! read bytes keep coming from the file on disk (disk.rs), which only the
//! bytes can tell.
//!
//! The text stands for the file's characters only when the editor decoded
//! the file as UTF-8: a Latin-1 reading of a UTF-8 file, a legacy or
//! UTF-16 file, or a binary one keeps the disk's findings for every rule.
//! A file the editor cannot hold exactly (invalid bytes, a hidden
//! byte-order mark) keeps them too while the buffer is the file unchanged,
//! so that its fixes stay on disk, where they lose nothing; once the buffer
//! has edits of its own, its save writes the editor's text anyway.

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use ropey::Rope;
use utf8lint_diagnostics::{CheckOptions, Edit, Fix, Level, Policy, Reads, Rule, check};
use utf8lint_workspace::gate;

use crate::document::{DiskView, Document, Placed};
use crate::mapping::Decoding;

/// The largest text checked (16 MiB): as a file over the server's read
/// limit (disk.rs) is not read, a text over it is not checked whole.
const MAX_TEXT: usize = 16 << 20;

/// Whether the editor's text shows the file's characters: decoded as
/// UTF-8 (or there is no file), not binary, not another encoding.
fn shows_characters(doc: &Document) -> bool {
    if doc.rope.len_bytes() > MAX_TEXT {
        return false;
    }
    match &doc.disk {
        None => doc.path.is_none(),
        Some(disk) => disk.binary.is_none() && (disk.unreadable.is_some() || utf8_text(disk)),
    }
}

/// Whether the file on disk is UTF-8 text the editor read as UTF-8.
fn utf8_text(disk: &DiskView) -> bool {
    let legacy = disk.findings.iter().any(|p| p.diag.rule == Rule::NotUtf8);
    let decoded = match disk.matched {
        Some(m) => m.decoding != Decoding::Latin1,
        // Not matched (edited before the first read, or another charset):
        // the text is UTF-8 of the file's if the file is.
        None => disk.invalid_bytes == 0,
    };
    decoded && !legacy
}

/// Whether the character rules' findings come from the editor's text
/// rather than from the disk (see the module's words).
pub(crate) fn reads_text(doc: &Document) -> bool {
    shows_characters(doc)
        && (doc.dirty || !doc.disk.as_ref().is_some_and(DiskView::editor_cannot_hold))
}

/// Whether the text is the file's bytes exactly (valid UTF-8, nothing
/// stripped, line breaks as stored) and unedited since: a disk finding's
/// fix, planned on those bytes, is then an edit of the text as well.
pub(crate) fn text_is_the_bytes(doc: &Document) -> bool {
    !doc.dirty
        && shows_characters(doc)
        && doc.disk.as_ref().is_some_and(|d| {
            d.invalid_bytes == 0
                && d.unreadable.is_none()
                && d.matched.is_some_and(|m| !m.bom_stripped && !m.crlf_as_lf)
        })
}

/// The policy the text is checked under: the character rules at their
/// levels, every byte rule allowed (the text has no bytes of the file's
/// own, and U015 weighs the disk's findings too).
pub(crate) fn text_policy(policy: &Policy) -> Policy {
    let mut text = policy.clone();
    for &rule in Rule::ALL {
        if rule.reads() == Reads::Bytes {
            text.levels.set(rule, Level::Allow);
        }
    }
    text.bom = None;
    text
}

/// The text as one run of bytes, as the rules read a file.
pub(crate) fn text_bytes(rope: &Rope) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(rope.len_bytes());
    for chunk in rope.chunks() {
        bytes.extend_from_slice(chunk.as_bytes());
    }
    bytes
}

/// What the text is checked as: the file's path (its format, its kind of
/// code), or a name of no format for a document with no file.
pub(crate) fn check_path(path: Option<&Path>) -> &Path {
    path.unwrap_or(Path::new("untitled"))
}

/// Bytes of editors' text checked so far, in this process: what a test
/// counts to see that an edit costs one pass over the text, not more.
static CHECKED: AtomicU64 = AtomicU64::new(0);

/// See [`CHECKED`].
pub fn text_bytes_checked() -> u64 {
    CHECKED.load(Ordering::Relaxed)
}

/// The character rules' findings in the text under `policy` (the file's),
/// placed: character ranges of the rope.
pub(crate) fn check_text(rope: &Rope, path: Option<&Path>, policy: &Policy) -> Vec<Placed> {
    let bytes = text_bytes(rope);
    CHECKED.fetch_add(bytes.len() as u64, Ordering::Relaxed);
    let policy = text_policy(policy);
    let found = check(&bytes, CheckOptions::new(check_path(path), &policy));
    let len = bytes.len();
    found
        .into_iter()
        .filter(|d| d.rule.reads() == Reads::Characters)
        .map(|d| {
            let start = rope.byte_to_char(d.span.start.min(len));
            let end = rope.byte_to_char(d.span.end.min(len)).max(start);
            Placed {
                diag: Arc::new(d),
                range: Some(start..end),
            }
        })
        .collect()
}

/// Which rules a gate run on the text plans fixes for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rules {
    /// The character rules: findings of the text.
    Characters,
    /// Every rule: the text is the file's bytes (`text_is_the_bytes`),
    /// so the disk's findings are the text's.
    All,
}

/// An edit of the text: a byte range of it and what replaces it.
pub(crate) type TextChange = (Range<usize>, String);

/// The edits of the text that the fixes `select` names make, through the
/// gate (planned, applied and checked again, as `utf8lint check --fix`
/// would on the saved text). `Ok(None)`: nothing to fix. `Err`: the gate
/// refused, or the result is not one the editor's text can hold (a
/// byte-order mark, a conversion), with words for the log.
pub(crate) fn fix_text(
    bytes: &[u8],
    path: Option<&Path>,
    policy: &Policy,
    rules: Rules,
    select: &gate::Select,
) -> Result<Option<Vec<TextChange>>, String> {
    let policy = match rules {
        Rules::Characters => text_policy(policy),
        Rules::All => policy.clone(),
    };
    let request = gate::Request {
        path: check_path(path),
        policy: &policy,
        select,
        allow_binary: false,
        filter: None,
    };
    let fixed = gate::fix(bytes, &request).map_err(|why| why.to_string())?;
    if fixed.is_empty() {
        return Ok(None);
    }
    let changes = fixed
        .fix
        .edits()
        .iter()
        .map(|edit| text_change(bytes, edit))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Some(bounded(bytes, changes)))
}

/// At most this many edits go to the client in one action; more become
/// one edit over their stretch, so that the message grows with the text,
/// never with the number of findings.
pub(crate) const MAX_EDITS: usize = 100;

/// `changes` (sorted, apart), or past [`MAX_EDITS`] one change from the
/// first's start to the last's end, with the text between them kept.
fn bounded(bytes: &[u8], changes: Vec<TextChange>) -> Vec<TextChange> {
    let (Some(first), Some(last)) = (changes.first(), changes.last()) else {
        return changes;
    };
    if changes.len() <= MAX_EDITS {
        return changes;
    }
    let span = first.0.start..last.0.end;
    let mut text = String::with_capacity(span.len());
    let mut at = span.start;
    for (range, new) in &changes {
        // Between two edits the text is whole characters of valid UTF-8.
        text.push_str(&String::from_utf8_lossy(&bytes[at..range.start]));
        text.push_str(new);
        at = range.end;
    }
    vec![(span, text)]
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Whether a disk finding's fix may be an edit of a text that is the
/// file's bytes: it writes UTF-8 (no conversion) and no byte-order mark.
/// The gate's edits are checked again when the fix is asked for.
pub(crate) fn may_hold(rule: Rule, fix: &Fix) -> bool {
    !matches!(rule, Rule::ForbiddenBom | Rule::MissingBom)
        && fix.edits().iter().all(|e| {
            e.literal()
                .is_some_and(|l| !l.starts_with(BOM) && std::str::from_utf8(l).is_ok())
        })
}

/// One of the gate's edits as an edit of the text, if the text can hold
/// it: UTF-8 written between characters, and no byte-order mark written or
/// removed (editors hide a leading one: only the disk can change it).
fn text_change(bytes: &[u8], edit: &Edit) -> Result<TextChange, String> {
    let range = edit.range();
    let literal = edit
        .literal()
        .ok_or("a conversion of the whole file is made on disk")?;
    let touches_bom = range.start == 0
        && (literal.starts_with(BOM) || (bytes.starts_with(BOM) && !range.is_empty()));
    if touches_bom {
        return Err("a byte-order mark is written or removed on disk".into());
    }
    let on_boundaries = [range.start, range.end]
        .iter()
        .all(|&at| at <= bytes.len() && (at == bytes.len() || (bytes[at] as i8) >= -0x40));
    if !on_boundaries {
        return Err("the edit splits a character".into());
    }
    let text =
        std::str::from_utf8(literal).map_err(|_| "the edit writes bytes that are not UTF-8")?;
    Ok((range, text.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy() -> Policy {
        Policy::default()
    }

    #[test]
    fn the_text_gets_the_character_rules_only() {
        let rope = Rope::from_str("a \u{202E}b\n\u{FEFF}x \u{FFFD}\n");
        let found = check_text(&rope, Some(Path::new("/w/a.txt")), &policy());
        let rules: Vec<Rule> = found.iter().map(|p| p.diag.rule).collect();
        assert!(rules.contains(&Rule::BidiControl), "{rules:?}");
        assert!(rules.contains(&Rule::ReplacementCharacter), "{rules:?}");
        assert!(rules.iter().all(|r| r.reads() == Reads::Characters));
        let bidi = found
            .iter()
            .find(|p| p.diag.rule == Rule::BidiControl)
            .unwrap();
        assert_eq!(bidi.range, Some(2..3));
    }

    #[test]
    fn a_bidi_fix_is_an_edit_of_the_text() {
        let text = "let x = 1; // \u{202E}evil\n";
        let select = gate::Select::Rule(Rule::BidiControl);
        let changes = fix_text(
            text.as_bytes(),
            Some(Path::new("/w/a.rs")),
            &policy(),
            Rules::Characters,
            &select,
        )
        .unwrap()
        .unwrap();
        let mut fixed = text.to_owned();
        for (range, new) in changes.iter().rev() {
            fixed.replace_range(range.clone(), new);
        }
        assert!(!fixed.contains('\u{202E}'), "{fixed:?}");
    }

    /// xorshift64*: small, seeded, reproducible.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n as u64) as usize
        }
    }

    fn seen(found: &[Placed]) -> Vec<(Rule, Option<Range<usize>>, String)> {
        let mut out: Vec<_> = found
            .iter()
            .map(|p| (p.diag.rule, p.range.clone(), p.diag.message.clone()))
            .collect();
        out.sort_by(|a, b| {
            (a.1.as_ref().map(|r| (r.start, r.end)), a.0)
                .cmp(&(b.1.as_ref().map(|r| (r.start, r.end)), b.0))
        });
        out
    }

    /// Random edits over text made of what the character rules look at:
    /// after every edit the check is skipped for, the findings moved
    /// through it are those a check of the new text makes.
    #[test]
    fn an_edit_the_check_is_skipped_for_changes_no_finding() {
        const PIECES: [&str; 20] = [
            "word",
            " ",
            "x",
            "42",
            "\n",
            "\u{e9}",
            "\u{430}",
            "\u{202E}",
            "\u{FEFF}",
            "\"",
            "'",
            "#",
            "//",
            "\u{201C}hi\u{201D}",
            "\u{C3}\u{A9}",
            // Split, so that this file holds no suppression of its own.
            concat!("# utf8", "lint: allow(U010)"),
            "\u{200B}",
            "\u{FE0F}\u{FE0F}",
            "\u{A0}",
            "\t",
        ];
        let policy = policy();
        let path = Path::new("/w/a.py");
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let (mut skipped, mut checked) = (0, 0);
        for round in 0..80 {
            let mut text = String::from("#!/usr/bin/env python3\n# header\n");
            for _ in 0..rng.below(60) {
                text.push_str(PIECES[rng.below(PIECES.len())]);
            }
            let mut doc = Document::new("file:///w/a.py".parse().unwrap(), 1, &text);
            doc.text_findings = check_text(&doc.rope, Some(path), &policy);
            doc.text_checked = true;
            doc.text_stale = false;
            for step in 0..40 {
                let len = doc.rope.len_chars();
                let start = rng.below(len + 1);
                let end = (start + rng.below(3)).min(len);
                // Mostly what typing a word does, now and then anything.
                let new = if rng.below(3) == 0 {
                    PIECES[rng.below(PIECES.len())].to_owned()
                } else {
                    ["a", "b", " ", "7", ""][rng.below(5)].to_owned()
                };
                doc.edit(start, end, &new);
                let fresh = check_text(&doc.rope, Some(path), &policy);
                if doc.text_stale {
                    checked += 1;
                    doc.text_findings = fresh;
                    doc.text_stale = false;
                } else {
                    skipped += 1;
                    assert_eq!(
                        seen(&doc.text_findings),
                        seen(&fresh),
                        "round {round} step {step}: {:?}",
                        doc.rope.to_string()
                    );
                }
            }
        }
        // Both paths were taken, the skip often.
        assert!(
            skipped > 100 && checked > 200,
            "{skipped} skipped, {checked} checked"
        );
    }

    #[test]
    fn many_edits_become_one_over_their_stretch() {
        let text = "a\u{FEFF}b\n".repeat(MAX_EDITS + 1);
        let changes: Vec<TextChange> = (0..=MAX_EDITS)
            .map(|k| (k * 6 + 1..k * 6 + 4, String::new()))
            .collect();
        let one = bounded(text.as_bytes(), changes);
        assert_eq!(one.len(), 1);
        let (range, new) = &one[0];
        let mut fixed = text.clone();
        fixed.replace_range(range.clone(), new);
        assert_eq!(fixed, "ab\n".repeat(MAX_EDITS + 1));
    }

    #[test]
    fn a_byte_order_mark_is_never_an_edit() {
        let edit = Edit::delete(0..3);
        assert!(text_change(b"\xEF\xBB\xBFabc", &edit).is_err());
        let edit = Edit::insert(0, b"\xEF\xBB\xBF".to_vec());
        assert!(text_change(b"abc", &edit).is_err());
        let edit = Edit::replace(1..2, b"x".to_vec());
        assert_eq!(text_change(b"abc", &edit), Ok((1..2, "x".into())));
        // Inside a character: refused.
        let edit = Edit::delete(1..2);
        assert!(text_change("é".as_bytes(), &edit).is_err());
    }
}
