//! From a document's state to LSP diagnostics (and hovers): disk findings
//! where they were placed, text-level findings for the U+FEFF and U+FFFD the
//! text holds, and the notes about the mapping itself.

use std::ops::Range;
use std::sync::Arc;

use ropey::Rope;
use tower_lsp::lsp_types::{self as lsp, CodeDescription, DiagnosticSeverity, NumberOrString, Url};
use utf8lint_diagnostics::{Applicability, Diagnostic, Level, Policy, Rule};

use crate::convert::{self, Encoding};
use crate::data::{DiskFix, FindingData, Origin, TextFix};
use crate::document::{DiskView, Document, Mark, Placed};
use crate::mapping::{Decoding, Match};

/// What building the diagnostics needs, copied out of the session's lock
/// (the rope and the findings are cheap to clone).
#[derive(Clone, Debug)]
pub(crate) struct Snapshot {
    /// The document.
    pub uri: Url,
    /// Its version.
    pub version: i32,
    /// Its text.
    pub rope: Rope,
    /// The negotiated position encoding.
    pub encoding: Encoding,
    /// The disk view, if the file was read.
    pub disk: Option<DiskView>,
    /// Marks not covered by a disk finding, at most `max_per_rule` of each kind.
    pub marks: Vec<Mark>,
    /// Raw bytes the client holds (transport repairs).
    pub raw_from_client: usize,
    /// The policy in force.
    pub policy: Policy,
    /// Whether the text is an editor's (so saving it means something).
    pub in_editor: bool,
    /// Raw-byte column corrections (see [`crate::convert::RawBytes`]).
    pub raw: Vec<(usize, u8)>,
}

impl Snapshot {
    /// Copies what is needed out of `doc`.
    pub(crate) fn of(doc: &Document, encoding: Encoding, policy: Policy) -> Snapshot {
        let covered: Vec<Range<usize>> = doc
            .disk
            .iter()
            .flat_map(|d| d.findings.iter().filter_map(|p| p.range.clone()))
            .filter(|r| !r.is_empty())
            .collect();
        // The cap and the absolute ceiling the disk findings have, so that
        // `max-per-file = 0` cannot make a keystroke cost the whole text.
        let cap = utf8lint_diagnostics::shown_per_rule(policy.max_per_rule);
        let (mut feff, mut fffd) = (0, 0);
        let mut marks = Vec::new();
        for m in &doc.marks {
            let counter = if m.ch == '\u{FEFF}' {
                &mut feff
            } else {
                &mut fffd
            };
            if *counter >= cap || covered.iter().any(|r| r.contains(&m.at)) {
                continue;
            }
            // The editor's own U+FFFD for bytes that are intact on disk:
            // what the disk holds there is reported by the disk findings
            // (U001, U005), never as lost bytes.
            if m.ch == '\u{FFFD}' && doc.disk.as_ref().is_some_and(|d| d.decoded_fffd(m.at)) {
                continue;
            }
            *counter += 1;
            marks.push(*m);
            if feff >= cap && fffd >= cap {
                break;
            }
        }
        Snapshot {
            uri: doc.uri.clone(),
            version: doc.version,
            rope: doc.rope.clone(),
            encoding,
            disk: doc.disk.clone(),
            marks,
            raw_from_client: doc.raw_from_client,
            policy,
            in_editor: true,
            raw: doc.raw().to_vec(),
        }
    }
}

/// One finding as the editor will see it.
#[derive(Clone, Debug)]
pub(crate) struct Item {
    /// Character range in the text.
    pub range: Range<usize>,
    /// The rule, if the finding is one of utf8lint's.
    pub rule: Option<Rule>,
    /// LSP severity.
    pub severity: DiagnosticSeverity,
    /// The headline: the key fact first, short enough for a Problems row
    /// (see [`headline`]).
    pub message: String,
    /// The whole message when the headline is shorter, for the related
    /// information and the hover.
    pub detail: Option<String>,
    /// For hovers: the bytes and what they mean, never the headline again
    /// (the editor shows it above the hover); empty for none.
    pub hover: String,
    /// `Diagnostic.data`: what a code action needs (`None` for notes of
    /// the server's own, which have no action).
    pub data: Option<FindingData>,
}

