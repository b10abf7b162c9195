//! The human format (rustc's, through annotate-snippets) and the concise
//! one-line format.

use std::fmt::Write;
use std::ops::Range;

use annotate_snippets::{AnnotationKind, Group, Level as SnippetLevel, Origin, Renderer, Snippet};
use utf8lint_codec::{LossyMap, decode_lossy};

use crate::locate::Position;
use crate::text::{escape_shown, is_hidden};
use crate::{Applicability, Diagnostic, Level, Locator, Rule};

/// How the human format looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenderOptions {
    /// ANSI colours.
    pub color: bool,
    /// Lines are cut around the span to fit this many columns.
    pub term_width: usize,
    /// How the help says to apply a fix.
    pub fix_via: FixVia,
}

/// Where the user applies fixes, which the help names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FixVia {
    /// `utf8lint check --fix` on the command line.
    #[default]
    CommandLine,
    /// A pre-commit hook, where `utf8lint` may not be on `PATH`: the
    /// hook's `args` or the `utf8lint-fix` hook.
    PreCommit,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            color: false,
            term_width: 100,
            fix_via: FixVia::CommandLine,
        }
    }
}

/// At most this many bytes of a line before the span go to the renderer,
/// which then trims the line to the terminal width. Up to this length the
/// whole line prefix is kept, so the renderer's `--> path:line:col` is
/// exact; a longer prefix is cut (and the location given separately). It is
/// more than a terminal shows, and small enough that rendering stays cheap
/// per finding: with 64 KiB, 10,000 findings on one 1 MiB line took 5.8 s
/// to render (decoding, escaping and measuring context never shown); with
/// 1 KiB, 1.1 s.
const CONTEXT_BEFORE: usize = 1024;
/// At most this many bytes of the span itself are shown (a span is rarely
/// longer than a few bytes; a longer one is cut with `…`).
const SPAN_SHOWN: usize = 1024;
/// At most this many bytes of a line after the span.
const CONTEXT_AFTER: usize = 2 * 1024;

/// U+FEFF has no glyph: the shown line has this in its place. Both are three
/// bytes in UTF-8, so spans need no adjusting.
const VISIBLE_FEFF: char = '◌';

/// The Unicode control picture for a C0 control or DEL (`␀`, `␛`, `␡`),
/// as rustc shows them in source lines; tab is left to the renderer.
fn control_picture(c: char) -> Option<char> {
    match c {
        '\t' => None,
        '\0'..='\u{1F}' => char::from_u32(0x2400 + c as u32),
        '\u{7F}' => Some('\u{2421}'),
        _ => None,
    }
}

