//! U018 `hidden_payload`: characters that render as nothing and carry
//! data past a reader, in the shapes attacks use:
//!
//! * a run of variation selectors (U+FE00..U+FE0F, U+E0100..U+E01EF), one
//!   byte of a payload per selector (the "GlassWorm" npm and VS Code
//!   extension shape); a selector never follows another in real text;
//! * one variation selector after a character that has no variation with
//!   it: VS15/VS16 select text or emoji style after an emoji base or a
//!   keycap's `0`-`9`, `#`, `*`; VS1..VS14 select the variants Unicode
//!   standardises (mathematical symbols, CJK punctuation and ideographs,
//!   Myanmar, Phags-pa...); VS17 and up are Ideographic Variation
//!   Sequences after a CJK ideograph;
//! * tag characters (U+E0000..U+E007F) outside an emoji tag sequence
//!   (U+1F3F4, lowercase letters and digits as tags, U+E007F: the flags of
//!   England, Scotland, Wales), which spell ASCII text invisibly;
//! * private-use characters in source code and agent instruction files
//!   (`AGENTS.md`, `.cursorrules`...), where no font's icons belong and
//!   hidden instructions do.
//!
//! Its level holds in source code and agent instruction files; elsewhere
//! (prose, and test and Unicode data even in code: `fix_scope::data_file`)
//! findings are at most warnings. U011 leaves these
//! characters to this rule, so none gets two findings.

use std::ops::Range;
use std::path::Path;

use crate::rules::fix_scope::{Lang, data_file, scope_character_fix};
use crate::shown::Capped;
use crate::text::escape_shown;
use crate::{Diagnostic, Edit, Fix, Level, Rule};

/// The file names (or path endings) agents read as instructions: a hidden
/// character there is read by the model and by no reviewer.
const INSTRUCTION_FILES: &[&str] = &[
    "AGENTS.md",
    "AGENT.md",
    "CLAUDE.md",
    "CLAUDE.local.md",
    "GEMINI.md",
    ".cursorrules",
    ".windsurfrules",
    ".clinerules",
    ".roorules",
    ".goosehints",
    "copilot-instructions.md",
];

/// Directories whose every file is an agent's instructions.
const INSTRUCTION_DIRS: &[&str] = &[
    ".cursor/rules",
    ".windsurf/rules",
    ".clinerules",
    ".roo/rules",
    ".github/instructions",
    ".github/prompts",
];

/// Whether `path` is a file an agent reads as instructions.
pub(crate) fn is_agent_instructions(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if INSTRUCTION_FILES.contains(&name) {
        return true;
    }
    let parent = path.parent().and_then(|p| p.to_str()).unwrap_or("");
    INSTRUCTION_DIRS
        .iter()
        .any(|dir| is_or_ends_in_dir(parent, dir))
}

/// Whether the directory `parent` is `dir` or ends in `/dir`, a `\` in
/// `parent` read as `/` (Windows paths).
fn is_or_ends_in_dir(parent: &str, dir: &str) -> bool {
    let (parent, dir) = (parent.as_bytes(), dir.as_bytes());
    let is_slash = |b: u8| b == b'/' || b == b'\\';
    let same = |a: &[u8]| {
        a.iter()
            .zip(dir)
            .all(|(&x, &y)| x == y || (is_slash(x) && y == b'/'))
    };
    match parent.len().checked_sub(dir.len()) {
        Some(0) => same(parent),
        Some(k) => is_slash(parent[k - 1]) && same(&parent[k..]),
        None => false,
    }
}

fn is_variation_selector(c: char) -> bool {
    matches!(c, '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}')
}

fn is_tag(c: char) -> bool {
    matches!(c, '\u{E0000}'..='\u{E007F}')
}

fn is_private_use(c: char) -> bool {
    matches!(c, '\u{E000}'..='\u{F8FF}' | '\u{F0000}'..='\u{FFFFD}' | '\u{100000}'..='\u{10FFFD}')
}