impl Item {
    /// The LSP diagnostic.
    pub(crate) fn to_lsp(
        &self,
        uri: &Url,
        rope: &Rope,
        enc: Encoding,
        raw: &convert::RawBytes,
    ) -> lsp::Diagnostic {
        lsp::Diagnostic {
            range: convert::range_in(rope, self.range.start, self.range.end, enc, raw),
            severity: Some(self.severity),
            code: self
                .rule
                .map(|r| NumberOrString::String(r.code().to_string())),
            code_description: self
                .rule
                .and_then(|r| Url::parse(&r.url()).ok())
                .map(|href| CodeDescription { href }),
            source: Some("utf8lint".to_string()),
            message: self.message.clone(),
            related_information: self.detail.as_ref().map(|detail| {
                vec![lsp::DiagnosticRelatedInformation {
                    location: lsp::Location {
                        uri: uri.clone(),
                        range: convert::range_in(rope, self.range.start, self.range.end, enc, raw),
                    },
                    message: detail.clone(),
                }]
            }),
            tags: None,
            data: self.data.as_ref().map(FindingData::to_value),
        }
    }
}

fn severity(level: Level) -> DiagnosticSeverity {
    match level {
        Level::Deny => DiagnosticSeverity::ERROR,
        _ => DiagnosticSeverity::WARNING,
    }
}

/// A fix that the editor can make itself, as a text edit over the
/// diagnostic's range.
fn text_fix(title: &str, new_text: &str, safe: bool) -> TextFix {
    TextFix {
        title: title.to_owned(),
        new_text: new_text.to_owned(),
        safe,
    }
}

/// The hover of a finding: the rule, the whole message if the headline
/// is shorter (the editor shows the headline itself, above the hover), the
/// bytes, the notes and the help.
fn hover_text(d: &Diagnostic, headline: &str, on_disk: bool) -> String {
    let mut out = format!("**{} `{}`**\n\n", d.rule.code(), d.rule.name());
    if d.message != headline {
        out.push_str(&format!("{}\n\n", d.message));
    }
    if on_disk {
        if d.span.is_empty() {
            out.push_str(&format!("at byte {} of the file on disk", d.span.start));
        } else {
            out.push_str(&format!(
                "bytes {}..{} of the file on disk: {}",
                d.span.start, d.span.end, d.label
            ));
        }
    } else {
        out.push_str(&format!("in the editor's text: {}", d.label));
    }
    out.push('\n');
    for note in &d.notes {
        out.push_str(&format!("\n* note: {note}"));
    }
    for help in &d.help {
        out.push_str(&format!("\n* help: {help}"));
    }
    out.push_str(&format!(
        "\n\n[{} explained]({})",
        d.rule.code(),
        d.rule.url()
    ));
    out
}

