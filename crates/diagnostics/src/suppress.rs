//! Inline suppressions: `utf8lint: allow(rule, ...)` and
//! `utf8lint: file-allow(rule, ...)`, found in the bytes.
//!
//! The marker is ASCII, so it is found in any file, even one with
//! ill-formed sequences or in a legacy encoding; no comment syntax is
//! parsed, so it works in every format that has comments (`#`, `//`,
//! `/* */`, `<!-- -->`, `;`, `--`, `%`). Formats without comments (JSON)
//! use per-path levels in `utf8lint.toml` instead.
//!
//! * `utf8lint: allow(...)` after code on its line (a trailing comment)
//!   suppresses the named rules' findings that start on that line; alone
//!   on its line (nothing but the comment there), it suppresses those that
//!   start on the next line, as ESLint's `-next-line` form. A comment is
//!   alone when only whitespace and comment openers (`#`, `//`, `/*`,
//!   `<!--`, `--`, `;`, `%`, ...) come before the marker, and nothing but
//!   whitespace follows a block comment's closer (`*/`, `-->`) after it.
//! * `utf8lint: file-allow(...)` in the first [`FILE_ALLOW_LINES`] lines
//!   suppresses the named rules in the whole file.
//!
//! Rules are named by code or name, separated by commas or spaces. A
//! suppression that suppresses nothing, names no rule, is not closed, or a
//! `file-allow` below the first lines, is reported as
//! [`Rule::UnusedSuppression`] (U015), as ruff's RUF100 reports unused
//! `noqa` comments: a stale suppression would hide the next real defect
//! on that line.
//!
//! A marker inside a code span (after an odd number of backticks on its
//! line) is prose quoting the syntax, as in Markdown and doc comments
//! that explain it, not a suppression: no comment syntax puts a real one
//! there.

use std::ops::Range;

use crate::candidates::DIRECTIVE_PAIR;
use memchr::memmem;

use crate::{Diagnostic, Level, Rule, escape_shown};

/// `file-allow` counts only in this many first lines, where a file's
/// header comments are (a shebang, a license, a modeline).
pub const FILE_ALLOW_LINES: usize = 10;

/// What every suppression starts with.
const MARKER: &[u8] = b"utf8lint:";

/// A suppression's rule list ends within this many bytes of its marker; a
/// longer one is a malformed suppression, so hostile input cannot make the
/// search for `)` cost more than this per marker.
const MAX_DIRECTIVE_BYTES: usize = 256;

// One bit per rule in the masks below.
const _: () = assert!(Rule::ALL.len() <= 64);

fn bit(rule: Rule) -> u64 {
    1 << rule.index()
}

/// A line holding one or more `allow` suppressions.
#[derive(Debug)]
struct Line {
    /// Its first byte.
    start: usize,
    /// Just past its `\n` (or the end of the file).
    end: usize,
    /// Just past the next line's `\n`.
    next_end: usize,
    /// Just past its last `allow` suppression.
    last_end: usize,
    /// Only comment openers and whitespace before its first marker.
    alone_before: bool,
    /// Nothing but the comment after its last suppression: judged once
    /// the line's last suppression is known, so that a line of many
    /// markers is read once, not once per marker.
    alone_after: bool,
    /// The rules its suppressions name.
    allowed: u64,
    /// Those that suppressed something.
    used: u64,
}

/// Where a suppression applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scope {
    /// `allow`: the index of its [`Line`].
    Line(usize),
    /// `file-allow` in the first lines.
    File,
    /// `file-allow` too far down: applies nowhere.
    LateFile,
}

/// One suppression comment: plain offsets and bits, no heap, so that a
/// file of a million suppressions costs a small constant per suppression.
/// The names are read again from the bytes for the few findings shown.
#[derive(Debug)]
struct Directive {
    /// From the marker to the closing `)` (or the end of what was read).
    span: Range<usize>,
    /// Where its rule list starts (it ends at the `)` or where reading
    /// stopped).
    list_start: usize,
    scope: Scope,
    /// The rules it names.
    rules: u64,
    /// It names something that is no rule.
    unknown: bool,
    /// No `)` on the line within [`MAX_DIRECTIVE_BYTES`].
    unclosed: bool,
}