/// A CJK ideograph, the base of an Ideographic Variation Sequence (and of
/// the CJK compatibility ideographs' standardized variants).
fn is_ideograph(c: char) -> bool {
    matches!(
        u32::from(c),
        0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x3FFFF
    )
}

/// A character with an emoji and a text presentation, or an emoji, that
/// VS15 (text) or VS16 (emoji) selects between: the keycap bases, `©`,
/// `®`, and the symbol and pictograph blocks emoji-variation-sequences.txt
/// draws its bases from.
fn has_presentation_variant(c: char) -> bool {
    matches!(
        u32::from(c),
        0x23 | 0x2A | 0x30..=0x39 | 0xA9 | 0xAE
            | 0x2000..=0x2BFF
            | 0x3030 | 0x303D | 0x3297 | 0x3299
            | 0x1F000..=0x1FAFF
    )
}

/// The blocks StandardizedVariants.txt takes VS1..VS14's bases from: the
/// short-form zero, quotation marks, mathematical symbols, CJK
/// punctuation, fullwidth forms and ideographs, Myanmar, Phags-pa,
/// Manichaean, Egyptian hieroglyphs.
fn has_standardized_variant(c: char) -> bool {
    is_ideograph(c)
        || matches!(
            u32::from(c),
            0x30 | 0x2018..=0x201D
                | 0x2000..=0x2BFF
                | 0x1000..=0x109F
                | 0x3000..=0x303F
                | 0xA840..=0xA877
                | 0xA9E0..=0xA9FF
                | 0xAA60..=0xAA7F
                | 0xFF00..=0xFFEF
                | 0x10AC0..=0x10AFF
                | 0x13000..=0x1343F
        )
}

/// Whether the selector `vs` after `base` selects a variant.
fn selects_something(base: Option<char>, vs: char) -> bool {
    let Some(base) = base else { return false };
    match vs {
        '\u{FE0E}' | '\u{FE0F}' => has_presentation_variant(base),
        '\u{FE00}'..='\u{FE0D}' => has_standardized_variant(base),
        _ => is_ideograph(base),
    }
}

/// The byte a variation selector stands for in the GlassWorm encoding:
/// VS1..VS16 are 0..15, VS17..VS256 are 16..255.
fn selector_byte(c: char) -> u8 {
    match u32::from(c) {
        v @ 0xFE00..=0xFE0F => (v - 0xFE00) as u8,
        v => (v - 0xE0100 + 16) as u8,
    }
}

/// Whether `bytes` hold the first bytes of a character of this rule:
/// `EF B8 80..8F` (U+FE00..U+FE0F), `EE` and `EF 80..A3` (private use),
/// `F3 A0` (tags, U+E0100..U+E01EF), `F3 B0..BF` and `F4` (planes 15, 16).
/// The walk over characters runs only on the few files that do: CJK text
/// is full of `E3`..`E9` and `EF BC` (fullwidth forms), and none of these.
fn may_hold_one(bytes: &[u8]) -> bool {
    let starts = |i: usize| match (bytes[i], bytes.get(i + 1).copied().unwrap_or(0)) {
        (0xEE | 0xF4, _) => true,
        (0xEF, b1) => {
            matches!(b1, 0x80..=0xA3)
                || (b1 == 0xB8 && bytes.get(i + 2).is_some_and(|&b2| b2 < 0x90))
        }
        (0xF3, b1) => b1 == 0xA0 || b1 >= 0xB0,
        _ => false,
    };
    // Most files are ASCII: `is_ascii` reads words at a time, far faster
    // than the search.
    !bytes.is_ascii()
        && (memchr::memchr3_iter(0xEE, 0xEF, 0xF3, bytes).any(starts)
            || memchr::memchr(0xF4, bytes).is_some())
}

