//! From a document's state to LSP diagnostics (and hovers): disk findings
//! where they were placed, text-level findings for the U+FEFF and U+FFFD the
//! text holds, and the notes about the mapping itself.

use std::ops::Range;
use std::sync::Arc;

use ropey::Rope;
use tower_lsp::lsp_types::{self as lsp, CodeDescription, DiagnosticSeverity, NumberOrString, Url};
use utf8lint_diagnostics::{
    Applicability, Diagnostic, FILE_ALLOW_LINES, Level, Policy, Reads, Rule,
};

use crate::convert::{self, Encoding};
use crate::data::{FindingData, FixChoice, Origin, TextFix};
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
    /// Where the text holds a suppression marker (character offsets).
    pub suppressions: Vec<usize>,
    /// The character rules' findings come from the text (buffer.rs):
    /// those of the disk are left out.
    pub reads_text: bool,
    /// The character rules' findings in the text, placed (when
    /// `reads_text`; the editor's own U+FFFD for invalid bytes left out).
    pub text: Vec<Placed>,
    /// The text has edits the file does not: the disk's findings are "as
    /// saved".
    pub dirty: bool,
    /// The text is the file's bytes exactly (buffer.rs): a disk finding's
    /// fix is an edit of the text too, where the text can hold it.
    pub text_is_the_bytes: bool,
}

impl Snapshot {
    /// Copies what is needed out of `doc`.
    pub(crate) fn of(doc: &Document, encoding: Encoding, policy: Policy) -> Snapshot {
        let reads_text = crate::buffer::reads_text(doc) && doc.text_checked;
        let text: Vec<Placed> = if reads_text {
            doc.text_findings
                .iter()
                .filter(|p| !editors_own_fffd(doc, p))
                .cloned()
                .collect()
        } else {
            Vec::new()
        };
        let shown_from_disk = |p: &&Placed| !reads_text || p.diag.rule.reads() == Reads::Bytes;
        let mut covered = Covered::new(
            doc.disk
                .iter()
                .flat_map(|d| d.findings.iter().filter(shown_from_disk))
                .chain(&text)
                .filter_map(|p| p.range.clone()),
        );
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
            if *counter >= cap || covered.contains(m.at) {
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
            suppressions: doc.suppressions.clone(),
            reads_text,
            text,
            dirty: doc.dirty,
            text_is_the_bytes: crate::buffer::text_is_the_bytes(doc),
        }
    }
}

/// A U+FFFD the text check found where the editor decoded an ill-formed
/// sequence on disk (the disk's U001 reports those bytes, never U007), or,
/// with no file, where the client sent raw bytes (the marks say so).
fn editors_own_fffd(doc: &Document, p: &Placed) -> bool {
    if p.diag.rule != Rule::ReplacementCharacter {
        return false;
    }
    match (&doc.disk, &p.range) {
        (None, _) => doc.raw_from_client > 0,
        (Some(disk), Some(r)) => disk.decoded_fffd(r.start),
        (Some(_), None) => false,
    }
}

/// The character ranges the disk findings cover, asked about in increasing
/// order: each mark costs a step, not a look at every finding (a text of
/// millions of U+FEFF beside thousands of findings).
struct Covered {
    /// Sorted by start, overlapping ones merged.
    ranges: Vec<Range<usize>>,
    /// The first range that can still hold an offset asked about.
    next: usize,
}

impl Covered {
    fn new(ranges: impl Iterator<Item = Range<usize>>) -> Covered {
        let mut sorted: Vec<Range<usize>> = ranges.filter(|r| !r.is_empty()).collect();
        sorted.sort_by_key(|r| r.start);
        let mut ranges: Vec<Range<usize>> = Vec::with_capacity(sorted.len());
        for r in sorted {
            match ranges.last_mut() {
                Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                _ => ranges.push(r),
            }
        }
        Covered { ranges, next: 0 }
    }