impl Directive {
    /// Its rule list in `bytes`.
    fn list<'a>(&self, bytes: &'a [u8]) -> &'a [u8] {
        let end = self.span.end - usize::from(!self.unclosed);
        &bytes[self.list_start..end]
    }
}

/// Every suppression in a file.
#[derive(Debug, Default)]
pub(crate) struct Suppressions {
    directives: Vec<Directive>,
    lines: Vec<Line>,
    file_allowed: u64,
    file_used: u64,
    /// Bytes read to find, place and judge the suppressions after the
    /// marker search: linear in the file (the cost tests count it).
    read: usize,
}

/// Why a suppression is reported as one that does nothing.
#[derive(Debug, Clone, Copy)]
enum Verdict {
    Unclosed,
    LateFile,
    NoRule,
    Unknown,
    /// These rules it names had no finding to suppress.
    Unused(u64),
}

/// Whether offsets, asked in increasing order, are inside a backtick code
/// span: an odd number of backticks before them on their line.
#[derive(Debug, Default)]
struct CodeSpans {
    /// Where counting stopped.
    counted_to: usize,
    /// Whether an odd number of backticks lie between the start of that
    /// line and `counted_to`.
    odd: bool,
}

impl CodeSpans {
    fn inside(&mut self, bytes: &[u8], at: usize, read: &mut usize) -> bool {
        let mut from = self.counted_to;
        *read += at - from;
        if let Some(nl) = memchr::memrchr(b'\n', &bytes[from..at]) {
            from += nl + 1;
            self.odd = false;
        }
        let ticks = memchr::memchr_iter(b'`', &bytes[from..at]).count();
        self.odd ^= ticks % 2 == 1;
        self.counted_to = at;
        self.odd
    }
}

/// Where [`MARKER`] starts in `bytes`, in order: anywhere, or (`blocks`)
/// around the blocks in which its [`DIRECTIVE_PAIR`] ends.
fn markers<'a>(
    bytes: &'a [u8],
    blocks: Option<&'a [Range<usize>]>,
) -> impl Iterator<Item = usize> + 'a {
    let searched: Vec<Range<usize>> = match blocks {
        None => std::iter::once(0..bytes.len()).collect(),
        Some(blocks) => {
            // A pair ending at `e` is the marker's bytes `PAIR_END - 1` and
            // `PAIR_END`: the marker spans `e - PAIR_END..e - PAIR_END + MARKER.len()`.
            let mut merged: Vec<Range<usize>> = Vec::with_capacity(blocks.len());
            for b in blocks {
                let from = b.start.saturating_sub(PAIR_END);
                let to = (b.end + MARKER.len() - 1 - PAIR_END).min(bytes.len());
                match merged.last_mut() {
                    Some(last) if last.end >= from => last.end = last.end.max(to),
                    _ => merged.push(from..to),
                }
            }
            merged
        }
    };
    searched.into_iter().flat_map(move |range| {
        let start = range.start;
        memmem::find_iter(&bytes[range], MARKER).map(move |at| start + at)
    })
}

/// Where [`DIRECTIVE_PAIR`] ends in [`MARKER`].
const PAIR_END: usize = 4;

// The pair the validator looks for is in the marker, where `markers` says.
const _: () =
    assert!(MARKER[PAIR_END - 1] == DIRECTIVE_PAIR[0] && MARKER[PAIR_END] == DIRECTIVE_PAIR[1]);

/// Whether `byte` can be part of a word, so that `notutf8lint:` is no marker.
fn is_word(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'-'
}

impl Suppressions {
    /// Finds every suppression in `bytes`; `None` when there is none (the
    /// common case, costing one substring search).
    pub(crate) fn find(bytes: &[u8]) -> Option<Suppressions> {
        Suppressions::find_in(bytes, None)
    }

