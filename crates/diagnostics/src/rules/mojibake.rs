//! U008 `mojibake`: valid UTF-8 that says the wrong thing. Text was UTF-8,
//! something read its bytes as windows-1252, ISO-8859-1 or Mac Roman and
//! wrote the characters it saw back as UTF-8: `é` (`C3 A9`) became `Ã©`,
//! `’` (`E2 80 99`) became `â€™`, a byte-order mark became `ï»¿`, and in
//! Mac Roman `ç` became `√ß`. The damage is reversible: each character of
//! the run stands for one byte, and those bytes are UTF-8 again.
//!
//! Every run starts with the character a UTF-8 lead byte `C2`..`F4` reads
//! as: in windows-1252 and ISO-8859-1 that is `Â`..`ô`, whose own UTF-8
//! starts with `C3`; in Mac Roman `¬`, `√`, `≈`, `∆`, `‚` and `Ô`, whose
//! UTF-8 starts with `C2`, `E2` or `C3`. So the pass only stops at `C2`,
//! `C3` and `E2` ([`at`]).
//!
//! Precision over recall. Not flagged, on purpose:
//! * a lone `Ã` or `Â` (Portuguese `SÃO`, Vietnamese): no UTF-8 character
//!   follows from it;
//! * a run whose repair is no plausible text: IPA letters, combining marks
//!   and C1 controls (`É»` in `«CAFÉ»` would be `ɻ`), private use;
//! * a single two-byte repair whose case contradicts the word it sits in
//!   (`MAÇÃ` + no-break space would be `à`);
//! * runs right beside another non-ASCII character that is no part of them
//!   (random or mixed-script text);
//! * Mac Roman runs next to digits or away from letters (`2√π` is
//!   mathematics, not `ù`);
//! * a line with 3 or more characters that no chain's byte reads as
//!   (`ξ`, `я`, `中`): text in other scripts, among which `Ð¢` is chance;
//! * a line that also holds the repair (`"Ã©" => "é"`): a table of
//!   repairs, mojibake on purpose;
//! * damage no standard chain explains (`FranȺois`, `MontrȨal` in the
//!   seeds: one letter of an unusual block inside an ASCII word, whose
//!   bytes were lost): there is nothing exact to repair it to.

use std::ops::Range;

use crate::{Diagnostic, Edit, Fix, Level, Rule};

/// Messages show at most this many characters of a run and of its repair
/// (the fix holds all of it).
const MAX_SHOWN_CHARS: usize = 64;

/// A line with this many characters that no chain reads a byte as is text
/// in other scripts, and a run in it is left alone.
const MAX_OTHER_SCRIPT_CHARS: usize = 3;

/// A decoding that made the mojibake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Chain {
    /// windows-1252, the web's reading of ISO-8859-1.
    Windows1252,
    /// ISO-8859-1 proper: `80`..`9F` read as C1 controls.
    Latin1,
    /// Mac Roman (`x-mac-roman`).
    MacRoman,
}

impl Chain {
    fn name(self) -> &'static str {
        match self {
            Chain::Windows1252 => "windows-1252",
            Chain::Latin1 => "ISO-8859-1",
            Chain::MacRoman => "Mac Roman",
        }
    }
}

/// A damaged run: where it is and what it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    /// The run's bytes in the file.
    pub span: Range<usize>,
    /// The text it was.
    pub repaired: String,
    /// The decoding that damaged it (the outer layer's).
    pub chain: Chain,
    /// 1, or 2 when it was damaged twice (`ÃƒÂ©`).
    pub layers: u8,
}

/// windows-1252's characters for `80`..`9F` (U+FFFD where it has none:
/// those bytes read as the C1 control of the same value, as ISO-8859-1
/// and "sloppy" decoders do).
const WINDOWS_1252_HIGH: [char; 32] = [
    '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8D}', 'Ž', '\u{8F}',
    '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9D}', 'ž', 'Ÿ',
];