    /// Whether a range holds `at`, at least every offset asked before.
    fn contains(&mut self, at: usize) -> bool {
        while self.ranges.get(self.next).is_some_and(|r| r.end <= at) {
            self.next += 1;
        }
        self.ranges.get(self.next).is_some_and(|r| r.contains(&at))
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
        let range = convert::range_in(rope, self.range.start, self.range.end, enc, raw);
        lsp::Diagnostic {
            range,
            severity: Some(self.severity),
            code: self
                .rule
                .map(|r| NumberOrString::String(r.code().to_string())),
            code_description: self.rule.and_then(code_description),
            source: Some("utf8lint".to_string()),
            message: self.message.clone(),
            related_information: self.detail.as_ref().map(|detail| {
                vec![lsp::DiagnosticRelatedInformation {
                    location: lsp::Location {
                        uri: uri.clone(),
                        range,
                    },
                    message: detail.clone(),
                }]
            }),
            tags: None,
            data: self.data.as_ref().map(FindingData::to_value),
        }
    }
}

/// The link to a rule's explanation: every publish sends one a finding,
/// so each rule's address is parsed once per process, not per finding.
fn code_description(rule: Rule) -> Option<CodeDescription> {
    static ADDRESSES: std::sync::OnceLock<Vec<Option<Url>>> = std::sync::OnceLock::new();
    let addresses = ADDRESSES.get_or_init(|| {
        Rule::ALL
            .iter()
            .map(|r| Url::parse(&r.url()).ok())
            .collect()
    });
    let href = addresses.get(rule.index())?.clone()?;
    Some(CodeDescription { href })
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
        // A binary file is not text: nothing in the editor's decoding of it
        // is a finding, and nothing is offered to fix.
        if disk.binary.is_some() {
            return out;
        }
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
                .filter(|p| !s.reads_text || p.diag.rule.reads() == Reads::Bytes)
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
                        "The editor decoded this file with each invalid UTF-8 sequence replaced by U+FFFD. The original {n} byte{} exist only on disk; saving writes U+FFFD instead. Repair them on disk first (the quick fixes that end in \"(rewrites the file on disk)\"; the allow actions on this file write on disk too, never in the editor), or save knowingly.",
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
    out.extend(s.text.iter().filter_map(|placed| text_item(s, placed)));
    out.extend(s.marks.iter().filter_map(|m| mark_item(s, *m)));
    let mut out = unsuppressed(&s.rope, &s.suppressions, out);
    out.sort_by_key(|i| (i.range.start, i.range.end));
    out
}