/// Renders one diagnostic in rustc's format: `error[U001]: message`,
/// `--> path:line:col`, the line shown lossily with the span under it, then
/// `= note:` and `= help:` lines. Never panics, whatever the bytes.
pub fn render_human(
    d: &Diagnostic,
    bytes: &[u8],
    path: &str,
    locator: &mut Locator<'_>,
    options: &RenderOptions,
) -> String {
    let level = snippet_level(d.level);
    let pos = locator.locate(d.span.start);
    let message = escape_shown(&d.message);
    let mut group = Group::with_title(level.primary_title(message.as_str()).id(d.rule.code()));
    let mut elements: Vec<Element> = Vec::new();
    if d.rule == Rule::NonUtf8Path {
        elements.push(Element::Origin(Origin::path(path.to_owned())));
    } else {
        let shown = shown_line(bytes, &d.span, &pos);
        let label = if d.label.is_empty() {
            None
        } else {
            Some(escape_shown(&d.label))
        };
        if shown.cut_before {
            // The renderer would count columns from the cut; say where the
            // span really is, then show the window.
            elements.push(Element::Origin(
                Origin::path(path.to_owned())
                    .line(pos.line)
                    .char_column(pos.column),
            ));
            elements.push(Element::Snippet(
                shown.text, None, pos.line, shown.span, label,
            ));
        } else {
            elements.push(Element::Snippet(
                shown.text,
                Some(path.to_owned()),
                pos.line,
                shown.span,
                label,
            ));
        }
    }
    let mut related = Vec::new();
    for range in d.related.iter().take(4) {
        let p = locator.locate(range.start);
        let raw = bytes.get(range.clone()).unwrap_or_default();
        related.push(format!(
            "also at {}:{}: `{}`",
            p.line,
            p.column,
            crate::text::escape_bytes(raw, 4)
        ));
    }
    for note in d.notes.iter().chain(related.iter()) {
        elements.push(Element::Note(escape_shown(note)));
    }
    for help in &d.help {
        elements.push(Element::Help(escape_shown(help)));
    }
    if let Some(fix) = &d.fix {
        let how = match (fix.applicability(), options.fix_via) {
            (Applicability::Safe, FixVia::CommandLine) => " (safe fix: `utf8lint check --fix`)",
            (Applicability::Unsafe, FixVia::CommandLine) => {
                " (unsafe fix: `utf8lint check --fix --unsafe-fixes`)"
            }
            (Applicability::Safe, FixVia::PreCommit) => {
                " (safe fix: the `utf8lint-fix` hook, or `args: [--fix]` on this one)"
            }
            (Applicability::Unsafe, FixVia::PreCommit) => {
                " (unsafe fix: `args: [--fix, --unsafe-fixes]` on the hook)"
            }
            (Applicability::DisplayOnly, _) => "",
        };
        // A title quotes the file's text (`replace `Ã¢Â\u{80}Â\u{99}` with
        // `’``): escaped as the message is, so no control reaches the
        // terminal.
        elements.push(Element::Help(escape_shown(&format!(
            "{}{how}",
            fix.title()
        ))));
        for other in &d.alternatives {
            elements.push(Element::Help(escape_shown(&format!(
                "or: {} (offered by the language server; `--fix` applies the one above)",
                other.title()
            ))));
        }
    }
    for element in &elements {
        group = match element {
            Element::Origin(origin) => group.element(origin.clone()),
            Element::Snippet(text, snippet_path, line, span, label) => {
                let annotation = AnnotationKind::Primary.span(span.clone());
                let annotation = match label {
                    Some(label) => annotation.label(label.as_str()),
                    None => annotation,
                };
                let snippet = Snippet::source(text.as_str())
                    .line_start(*line)
                    .annotation(annotation);
                let snippet = match snippet_path {
                    Some(p) => snippet.path(p.as_str()),
                    None => snippet,
                };
                group.element(snippet)
            }
            Element::Note(text) => group.element(SnippetLevel::NOTE.message(text.as_str())),
            Element::Help(text) => group.element(SnippetLevel::HELP.message(text.as_str())),
        };
    }
    let report: [Group<'_>; 1] = [group];
    let renderer = if options.color {
        Renderer::styled()
    } else {
        Renderer::plain()
    }
    .term_width(options.term_width);
    renderer.render(&report)
}

enum Element {
    Origin(Origin<'static>),
    /// Source text, its path (None when cut), first line, span, label.
    Snippet(String, Option<String>, usize, Range<usize>, Option<String>),
    Note(String),
    Help(String),
}

fn snippet_level(level: Level) -> SnippetLevel<'static> {
    match level {
        Level::Deny => SnippetLevel::ERROR,
        Level::Warn => SnippetLevel::WARNING,
        Level::Allow => SnippetLevel::NOTE,
    }
}

struct Shown {
    text: String,
    span: Range<usize>,
    /// The line was cut before the span, so columns in `text` are not the
    /// line's columns.
    cut_before: bool,
}

/// The span's line (or a window of it around the span), decoded lossily,
/// with invisible U+FEFF made visible, and the span moved to match. At most
/// `CONTEXT_BEFORE + SPAN_SHOWN + CONTEXT_AFTER` (+ 6) bytes of the line are
/// decoded and escaped, however long the line and the span: the work and
/// the text are bounded per finding.
fn shown_line(bytes: &[u8], span: &Range<usize>, pos: &Position) -> Shown {
    let span_start = span.start.min(bytes.len());
    let span_end = span
        .end
        .clamp(span_start, pos.line_end.max(span_start))
        .min(span_start.saturating_add(SPAN_SHOWN));
    let mut start = pos
        .line_start
        .max(span_start.saturating_sub(CONTEXT_BEFORE));
    let mut end = pos.line_end.min(span_end.saturating_add(CONTEXT_AFTER));
    // Never cut a character in two: move off continuation bytes.
    for _ in 0..3 {
        if start > pos.line_start && bytes.get(start).is_some_and(|b| b & 0xC0 == 0x80) {
            start -= 1;
        }
        if end < pos.line_end && bytes.get(end).is_some_and(|b| b & 0xC0 == 0x80) {
            end += 1;
        }
    }
    let window = bytes.get(start..end).unwrap_or_default();
    let map = LossyMap::new(window);
    let mut text = String::new();
    if start > pos.line_start {
        text.push('…');
    }
    let decoded = decode_lossy(window);
    // The line break itself is never shown; a CR before it neither.
    let decoded = decoded.strip_suffix('\r').unwrap_or(&decoded);
    let lossy_s = map.to_lossy(span_start - start);
    let lossy_e = map.to_lossy(span_end.min(end) - start);
    // Hidden characters become visible escapes (U+FEFF a dotted circle),
    // so the span's offsets are moved as the text grows.
    let (mut s, mut e) = (None, None);
    for (i, c) in decoded.char_indices() {
        if s.is_none() && i >= lossy_s {
            s = Some(text.len());
        }
        if e.is_none() && i >= lossy_e {
            e = Some(text.len());
        }
        if c == '\u{FEFF}' {
            text.push(VISIBLE_FEFF);
        } else if let Some(picture) = control_picture(c) {
            // rustc's way: one column, visible, never a terminal control.
            text.push(picture);
        } else if is_hidden(c) {
            let _ = write!(text, "\\u{{{:X}}}", c as u32);
        } else {
            text.push(c);
        }
    }
    let s = s.unwrap_or(text.len());
    let e = e.unwrap_or(text.len());
    let e = e.min(text.len()).max(s.min(text.len()));
    if end < pos.line_end {
        text.push('…');
    }
    Shown {
        span: s.min(text.len())..e,
        text,
        cut_before: start > pos.line_start,
    }
}

/// One line: `path:line:col: error[U001] message`.
pub fn render_concise(d: &Diagnostic, path: &str, pos: &Position) -> String {
    format!(
        "{path}:{}:{}: {}[{}] {}",
        pos.line,
        pos.column,
        d.level.report_name(),
        d.rule.code(),
        escape_shown(&d.message)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes of text the shown line may have: every byte of the window may
    /// become an escape (`\u{202E}`, 8 bytes for 3) or a U+FFFD (3 for 1).
    const SHOWN_MAX: usize = 4 * (CONTEXT_BEFORE + SPAN_SHOWN + CONTEXT_AFTER + 6);

    fn shown_at(bytes: &[u8], span: Range<usize>) -> Shown {
        let pos = Locator::new(bytes).locate(span.start);
        shown_line(bytes, &span, &pos)
    }

    /// Nothing a finding quotes reaches the terminal raw: its message,
    /// label, notes, help and its fixes' titles all escape the file's
    /// controls (a C1 control among mojibake's bytes).
    #[test]
    fn fix_titles_are_escaped_as_the_message_is() {
        let bytes = "upperdir\u{E2}\u{80}\u{99}s\n".as_bytes();
        let span = 8..14;
        let title = format!("replace `{}` with `’`", "\u{E2}\u{80}\u{99}");
        let d = Diagnostic::new(
            Rule::Mojibake,
            crate::Level::Warn,
            span.clone(),
            format!("mojibake: `{}`", "\u{E2}\u{80}\u{99}"),
        )
        .with_fix(crate::Fix::unsafe_(
            title.clone(),
            vec![crate::Edit::replace(span, "’".as_bytes())],
        ));
        let mut d = d;
        d.alternatives.push(crate::Fix::unsafe_(title, Vec::new()));
        let shown = render_human(
            &d,
            bytes,
            "a.po",
            &mut Locator::new(bytes),
            &RenderOptions::default(),
        );
        assert!(
            !shown.chars().any(|c| ('\u{80}'..='\u{9F}').contains(&c)),
            "{shown}"
        );
        let helps: Vec<&str> = shown.lines().filter(|l| l.contains("help:")).collect();
        assert_eq!(helps.len(), 2, "{shown}");
        assert!(helps.iter().all(|l| l.contains("\\u{80}")), "{shown}");
    }

    #[test]
    fn a_line_of_hidden_characters_is_cut_and_escaped_within_bounds() {
        // 12 MiB of U+202E (each shown as `\u{202E}`), a bad byte in the middle.
        let half = "\u{202E}".repeat(2 << 20).into_bytes();
        let mut bytes = half.clone();
        bytes.push(0xFF);
        bytes.extend_from_slice(&half);
        let at = half.len();
        let shown = shown_at(&bytes, at..at + 1);
        assert!(shown.cut_before);
        assert!(shown.text.len() <= SHOWN_MAX, "{} bytes", shown.text.len());
        assert!(shown.text.starts_with('…') && shown.text.ends_with('…'));
        assert_eq!(&shown.text[shown.span.clone()], "\u{FFFD}");
        assert!(shown.text[..shown.span.start].ends_with("\\u{202E}"));
    }

    #[test]
    fn a_span_as_long_as_a_giant_line_is_cut_within_bounds() {
        let bytes = b"\xFF".repeat(16 << 20);
        let shown = shown_at(&bytes, 0..bytes.len());
        assert!(!shown.cut_before);
        assert!(shown.text.len() <= SHOWN_MAX, "{} bytes", shown.text.len());
        assert_eq!(shown.span.start, 0);
        assert!(shown.text.ends_with('…'));
    }

    #[test]
    fn a_rendered_finding_on_a_giant_line_is_small() {
        let mut bytes = b"x".repeat(32 << 20);
        bytes[20 << 20] = 0xFF;
        let d = Diagnostic::new(
            Rule::InvalidUtf8,
            Level::Deny,
            (20 << 20)..(20 << 20) + 1,
            "bad",
        );
        let out = render_human(
            &d,
            &bytes,
            "giant.txt",
            &mut Locator::new(&bytes),
            &RenderOptions::default(),
        );
        assert!(out.len() < 2048, "{out}");
        assert!(
            out.contains(&format!("giant.txt:1:{}", (20 << 20) + 1)),
            "{out}"
        );
    }
}