/// Mac Roman's characters for `80`..`FF`.
const MAC_ROMAN_HIGH: [char; 128] = [
    'Ä', 'Å', 'Ç', 'É', 'Ñ', 'Ö', 'Ü', 'á', 'à', 'â', 'ä', 'ã', 'å', 'ç', 'é', 'è', 'ê', 'ë', 'í',
    'ì', 'î', 'ï', 'ñ', 'ó', 'ò', 'ô', 'ö', 'õ', 'ú', 'ù', 'û', 'ü', '†', '°', '¢', '£', '§', '•',
    '¶', 'ß', '®', '©', '™', '´', '¨', '≠', 'Æ', 'Ø', '∞', '±', '≤', '≥', '¥', 'µ', '∂', '∑', '∏',
    'π', '∫', 'ª', 'º', 'Ω', 'æ', 'ø', '¿', '¡', '¬', '√', 'ƒ', '≈', '∆', '«', '»', '…', '\u{A0}',
    'À', 'Ã', 'Õ', 'Œ', 'œ', '–', '—', '“', '”', '‘', '’', '÷', '◊', 'ÿ', 'Ÿ', '⁄', '€', '‹', '›',
    'ﬁ', 'ﬂ', '‡', '·', '‚', '„', '‰', 'Â', 'Ê', 'Á', 'Ë', 'È', 'Í', 'Î', 'Ï', 'Ì', 'Ó', 'Ô',
    '\u{F8FF}', 'Ò', 'Ú', 'Û', 'Ù', 'ı', 'ˆ', '˜', '¯', '˘', '˙', '˚', '¸', '˝', '˛', 'ˇ',
];

/// The byte `c` stands for in windows-1252 or ISO-8859-1 (`80`..`FF`), and
/// whether only ISO-8859-1 reads it so (a C1 control).
fn latin_byte(c: char) -> Option<(u8, bool)> {
    let v = u32::from(c);
    match v {
        0xA0..=0xFF => Some((v as u8, false)),
        0x80..=0x9F => Some((v as u8, true)),
        _ => WINDOWS_1252_HIGH
            .iter()
            .position(|&w| w == c)
            .map(|i| (0x80 + i as u8, false)),
    }
}

fn mac_byte(c: char) -> Option<u8> {
    MAC_ROMAN_HIGH
        .iter()
        .position(|&m| m == c)
        .map(|i| 0x80 + i as u8)
}

/// The Mac Roman characters that start its runs: `¬` `√` `≈` `∆` (`C2`,
/// `C3`, `C5`, `C6`: Latin-1 and Latin Extended-A letters), `‚` (`E2`:
/// punctuation) and `Ô` (`EF`). Its other lead bytes read as `«`, `»`,
/// `–`, `—`, ..., which stand before letters in ordinary text too often to
/// be evidence (`—Écoute` would be Cyrillic); `ƒ` (`C4`: `č`, `ğ`, `ı`)
/// is itself UTF-8 `C6 92`, a byte the pass does not stop at.
const MAC_ROMAN_LEADS: [char; 6] = ['¬', '√', '≈', '∆', '‚', 'Ô'];

/// The byte `c` stands for in `chain` (`80`..`FF`), and whether only
/// ISO-8859-1 reads it so.
fn byte_in(c: char, chain: Chain) -> Option<(u8, bool)> {
    match chain {
        Chain::MacRoman => mac_byte(c).map(|b| (b, false)),
        _ => latin_byte(c),
    }
}

/// Whether `c` is something text holds, as a repair gives it: letters of
/// the Latin, Greek, Cyrillic, Hebrew and Arabic blocks, Latin-1's signs,
/// and from three bytes on anything but private use and noncharacters.
/// IPA, spacing modifiers and combining marks (`U+0250`..`U+036F`) and C1
/// controls are what ordinary Latin-1 pairs decode to by accident.
fn plausible(c: char) -> bool {
    let v = u32::from(c);
    match c.len_utf8() {
        2 => {
            matches!(v, 0xA0..=0x24F | 0x370..=0x3FF | 0x400..=0x52F | 0x5D0..=0x5EA | 0x600..=0x6FF)
        }
        3 => !matches!(v, 0xE000..=0xF8FF | 0xFDD0..=0xFDEF | 0xFFFE..=0xFFFF),
        4 => v < 0xF0000 && (v & 0xFFFE) != 0xFFFE,
        _ => false,
    }
}