/// `items` without those an inline suppression in the editor's text
/// covers: the disk findings were checked against the suppressions on
/// disk, but a suppression typed in the editor (or inserted by the
/// "Allow" action) silences its finding at once, and the U+FEFF and
/// U+FFFD found in the text are judged by the text alone.
///
/// `markers` are where the text holds a suppression marker (kept in step
/// with the edits). Only the lines that can decide are read (see
/// [`Excerpt`]): never the whole text.
fn unsuppressed(rope: &Rope, markers: &[usize], items: Vec<Item>) -> Vec<Item> {
    if markers.is_empty() || items.iter().all(|i| i.rule.is_none()) {
        return items;
    }
    // Items without a rule (the server's notes) have nothing to match a
    // suppression with: kept.
    let at: Vec<(usize, (Rule, usize))> = items
        .iter()
        .enumerate()
        .filter_map(|(k, i)| Some((k, (i.rule?, i.range.start))))
        .collect();
    let asked: Vec<(Rule, usize)> = at.iter().map(|&(_, q)| q).collect();
    let hidden = suppressed(rope, markers, &asked);
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

/// For each `(rule, character offset)`, whether an inline suppression in
/// the text covers a finding of that rule starting there, reading only the
/// lines that can decide (see [`Excerpt`]). One outside the text is not.
fn suppressed(rope: &Rope, markers: &[usize], asked: &[(Rule, usize)]) -> Vec<bool> {
    let len = rope.len_chars();
    let excerpt = Excerpt::new(rope, markers, asked.iter().map(|&(_, at)| at));
    let inside: Vec<(usize, (Rule, usize))> = asked
        .iter()
        .enumerate()
        .filter(|(_, (_, at))| *at <= len)
        .map(|(k, &(rule, at))| (k, (rule, excerpt.offset(rope, at))))
        .collect();
    let queries: Vec<(Rule, usize)> = inside.iter().map(|&(_, q)| q).collect();
    let found = utf8lint_diagnostics::suppressed(excerpt.text.as_bytes(), &queries);
    let mut hidden = vec![false; asked.len()];
    for ((k, _), found) in inside.iter().zip(found) {
        hidden[*k] = found;
    }
    hidden
}

/// The lines of a text that decide which items a suppression covers, as
/// one string the diagnostics crate reads like a file: the first lines
/// through the line after the last marker among the first
/// [`FILE_ALLOW_LINES`] (a `file-allow` there covers the whole text), and
/// for each item with a marker on its line or on the line before, those
/// two lines. Stretches that are not contiguous are joined by empty lines,
/// at least enough that nothing after the first lines is counted among
/// them; an item elsewhere is asked about at an empty line of its own, where
/// only a `file-allow` reaches. Lines are `\n`-terminated, as the
/// diagnostics crate counts them.
struct Excerpt {
    text: String,
    /// Character range in the rope and where it starts in `text`.
    stretches: Vec<(Range<usize>, usize)>,
    /// Where an item outside every stretch is asked about.
    elsewhere: usize,
}

impl Excerpt {
    fn new(rope: &Rope, markers: &[usize], asked: impl Iterator<Item = usize>) -> Excerpt {
        let len = rope.len_chars();
        let mut wanted: Vec<Range<usize>> = Vec::new();
        // The markers among the first lines, where `file-allow` counts.
        let head = first_lines_end(rope);
        let last_in_head = markers[..markers.partition_point(|&m| m < head)].last();
        let head_end = last_in_head.map(|&m| line_end(rope, line_end(rope, m)));
        wanted.extend(head_end.map(|end| 0..end));
        for at in asked {
            if at > len {
                continue;
            }
            let start = line_start(rope, at);
            let from = if start > 0 {
                line_start(rope, start - 1)
            } else {
                0
            };
            let to = line_end(rope, at);
            let first = markers.partition_point(|&m| m < from);
            if markers.get(first).is_some_and(|&m| m < to) {
                wanted.push(from..to);
            }
        }
        wanted.sort_by_key(|r| r.start);
        let mut merged: Vec<Range<usize>> = Vec::new();
        for r in wanted {
            match merged.last_mut() {
                Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                _ => merged.push(r),
            }
        }
        let mut text = String::new();
        let mut newlines = 0;
        let mut stretches = Vec::with_capacity(merged.len());
        for r in merged {
            if r.start > 0 {
                let pad = FILE_ALLOW_LINES.saturating_sub(newlines).max(1);
                text.extend(std::iter::repeat_n('\n', pad));
                newlines += pad;
            }
            stretches.push((r.clone(), text.len()));
            for chunk in rope.slice(r).chunks() {
                newlines += memchr::memchr_iter(b'\n', chunk.as_bytes()).count();
                text.push_str(chunk);
            }
        }
        text.push_str("\n\n");
        let elsewhere = text.len();
        Excerpt {
            text,
            stretches,
            elsewhere,
        }
    }

    /// Where the character at `at` of the rope is in [`Self::text`].
    fn offset(&self, rope: &Rope, at: usize) -> usize {
        let i = self.stretches.partition_point(|(r, _)| r.start <= at);
        match i.checked_sub(1).map(|i| &self.stretches[i]) {
            Some((r, base)) if at < r.end => {
                base + rope.char_to_byte(at) - rope.char_to_byte(r.start)
            }
            _ => self.elsewhere,
        }
    }
}

// Lines as the diagnostics crate counts them end at `\n` only; the rope's
// line index also breaks at a lone `\r`, so its lines are walked over
// those: one step for an LF-terminated line.

/// Where the `\n`-terminated line holding the character `at` starts.
fn line_start(rope: &Rope, at: usize) -> usize {
    let mut line = rope.char_to_line(at.min(rope.len_chars()));
    loop {
        let start = rope.line_to_char(line);
        if start == 0 || rope.char(start - 1) == '\n' {
            return start;
        }
        line -= 1;
    }
}

/// Just past the `\n` that ends the line holding the character `at` (the
/// end of the text if none does).
fn line_end(rope: &Rope, at: usize) -> usize {
    let lines = rope.len_lines();
    let mut line = rope.char_to_line(at.min(rope.len_chars()));
    while line + 1 < lines {
        let end = rope.line_to_char(line + 1);
        if rope.char(end - 1) == '\n' {
            return end;
        }
        line += 1;
    }
    rope.len_chars()
}

/// Just past the [`FILE_ALLOW_LINES`]th `\n` (the end of the text if there
/// are fewer): a marker before it is among the first lines.
fn first_lines_end(rope: &Rope) -> usize {
    let mut seen = 0;
    for line in 1..rope.len_lines() {
        let start = rope.line_to_char(line);
        if rope.char(start - 1) == '\n' {
            seen += 1;
            if seen == FILE_ALLOW_LINES {
                return start;
            }
        }
    }
    rope.len_chars()
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
    let mut message = disk_headline(d, bom_on_disk);
    if s.dirty {
        // The buffer has edits of its own: this is what the file says.
        message.push_str(" (as saved)");
    }
    let mut text_fixes = Vec::new();
    let mut edit_fixes = Vec::new();
    let mut disk_fixes = Vec::new();
    // The repair and its alternatives (`\xE9` as `é`, or U+FFFD): each
    // its own code action; an edit of the text where the text is the
    // file's bytes and can hold what the fix writes.
    for fix in d.fix.iter().chain(&d.alternatives) {
        if fix.applicability() == Applicability::DisplayOnly {
            continue;
        }
        let choice = FixChoice {
            title: fix.title().to_owned(),
            safe: fix.applicability() == Applicability::Safe,
        };
        if s.text_is_the_bytes && crate::buffer::may_hold(d.rule, fix) {
            edit_fixes.push(choice);
        } else {
            disk_fixes.push(choice);
        }
    }
    if let Some(fix) = &d.fix {
        let safe = fix.applicability() == Applicability::Safe;
        // U+FEFF lives in the editor's text: the editor can delete or replace it.
        if d.rule == Rule::StrayFeff
            && edit_fixes.is_empty()
            && matched.is_some()
            && !range.is_empty()
            && let [edit] = fix.edits()
            && edit.range() == d.span
            && let Some(new_text) = edit.literal().and_then(|bytes| decode_as(matched, bytes))
        {
            text_fixes.push(text_fix(fix.title(), &new_text, safe));
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
            edit_fixes,
            disk_fixes,
            ..FindingData::text(&s.uri, s.version, d.rule.code(), text_fixes)
        }),
    })
}