/// Every item for the snapshot, in text order.
pub(crate) fn items(s: &Snapshot) -> Vec<Item> {
    let mut out = Vec::new();
    if let Some(disk) = &s.disk {
        if let Some(why) = &disk.unreadable {
            out.push(info(
                0..0,
                "utf8lint could not read the file on disk: only the editor's text is checked".into(),
                Some(format!("utf8lint could not read the file on disk ({why}): only the editor's text is checked")),
            ));
        }
        // A finding an edit went over is gone until the next save re-reads
        // the file: the edit may well have been its fix.
        let before = out.len();
        out.extend(
            disk.findings
                .iter()
                .filter_map(|placed| disk_item(s, disk.matched, placed)),
        );
        let shown = out.len() - before;
        if disk.matched.is_none() && shown > 0 {
            let s = if shown == 1 { "" } else { "s" };
            out.push(info(
                0..0,
                format!("{shown} finding{s} from the disk may be off: the editor's text differs from the file"),
                Some(format!(
                    "the editor's text does not match the file on disk under any decoding utf8lint knows (unsaved changes, or another encoding): {shown} finding{s} from the disk are placed by line and column and may be off"
                )),
            ));
        }
        if let (Some(m), Some(first)) = (disk.matched, &disk.first_invalid)
            && m.decoding == Decoding::Lossy
            && disk.invalid_bytes > 0
            && s.raw_from_client == 0
            && s.in_editor
        {
            let n = disk.invalid_bytes;
            out.push(Item {
                    range: first.clone(),
                    rule: Some(Rule::InvalidUtf8),
                    severity: DiagnosticSeverity::WARNING,
                    message: format!(
                        "saving from this editor will replace the {n} invalid byte{} in this file with U+FFFD for good",
                        if n == 1 { "" } else { "s" },
                    ),
                    detail: Some(format!(
                        "the editor shows {} U+FFFD and will write `\\xEF\\xBF\\xBD` for each",
                        disk.invalid_subparts
                    )),
                    hover: format!(
                        "The editor decoded this file with each invalid UTF-8 sequence replaced by U+FFFD. The original {n} byte{} exist only on disk; saving writes U+FFFD instead. Repair them on disk first (the quick fixes that end in \"(rewrites the file on disk)\"), or put back in the editor what each byte most likely meant (the \"replace U+FFFD with ...\" quick fixes, where offered), or save knowingly.",
                        if n == 1 { "" } else { "s" }
                    ),
                    data: Some(FindingData {
                        origin: Origin::Note,
                        rule: None,
                        ..FindingData::text(&s.uri, s.version, "", Vec::new())
                    }),
                });
        }
    }
    out.extend(s.marks.iter().filter_map(|m| mark_item(s, *m)));
    let mut out = unsuppressed(&s.rope, out);
    out.sort_by_key(|i| (i.range.start, i.range.end));
    out
}

/// `items` without those an inline suppression in the editor's text
/// covers: the disk findings were checked against the suppressions on
/// disk, but a suppression typed in the editor (or inserted by the
/// "Allow" action) silences its finding at once, and the U+FEFF and
/// U+FFFD found in the text are judged by the text alone. The text is
/// copied out of the rope only when it holds a suppression marker.
fn unsuppressed(rope: &Rope, items: Vec<Item>) -> Vec<Item> {
    if items.iter().all(|i| i.rule.is_none()) || !has_marker(rope) {
        return items;
    }
    let text = rope.to_string();
    // Items without a rule (the server's notes) or outside the text have
    // nothing to match a suppression with: kept.
    let at: Vec<(usize, (Rule, usize))> = items
        .iter()
        .enumerate()
        .filter_map(|(k, i)| Some((k, (i.rule?, rope.try_char_to_byte(i.range.start).ok()?))))
        .collect();
    let asked: Vec<(Rule, usize)> = at.iter().map(|&(_, q)| q).collect();
    let hidden = utf8lint_diagnostics::suppressed(text.as_bytes(), &asked);
    let mut drop = vec![false; items.len()];
    for ((k, _), hidden) in at.iter().zip(hidden) {
        drop[*k] = hidden;
    }
    items
        .into_iter()
        .zip(drop)
        .filter_map(|(item, drop)| (!drop).then_some(item))
        .collect()
}

/// The start of every suppression.
const MARKER: &[u8] = b"utf8lint:";

/// Whether the rope holds [`MARKER`], chunk by chunk (and across the
/// chunk boundaries), without copying the text.
fn has_marker(rope: &Rope) -> bool {
    let finder = memchr::memmem::Finder::new(MARKER);
    let mut tail: Vec<u8> = Vec::with_capacity(2 * MARKER.len());
    for chunk in rope.chunks() {
        let bytes = chunk.as_bytes();
        if finder.find(bytes).is_some() {
            return true;
        }
        // The marker split between the last chunk's end and this one's start.
        tail.extend_from_slice(&bytes[..bytes.len().min(MARKER.len() - 1)]);
        if finder.find(&tail).is_some() {
            return true;
        }
        // Keep the last bytes seen (a short chunk is all in `tail` now).
        if bytes.len() >= MARKER.len() - 1 {
            tail.clear();
            tail.extend_from_slice(&bytes[bytes.len() - (MARKER.len() - 1)..]);
        } else {
            let excess = tail.len().saturating_sub(MARKER.len() - 1);
            tail.drain(..excess);
        }
    }
    false
}