/// The repair of one layer of `text` in `chain`: the characters it had
/// (the bytes its characters stand for, read as UTF-8 sequence by
/// sequence, as long as each is a whole multi-byte character), how many
/// bytes of `text` they take, and whether an ISO-8859-1-only character was
/// among them. Stops at the first character that is no part of a
/// sequence, so a candidate that starts no run costs a character or two.
/// Not checked for plausibility: an inner layer may hold C1 controls and
/// modifiers (`Ã„Â\u{8D}` is `Ä\u{8D}` is `č`).
fn one_layer(text: &str, chain: Chain) -> Option<(String, usize, bool)> {
    let (mut out, mut used, mut latin1) = (String::new(), 0, false);
    let mut chars = text.char_indices();
    'runs: loop {
        let mut ahead = chars.clone();
        let Some((_, c)) = ahead.next() else { break };
        let Some((lead, only_latin1)) = byte_in(c, chain) else {
            break;
        };
        let len = match lead {
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF4 => 4,
            _ => break,
        };
        let (mut sequence, mut seen_latin1, mut end) = ([lead, 0, 0, 0], only_latin1, 0);
        for slot in sequence.iter_mut().take(len).skip(1) {
            match ahead
                .next()
                .and_then(|(i, c)| Some((i + c.len_utf8(), byte_in(c, chain)?)))
            {
                Some((next, (byte @ 0x80..=0xBF, l))) => {
                    *slot = byte;
                    seen_latin1 |= l;
                    end = next;
                }
                _ => break 'runs,
            }
        }
        // Overlong forms and surrogates are no characters.
        let Ok(decoded) = std::str::from_utf8(&sequence[..len]) else {
            break;
        };
        out.push_str(decoded);
        (used, latin1, chars) = (end, latin1 | seen_latin1, ahead);
    }
    (used > 0).then_some((out, used, latin1))
}

/// Whether `repaired` occurs on `line` as text of its own, not inside other
/// damage (Vietnamese `áº¿` holds an `á` that is no repair's): no
/// non-ASCII character right before or after it.
fn stands_alone_on(line: &str, repaired: &str) -> bool {
    line.match_indices(repaired).any(|(i, _)| {
        let before = line[..i].chars().next_back();
        let after = line[i + repaired.len()..].chars().next();
        before.is_none_or(|c| c.is_ascii()) && after.is_none_or(|c| c.is_ascii())
    })
}

/// Mac Roman's signs of mathematics: after `√`, `≈` or `∆` they are
/// mathematics (`2√π`, `x ≈ ∞`) unless the run is inside a word.
const MAC_ROMAN_MATH: [char; 12] = ['≠', '∞', '±', '≤', '≥', '∂', '∑', '∏', 'π', '∫', 'Ω', 'µ'];

/// What starts at a candidate: nothing, or a run the chains explain,
/// reported or (by a guard above) left alone; either way the pass goes on
/// after its end, so that no byte is looked at twice.
#[derive(Debug)]
pub(crate) enum Candidate {
    /// No run starts here.
    Nothing,
    /// A run the guards leave alone, ending at this offset.
    LeftAlone(usize),
    /// A run to report.
    Damage(Found),
}

/// What starts at `offset` of `stretch` (a character boundary).
pub(crate) fn at(stretch: &str, offset: usize) -> Candidate {
    match run_at(stretch, offset) {
        None => Candidate::Nothing,
        Some((end, None)) => Candidate::LeftAlone(end),
        Some((_, Some(found))) => Candidate::Damage(found),
    }
}