/// A character rule's finding in the editor's text (buffer.rs): its fixes
/// are edits of the text, planned by the gate when asked for.
fn text_item(s: &Snapshot, placed: &Placed) -> Option<Item> {
    let d = &placed.diag;
    let range = placed.range.clone()?;
    if range.end > s.rope.len_chars() {
        return None;
    }
    let message = disk_headline(d, false);
    let edit_fixes = d
        .fix
        .iter()
        .chain(&d.alternatives)
        .filter(|f| f.applicability() != Applicability::DisplayOnly)
        .map(|f| FixChoice {
            title: f.title().to_owned(),
            safe: f.applicability() == Applicability::Safe,
        })
        .collect();
    // The span where the text is now: edits before it since the check
    // moved it, and the gate finds it again there.
    let span = [
        s.rope.char_to_byte(range.start),
        s.rope.char_to_byte(range.end),
    ];
    Some(Item {
        range,
        rule: Some(d.rule),
        severity: severity(d.level),
        hover: hover_text(d, &message, false),
        detail: (message != d.message).then(|| d.message.clone()),
        message,
        data: Some(FindingData {
            span: Some(span),
            edit_fixes,
            ..FindingData::text(&s.uri, s.version, d.rule.code(), Vec::new())
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
    fn covered_marks_are_those_a_finding_holds() {
        let ranges = [5..9, 0..2, 7..12, 20..21, 3..3, 30..40];
        let mut covered = Covered::new(ranges.iter().cloned());
        for at in 0..45 {
            let naive = ranges.iter().any(|r| r.contains(&at));
            assert_eq!(covered.contains(at), naive, "{at}");
        }
        // Merged and sorted: each offset asked costs a step at most.
        assert_eq!(covered.ranges, [0..2, 5..12, 20..21, 30..40]);
    }
    use crate::document::{Document, find_suppressions};

    /// Whether each character of the text starts a finding of `rule` that
    /// a suppression covers, read from the whole text.
    fn covered_in_whole(text: &str, rule: Rule) -> Vec<bool> {
        let asked: Vec<(Rule, usize)> = text.char_indices().map(|(b, _)| (rule, b)).collect();
        utf8lint_diagnostics::suppressed(text.as_bytes(), &asked)
    }

    /// The same from the document's markers and the lines they decide.
    fn covered_in_excerpt(doc: &Document, rule: Rule) -> Vec<bool> {
        let asked: Vec<(Rule, usize)> = (0..doc.rope.len_chars()).map(|at| (rule, at)).collect();
        suppressed(&doc.rope, &doc.suppressions, &asked)
    }

    fn check(doc: &Document, step: &str) {
        let text = doc.rope.to_string();
        assert_eq!(
            doc.suppressions,
            find_suppressions(&text, 0),
            "{step}: markers of {text:?}"
        );
        for rule in [Rule::StrayFeff, Rule::ReplacementCharacter] {
            assert_eq!(
                covered_in_excerpt(doc, rule),
                covered_in_whole(&text, rule),
                "{step}: {rule:?} in {text:?}"
            );
        }
    }

    #[test]
    fn suppressions_follow_edits_and_cover_what_a_whole_check_covers() {
        let text = "a\u{FEFF}\n# utf8lint: allow(U002)\nb\u{FEFF}\nc\n";
        let mut doc = Document::new("untitled:s".parse().unwrap(), 1, text);
        check(&doc, "opened");
        // Moved by an edit above it.
        doc.edit(0, 0, "new\nlines\n");
        check(&doc, "moved down");
        assert_eq!(doc.suppressions, [15]);
        // Split across an edit, then mended one character at a time.
        doc.edit(18, 19, "");
        check(&doc, "split");
        assert!(doc.suppressions.is_empty());
        doc.edit(18, 18, "8");
        check(&doc, "mended");
        assert_eq!(doc.suppressions, [15]);
        // Added: typed character by character at the end of a line.
        let end = doc.rope.line_to_char(5) - 1;
        for (k, c) in "  # utf8lint: allow(stray_feff)".chars().enumerate() {
            doc.edit(end + k, end + k, &c.to_string());
            check(&doc, "typed");
        }
        assert_eq!(doc.suppressions.len(), 2);
        // A file-allow in the first lines covers everything.
        doc.edit(0, 0, "# utf8lint: file-allow(U007)\n");
        check(&doc, "file-allow");
        // Removed.
        let line = doc.rope.line_to_char(4);
        assert!(doc.rope.line(4).to_string().contains("allow(U002)"));
        doc.edit(line, doc.rope.line_to_char(5), "");
        check(&doc, "removed");
        doc.replace_all("x\u{FEFF} # utf8lint: allow(U002)\r\ny\u{FEFF}\rz");
        check(&doc, "replaced");
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

    /// Random edits over text made of the pieces suppressions are made of:
    /// after each, the markers and what they cover equal a whole re-check's.
    #[test]
    fn random_edits_keep_suppressions_equal_to_a_whole_recheck() {
        const PIECES: [&str; 16] = [
            "utf8lint:",
            "utf8",
            "lint:",
            " allow(U002)",
            " allow(U007, stray_feff)",
            " file-allow(U002)",
            "file-allow(",
            "\n",
            "\r\n",
            "\r",
            "# ",
            "x",
            "`",
            "\u{FEFF}",
            "\u{FFFD}",
            "é ",
        ];
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for round in 0..60 {
            let mut text = String::new();
            for _ in 0..rng.below(40) {
                text.push_str(PIECES[rng.below(PIECES.len())]);
            }
            let mut doc = Document::new("untitled:r".parse().unwrap(), 1, &text);
            check(&doc, &format!("round {round} opened"));
            for step in 0..25 {
                let len = doc.rope.len_chars();
                let start = rng.below(len + 1);
                let end = (start + rng.below(12)).min(len);
                let mut new = String::new();
                for _ in 0..rng.below(3) {
                    new.push_str(PIECES[rng.below(PIECES.len())]);
                }
                doc.edit(start, end, &new);
                check(&doc, &format!("round {round} step {step}"));
            }
        }
    }

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
}