/// A note of the server's own: `headline` in the Problems row, `detail`
/// in its related information and the hover.
fn info(range: Range<usize>, headline: String, detail: Option<String>) -> Item {
    Item {
        range,
        rule: None,
        severity: DiagnosticSeverity::INFORMATION,
        hover: detail.clone().unwrap_or_default(),
        message: headline,
        detail,
        data: None,
    }
}

/// About the most a Problems row shows of a message.
pub(crate) const HEADLINE: usize = 100;

/// `message` cut to fit a Problems row: whole if it fits, else up to the
/// last clause break (`: `, `; `, ` (`, `, `) that leaves a sentence of
/// some length, else at a word, with `…`.
pub(crate) fn headline(message: &str) -> String {
    if message.chars().count() <= HEADLINE {
        return message.to_owned();
    }
    let limit = message
        .char_indices()
        .nth(HEADLINE)
        .map_or(message.len(), |(i, _)| i);
    let head = &message[..limit];
    for sep in [": ", "; ", " (", ", "] {
        if let Some(at) = head.rfind(sep)
            && at >= HEADLINE / 3
        {
            return message[..at].to_owned();
        }
    }
    let at = head.rfind(' ').filter(|&at| at > 0).unwrap_or(limit);
    format!("{}…", &message[..at])
}

/// The headline of a disk finding: a few rules say their key fact in
/// other words than their message.
fn disk_headline(d: &Diagnostic, bom_on_disk: bool) -> String {
    match d.rule {
        Rule::ForbiddenBom if bom_on_disk => match &d.policy_source {
            Some(utf8lint_diagnostics::PolicySource::Builtin { format, .. }) => format!(
                "{format} must not start with a byte-order mark (U+FEFF, invisible in the editor)"
            ),
            _ => headline(&format!(
                "the file starts with a byte-order mark (U+FEFF, invisible in the editor): {}",
                d.message
            )),
        },
        Rule::MissingBom => headline(&format!("no byte-order mark on disk: {}", d.message)),
        Rule::BidiControl => bidi_headline(d),
        _ => headline(&d.message),
    }
}

/// "3 bidirectional controls on this line, the first U+202E RIGHT-TO-LEFT
/// OVERRIDE": the count (the fix deletes each one) and the first control
/// (the message lists them in order), never a list cut mid-name.
fn bidi_headline(d: &Diagnostic) -> String {
    let names = d.message.split_once(": ").map(|(_, list)| list);
    let first = names.and_then(|n| n.split(", ").next());
    let count = d
        .fix
        .as_ref()
        .map(|f| f.edits().len())
        .or(names.map(|n| n.split(", ").count()));
    match (count, first) {
        (Some(1), Some(first)) => headline(&format!("bidirectional control {first} on this line")),
        (Some(n), Some(first)) => headline(&format!(
            "{n} bidirectional controls on this line, the first {first}"
        )),
        _ => headline(&d.message),
    }
}