/// The run starting at `offset` (its end) and whether it is reported.
fn run_at(stretch: &str, offset: usize) -> Option<(usize, Option<Found>)> {
    let text = stretch.get(offset..)?;
    let first = text.chars().next()?;
    let chain = if latin_byte(first).is_some_and(|(b, _)| (0xC2..=0xF4).contains(&b)) {
        Chain::Windows1252
    } else if MAC_ROMAN_LEADS.contains(&first) {
        Chain::MacRoman
    } else {
        return None;
    };
    let (raw, used, latin1) = one_layer(text, chain)?;
    let end = offset + used;
    let chain = if latin1 { Chain::Latin1 } else { chain };
    // A second layer: the first repair is itself a whole run.
    let (repaired, layers) = match one_layer(&raw, chain) {
        Some((inner, inner_used, _)) if inner_used == raw.len() && inner.chars().all(plausible) => {
            (inner, 2)
        }
        _ if raw.chars().all(plausible) => (raw, 1),
        _ => return Some((end, None)),
    };
    let before = stretch[..offset].chars().next_back();
    let after = text[used..].chars().next();
    // One two-byte lowercase repair after a capital, in a word that goes on
    // in capitals or stops (`MAÇÃ` + no-break space): an upper-case word
    // (`São` goes on in lower case and is damage).
    let weak = repaired.chars().count() == 1 && repaired.len() == 2;
    if weak
        && before.is_some_and(char::is_uppercase)
        && repaired.chars().all(char::is_lowercase)
        && !after.is_some_and(char::is_lowercase)
    {
        return Some((end, None));
    }
    // A run sits among ASCII (in a word, between spaces, at a line's
    // edge): a run's neighbours that are non-ASCII and no part of it are
    // text in their own right, and the pair is chance (random or
    // mixed-script text: vim's encrypted sample, `'Ã¤Ã '` in a test).
    let foreign = |c: Option<char>| c.is_some_and(|c| !c.is_ascii() && !c.is_whitespace());
    if foreign(before) || foreign(after) {
        return Some((end, None));
    }
    if chain == Chain::MacRoman && text[first.len_utf8()..].starts_with(MAC_ROMAN_MATH) {
        let letter = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphabetic());
        let digit = |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit());
        if digit(before) || digit(after) || !(letter(before) || letter(after)) {
            return Some((end, None));
        }
    }
    let line = line_of(stretch, offset);
    if stands_alone_on(line, &repaired) {
        return Some((end, None));
    }
    // A line holding characters no chain's byte reads as (`ξ`, `я`, `中`)
    // is text of other scripts, among which a pair like `Ð¢` is chance.
    let unexplained = line
        .chars()
        .filter(|&c| !c.is_ascii() && latin_byte(c).is_none() && mac_byte(c).is_none())
        .take(MAX_OTHER_SCRIPT_CHARS)
        .count();
    if unexplained >= MAX_OTHER_SCRIPT_CHARS {
        return Some((end, None));
    }
    Some((
        end,
        Some(Found {
            span: offset..end,
            repaired,
            chain,
            layers,
        }),
    ))
}

/// How far around a run its line is read for the guards: a run's context,
/// so that a run costs the same on a 32 MiB line as on a short one.
const LINE_CONTEXT: usize = 256;

/// The line around `offset` in `stretch`, at most [`LINE_CONTEXT`] bytes
/// either side of it.
fn line_of(stretch: &str, offset: usize) -> &str {
    let floor = stretch.floor_char_boundary(offset.saturating_sub(LINE_CONTEXT));
    let ceil = stretch.ceil_char_boundary((offset + LINE_CONTEXT).min(stretch.len()));
    let start =
        memchr::memrchr(b'\n', &stretch.as_bytes()[floor..offset]).map_or(floor, |i| floor + i + 1);
    let end = memchr::memchr(b'\n', &stretch.as_bytes()[offset..ceil]).map_or(ceil, |i| offset + i);
    &stretch[start..end]
}

/// The U008 diagnostic for a run.
pub(crate) fn diagnostic(bytes: &[u8], found: Found, level: Level) -> Diagnostic {
    let Found {
        span,
        repaired,
        chain,
        layers,
    } = found;
    let shorten = |text: &str| match text.char_indices().nth(MAX_SHOWN_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    };
    let damaged = shorten(&String::from_utf8_lossy(&bytes[span.clone()]));
    let full_repair = repaired;
    let repaired = shorten(&full_repair);
    let how = format!(
        "encoded as UTF-8, read as {} and encoded again{}",
        chain.name(),
        if layers == 2 { ", twice" } else { "" }
    );
    let at_start = span.start == 0 || (span.start == 3 && bytes.starts_with(b"\xEF\xBB\xBF"));
    if repaired == "\u{FEFF}" {
        let d = Diagnostic::new(
            Rule::Mojibake,
            level,
            span.clone(),
            if at_start {
                format!("a byte-order mark {how}: `{damaged}` at the start of the file")
            } else {
                format!("U+FEFF {how}: `{damaged}`")
            },
        )
        .with_label("the UTF-8 byte-order mark `EF BB BF`, damaged")
        .with_note(
            "a tool read the file's BOM as text and saved it back: every reader now shows these characters",
        )
        .with_help("delete it");
        return d.with_fix(Fix::unsafe_(
            format!("delete `{damaged}`"),
            vec![Edit::delete(span)],
        ));
    }
    Diagnostic::new(
        Rule::Mojibake,
        level,
        span.clone(),
        format!("mojibake: `{damaged}` is `{repaired}` {how}"),
    )
    .with_label(format!("this was `{repaired}`"))
    .with_note(format!(
        "the UTF-8 bytes of `{repaired}` read as {} are `{damaged}`",
        chain.name()
    ))
    .with_fix(Fix::unsafe_(
        format!("replace `{damaged}` with `{repaired}`"),
        vec![Edit::replace(span, full_repair.into_bytes())],
    ))
}