    /// [`Suppressions::find`], reading only `blocks` (in order, not
    /// overlapping) when given: those in which the validator found
    /// [`DIRECTIVE_PAIR`], outside which no marker lies. On a
    /// valid file that spares a second pass over every byte.
    pub(crate) fn find_in(bytes: &[u8], blocks: Option<&[Range<usize>]>) -> Option<Suppressions> {
        let mut found = Suppressions::default();
        // Lines counted so far (up to FILE_ALLOW_LINES) and where counting
        // stopped, so that counting is linear in the file.
        let (mut lines_before, mut counted_to) = (0usize, 0usize);
        // Backticks on the current line before the last marker, counted
        // from where the last count stopped, so that the count is linear.
        let mut ticks = CodeSpans::default();
        for at in markers(bytes, blocks) {
            if at > 0 && is_word(bytes[at - 1]) {
                continue;
            }
            if ticks.inside(bytes, at, &mut found.read) {
                continue;
            }
            let mut p = at + MARKER.len();
            while p < bytes.len() && matches!(bytes[p], b' ' | b'\t') {
                p += 1;
            }
            let rest = &bytes[p..];
            let (file, open) = if rest.starts_with(b"allow(") {
                (false, p + b"allow(".len())
            } else if rest.starts_with(b"file-allow(") {
                (true, p + b"file-allow(".len())
            } else {
                // Prose that mentions utf8lint: not a suppression.
                continue;
            };
            let window = &bytes[open..bytes.len().min(open + MAX_DIRECTIVE_BYTES)];
            let line_len = memchr::memchr(b'\n', window).unwrap_or(window.len());
            let close = memchr::memchr(b')', &window[..line_len]);
            let list = &window[..close.unwrap_or(line_len)];
            found.read += open - at + list.len();
            let (rules, unknown) = named(list);
            let span = at..open + close.map_or(line_len, |c| c + 1);
            let scope = if file {
                if counted_to < at && lines_before < FILE_ALLOW_LINES {
                    found.read += at - counted_to;
                    lines_before += memchr::memchr_iter(b'\n', &bytes[counted_to..at]).count();
                    counted_to = at;
                }
                if lines_before < FILE_ALLOW_LINES {
                    Scope::File
                } else {
                    Scope::LateFile
                }
            } else {
                let i = found.line_of(bytes, at);
                found.lines[i].last_end = span.end;
                Scope::Line(i)
            };
            let mask = if close.is_none() { 0 } else { rules };
            match scope {
                Scope::Line(i) => found.lines[i].allowed |= mask,
                Scope::File => found.file_allowed |= mask,
                Scope::LateFile => {}
            }
            found.directives.push(Directive {
                span,
                list_start: open,
                scope,
                rules,
                unknown,
                unclosed: close.is_none(),
            });
        }
        for line in &mut found.lines {
            let rest = &bytes[line.last_end.min(line.end)..line.end];
            found.read += rest.len();
            line.alone_after = only_comment_after(rest);
        }
        (!found.directives.is_empty()).then_some(found)
    }