/// What a run of hidden characters is.
#[cfg_attr(test, derive(Debug))]
enum Shape {
    /// Two or more variation selectors in a row, after `base`.
    SelectorRun {
        base: Option<char>,
        decoded: Vec<u8>,
    },
    /// One variation selector after `base`, which has no variant with it.
    StraySelector { base: Option<char>, selector: char },
    /// Tag characters spelling `text`.
    Tags { text: String },
    /// Private-use characters (source code and instruction files only).
    PrivateUse,
}

/// The findings in `bytes` (UTF-8, perhaps with ill-formed bytes) of the file at `path` onto `out`:
/// at most `shown` (0: all), a summary of the rest onto `summaries`.
/// `non_ascii`: for a well-formed file, the ranges outside which it is
/// ASCII, each starting and ending at a character; `text_candidates`: the
/// ranges in which a text candidate ends (`None`: anywhere).
#[allow(clippy::too_many_arguments)]
pub(crate) fn check(
    bytes: &[u8],
    path: &Path,
    non_ascii: Option<&[Range<usize>]>,
    text_candidates: Option<&[Range<usize>]>,
    configured_instructions: bool,
    level: Level,
    shown: usize,
    out: &mut Vec<Diagnostic>,
    summaries: &mut Vec<Diagnostic>,
) {
    if level == Level::Allow {
        return;
    }
    let instructions = configured_instructions || is_agent_instructions(path);
    let code_or_instructions = instructions || Lang::is_source(path, bytes);
    // Outside code and instructions only variation selectors and tags
    // count, and the second byte of each (`EF B8`, `F3 A0`) ends a text
    // candidate: only the blocks of those can hold one, and a selector's
    // or tag's first byte is at most one byte before its block. A
    // catalogue's or a manual's many non-ASCII blocks are not read.
    let (within, reach) = match (code_or_instructions, text_candidates) {
        (false, Some(blocks)) => (Some(blocks), 1),
        _ => (non_ascii, 0),
    };
    let whole = 0..bytes.len();
    let within = within.unwrap_or(std::slice::from_ref(&whole));
    let stretch = |r: &Range<usize>| r.start.saturating_sub(reach)..r.end.min(bytes.len());
    if !within.iter().any(|r| may_hold_one(&bytes[stretch(r)])) {
        return;
    }
    // A test's data and a Unicode table hold these characters on purpose:
    // shown there, but never at deny.
    let strict = code_or_instructions && data_file(path).is_none();
    let level = if strict {
        level
    } else {
        level.min(Level::Warn)
    };
    let mut capped = Capped::new(Rule::HiddenPayload, level, shown);
    let lang = Lang::of(path, bytes);
    // The well-formed stretches of the file: an ill-formed byte (U001's)
    // does not hide a payload beside it. A well-formed file is read in the
    // stretches that are not ASCII.
    let runs = match (non_ascii, utf8lint_codec::from_utf8(bytes)) {
        (Some(_), Ok(text)) => hidden_runs(text, code_or_instructions, within.iter().map(stretch)),
        _ => {
            let mut runs = Vec::new();
            let mut offset = 0;
            for chunk in bytes.utf8_chunks() {
                let text = chunk.valid();
                let found = hidden_runs(text, code_or_instructions, std::iter::once(0..text.len()));
                runs.extend(
                    found
                        .into_iter()
                        .map(|(span, shape)| (offset + span.start..offset + span.end, shape)),
                );
                offset += text.len() + chunk.invalid().len();
            }
            runs
        }
    };
    for (span, shape) in runs {
        let d = diagnostic(&shape, span.clone(), instructions);
        capped.push(
            |level| {
                let mut d = Diagnostic { level, ..d };
                scope_character_fix(bytes, lang, &mut d);
                d
            },
            span,
        );
    }
    capped.finish(out, summaries);
}