/// Whether a run can start at `i` of well-formed `bytes`, from the bytes
/// alone: a windows-1252 lead character `Â`..`ô` (`C3 82`..`C3 B4`)
/// followed by a character that a continuation byte is in windows-1252 or
/// ISO-8859-1, or Mac Roman's `¬` (`C2 AC`), `√`, `≈`, `∆`, `‚` (`E2 ..`),
/// `Ô`, followed by a non-ASCII byte (every run's second character is one).
/// Accented letters in ordinary text (`é` before an ASCII letter, `ção`)
/// stop here, in a few instructions. The codec's fused validator finds the
/// same starts, looser (`utf8lint_codec::ends_text_candidate`).
pub(crate) fn may_start_run(bytes: &[u8], i: usize) -> bool {
    let next_non_ascii = |at: usize| bytes.get(at).is_some_and(|&b| b >= 0x80);
    match bytes[i] {
        // The second character is a continuation byte read as windows-1252
        // or ISO-8859-1: `C2 80`..`C2 BF`, `Š`/`Œ`/`Ž`/`š`/`œ`/`ž`/`Ÿ` (`C5`),
        // `ƒ` (`C6`), `ˆ`/`˜` (`CB`), `€`, `‚`, `’`, `…` and the rest (`E2`).
        // (`Ô`, a Mac Roman lead, before any non-ASCII byte.)
        0xC3 => match bytes.get(i + 1) {
            Some(0x94) => next_non_ascii(i + 2),
            Some(0x82..=0xB4) => matches!(bytes.get(i + 2), Some(0xC2 | 0xC5 | 0xC6 | 0xCB | 0xE2)),
            _ => false,
        },
        0xC2 => bytes.get(i + 1) == Some(&0xAC) && next_non_ascii(i + 2),
        0xE2 => {
            matches!(
                bytes.get(i + 1..i + 3),
                Some([0x88, 0x9A] | [0x89, 0x88] | [0x88, 0x86] | [0x80, 0x9A])
            ) && next_non_ascii(i + 3)
        }
        _ => false,
    }
}

/// Bytes read before a candidate, and at first after it, as its text: the
/// guards' context, and room for a run that the window grows for.
const WINDOW: usize = LINE_CONTEXT + 8;

/// The well-formed text of `bytes[from..to]` (well-formed UTF-8) cut to
/// whole characters inside those bounds.
fn window(bytes: &[u8], from: usize, to: usize) -> (usize, &str) {
    let continuation = |b: u8| (0x80..0xC0).contains(&b);
    let mut start = from;
    while start < to && continuation(bytes[start]) {
        start += 1;
    }
    let text = match std::str::from_utf8(&bytes[start..to]) {
        Ok(text) => text,
        Err(e) => std::str::from_utf8(&bytes[start..start + e.valid_up_to()]).unwrap_or_default(),
    };
    (start, text)
}