    /// The index of the [`Line`] holding `at`, adding it if it is new
    /// (markers come in order, so it is the last one or a new one).
    fn line_of(&mut self, bytes: &[u8], at: usize) -> usize {
        if let Some(last) = self.lines.last()
            && at < last.end
        {
            return self.lines.len() - 1;
        }
        let start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |p| p + 1);
        let end_of = |from: usize| {
            memchr::memchr(b'\n', &bytes[from..]).map_or(bytes.len(), |p| from + p + 1)
        };
        let end = end_of(at);
        let next_end = if end < bytes.len() { end_of(end) } else { end };
        self.read += next_end - start;
        self.lines.push(Line {
            start,
            end,
            next_end,
            last_end: at,
            alone_before: only_comment_before(&bytes[start..at]),
            alone_after: true,
            allowed: 0,
            used: 0,
        });
        self.lines.len() - 1
    }

    /// Whether a finding of `rule` starting at `offset` is suppressed;
    /// marks the suppression used.
    fn suppresses(&mut self, rule: Rule, offset: usize) -> bool {
        let b = bit(rule);
        // Only the last two lines starting at or before `offset` can cover
        // it: its own line and the one before.
        let after = self.lines.partition_point(|l| l.start <= offset);
        for i in (after.saturating_sub(2)..after).rev() {
            let line = &mut self.lines[i];
            if line.allowed & b != 0 && line.reach().contains(&offset) {
                line.used |= b;
                return true;
            }
        }
        if self.file_allowed & b != 0 {
            self.file_used |= b;
            return true;
        }
        false
    }

    /// For each `(rule, offset)` of findings made outside [`crate::check`]
    /// (the language server's findings in an editor's unsaved text),
    /// whether a suppression in `bytes` covers it.
    pub(crate) fn covered(bytes: &[u8], findings: &[(Rule, usize)]) -> Vec<bool> {
        match Suppressions::find(bytes) {
            None => vec![false; findings.len()],
            Some(mut s) => findings
                .iter()
                .map(|&(rule, offset)| s.suppresses(rule, offset))
                .collect(),
        }
    }

    /// Removes the suppressed findings from `diagnostics`, whose last
    /// `summaries` entries are per-rule summaries of findings not shown,
    /// then adds a U015 finding at `level` for each suppression in `bytes`
    /// that did nothing (none when `level` is allow), at most `cap` of them
    /// (0: no cap) and then one summary with the exact count of the rest.
    /// Only the findings shown are made: the rest are counted.
    pub(crate) fn apply(
        mut self,
        bytes: &[u8],
        diagnostics: Vec<Diagnostic>,
        summaries: usize,
        level: Level,
        cap: usize,
    ) -> Vec<Diagnostic> {
        let split = diagnostics.len() - summaries.min(diagnostics.len());
        // A rule with findings not shown may have had one under any
        // suppression: none of its suppressions is called unused.
        let mut hidden = 0u64;
        let mut kept = Vec::with_capacity(diagnostics.len());
        let mut kept_summaries = Vec::new();
        for (i, d) in diagnostics.into_iter().enumerate() {
            if d.rule == Rule::UnusedSuppression || d.rule == Rule::NonUtf8Path {
                kept.push(d);
                continue;
            }
            let summary = i >= split;
            if summary {
                hidden |= bit(d.rule);
            }
            if self.suppresses(d.rule, d.span.start) {
                continue;
            }
            if summary {
                kept_summaries.push(d);
            } else {
                kept.push(d);
            }
        }
        if level != Level::Allow {
            let unused = self.unused_findings(bytes, hidden, level, cap);
            kept.extend(unused.shown);
            if let Some(first) = unused.first_not_shown {
                kept_summaries.push(unused_summary(first, unused.not_shown, cap, level));
            }
            kept.sort_by_key(|d| (d.span.start, d.rule));
        }
        kept.extend(kept_summaries);
        kept
    }

    /// The U015 findings, in file order, less those an
    /// `allow(unused_suppression)` covers: the other rules' first, so that
    /// a suppression of `unused_suppression` is used by what it covers,
    /// then the `unused_suppression` of suppressions that covered nothing.
    /// At most `cap` (0: all) are made; the rest are counted.
    fn unused_findings(&mut self, bytes: &[u8], hidden: u64, level: Level, cap: usize) -> Unused {
        let this = bit(Rule::UnusedSuppression);
        // Which suppressions did nothing for the other rules, and is no
        // `allow(unused_suppression)` covering that: deciding marks those
        // used, which the second judgement reads.
        let mut reported = Vec::with_capacity(self.directives.len());
        for i in 0..self.directives.len() {
            let d = &self.directives[i];
            let at = d.span.start;
            let unused = self.verdict(d, hidden | this).is_some();
            reported.push(unused && !self.suppresses(Rule::UnusedSuppression, at));
        }
        let mut out = Unused::default();
        let mut take = |d: &Directive, verdict: Verdict| {
            if cap == 0 || out.shown.len() < cap {
                out.shown.push(self.finding(bytes, d, verdict, level));
            } else {
                out.first_not_shown.get_or_insert_with(|| d.span.clone());
                out.not_shown += 1;
            }
        };
        for (d, reported) in self.directives.iter().zip(reported) {
            if reported && let Some(verdict) = self.verdict(d, hidden | this) {
                take(d, verdict);
            }
            // Those reported whatever they name (no `)`, too late, no rule
            // or an unknown one) were judged above.
            let judged = d.unclosed || d.scope == Scope::LateFile || d.rules == 0 || d.unknown;
            if !judged
                && d.rules & this != 0
                && let Some(verdict) = self.verdict(d, !this)
            {
                take(d, verdict);
            }
        }
        out
    }

    /// Why `d` did nothing, if it did nothing; the rules in `hidden` count
    /// as used.
    fn verdict(&self, d: &Directive, hidden: u64) -> Option<Verdict> {
        if d.unclosed {
            return Some(Verdict::Unclosed);
        }
        if d.scope == Scope::LateFile {
            return Some(Verdict::LateFile);
        }
        if d.unknown {
            return Some(Verdict::Unknown);
        }
        if d.rules == 0 {
            return Some(Verdict::NoRule);
        }
        let used = match d.scope {
            Scope::Line(i) => self.lines[i].used,
            _ => self.file_used,
        } | hidden;
        let unused = d.rules & !used;
        (unused != 0).then_some(Verdict::Unused(unused))
    }

    /// The U015 finding for `d`, which did nothing for `verdict`'s reason.
    fn finding(&self, bytes: &[u8], d: &Directive, verdict: Verdict, level: Level) -> Diagnostic {
        let new = |message: String| {
            Diagnostic::new(Rule::UnusedSuppression, level, d.span.clone(), message)
                .with_label("this suppression")
        };
        let (rules, unknown) = names(d.list(bytes));
        match verdict {
            Verdict::Unclosed => {
                new("suppression comment without a closing `)` on its line".into()).with_help(
                    "write `utf8lint: allow(rule)` or `utf8lint: file-allow(rule)`, rules by code or name",
                )
            }
            Verdict::LateFile => new(format!(
                "`file-allow` counts only in the first {FILE_ALLOW_LINES} lines of a file"
            ))
            .with_help(
                "move it to the top of the file, or use `allow(...)` on the line before the finding",
            ),
            Verdict::NoRule => new("suppression comment names no rule".into()),
            Verdict::Unknown => {
                let names: Vec<String> = unknown
                    .iter()
                    .map(|n| format!("`{}`", escape_shown(n)))
                    .collect();
                new(format!("suppression names no rule: {}", names.join(", ")))
                    .with_help("`utf8lint rules` lists the codes and names")
            }
            Verdict::Unused(unused) => {
                let unused: Vec<&str> = rules
                    .iter()
                    .filter(|r| unused & bit(**r) != 0)
                    .map(|r| r.name())
                    .collect();
                let place = match d.scope {
                    Scope::Line(i) if self.lines[i].alone() => "on the next line",
                    Scope::Line(_) => "on this line",
                    _ => "in this file",
                };
                new(format!(
                    "unused suppression: no `{}` finding {place}",
                    unused.join("`, `")
                ))
                .with_help("remove it: a stale suppression hides the next real defect here")
            }
        }
    }
}