/// Every run of hidden characters in `text` that starts in one of the
/// ordered ranges `within` (one may start inside a character: only lead
/// bytes are looked for), with its shape;
/// private-use characters only when `private_use` (source code,
/// instruction files). Only a character whose lead byte is `EE`, `EF`,
/// `F3` or `F4` can be one: the search jumps from one such byte to the
/// next, and reads the character before a run (its base) backwards and
/// the run itself forwards, in the whole text.
fn hidden_runs(
    text: &str,
    private_use: bool,
    within: impl IntoIterator<Item = Range<usize>>,
) -> Vec<(Range<usize>, Shape)> {
    let mut found = Vec::new();
    let mut from = 0;
    for range in within {
        from = from.max(range.start);
        if from < range.end {
            from = runs_in(text, private_use, from, range.end, &mut found);
        }
    }
    found
}

/// The runs of [`hidden_runs`] that start in `from..stop`, onto `found`;
/// returns where the search stopped (past the last run, which may end
/// after `stop`).
fn runs_in(
    text: &str,
    private_use: bool,
    mut from: usize,
    stop: usize,
    found: &mut Vec<(Range<usize>, Shape)>,
) -> usize {
    let bytes = &text.as_bytes()[..stop];
    // The next `F4` (planes 16's lead, rare), found once and kept until
    // passed.
    let mut next_f4 = memchr::memchr(0xF4, &bytes[from..]).map(|k| from + k);
    loop {
        if from >= stop {
            break;
        }
        if next_f4.is_some_and(|k| k < from) {
            next_f4 = memchr::memchr(0xF4, &bytes[from..]).map(|k| from + k);
        }
        let lead = memchr::memchr3(0xEE, 0xEF, 0xF3, &bytes[from..]).map(|k| from + k);
        let Some(at) = [lead, next_f4].into_iter().flatten().min() else {
            break;
        };
        let c = text[at..]
            .chars()
            .next()
            .expect("a lead byte starts a character");
        let before = text[..at].chars().next_back();
        let run = |pred: fn(char) -> bool| {
            let run: Vec<char> = text[at..].chars().take_while(|&n| pred(n)).collect();
            let end = at + run.iter().map(|c| c.len_utf8()).sum::<usize>();
            (end, run)
        };
        let end = if is_variation_selector(c) {
            let (end, run) = run(is_variation_selector);
            if run.len() > 1 {
                let decoded = run.iter().map(|&s| selector_byte(s)).collect();
                found.push((
                    at..end,
                    Shape::SelectorRun {
                        base: before,
                        decoded,
                    },
                ));
            } else if !(selects_something(before, c)
                // Beside `-` a lone selector is a range's end in a
                // character class (`[\u{FE00}-\u{FE0F}]` written out).
                || before == Some('-')
                || text[end..].starts_with('-'))
            {
                found.push((
                    at..end,
                    Shape::StraySelector {
                        base: before,
                        selector: c,
                    },
                ));
            }
            end
        } else if is_tag(c) {
            let (end, run) = run(is_tag);
            if !(before == Some('\u{1F3F4}') && is_flag_tags(&run)) {
                let text = run
                    .iter()
                    .filter_map(|&t| char::from_u32(u32::from(t) - 0xE0000))
                    .filter(|a| a.is_ascii_graphic() || *a == ' ')
                    .collect();
                found.push((at..end, Shape::Tags { text }));
            }
            end
        } else if private_use && is_private_use(c) {
            let (end, _) = run(is_private_use);
            found.push((at..end, Shape::PrivateUse));
            end
        } else {
            at + c.len_utf8()
        };
        from = end;
    }
    from
}

/// Whether `tags` are an emoji tag sequence's: lowercase letters and
/// digits, ended by CANCEL TAG (`gbeng` for England's flag).
fn is_flag_tags(tags: &[char]) -> bool {
    match tags.split_last() {
        Some((&'\u{E007F}', spec)) => {
            !spec.is_empty()
                && spec
                    .iter()
                    .all(|&t| matches!(t, '\u{E0030}'..='\u{E0039}' | '\u{E0061}'..='\u{E007A}'))
        }
        _ => false,
    }
}