/// What starts at `offset`, a candidate ([`may_start_run`]) in `stretch`,
/// a well-formed stretch of `bytes`, with spans in the file. The text
/// around it is decoded on its own (a small window, grown while a run
/// reaches its end), so a clean file costs the byte search and no
/// decoding.
pub(crate) fn run_from(bytes: &[u8], stretch: &Range<usize>, offset: usize) -> Candidate {
    let (from, to) = (stretch.start, stretch.end);
    let start = offset.saturating_sub(WINDOW).max(from);
    let mut reach = WINDOW;
    loop {
        let end = (offset + reach).min(to);
        let (base, text) = window(bytes, start, end);
        let outcome = at(text, offset - base);
        let run_end = match &outcome {
            Candidate::Nothing => return outcome,
            Candidate::LeftAlone(e) => *e,
            Candidate::Damage(run) => run.span.end,
        };
        // A run that reaches the window's end may go on past it.
        if run_end + 4 < text.len() || end == to {
            return match outcome {
                Candidate::LeftAlone(e) => Candidate::LeftAlone(base + e),
                Candidate::Damage(mut run) => {
                    run.span = base + run.span.start..base + run.span.end;
                    Candidate::Damage(run)
                }
                Candidate::Nothing => Candidate::Nothing,
            };
        }
        reach *= 4;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every run in `bytes`, each candidate tried in turn (the chunked
    /// search is `text_scan`'s).
    fn find_in(bytes: &[u8], mut found: impl FnMut(Found)) {
        let (stretch, mut next) = (0..bytes.len(), 0);
        for offset in 0..bytes.len() {
            if offset < next || !may_start_run(bytes, offset) {
                continue;
            }
            match run_from(bytes, &stretch, offset) {
                Candidate::Nothing => {}
                Candidate::LeftAlone(end) => next = end,
                Candidate::Damage(run) => {
                    next = run.span.end;
                    found(run);
                }
            }
        }
    }

    fn repair(text: &str) -> Option<(String, &'static str, u8)> {
        let mut out = None;
        find_in(text.as_bytes(), |f| {
            out.get_or_insert((f.repaired, f.chain.name(), f.layers));
        });
        out
    }

    #[test]
    fn the_tables_agree_with_encoding_rs() {
        for (i, &c) in WINDOWS_1252_HIGH.iter().enumerate() {
            let b = 0x80 + i as u8;
            let byte = [b];
            let (text, errors) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(&byte);
            if !errors {
                assert_eq!(text.chars().next(), Some(c), "{b:02X}");
            }
        }
        for (i, &c) in MAC_ROMAN_HIGH.iter().enumerate() {
            let b = 0x80 + i as u8;
            let byte = [b];
            let text = encoding_rs::MACINTOSH.decode_without_bom_handling(&byte).0;
            assert_eq!(text.chars().next(), Some(c), "{b:02X}");
        }
    }

    #[test]
    fn the_standard_chains_are_repaired() {
        assert_eq!(repair("cafÃ©"), Some(("é".into(), "windows-1252", 1)));
        assert_eq!(repair("doesnâ€™t"), Some(("’".into(), "windows-1252", 1)));
        assert_eq!(repair("Ã¼ber"), Some(("ü".into(), "windows-1252", 1)));
        assert_eq!(repair("ï»¿x"), Some(("\u{FEFF}".into(), "windows-1252", 1)));
        assert_eq!(repair("Fran√ßois"), Some(("ç".into(), "Mac Roman", 1)));
        assert_eq!(repair("cafÃƒÂ©"), Some(("é".into(), "windows-1252", 2)));
        assert_eq!(
            repair("doesn\u{e2}\u{80}\u{99}t"),
            Some(("’".into(), "ISO-8859-1", 1))
        );
        assert_eq!(repair("ðŸ˜€ ok"), Some(("😀".into(), "windows-1252", 1)));
        assert_eq!(
            repair("æ—¥æœ¬èªž"),
            Some(("日本語".into(), "windows-1252", 1))
        );
    }

    #[test]
    fn legitimate_text_is_left_alone() {
        for text in [
            "SÃO PAULO",
            "Ã",
            "«CAFÉ»",
            "CAFÉ”",
            "MAÇÃ\u{A0}VERDE",
            "2√π ≈ 3.54",
            "x √π r",
            "Ã©tÃ© => été",
            "naïve café Ångström ÆØÅ Ñandú",
            "Tiếng Việt có dấu: Ẫ ẫ Ã ã",
            "—élan «élan»",
            "ѫΣНC·R%НӣϓγÏïΩþͺÀGӮh",
            "['zzz ', 'Ã¤Ã ']",
            "\\Ð¢6ҏ«ξϛ9Ðя",
        ] {
            assert_eq!(repair(text), None, "{text}");
        }
    }
}