/// The U015 findings of a file: those shown, and how many are not, from
/// where.
#[derive(Default)]
struct Unused {
    shown: Vec<Diagnostic>,
    first_not_shown: Option<Range<usize>>,
    not_shown: usize,
}

/// The summary of `count` U015 findings not shown, the first at `span`.
fn unused_summary(span: Range<usize>, count: usize, cap: usize, level: Level) -> Diagnostic {
    let rule = Rule::UnusedSuppression;
    Diagnostic::new(
        rule,
        level,
        span,
        format!(
            "{count} more `{}` finding{} in this file not shown",
            rule.name(),
            if count == 1 { "" } else { "s" }
        ),
    )
    .with_label("the first one not shown")
    .with_note(format!(
        "at most {cap} `{}` findings are shown per file",
        rule.name()
    ))
    .standing_for(count)
}

impl Line {
    /// Whether the line holds nothing but comments.
    fn alone(&self) -> bool {
        self.alone_before && self.alone_after
    }

    /// The bytes whose findings its suppressions cover: its own line for a
    /// trailing comment, the next line for a comment alone on its line.
    fn reach(&self) -> Range<usize> {
        if self.alone() {
            self.end..self.next_end
        } else {
            self.start..self.end
        }
    }
}

/// Whether `prefix` (a line up to a marker) holds only whitespace and the
/// characters comment openers are made of: `#`, `//`, `/*`, `*`, `<!--`,
/// `--`, `;`, `%`, `!`, `{-`, `(*`, `--[[`, `'`, `"`, `::`, `..`.
fn only_comment_before(prefix: &[u8]) -> bool {
    prefix.iter().all(|b| {
        b.is_ascii_whitespace()
            || matches!(
                b,
                b'#' | b'/'
                    | b'*'
                    | b';'
                    | b'%'
                    | b'!'
                    | b'-'
                    | b'<'
                    | b'{'
                    | b'('
                    | b'['
                    | b'\''
                    | b'"'
                    | b':'
                    | b'.'
            )
    })
}