fn disk_item(s: &Snapshot, matched: Option<Match>, placed: &Placed) -> Option<Item> {
    let d = &placed.diag;
    let range = placed.range.clone()?;
    let bom_on_disk = matched.is_none_or(|m| m.bom_stripped)
        && d.span == (0..3)
        && matches!(d.rule, Rule::ForbiddenBom);
    let message = disk_headline(d, bom_on_disk);
    let mut text_fixes = Vec::new();
    let mut disk_fixes = Vec::new();
    // The repair and its alternatives (`\xE9` as `é`, or U+FFFD): each
    // its own code action.
    for fix in d.fix.iter().chain(&d.alternatives) {
        if fix.applicability() != Applicability::DisplayOnly {
            disk_fixes.push(DiskFix {
                title: fix.title().to_owned(),
                safe: fix.applicability() == Applicability::Safe,
            });
        }
    }
    if let Some(fix) = &d.fix {
        let safe = fix.applicability() == Applicability::Safe;
        // U+FEFF lives in the editor's text: the editor can delete or replace it.
        if d.rule == Rule::StrayFeff
            && matched.is_some()
            && !range.is_empty()
            && let [edit] = fix.edits()
            && edit.range() == d.span
            && let Some(new_text) = edit.literal().and_then(|bytes| decode_as(matched, bytes))
        {
            text_fixes.push(text_fix(fix.title(), &new_text, safe));
        }
    }
    // A single invalid byte the editor shows as U+FFFD: put back what the
    // byte most likely meant, in the editor, so that saving writes UTF-8.
    if d.rule == Rule::InvalidUtf8
        && matched.is_some_and(|m| m.decoding == Decoding::Lossy)
        && d.span.len() == 1
        && s.raw_from_client == 0
    {
        let byte = d
            .label
            .strip_prefix("`\\x")
            .and_then(|h| u8::from_str_radix(h.get(..2)?, 16).ok());
        if let Some((byte, c)) = byte.and_then(|b| Some((b, windows_1252(b)?))) {
            text_fixes.push(text_fix(
                &format!("replace U+FFFD with `{c}` (`\\x{byte:02X}` read as windows-1252)"),
                &c.to_string(),
                false,
            ));
        }
    }
    Some(Item {
        range,
        rule: Some(d.rule),
        severity: severity(d.level),
        hover: hover_text(d, &message, true),
        detail: (message != d.message).then(|| d.message.clone()),
        message,
        data: Some(FindingData {
            origin: Origin::Disk,
            span: Some([d.span.start, d.span.end]),
            disk_fixes,
            ..FindingData::text(&s.uri, s.version, d.rule.code(), text_fixes)
        }),
    })
}

/// `bytes` as the editor's decoding shows them, if it shows them at all.
fn decode_as(matched: Option<Match>, bytes: &[u8]) -> Option<String> {
    match matched?.decoding {
        Decoding::Latin1 => Some(bytes.iter().map(|&b| char::from(b)).collect()),
        _ => std::str::from_utf8(bytes).ok().map(str::to_string),
    }
}

fn windows_1252(byte: u8) -> Option<char> {
    (byte >= 0x80)
        .then(|| utf8lint_diagnostics::windows_1252_char(byte))
        .flatten()
}