fn after(base: Option<char>) -> String {
    match base {
        Some(c) if c.is_whitespace() || c.is_control() => "after whitespace".to_owned(),
        Some(c) => format!(
            "after `{}` U+{:04X}",
            escape_shown(&c.to_string()),
            u32::from(c)
        ),
        None => "at the start of the file".to_owned(),
    }
}

fn diagnostic(shape: &Shape, span: Range<usize>, instructions: bool) -> Diagnostic {
    let (message, label, note) = match shape {
        Shape::SelectorRun { base, decoded } => {
            let shown = String::from_utf8_lossy(decoded);
            (
                format!(
                    "{} variation selectors in a row {}: a hidden payload of {} bytes",
                    decoded.len(),
                    after(*base),
                    decoded.len()
                ),
                "variation selectors here".to_owned(),
                format!(
                    "a character takes at most one variation selector; a run of them encodes one byte each (VS1..VS16 are 0..15, VS17..VS256 16..255), the shape of the GlassWorm payloads: read so, they are `{}`",
                    escape_shown(&shown)
                ),
            )
        }
        Shape::StraySelector { base, selector } => {
            let number = match u32::from(*selector) {
                v @ 0xFE00..=0xFE0F => v - 0xFE00 + 1,
                v => v - 0xE0100 + 17,
            };
            (
                format!(
                    "variation selector U+{:04X} VARIATION SELECTOR-{number} {} that selects nothing",
                    u32::from(*selector),
                    after(*base)
                ),
                format!("U+{:04X} here", u32::from(*selector)),
                "no variation sequence of this character with this selector exists (StandardizedVariants.txt, emoji-variation-sequences.txt, the Ideographic Variation Database): it renders as nothing and only carries data".to_owned(),
            )
        }
        Shape::Tags { text } => {
            let count = (span.end - span.start) / 4;
            (
                format!(
                    "{count} invisible tag character{} spelling `{}`",
                    if count == 1 { "" } else { "s" },
                    escape_shown(text)
                ),
                "tag characters here (U+E0000 block)".to_owned(),
                "tag characters render as nothing: outside an emoji flag sequence (U+1F3F4, tags, U+E007F) they smuggle text past a reader, into a prompt, a review or a commit".to_owned(),
            )
        }
        Shape::PrivateUse => (
            "private-use character in code or agent instructions".to_owned(),
            "private-use characters here".to_owned(),
            "a private-use character has no meaning outside an agreement (a font's icons): in code and in instructions an agent reads, it hides what a reviewer cannot see".to_owned(),
        ),
    };
    let mut d = Diagnostic::new(Rule::HiddenPayload, Level::Deny, span.clone(), message)
        .with_label(label)
        .with_note(note)
        .with_fix(Fix::unsafe_(
            "delete the hidden characters",
            vec![Edit::delete(span)],
        ));
    if instructions {
        d.notes.push(
            "this file is an agent's instructions: the model reads hidden text that no reviewer sees"
                .to_owned(),
        );
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte test admits every character of the rule and not the
    /// fullwidth forms and CJK text that share its lead bytes.
    #[test]
    fn the_byte_test_admits_exactly_the_rules_characters() {
        for c in [
            '\u{FE00}',
            '\u{FE0F}',
            '\u{E000}',
            '\u{F8FF}',
            '\u{E0001}',
            '\u{E0100}',
            '\u{E01EF}',
            '\u{F0000}',
            '\u{10FFFD}',
        ] {
            assert!(
                may_hold_one(format!("a{c}b").as_bytes()),
                "U+{:04X}",
                u32::from(c)
            );
        }
        for text in [
            "ｘ（全角）、日本語",
            "\u{FE10}\u{FE30}\u{FFFD}",
            "plain ascii",
            "😀👍🏽",
        ] {
            assert!(!may_hold_one(text.as_bytes()), "{text}");
        }
    }

    /// The search as it was first written, character by character: the
    /// reference the jumping search is tested against.
    fn hidden_runs_char_by_char(text: &str, private_use: bool) -> Vec<(Range<usize>, Shape)> {
        let mut found = Vec::new();
        let mut before: Option<char> = None;
        let mut chars = text.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            let run =
                |pred: fn(char) -> bool, chars: &mut std::iter::Peekable<std::str::CharIndices>| {
                    let mut end = at + c.len_utf8();
                    let mut run = vec![c];
                    while let Some(&(k, next)) = chars.peek().filter(|&&(_, n)| pred(n)) {
                        end = k + next.len_utf8();
                        run.push(next);
                        chars.next();
                    }
                    (end, run)
                };
            if is_variation_selector(c) {
                let (end, run) = run(is_variation_selector, &mut chars);
                if run.len() > 1 {
                    let decoded = run.iter().map(|&s| selector_byte(s)).collect();
                    found.push((
                        at..end,
                        Shape::SelectorRun {
                            base: before,
                            decoded,
                        },
                    ));
                } else if !(selects_something(before, c)
                    || before == Some('-')
                    || chars.peek().is_some_and(|&(_, n)| n == '-'))
                {
                    found.push((
                        at..end,
                        Shape::StraySelector {
                            base: before,
                            selector: c,
                        },
                    ));
                }
                before = run.last().copied();
            } else if is_tag(c) {
                let (end, run) = run(is_tag, &mut chars);
                if !(before == Some('\u{1F3F4}') && is_flag_tags(&run)) {
                    let text = run
                        .iter()
                        .filter_map(|&t| char::from_u32(u32::from(t) - 0xE0000))
                        .filter(|a| a.is_ascii_graphic() || *a == ' ')
                        .collect();
                    found.push((at..end, Shape::Tags { text }));
                }
                before = run.last().copied();
            } else if private_use && is_private_use(c) {
                let (end, run) = run(is_private_use, &mut chars);
                found.push((at..end, Shape::PrivateUse));
                before = run.last().copied();
            } else {
                before = Some(c);
            }
        }
        found
    }

    #[test]
    fn the_jumping_search_finds_what_the_character_walk_finds() {
        use proptest::prelude::*;
        let pieces: &[&str] = &[
            "a",
            "-",
            " ",
            "\u{FE0F}",
            "\u{FE0E}",
            "\u{FE00}",
            "\u{E0100}",
            "\u{E01EF}",
            "\u{E0061}",
            "\u{E007F}",
            "\u{E0020}",
            "\u{1F3F4}",
            "\u{E000}",
            "\u{F8FF}",
            "\u{F0000}",
            "\u{10FFFD}",
            "\u{2764}",
            "#",
            "\u{4E00}",
            "\u{EF00}",
            "\u{FF21}",
            "é",
            "\u{1F600}",
            "\u{F3A0}",
        ];
        proptest!(ProptestConfig::with_cases(4096), |(picks in proptest::collection::vec(0..pieces.len(), 0..24), private_use: bool, block in 1usize..9)| {
            let text: String = picks.iter().map(|&p| pieces[p]).collect();
            let want = format!("{:?}", hidden_runs_char_by_char(&text, private_use));
            prop_assert_eq!(format!("{:?}", hidden_runs(&text, private_use, std::iter::once(0..text.len()))), want.clone());
            // Read in the stretches that are not ASCII only, as the scan
            // reports them (blocks that hold a non-ASCII byte, merged).
            let mut within: Vec<Range<usize>> = Vec::new();
            for (i, chunk) in text.as_bytes().chunks(block).enumerate() {
                if chunk.is_ascii() {
                    continue;
                }
                let (mut start, mut end) = (i * block, i * block + chunk.len());
                while !text.is_char_boundary(start) { start -= 1; }
                while !text.is_char_boundary(end) { end += 1; }
                match within.last_mut() {
                    Some(last) if last.end >= start => last.end = end,
                    _ => within.push(start..end),
                }
            }
            prop_assert_eq!(format!("{:?}", hidden_runs(&text, private_use, within.iter().cloned())), want);
        });
    }
}