/// Whether `rest` (a line after a suppression) is still the comment: no
/// block comment closer (`*/`, `-->`, `-}`, `*)`, `]]`) followed by
/// anything but whitespace. A line comment runs to the end of the line, so
/// a reason written after the suppression is part of it.
fn only_comment_after(rest: &[u8]) -> bool {
    let closer_end = [&b"*/"[..], b"-->", b"-}", b"*)", b"]]"]
        .iter()
        .filter_map(|c| memmem::rfind(rest, c).map(|at| at + c.len()))
        .max();
    closer_end.is_none_or(|end| rest[end..].iter().all(u8::is_ascii_whitespace))
}

/// The rules named in a suppression's list (one bit each), and whether it
/// names something that is no rule: without allocating, once per
/// suppression.
fn named(list: &[u8]) -> (u64, bool) {
    let (mut rules, mut unknown) = (0, false);
    for name in each_name(list) {
        match Rule::find(&String::from_utf8_lossy(name)) {
            Some(rule) => rules |= bit(rule),
            None => unknown = true,
        }
    }
    (rules, unknown)
}

/// The rules named in a suppression's list, in order, and the names that
/// are none: for the message of a finding shown.
fn names(list: &[u8]) -> (Vec<Rule>, Vec<String>) {
    let (mut rules, mut unknown) = (Vec::new(), Vec::new());
    for name in each_name(list) {
        let text = String::from_utf8_lossy(name);
        match Rule::find(&text) {
            Some(rule) if !rules.contains(&rule) => rules.push(rule),
            Some(_) => {}
            None => unknown.push(text.into_owned()),
        }
    }
    (rules, unknown)
}