/// A finding for a U+FEFF or U+FFFD in the text that no disk finding
/// covers (typed, pasted, or the file was never read).
fn mark_item(s: &Snapshot, mark: Mark) -> Option<Item> {
    let rope = &s.rope;
    let range = mark.at..mark.at + 1;
    if mark.ch == '\u{FFFD}' {
        let level = s.policy.levels.get(Rule::InvalidUtf8);
        if s.raw_from_client > 0 && s.disk.is_none() {
            if level == Level::Allow {
                return None;
            }
            // No file to read, and the client sent raw bytes that the
            // transport replaced: this U+FFFD stands for bytes the editor
            // holds that are not UTF-8.
            return Some(Item {
                range,
                rule: Some(Rule::InvalidUtf8),
                severity: severity(level),
                message: "the editor holds bytes here that are not UTF-8 (it sent them raw; utf8lint sees them as U+FFFD)".into(),
                detail: None,
                hover: "Ill-formed UTF-8 in the editor's buffer. The client sent these bytes as they are, which is not valid in an LSP message; the server read them as U+FFFD, one per maximal subpart.".into(),
                data: Some(FindingData::text(&s.uri, s.version, Rule::InvalidUtf8.code(), Vec::new())),
            });
        }
        let level = s.policy.levels.get(Rule::ReplacementCharacter);
        if level == Level::Allow {
            return None;
        }
        let diag = utf8lint_diagnostics::replacement_character_diagnostic(0, level);
        let message = headline(&diag.message);
        return Some(Item {
            range,
            rule: Some(Rule::ReplacementCharacter),
            severity: severity(level),
            hover: hover_text(&diag, &message, false),
            detail: (message != diag.message).then(|| diag.message.clone()),
            message,
            data: Some(FindingData::text(
                &s.uri,
                s.version,
                Rule::ReplacementCharacter.code(),
                vec![text_fix("delete the U+FFFD", "", false)],
            )),
        });
    }
    // U+FEFF: the rule decides from the characters around it (a line
    // start, a word), so it is given a small window of the text.
    let level = s.policy.levels.get(Rule::StrayFeff);
    if level == Level::Allow {
        return None;
    }
    if mark.at >= rope.len_chars() {
        // Never index a rope unchecked: a mark past the text is a bug
        // elsewhere, not a reason to end the server.
        tracing::warn!("U+FEFF mark at {} outside the text, skipped", mark.at);
        return None;
    }
    let line = rope.char_to_line(mark.at);
    let line_start = rope.line_to_char(line);
    let line_end = if line + 1 < rope.len_lines() {
        rope.line_to_char(line + 1)
    } else {
        rope.len_chars()
    };
    let from = mark.at.saturating_sub(16).max(line_start);
    let to = (mark.at + 17).min(line_end);
    let mut window = String::new();
    if from == mark.at {
        // At the start of a line (or of the text): keep it from being read
        // as the file's byte-order mark, and let the rule see the line start.
        window.push('\n');
    }
    let prefix_len = window.len();
    window.extend(rope.slice(from..to).chars());
    let feff_byte = prefix_len + rope.slice(from..mark.at).len_bytes();
    let diag = utf8lint_diagnostics::stray_feff_diagnostic(window.as_bytes(), feff_byte, level);
    let mut text_fixes = Vec::new();
    if let Some(fix) = &diag.fix
        && let [edit] = fix.edits()
        && edit.range() == diag.span
        && let Some(Ok(new_text)) = edit.literal().map(std::str::from_utf8)
    {
        text_fixes.push(text_fix(
            fix.title(),
            new_text,
            fix.applicability() == Applicability::Safe,
        ));
    }
    let diag = Arc::new(diag);
    let message = headline(&diag.message);
    Some(Item {
        range,
        rule: Some(Rule::StrayFeff),
        severity: severity(diag.level),
        hover: hover_text(&diag, &message, false),
        detail: (message != diag.message).then(|| diag.message.clone()),
        message,
        data: Some(FindingData::text(
            &s.uri,
            s.version,
            Rule::StrayFeff.code(),
            text_fixes,
        )),
    })
}

/// The LSP diagnostics for the snapshot.
pub(crate) fn diagnostics(s: &Snapshot) -> Vec<lsp::Diagnostic> {
    items(s)
        .iter()
        .map(|i| i.to_lsp(&s.uri, &s.rope, s.encoding, &s.raw))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headlines_fit_a_problems_row_and_cut_at_a_clause() {
        assert_eq!(headline("short"), "short");
        let long = "saving from this editor will replace the 4 invalid bytes in this file with U+FFFD for good: the editor shows 4 U+FFFD";
        assert_eq!(
            headline(long),
            "saving from this editor will replace the 4 invalid bytes in this file with U+FFFD for good"
        );
        let words = "word ".repeat(40);
        let cut = headline(&words);
        assert!(
            cut.ends_with('…') && cut.chars().count() <= HEADLINE + 1,
            "{cut}"
        );
    }

    #[test]
    fn the_marker_is_found_across_chunk_boundaries() {
        for at in [0, 1, 500, 1020, 1021, 1022, 1023, 1024, 1025, 4000] {
            let mut text = "x".repeat(at);
            text.push_str("# utf8lint: allow(U002)");
            text.push_str(&"y".repeat(3000));
            assert!(has_marker(&Rope::from_str(&text)), "{at}");
        }
        assert!(!has_marker(&Rope::from_str(&"utf8lint ".repeat(1000))));
    }
}