/// The names in a suppression's list, separated by commas or spaces.
fn each_name(list: &[u8]) -> impl Iterator<Item = &[u8]> {
    list.split(|b| matches!(b, b',' | b' ' | b'\t' | b'\r'))
        .filter(|n| !n.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(rule: Rule, at: usize) -> Diagnostic {
        Diagnostic::new(rule, Level::Warn, at..at + 1, "x")
    }

    #[test]
    fn a_comment_alone_on_its_line_covers_the_next_line_only() {
        let text = b"a\n# utf8lint: allow(stray_feff)\nb X\nc X\n";
        let s = Suppressions::find(text).unwrap();
        let on = |at| finding(Rule::StrayFeff, at);
        let kept = s.apply(text, vec![on(0), on(2), on(34), on(38)], 0, Level::Warn, 0);
        // The next line (34) is suppressed; the line before (0), the
        // comment's own line (2) and the line after the next (38) are not.
        assert_eq!(
            kept.iter().map(|d| d.span.start).collect::<Vec<_>>(),
            [0, 2, 38]
        );
    }

    #[test]
    fn a_trailing_comment_covers_its_own_line_only() {
        let text = b"x = 1  # utf8lint: allow(stray_feff)\ny X\n";
        let s = Suppressions::find(text).unwrap();
        let on = |at| finding(Rule::StrayFeff, at);
        let kept = s.apply(text, vec![on(4), on(39)], 0, Level::Warn, 0);
        assert_eq!(kept.iter().map(|d| d.span.start).collect::<Vec<_>>(), [39]);
    }

    #[test]
    fn which_comments_are_alone_on_their_line() {
        // (line, whether a finding on the next line is covered)
        let cases: [(&[u8], bool); 14] = [
            (b"# utf8lint: allow(U002)", true),
            (b"  // utf8lint: allow(U002)", true),
            (b"/// utf8lint: allow(U002)", true),
            (b"<!-- utf8lint: allow(U002) -->", true),
            (b"/* utf8lint: allow(U002) */", true),
            (b" * utf8lint: allow(U002)", true),
            (b"-- utf8lint: allow(U002)", true),
            (b";; utf8lint: allow(U002)", true),
            (b"% utf8lint: allow(U002)", true),
            (b"utf8lint: allow(U002)", true),
            (b"# utf8lint: allow(U002) because the test needs it", true),
            (b"/* utf8lint: allow(U002) */ int x;", false),
            (b"x  # utf8lint: allow(U002)", false),
            (b"}); // utf8lint: allow(U002)", false),
        ];
        for (line, next) in cases {
            let mut text = line.to_vec();
            text.extend_from_slice(b"\r\nX\n");
            let s = Suppressions::find(&text).unwrap();
            let kept = s.apply(
                &text,
                vec![finding(Rule::StrayFeff, line.len() + 2)],
                0,
                Level::Warn,
                0,
            );
            let covered = kept.iter().all(|d| d.rule != Rule::StrayFeff);
            assert_eq!(covered, next, "{}", String::from_utf8_lossy(line));
        }
    }

    #[test]
    fn unused_says_which_line_it_meant() {
        let text = b"# utf8lint: allow(U002)\nx\ny # utf8lint: allow(U002)\n";
        let s = Suppressions::find(text).unwrap();
        let kept = s.apply(text, Vec::new(), 0, Level::Warn, 0);
        let messages: Vec<&str> = kept.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "unused suppression: no `stray_feff` finding on the next line",
                "unused suppression: no `stray_feff` finding on this line",
            ]
        );
    }

    #[test]
    fn unused_unknown_unclosed_and_late_are_reported() {
        let mut text = b"x // utf8lint: allow(U001)\ny // utf8lint: allow(nope, U002)\nz utf8lint: allow(U002\n".to_vec();
        text.extend(b"\n".repeat(FILE_ALLOW_LINES));
        text.extend(b"# utf8lint: file-allow(U001)\n");
        let s = Suppressions::find(&text).unwrap();
        let kept = s.apply(
            &text,
            vec![finding(Rule::InvalidUtf8, 0)],
            0,
            Level::Warn,
            0,
        );
        let messages: Vec<&str> = kept.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "suppression names no rule: `nope`",
                "suppression comment without a closing `)` on its line",
                "`file-allow` counts only in the first 10 lines of a file",
            ]
        );
        assert!(kept.iter().all(|d| d.rule == Rule::UnusedSuppression));
        // Allowed: nothing reported, the finding still suppressed.
        let s = Suppressions::find(&text).unwrap();
        assert!(
            s.apply(
                &text,
                vec![finding(Rule::InvalidUtf8, 0)],
                0,
                Level::Allow,
                0
            )
            .is_empty()
        );
    }

    #[test]
    fn prose_and_words_are_no_marker() {
        assert!(Suppressions::find(b"utf8lint: a linter\nnotutf8lint: allow(U001)\n").is_none());
    }

    #[test]
    fn code_spans_quote_the_syntax() {
        let text = b"write `utf8lint: allow(U001)` or `# utf8lint: file-allow(U002)`\n";
        assert!(Suppressions::find(text).is_none());
        // A closed span before the marker, and a new line after an
        // unclosed one: both real.
        let text = b"`x` utf8lint: allow(U001)\nodd ` here\n# utf8lint: allow(U002)\n";
        let s = Suppressions::find(text).unwrap();
        assert_eq!(s.directives.len(), 2);
    }

    #[test]
    fn a_rule_with_hidden_findings_is_never_called_unused() {
        let text = b"# utf8lint: allow(U002)\n\n\nX\n";
        let summary = finding(Rule::StrayFeff, 27);
        let s = Suppressions::find(text).unwrap();
        let kept = s.apply(text, vec![summary], 1, Level::Warn, 0);
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].rule, Rule::StrayFeff);
    }

    #[test]
    fn file_allow_covers_everything_and_marks_used() {
        let text = b"#!/bin/sh\n# utf8lint: file-allow(invalid_utf8 stray_feff)\n";
        let s = Suppressions::find(text).unwrap();
        let kept = s.apply(
            text,
            vec![
                finding(Rule::InvalidUtf8, 5000),
                finding(Rule::StrayFeff, 9000),
            ],
            0,
            Level::Warn,
            0,
        );
        assert!(kept.is_empty(), "{kept:?}");
    }

    #[test]
    fn unused_suppressions_are_capped_with_an_exact_count() {
        let text = "x // utf8lint: allow(U002)\n".repeat(1000);
        let s = Suppressions::find(text.as_bytes()).unwrap();
        let kept = s.apply(text.as_bytes(), Vec::new(), 0, Level::Warn, 50);
        assert_eq!(kept.len(), 51);
        assert!(kept.iter().all(|d| d.rule == Rule::UnusedSuppression));
        assert_eq!(
            kept[50].message,
            "950 more `unused_suppression` findings in this file not shown"
        );
        // Unsorted: the summary is last, at the first one not shown.
        assert_eq!(kept[50].span.start, 50 * 27 + 5);
    }

    #[test]
    fn allow_unused_suppression_silences_u015() {
        // Covering the next line's stale suppression: used, so no U015.
        let text = b"# utf8lint: allow(unused_suppression)\nx // utf8lint: allow(U002)\n";
        let s = Suppressions::find(text).unwrap();
        let kept = s.apply(text, Vec::new(), 0, Level::Warn, 0);
        assert!(kept.is_empty(), "{kept:?}");
        // On its own line, beside a stale one.
        let text = b"x // utf8lint: allow(U002, unused_suppression)\n";
        let s = Suppressions::find(text).unwrap();
        assert!(s.apply(text, Vec::new(), 0, Level::Warn, 0).is_empty());
        // Covering nothing, it is itself unused.
        let text = b"# utf8lint: allow(unused_suppression)\nclean\n\n\nz\n";
        let s = Suppressions::find(text).unwrap();
        let kept = s.apply(text, Vec::new(), 0, Level::Warn, 0);
        let messages: Vec<&str> = kept.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            ["unused suppression: no `unused_suppression` finding on the next line"]
        );
        // A file-wide one.
        let text = b"# utf8lint: file-allow(unused_suppression)\n\n\nx // utf8lint: allow(U002)\n";
        let s = Suppressions::find(text).unwrap();
        assert!(s.apply(text, Vec::new(), 0, Level::Warn, 0).is_empty());
    }

    /// The bytes read after the marker search for `n` suppressions on one
    /// line, and the line's length.
    fn read_for_one_line_of(n: usize) -> (usize, usize) {
        let mut line = "x = 1 ".to_string();
        line.push_str(&"utf8lint: allow(U002) ".repeat(n));
        line.push('\n');
        let s = Suppressions::find(line.as_bytes()).unwrap();
        assert_eq!(s.directives.len(), n);
        (s.read, line.len())
    }

    #[test]
    fn many_markers_on_one_line_are_read_in_linear_work() {
        // Judging whether the line is only a comment after its last
        // suppression once per marker read the rest of the line each time:
        // quadratic in the markers.
        let mut last = None;
        for n in [2_000, 4_000, 8_000, 16_000] {
            let (read, len) = read_for_one_line_of(n);
            assert!(read <= 3 * len, "{n} markers: {read} bytes read for {len}");
            if let Some(before) = last {
                assert!(
                    read <= before * 21 / 10,
                    "{n} markers: {read} after {before}"
                );
            }
            last = Some(read);
        }
    }

    #[test]
    fn a_suppression_costs_a_small_constant_and_unused_ones_past_the_cap_are_counted() {
        // No heap per suppression: what a million of them hold is their
        // count times these sizes.
        assert!(std::mem::size_of::<Directive>() <= 64);
        assert!(std::mem::size_of::<Line>() <= 64);
        let text = "x // utf8lint: allow(U002)\n".repeat(100_000);
        let mut s = Suppressions::find(text.as_bytes()).unwrap();
        let unused = s.unused_findings(text.as_bytes(), 0, Level::Warn, 50);
        assert_eq!(unused.shown.len(), 50);
        assert_eq!(unused.not_shown, 99_950);
        assert_eq!(unused.first_not_shown, Some(50 * 27 + 5..50 * 27 + 26));
    }

    #[test]
    fn messages_name_the_rules_in_the_order_written() {
        let text = b"x // utf8lint: allow(U002, invalid_utf8, U002)\n";
        let s = Suppressions::find(text).unwrap();
        let kept = s.apply(text, Vec::new(), 0, Level::Warn, 0);
        assert_eq!(
            kept[0].message,
            "unused suppression: no `stray_feff`, `invalid_utf8` finding on this line"
        );
    }
}
