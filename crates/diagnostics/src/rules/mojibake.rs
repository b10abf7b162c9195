//! U008 `mojibake`: valid UTF-8 that says the wrong thing. Text was UTF-8,
//! something read its bytes as windows-1252, ISO-8859-1 or Mac Roman and
//! wrote the characters it saw back as UTF-8: `é` (`C3 A9`) became `Ã©`,
//! `’` (`E2 80 99`) became `â€™`, a byte-order mark became `ï»¿`, and in
//! Mac Roman `ç` became `√ß`. The damage is reversible: each character of
//! the run stands for one byte, and those bytes are UTF-8 again.
//!
//! Every run starts with the character a UTF-8 lead byte `C2`..`F4` reads
//! as. The byte search ([`may_start_run`], and the codec's fused validator
//! before it) stops at `Â`..`ÿ` followed by a character whose UTF-8
//! starts with `C2`, `C5`, `C6`, `CB` or `E2` (windows-1252 and
//! ISO-8859-1, and Mac Roman's `ÿ±`), at `Ô` and `¬`, and at Mac Roman's
//! `√`, `≈`, `∆`, `‚`; a Mac Roman run whose first character is no such
//! stop is tried one character back ([`at_candidate`]).
//!
//! That a run decodes is not enough: ordinary text is full of pairs some
//! chain decodes (`×£` is the UTF-8 of `ף`). A run is reported when its
//! repair is less odd in its context than the original ([`oddness`], a
//! count of the pairs a mis-decoding leaves: a non-ASCII capital after a
//! lower-case letter, a sign inside a word, a sign ending a word that no
//! word ends with, letters of two scripts side by side, modifier letters,
//! marks with no base, controls). Damage comes by the line: once a line
//! holds a run, the whole line is searched again at every character, and
//! a repair with no oddness at all between the ASCII around it is taken
//! there (`Ã\u{A0}` for `à`). `explain U008` is the model in words, with
//! what it leaves alone; a test holds the code to it.
//!
//! Also not flagged, on purpose:
//! * runs right beside a non-ASCII letter that is no part of them
//!   (random or mixed-script text);
//! * Mac Roman mathematics (`2√π`);
//! * a line with 3 or more characters that no chain's byte reads as
//!   (`ξ`, `я`, `中`): text in other scripts, among which `Ð¢` is chance;
//! * a line that also holds the repair (`"Ã©" => "é"`): a table of
//!   repairs, mojibake on purpose (a sign's repair only beside the run).

use std::ops::Range;

use crate::{Diagnostic, Edit, Fix, Level, Rule};

mod common;
mod high_bytes;
pub(crate) mod quoted;

use high_bytes::{latin_byte, mac_byte, window};

pub(crate) use quoted::{Quoting, is_quoted};

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
    /// Whether some of the run's bytes were lost (`ã?®`: a decoder wrote
    /// `?` or U+FFFD for a byte it had no character for): the repair is
    /// U+FFFD, what a decoder writes for a character it cannot read.
    pub lost: bool,
}

/// The byte `c` stands for in `chain` (`80`..`FF`), and whether only
/// ISO-8859-1 reads it so.
fn byte_in(c: char, chain: Chain) -> Option<(u8, bool)> {
    match chain {
        Chain::MacRoman => mac_byte(c).map(|b| (b, false)),
        _ => latin_byte(c),
    }
}

/// Whether a repair may hold `c` at all: C1 controls, private use and
/// noncharacters are what byte pairs decode to by accident, never text.
/// (An inner layer may hold C1 controls: `Ã„Â\u{8D}` is `Ä\u{8D}` is `č`.)
fn admissible(c: char) -> bool {
    let v = u32::from(c);
    !(matches!(v, 0x80..=0x9F | 0xE000..=0xF8FF | 0xF0000..)
        || crate::text::is_noncharacter(v)
        || common::is_unassigned(c))
}

/// The next UTF-8 sequence that the characters of `chars` stand for in
/// `chain`: its text and whether an ISO-8859-1-only character was among
/// them. A surrogate pair written as two three-byte sequences (CESU-8, as
/// Java's and some databases' "UTF-8" writes astral characters) is one
/// character.
fn next_sequence(chars: &mut std::str::CharIndices<'_>, chain: Chain) -> Option<(char, bool)> {
    let byte = |chars: &mut std::str::CharIndices<'_>| {
        chars
            .next()
            .and_then(|(_, c)| byte_in(c, chain))
            .filter(|&(b, _)| b >= 0x80)
    };
    let (lead, mut latin1) = byte(chars)?;
    let len = match lead {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return None,
    };
    let mut sequence = [lead, 0, 0, 0];
    for slot in sequence.iter_mut().take(len).skip(1) {
        let (b, l) = byte(chars).filter(|&(b, _)| b <= 0xBF)?;
        *slot = b;
        latin1 |= l;
    }
    if let Ok(text) = std::str::from_utf8(&sequence[..len]) {
        return text.chars().next().map(|c| (c, latin1));
    }
    // A high surrogate (`ED A0`..`ED AF`), then the low one (`ED B0`..).
    if lead != 0xED || !(0xA0..=0xAF).contains(&sequence[1]) {
        return None;
    }
    let (e, l1) = byte(chars).filter(|&(b, _)| b == 0xED)?;
    let (b1, l2) = byte(chars).filter(|&(b, _)| (0xB0..=0xBF).contains(&b))?;
    let (b2, l3) = byte(chars).filter(|&(b, _)| b <= 0xBF)?;
    let unit = |x: u8, y: u8, z: u8| {
        (u32::from(x & 0x0F) << 12) | (u32::from(y & 0x3F) << 6) | u32::from(z & 0x3F)
    };
    let high = unit(sequence[0], sequence[1], sequence[2]);
    let low = unit(e, b1, b2);
    let c = char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))?;
    Some((c, latin1 | l1 | l2 | l3))
}

/// The repair of one layer of `text` in `chain`: the characters it had
/// (the bytes its characters stand for, read as UTF-8 sequence by
/// sequence, as long as each is a whole multi-byte character), how many
/// bytes of `text` they take, and whether an ISO-8859-1-only character was
/// among them. Stops at the first character that is no part of a
/// sequence, so a candidate that starts no run costs a character or two.
fn one_layer(text: &str, chain: Chain) -> Option<(String, usize, bool)> {
    let (mut out, mut used, mut latin1) = (String::new(), 0, false);
    let mut chars = text.char_indices();
    loop {
        let mut ahead = chars.clone();
        let Some((c, l)) = next_sequence(&mut ahead, chain) else {
            break;
        };
        out.push(c);
        used = ahead.offset();
        latin1 |= l;
        chars = ahead;
    }
    (used > 0).then_some((out, used, latin1))
}

/// The second layer of a repair: every run inside `text` repaired, the
/// characters between them kept (`Ã¢Å’Â£` is `âŒ£` is `⌣`, and a
/// run's first layer may hold ASCII between its inner runs).
fn every_run(text: &str, chain: Chain) -> Option<String> {
    let (mut out, mut at, mut any) = (String::with_capacity(text.len()), 0, false);
    while let Some(c) = text[at..].chars().next() {
        match one_layer(&text[at..], chain) {
            Some((repaired, used, _)) => {
                out.push_str(&repaired);
                at += used;
                any = true;
            }
            None => {
                out.push(c);
                at += c.len_utf8();
            }
        }
    }
    any.then_some(out)
}

/// What a character is, for [`oddness`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// White space, and the invisible format characters (U+FEFF, U+200B..).
    Space,
    Digit,
    Lower,
    Upper,
    /// A letter with no case (CJK, Hebrew, Arabic, Hangul...).
    Caseless,
    /// A combining mark.
    Mark,
    /// IPA letters, spacing modifier letters and phonetic extensions.
    Modifier,
    /// C0 and C1 controls.
    Control,
    /// Punctuation and symbols (and digits of Latin-1's signs, `¹`, `½`).
    Symbol,
}

fn kind(c: char) -> Kind {
    let v = u32::from(c);
    if c.is_whitespace() || matches!(v, 0x200B..=0x200F | 0x2060..=0x2064 | 0xFEFF) {
        Kind::Space
    } else if c.is_control() {
        Kind::Control
    } else if matches!(
        v,
        0x300..=0x36F
            | 0x483..=0x489
            | 0x591..=0x5BD
            | 0x610..=0x61A
            | 0x64B..=0x65F
            | 0x1AB0..=0x1AFF
            | 0x1DC0..=0x1DFF
            | 0x20D0..=0x20FF
            | 0xFE20..=0xFE2F
    ) {
        Kind::Mark
    } else if matches!(v, 0x250..=0x2FF | 0x1D00..=0x1DBF | 0xA700..=0xA721 | 0xA788..=0xA78A) {
        Kind::Modifier
    } else if c.is_ascii_digit() || (c.is_numeric() && v > 0xFF) {
        Kind::Digit
    } else if c.is_lowercase() {
        Kind::Lower
    } else if c.is_uppercase() {
        Kind::Upper
    } else if c.is_alphabetic() {
        Kind::Caseless
    } else {
        Kind::Symbol
    }
}

/// A coarse script of a letter, by block: 0 for none; letters of the same
/// writing system share a number (kana and CJK ideographs are one).
fn script(c: char) -> u32 {
    let v = u32::from(c);
    match v {
        _ if c.is_ascii_alphabetic() => 1,
        0xC0..=0x24F | 0x1E00..=0x1EFF => 1,
        0x370..=0x3FF | 0x1F00..=0x1FFF => 2,
        0x400..=0x52F => 3,
        0x530..=0x58F => 4,
        0x590..=0x5FF => 5,
        0x600..=0x6FF | 0x750..=0x77F | 0x8A0..=0x8FF => 6,
        0x3040..=0x30FF | 0x3400..=0x9FFF => 7,
        0x1100..=0x11FF | 0x3130..=0x318F | 0xAC00..=0xD7AF => 8,
        0..=0x7F => 0,
        _ => 100 + (v >> 7),
    }
}

/// Signs that close a word in ordinary text: `Brontë…”`, `MARQUÉ…`,
/// `10 Å—`, Portuguese `lá´´`, `m²`, `Windows®`.
const TRAILING: &[char] = &[
    '…', '”', '’', '»', '›', '—', '–', '´', '¨', '°', 'ª', 'º', '¹', '²', '³', '™', '®', '·', '˝',
    '“', '‘', '!',
];

/// Signs that open a word: quotes, currencies, `¿`, `√`, `∆`.
const LEADING: &[char] = &[
    '“', '‘', '„', '‚', '«', '‹', '¿', '¡', '—', '–', '£', '€', '¥', '¢', '§', '¶', '•', '·', '¬',
    '±', '×', '÷', '√', '∆', '∂', '∑', '°', '´', '¨',
];

/// Signs that stand between two letters of one word: apostrophes,
/// hyphens, dashes, the middle dot.
const INFIX: &[char] = &['’', '‘', '´', 'ʼ', '·', '‧', '‐', '‑', '–', '—', '/', '×'];

/// How odd `chars` are as text: my own measure of the pairs a
/// mis-decoding leaves, in the spirit of ftfy's "badness". One point for
/// each of: a non-ASCII capital right after a lower-case letter (`fÃ`,
/// `ƒÅ`, `âŒ`); two adjacent letters of different scripts (`t녔`); a
/// modifier or IPA letter; a run of signs with a non-ASCII one that sits
/// between two letters (`Ã©t`, `â€™t`, `n√ßo`, unless it is one apostrophe
/// or hyphen), that ends a word and is not a closing sign (`Ã©` + space),
/// or that opens a word and is not an opening sign (`◊ë`), or `ƒ` before
/// a letter (`wiƒôcej`). Two for a
/// combining mark with no base (after a space or at the start), three for
/// a control. Signs among digits and spaces (`5×£35`, `∆°`) cost nothing.
fn oddness(chars: &[char]) -> u32 {
    let mut all_kinds = [Kind::Space; MAX_JUDGED_CHARS];
    let kinds = &mut all_kinds[..chars.len().min(MAX_JUDGED_CHARS)];
    for (k, &c) in kinds.iter_mut().zip(chars) {
        *k = kind(c);
    }
    let kinds = &*kinds;
    let chars = &chars[..kinds.len()];
    let letter = |k: Kind| matches!(k, Kind::Lower | Kind::Upper | Kind::Caseless | Kind::Mark);
    let mut odd = 0;
    for (k, (&c, &kc)) in chars.iter().zip(kinds).enumerate() {
        let prev = k.checked_sub(1).map(|p| (chars[p], kinds[p]));
        odd += match kc {
            Kind::Control => 3,
            Kind::Modifier => 1,
            Kind::Mark if prev.is_none_or(|(_, p)| matches!(p, Kind::Space | Kind::Control)) => 2,
            _ => 0,
        };
        if let Some((p, pk)) = prev {
            if kc == Kind::Upper && !c.is_ascii() && pk == Kind::Lower {
                odd += 1;
            }
            // Two non-ASCII capitals opening a lower-case word (`ÅŸarkı`).
            if kc == Kind::Lower
                && pk == Kind::Upper
                && !p.is_ascii()
                && k >= 2
                && kinds[k - 2] == Kind::Upper
                && !chars[k - 2].is_ascii()
                && (k < 3 || kinds[k - 3] != Kind::Upper)
            {
                odd += 1;
            }
            let (sp, sc) = (script(p), script(c));
            if letter(pk) && letter(kc) && sp != 0 && sc != 0 && sp != sc {
                odd += 1;
            }
        }
    }
    // `ƒ` is the florin sign and the function symbol, a letter to Unicode
    // but followed by a space, a digit or a bracket: before a letter
    // (`wiƒôcej`, `ƒçesk`) it is the Mac Roman reading of `C4`, a lead
    // byte. (Ewe writes `ƒ` as a letter, beside `ɖ`, `ɛ`, `ɔ`, which no
    // chain reads a byte as: such lines are left alone.)
    for k in 0..chars.len().saturating_sub(1) {
        if chars[k] == 'ƒ' && letter(kinds[k + 1]) {
            odd += 1;
        }
    }
    let sign = |k: Kind| matches!(k, Kind::Symbol | Kind::Modifier);
    let mut k = 0;
    while k < chars.len() {
        if !sign(kinds[k]) {
            k += 1;
            continue;
        }
        let start = k;
        while k < chars.len() && sign(kinds[k]) {
            k += 1;
        }
        let signs = &chars[start..k];
        let mut wide = signs.iter().filter(|c| !c.is_ascii());
        let before = start.checked_sub(1).is_some_and(|p| letter(kinds[p]));
        let after = kinds.get(k).is_some_and(|&n| letter(n));
        let odd_here = match (before, after) {
            (true, true) => {
                !(signs.len() == 1 && INFIX.contains(&signs[0]))
                    && signs.iter().any(|c| !c.is_ascii())
            }
            (true, false) => wide.any(|c| !TRAILING.contains(c)),
            (false, true) => wide.any(|c| !LEADING.contains(c)),
            (false, false) => false,
        };
        odd += u32::from(odd_here);
    }
    odd
}

/// Characters of context either side of a run that [`oddness`] reads.
const CONTEXT_CHARS: usize = 3;

/// The oddness of `middle` between `before` and `after` (their nearest
/// [`CONTEXT_CHARS`] characters).
fn oddness_between(before: &str, middle: &str, after: &str) -> u32 {
    let mut chars = ['\0'; MAX_JUDGED_CHARS];
    let mut n = 0;
    let start = before
        .char_indices()
        .rev()
        .take(CONTEXT_CHARS)
        .last()
        .map_or(before.len(), |(k, _)| k);
    let all = before[start..]
        .chars()
        .chain(middle.chars())
        .chain(after.chars().take(CONTEXT_CHARS));
    for (slot, c) in chars.iter_mut().zip(all) {
        *slot = c;
        n += 1;
    }
    oddness(&chars[..n])
}

/// The most characters [`oddness`] reads: a judged run and its context.
const MAX_JUDGED_CHARS: usize = JUDGED + 2 * CONTEXT_CHARS;

/// Whether `repaired` occurs on `line` as text of its own, not inside other
/// damage (Vietnamese `áº¿` holds an `á` that is no repair's): no
/// non-ASCII character right before or after it; starting in `within`.
fn stands_alone_on(line: &str, repaired: &str, within: Range<usize>) -> bool {
    line.match_indices(repaired).any(|(i, _)| {
        let before = line[..i].chars().next_back();
        let after = line[i + repaired.len()..].chars().next();
        within.contains(&i)
            && before.is_none_or(|c| c.is_ascii())
            && after.is_none_or(|c| c.is_ascii())
    })
}

/// How near the run a repair that is a sign, not a letter or digit, must
/// stand for its line to be a table of repairs (`"â€œ": "“"`,
/// `"â€™" instead of ’`), in bytes either side.
const TABLE_REACH: usize = 16;

/// Whether `line`, holding the run at `run`, also holds its repair
/// `repaired` as text of its own: a table of repairs, mojibake on purpose.
/// A letter's repair counts anywhere on the line (`"Ã©" => "é"`); a sign's
/// only beside the run, since ordinary text holds quotes and dashes
/// anyway: a Serbian line with `â\u{80}\u{9C}nfs_exportâ\u{80}\u{9D}` and a
/// correct `„copy_up“` further on is damaged twice.
fn holds_its_repair(line: &str, run: Range<usize>, repaired: &str) -> bool {
    let within = if repaired.chars().any(char::is_alphanumeric) {
        0..line.len()
    } else {
        run.start.saturating_sub(TABLE_REACH + repaired.len())..run.end + TABLE_REACH
    };
    stands_alone_on(line, repaired, within)
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
/// On a `damaged` line (one that holds a run already) a repair that is
/// ordinary text in its context is taken even where the original is not
/// odd by itself (`Ã\u{A0}` for `à`, `Ð´Ð°` for `да`).
pub(crate) fn at(stretch: &str, offset: usize, damaged: bool) -> Candidate {
    match run_at(stretch, offset, damaged) {
        None => Candidate::Nothing,
        Some((end, None)) => Candidate::LeftAlone(end),
        Some((_, Some(found))) => Candidate::Damage(found),
    }
}

/// Whether `c` reads as a UTF-8 lead byte in `chain`.
fn is_lead_in(c: char, chain: Chain) -> bool {
    byte_in(c, chain).is_some_and(|(b, _)| (0xC2..=0xF4).contains(&b))
}

/// A run read in one chain: its length in bytes, the best repair with its
/// layers and chain, and how much less odd than the original it is.
struct Reading {
    used: usize,
    repaired: String,
    chain: Chain,
    layers: u8,
    gain: u32,
    /// The repair's oddness between the ASCII around it (the damage
    /// beside it left out).
    odd: u32,
}

/// The run at the start of `text` read in `chain`, with `before` the
/// line's text before it: the repair (one layer, or two) that is least
/// odd in its context, and by how much it is less odd than the original.
fn read(before: &str, text: &str, chain: Chain) -> Option<Reading> {
    let (raw, used, latin1) = one_layer(text, chain)?;
    let chain = if latin1 { Chain::Latin1 } else { chain };
    let inner = if chain == Chain::MacRoman {
        chain
    } else {
        Chain::Windows1252
    };
    // A run is judged on its first sequences: oddness is a matter of
    // neighbours, and a run then costs its context, not its length.
    let (judged, judged_used, after) = if used > JUDGED {
        let cut = text.floor_char_boundary(JUDGED);
        let (judged, judged_used, _) = one_layer(&text[..cut], chain)?;
        (judged, judged_used, "")
    } else {
        (raw.clone(), used, &text[used..])
    };
    let original = oddness_between(before, &text[..judged_used], after);
    let mut best: Option<(String, u8, u32)> = None;
    let second = every_run(&judged, inner);
    for (repaired, layers) in [(Some(judged), 1), (second, 2)] {
        let Some(repaired) = repaired.filter(|r| r.chars().all(admissible)) else {
            continue;
        };
        let odd = oddness_between(before, &repaired, after);
        // The second layer where it reads as well as the first: the
        // first is then text that is itself a run (`Ã\u{A0}`).
        if best.as_ref().is_none_or(|(_, _, b)| odd <= *b) {
            best = Some((repaired, layers, odd));
        }
    }
    let (judged, layers, in_context) = best?;
    let ascii_before = &before[before
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_ascii())
        .last()
        .map_or(before.len(), |(k, _)| k)..];
    let ascii_after = &after[..after.find(|c: char| !c.is_ascii()).unwrap_or(after.len())];
    let odd = oddness_between(ascii_before, &judged, ascii_after);
    let repaired = match (layers, used > JUDGED) {
        (1, false) => judged,
        (1, true) => raw,
        _ => every_run(&raw, inner)?,
    };
    if used > JUDGED && !repaired.chars().all(admissible) {
        return None;
    }
    Some(Reading {
        used,
        repaired,
        chain,
        layers,
        gain: original.saturating_sub(in_context),
        odd,
    })
}

/// The bytes of a long run that [`read`] judges it on.
const JUDGED: usize = 96;

/// The run starting at `offset` (its end) and whether it is reported.
fn run_at(stretch: &str, offset: usize, damaged: bool) -> Option<(usize, Option<Found>)> {
    let text = stretch.get(offset..)?;
    let first = text.chars().next()?;
    let before_text = &stretch[stretch.floor_char_boundary(offset.saturating_sub(16))..offset];
    let taken = |r: &Reading| r.gain > 0 || (damaged && r.odd == 0);
    let read_in = |chain| {
        is_lead_in(first, chain)
            .then(|| read(before_text, text, chain))
            .flatten()
    };
    // The reading that gains most; Mac Roman where windows-1252 explains
    // nothing, or less well.
    let reading = match (read_in(Chain::Windows1252), read_in(Chain::MacRoman)) {
        (Some(w), Some(m)) if m.gain > w.gain || (m.gain == w.gain && taken(&m) && !taken(&w)) => m,
        (Some(w), _) => w,
        (None, m) => m?,
    };
    let Reading {
        used,
        repaired,
        chain,
        layers,
        gain,
        odd,
    } = reading;
    let end = offset + used;
    let line = line_of(stretch, offset);
    let line_start = line.as_ptr() as usize - stretch.as_ptr() as usize;
    let line_end = line_start + line.len();
    let (line_before, line_after) = (
        &stretch[line_start..offset],
        stretch.get(end..line_end).unwrap_or(""),
    );
    // The repair must read better than what is there: text that is
    // ordinary as it stands (`Brontë…”`, `5×£35`) is left alone, unless
    // the repair is common text that fits its place (`âœ…` for `✅`,
    // `ZURÃœCK` for `ZURÜCK`): such a run is its own evidence.
    let alone = || {
        common::is_common(&repaired)
            && common::fits_alone(line_before, &text[..used], &repaired, line_after)
    };
    if gain == 0 && !(damaged && odd == 0) && !alone() {
        return Some((end, None));
    }
    let before = stretch[..offset].chars().next_back();
    let after = text[used..].chars().next();
    // A run sits among ASCII or signs: a letter right beside it that is
    // non-ASCII and no part of it is text in its own right, and the pair is
    // chance (random or mixed-script text).
    let foreign = |c: Option<char>| c.is_some_and(|c| !c.is_ascii() && c.is_alphabetic());
    // (A character whose bytes were lost right after a run is damage, not
    // a letter: one a decoder marked with `?` or U+FFFD, or one cut short
    // after a run of several characters, `æ—¥æœ¬èªžã®æ` with the `81` of
    // `の` dropped.)
    let lost_after = || {
        lost_at(&text[used..], damaged)
            .is_some_and(|(_, marked)| marked || repaired.chars().nth(1).is_some())
    };
    if foreign(before) || (foreign(after) && !lost_after()) {
        return Some((end, None));
    }
    if chain == Chain::MacRoman
        && matches!(first, '√' | '≈' | '∆')
        && text[first.len_utf8()..].starts_with(MAC_ROMAN_MATH)
    {
        let letter = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphabetic());
        let digit = |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit());
        // (On a damaged line only digits make it mathematics: `∆∞` is `ư`.)
        if digit(before) || digit(after) || !(damaged || letter(before) || letter(after)) {
            return Some((end, None));
        }
    }
    if holds_its_repair(
        line,
        line_before.len()..line.len() - line_after.len(),
        &repaired,
    ) {
        return Some((end, None));
    }
    // The repair writes letters of the line's scripts only: a Han letter
    // in an English sentence is a chance reading, not the text it was.
    if !common::scripts_fit(line_before, &repaired, line_after, damaged) {
        return Some((end, None));
    }
    // A line holding characters no chain's byte reads as (`ξ`, `я`, `中`)
    // is text of other scripts, among which a pair like `Ð¢` is chance;
    // but not a word of that script made of several pairs (`æ—¥æœ¬` in
    // Japanese text, the part of a line a repair left): those characters
    // are the line's own script, not the chance of random text. (Nor is
    // U+FFFD, a byte a decoder or a repair lost.)
    let word_of_script = |c: char| common::shares_script_with_word(c, &repaired);
    let unexplained = line
        .chars()
        .filter(|&c| !c.is_ascii() && latin_byte(c).is_none() && mac_byte(c).is_none())
        .filter(|&c| !word_of_script(c) && !is_lost_byte(c))
        .take(MAX_OTHER_SCRIPT_CHARS)
        .count();
    // (Characters of three or four bytes, `ã€‚` for `。`, are no chance
    // of random text either: three characters must line up for one.)
    let long_sequences = repaired.chars().all(|c| c.len_utf8() >= 3);
    if unexplained >= MAX_OTHER_SCRIPT_CHARS && !long_sequences {
        return Some((end, None));
    }
    Some((
        end,
        Some(Found {
            span: offset..end,
            repaired,
            chain,
            layers,
            lost: false,
        }),
    ))
}

/// How far around a run its line is read for the guards: a run's context,
/// so that a run costs the same on a 32 MiB line as on a short one.
const LINE_CONTEXT: usize = 128;

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
        lost,
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
    if lost {
        return Diagnostic::new(
            Rule::Mojibake,
            level,
            span.clone(),
            format!("mojibake with bytes lost: `{damaged}` was one character {how}"),
        )
        .with_label("some of this character's bytes did not survive")
        .with_note(
            "a decoder wrote `?` or U+FFFD for a byte it had no character for: the character cannot be known from the text",
        )
        .with_help("the fix writes U+FFFD in its place, which `replacement_character` reports until someone writes the character back")
        .with_fix(Fix::unsafe_(
            format!("replace `{damaged}` with U+FFFD"),
            vec![Edit::replace(span, full_repair.into_bytes())],
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

/// The fix of a U008 finding settled by where its run is in a gettext
/// catalogue at `path` (`.po`, `.pot`): none on
/// an obsolete entry's `#~` line, and none where the repaired `msgid`
/// line is already in the file. Either repair could make two entries with
/// the same `msgid`, which `msgfmt` rejects as a duplicate definition; an
/// obsolete entry is not compiled, so leaving it changes nothing a reader
/// of the catalogue gets.
/// Asked as each finding is made, before `Keep::Fixes` merges a rule's
/// findings: the line is the run's own.
pub(crate) fn scope_fix(bytes: &[u8], path: &std::path::Path, d: &mut Diagnostic) {
    let catalogue = matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("po" | "pot")
    );
    if !catalogue || d.fix.is_none() {
        return;
    }
    {
        let start = memchr::memrchr(b'\n', &bytes[..d.span.start]).map_or(0, |k| k + 1);
        let end =
            memchr::memchr(b'\n', &bytes[d.span.end..]).map_or(bytes.len(), |k| d.span.end + k);
        let line = &bytes[start..end];
        let why = if line.starts_with(b"#~") {
            "an obsolete entry (`#~`): repaired, it can duplicate a live entry's `msgid`, which msgfmt rejects; drop obsolete entries with `msgattrib --no-obsolete`, or repair it by hand"
        } else if line.starts_with(b"msgid ") && repaired_line_elsewhere(bytes, start..end, d) {
            "the repaired `msgid` is already in the catalogue: two entries would have one `msgid`, which msgfmt rejects; merge them by hand"
        } else {
            return;
        };
        d.fix = None;
        d.notes.push(format!("no fix: {why}"));
    }
}

/// Whether the line `line` of `bytes`, with `d`'s fix applied, is a line
/// of `bytes` elsewhere.
fn repaired_line_elsewhere(bytes: &[u8], line: Range<usize>, d: &Diagnostic) -> bool {
    let Some(fix) = &d.fix else { return false };
    let mut repaired = bytes[line.start..d.span.start].to_vec();
    for edit in fix.edits() {
        repaired.extend_from_slice(&edit.replacement(bytes));
    }
    repaired.extend_from_slice(&bytes[d.span.end..line.end]);
    bytes
        .split(|&b| b == b'\n')
        .any(|other| other.strip_suffix(b"\r").unwrap_or(other) == repaired.as_slice())
}

/// Whether a run can start at `i` of well-formed `bytes`, from the bytes
/// alone: a windows-1252 lead character `Â`..`ô` (`C3 82`..`C3 B4`)
/// followed by a character that a continuation byte is in windows-1252 or
/// ISO-8859-1, or Mac Roman's `¬` (`C2 AC`), `√`, `≈`, `∆`, `‚` (`E2 ..`),
/// `Ô`, followed by a non-ASCII byte (every run's second character is one).
/// Accented letters in ordinary text (`é` before an ASCII letter, `ção`)
/// stop here, in a few instructions. The codec's fused validator finds the
/// same starts, looser (the text patterns of `candidates::CANDIDATES`).
pub(crate) fn may_start_run(bytes: &[u8], i: usize) -> bool {
    let next_non_ascii = |at: usize| bytes.get(at).is_some_and(|&b| b >= 0x80);
    match bytes[i] {
        // The second character is a continuation byte read as windows-1252
        // or ISO-8859-1: `C2 80`..`C2 BF`, `Š`/`Œ`/`Ž`/`š`/`œ`/`ž`/`Ÿ` (`C5`),
        // `ƒ` (`C6`), `ˆ`/`˜` (`CB`), `€`, `‚`, `’`, `…` and the rest (`E2`).
        // (`Ô`, a Mac Roman lead, before any non-ASCII byte.)
        0xC3 => match bytes.get(i + 1) {
            Some(0x94) => next_non_ascii(i + 2),
            Some(0x82..=0xBF) => matches!(bytes.get(i + 2), Some(0xC2 | 0xC5 | 0xC6 | 0xCB | 0xE2)),
            _ => false,
        },
        0xC2 => bytes.get(i + 1) == Some(&0xAC) && next_non_ascii(i + 2),
        // `ƒ` (Mac Roman `C4`) before a character Mac Roman puts at
        // `80`..`BF`: `ƒÅ` is `ā`.
        0xC6 => {
            bytes.get(i + 1) == Some(&0x92)
                && matches!(bytes.get(i + 2), Some(0xC2 | 0xC3 | 0xCE | 0xCF | 0xE2))
        }
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

/// What starts at `offset`, a candidate ([`may_start_run`]) in `stretch`,
/// a well-formed stretch of `bytes`, with spans in the file. The text
/// around it is decoded on its own (a small window, grown while a run
/// reaches its end), so a clean file costs the byte search and no
/// decoding.
pub(crate) fn run_from(
    bytes: &[u8],
    stretch: &Range<usize>,
    offset: usize,
    damaged: bool,
) -> Candidate {
    let (from, to) = (stretch.start, stretch.end);
    let start = offset.saturating_sub(WINDOW).max(from);
    let mut reach = WINDOW;
    loop {
        let end = (offset + reach).min(to);
        let (base, text) = window(bytes, start, end);
        let outcome = at(text, offset - base, damaged);
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

/// How far either side of a run its line is searched again at every
/// character once it holds a run.
const LINE_SEARCH: usize = 4096;

/// U008 at a candidate `i` ([`may_start_run`]) of `stretch`, with
/// `next` the offset before which everything was looked at and `searched`
/// the end of the last line searched at every character: each run found
/// goes to `found`, and both move past what was looked at.
///
/// Two searches beyond the candidate's own, both only where damage is:
/// a Mac Roman run whose first character the byte search does not stop at
/// (`◊ë◊î`: it stops at `ë◊`) is tried one character back; and a line that
/// holds a run is read again at every character, because damage comes by
/// the line (`mƒÅja` beside a `√ß`, the leftover of a run repaired halfway).
pub(crate) fn at_candidate(
    bytes: &[u8],
    stretch: &Range<usize>,
    i: usize,
    next: &mut usize,
    searched: &mut usize,
    mut found: impl FnMut(Found),
) {
    let run = match run_from(bytes, stretch, i, false) {
        Candidate::Nothing => match mac_start_before(bytes, i, *next) {
            Some(j) => run_from(bytes, stretch, j, false),
            None => Candidate::Nothing,
        },
        other => other,
    };
    let run = match run {
        Candidate::Nothing => return,
        Candidate::LeftAlone(end) => {
            *next = end;
            return;
        }
        Candidate::Damage(run) => run,
    };
    let (start, end) = (run.span.start, run.span.end);
    // The line from its start: runs before this one that were left alone
    // are looked at again, now on a damaged line.
    let floor = stretch
        .start
        .max(*searched)
        .max(start.saturating_sub(LINE_SEARCH));
    let ceil = stretch.end.min(end + LINE_SEARCH);
    let line_start = memchr::memrchr(b'\n', &bytes[floor..start]).map_or(floor, |k| floor + k + 1);
    let line_end = memchr::memchr(b'\n', &bytes[end..ceil]).map_or(ceil, |k| end + k);
    let mut runs = Vec::new();
    let k = every_char(bytes, stretch, line_start..start, &mut runs);
    // A run of the search that starts before the one found first and
    // covers it (`Œ≥œÅŒÆŒ≥œÅŒ∑`, found at its `œÅ`) replaces it.
    let reached = if k < start {
        every_char(bytes, stretch, k..line_end, &mut runs)
    } else {
        runs.push(run);
        every_char(bytes, stretch, end..line_end, &mut runs)
    };
    let last = runs.last().map_or(end, |r| r.span.end);
    runs.into_iter().for_each(&mut found);
    *next = reached.max(last).max(end);
    *searched = *next;
}

/// The start of the character before `i` if it reads as a Mac Roman lead
/// byte and starts at or after `floor`.
fn mac_start_before(bytes: &[u8], i: usize, floor: usize) -> Option<usize> {
    let j = (i.saturating_sub(3)..i)
        .find(|&j| std::str::from_utf8(&bytes[j..i]).is_ok_and(|t| t.chars().count() == 1))?;
    let c = std::str::from_utf8(&bytes[j..i]).ok()?.chars().next()?;
    (j >= floor && is_lead_in(c, Chain::MacRoman)).then_some(j)
}

/// Every run starting at a character of `range` of a damaged line (whole
/// runs inside it: one that would reach past its end is not taken);
/// returns where the search ended.
fn every_char(
    bytes: &[u8],
    stretch: &Range<usize>,
    range: Range<usize>,
    found: &mut Vec<Found>,
) -> usize {
    let mut k = range.start;
    while k < range.end {
        if bytes[k] < 0xC2 {
            k += 1;
            continue;
        }
        match run_from(bytes, stretch, k, true) {
            Candidate::Nothing => match lost_in(bytes, k, range.end) {
                Some(end) => {
                    found.push(Found {
                        span: k..end,
                        repaired: "\u{FFFD}".into(),
                        chain: Chain::Windows1252,
                        layers: 1,
                        lost: true,
                    });
                    k = end;
                }
                None => k += 1,
            },
            Candidate::LeftAlone(end) => k = end,
            Candidate::Damage(run) if run.span.end <= range.end => {
                k = run.span.end;
                found.push(run);
            }
            Candidate::Damage(_) => return k,
        }
    }
    k
}

/// What a decoder writes for a byte it has no character for: `?`,
/// U+FFFD, or SUB (`1A`, what some write for U+FFFD in a single-byte
/// code page).
fn is_lost_byte(c: char) -> bool {
    matches!(c, '?' | '\u{FFFD}' | '\u{1A}')
}

/// The bytes of a sequence at the start of `text` whose bytes were partly
/// lost, read in windows-1252: a lead character, then as many characters
/// as the sequence has bytes left, each a continuation byte's character
/// or a lost byte, one at least lost (`ã?®` for `の`, `â€?` for `”`). A
/// `?` counts as lost after a two-byte lead only for `Â` and `Ã` (`C2`,
/// `C3`), or on a line already known to be `damaged` (`Ï?` for the `ρ` of
/// Greek): elsewhere it is a question mark after a capital. A sequence of three or
/// four bytes cut short right before another whole sequence (`ã®æ–‡`:
/// the `81` of `の` dropped) lost a byte too.
///
/// Returns the bytes it takes and whether a decoder marked the loss
/// (`?`, U+FFFD) rather than dropping the byte.
fn lost_at(text: &str, damaged: bool) -> Option<(usize, bool)> {
    let mut chars = text.char_indices();
    let (_, lead) = chars.next()?;
    let (b, _) = latin_byte(lead)?;
    let len = match b {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return None,
    };
    let mut lost = false;
    for k in 1..len {
        let before = chars.offset();
        let (_, c) = chars.next()?;
        let lost_here =
            is_lost_byte(c) && (len > 2 || c != '?' || damaged || matches!(b, 0xC2 | 0xC3));
        let continuation = latin_byte(c).is_some_and(|(b, _)| b <= 0xBF);
        if !(lost_here || continuation) {
            // A sequence of three or four bytes cut short after one
            // continuation byte at least, before the next lead (`ã®æ`):
            // a decoder dropped a byte it had no character for.
            // The next lead must start a whole sequence: in a line of
            // garbled pairs (`ãƒæ’ã‚`) nothing was cut short.
            let next_run = one_layer(&text[before..], Chain::Windows1252).is_some();
            return (len > 2 && k >= 2 && next_run).then_some((before, false));
        }
        lost |= lost_here;
    }
    lost.then(|| (chars.offset(), true))
}

/// The end of a sequence with lost bytes ([`lost_at`]) starting at `k` of
/// `bytes` and ending by `end`.
fn lost_in(bytes: &[u8], k: usize, end: usize) -> Option<usize> {
    let (base, text) = window(bytes, k, end.min(k + 16));
    (base == k)
        .then(|| lost_at(text, true))
        .flatten()
        .map(|(used, _)| k + used)
}

/// The byte `c` stands for in windows-1250 (the Central European code
/// page: `NapĂ\u{AD}Ĺˇte` is `Napíšte`), `80`..`FF`.
fn windows_1250_byte(c: char) -> Option<u8> {
    let mut buffer = [0u8; 4];
    let (bytes, _, errors) = encoding_rs::WINDOWS_1250.encode(c.encode_utf8(&mut buffer));
    match *bytes {
        [b] if !errors && b >= 0x80 => Some(b),
        _ => None,
    }
}

/// Whether the character at `i` of `bytes` (well-formed around it) is part
/// of a run of mojibake, read in windows-1252 or ISO-8859-1, Mac Roman or
/// windows-1250: with up to three characters either side it stands for
/// bytes among which a UTF-8 sequence (or half a CESU-8 surrogate pair)
/// covers its own. U011 and U012 ask it for the C1 controls and soft
/// hyphens they would delete: such a character is U008's, and deleting it
/// would lose a byte the repair needs.
pub(crate) fn part_of_run(bytes: &[u8], i: usize) -> bool {
    let (base, text) = window(bytes, i.saturating_sub(12), (i + 16).min(bytes.len()));
    let Some(at) = i.checked_sub(base).filter(|&at| text.is_char_boundary(at)) else {
        return false;
    };
    let before: Vec<char> = text[..at].chars().rev().take(3).collect();
    let after: Vec<char> = text[at..].chars().take(4).collect();
    let readings: [&dyn Fn(char) -> Option<u8>; 3] = [
        &|c| latin_byte(c).map(|(b, _)| b),
        &mac_byte,
        &windows_1250_byte,
    ];
    readings.iter().any(|byte| {
        let Some(own) = after.first().and_then(|&c| byte(c)) else {
            return false;
        };
        let lead: Vec<u8> = before.iter().map_while(|&c| byte(c)).collect();
        let mut seq: Vec<u8> = lead.iter().rev().copied().collect();
        let pos = seq.len();
        seq.push(own);
        seq.extend(after[1..].iter().map_while(|&c| byte(c)));
        (pos.saturating_sub(3)..=pos).any(|s| {
            let len = match seq[s] {
                0xC2..=0xDF => 2,
                0xE0..=0xEF => 3,
                0xF0..=0xF4 => 4,
                _ => return false,
            };
            let Some(sequence) = seq.get(s..s + len).filter(|_| s + len > pos) else {
                return false;
            };
            let cesu =
                sequence[0] == 0xED && sequence[1..].iter().all(|b| (0x80..=0xBF).contains(b));
            cesu || std::str::from_utf8(sequence).is_ok()
        })
    })
}

#[cfg(test)]
mod tests {
    use super::high_bytes::{MAC_ROMAN_HIGH, WINDOWS_1252_HIGH};
    use super::*;

    /// Every run in `bytes`, each candidate tried in turn (the chunked
    /// search is `text_scan`'s).
    fn find_in(bytes: &[u8], mut found: impl FnMut(Found)) {
        let (stretch, mut next, mut searched) = (0..bytes.len(), 0, 0);
        for offset in 0..bytes.len() {
            if offset >= next && may_start_run(bytes, offset) {
                at_candidate(
                    bytes,
                    &stretch,
                    offset,
                    &mut next,
                    &mut searched,
                    &mut found,
                );
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
    fn controls_and_soft_hyphens_inside_runs_are_known() {
        let inside = |text: &str, c: char| part_of_run(text.as_bytes(), text.find(c).unwrap());
        assert!(inside(
            "Hi guys \u{ed}\u{a0}\u{bd}\u{ed}\u{b8}\u{8d} x",
            '\u{8d}'
        ));
        assert!(inside("NapĂ\u{ad}Ĺˇte", '\u{ad}'));
        assert!(inside("doesn\u{e2}\u{80}\u{99}t", '\u{80}'));
        assert!(!inside("a soft\u{ad}hyphen", '\u{ad}'));
        assert!(!inside("x \u{85} y", '\u{85}'));
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
    fn runs_that_read_better_repaired_are_repaired() {
        // `ƒ` before a character Mac Roman puts at `80`..`BF` starts a run.
        assert_eq!(repair("mƒÅja"), Some(("ā".into(), "Mac Roman", 1)));
        // The florin sign before a digit or a space is a symbol.
        assert_eq!(repair("price ƒ 5 or ƒ5"), None);
        assert_eq!(
            repair("mƒÅja un Fran√ßois"),
            Some(("ā".into(), "Mac Roman", 1))
        );
        assert_eq!(repair("◊ë◊î"), Some(("בה".into(), "Mac Roman", 1)));
        assert_eq!(repair("ÿ±ÿ≥"), Some(("رس".into(), "Mac Roman", 1)));
        assert_eq!(
            repair("(âŒ£Ë›âŒ£)"),
            Some(("⌣˛⌣".into(), "windows-1252", 1))
        );
        assert_eq!(repair("$Ì¶6"), Some(("\u{336}".into(), "windows-1252", 1)));
        assert_eq!(
            repair("Hi guys \u{ed}\u{a0}\u{bd}\u{ed}\u{b8}\u{8d} x"),
            Some(("😍".into(), "ISO-8859-1", 1))
        );
    }

    /// What a candidate at `i` of `text` finds, fed to the rule directly.
    fn found_at(text: &str, i: usize) -> Vec<(String, &'static str)> {
        let (bytes, mut next, mut searched) = (text.as_bytes(), 0, 0);
        let mut found = Vec::new();
        at_candidate(bytes, &(0..bytes.len()), i, &mut next, &mut searched, |f| {
            found.push((f.repaired, f.chain.name()));
        });
        found
    }

    /// Mac Roman runs whose first character is `ƒ` (`C4`, the UTF-8 lead
    /// of Latin Extended-A: `ā`, `ą`, `č`, `ę`, `ğ`, `ı`) are repaired when
    /// the candidate is at their `ƒ` (`C6 92`), on a line with no other
    /// damage; `ƒ` as a letter or sign of its own is left alone.
    #[test]
    fn a_mac_roman_run_starting_with_f_hook_is_repaired_once_seen() {
        for (text, repaired) in [
            ("Latvian mƒÅja is a house", "ā"),
            ("Polish wiƒôcej means more", "ę"),
            ("Czech ƒçesk√Ω", "č"),
            ("Turkish daƒüƒ±", "ğı"),
        ] {
            let at = text.find('ƒ').unwrap();
            let found = found_at(text, at);
            let all: String = found.iter().map(|(r, _)| r.as_str()).collect();
            assert!(
                all.starts_with(repaired) && found.iter().all(|(_, c)| *c == "Mac Roman"),
                "{text}: {found:?}"
            );
        }
        for text in [
            "ƒ(x) = x²",
            "prijs: ƒ 12,50",
            "the ƒ° symbol",
            "ƒ´ is f prime",
            "a function ƒ: A → B",
        ] {
            let at = text.find('ƒ').unwrap();
            assert_eq!(found_at(text, at), [], "{text}");
        }
    }

    /// A run that stands alone on its line is taken on its own evidence:
    /// its repair is common text that fits its place.
    #[test]
    fn lone_runs_are_repaired() {
        for (text, repaired) in [
            ("## Build status âœ…", "✅"),
            ("RUF MICH ZURÃœCK", "Ü"),
            ("HÃ´tel de Police", "ô"),
            ("GÃ\u{a0}idhlig", "à"),
            ("ART TRIP Ã\u{a0} l'office", "à"),
            ("Price: 12Â\u{a0}EUR", "\u{a0}"),
            ("Humanized IL2RÎ³cKO mice", "γ"),
            ("`cargo test`â€” fast", "—"),
            ("Ã–l und Wasser", "Ö"),
            ("×‘×”×•×“×¢×”", "בהודעה"),
        ] {
            assert_eq!(repair(text).map(|r| r.0), Some(repaired.into()), "{text}");
        }
    }

    /// `text` with every run found replaced by its repair.
    fn every_run_repaired(text: &str) -> String {
        let mut out = String::new();
        let mut at = 0;
        find_in(text.as_bytes(), |f| {
            out.push_str(&text[at..f.span.start]);
            out.push_str(&f.repaired);
            at = f.span.end;
        });
        out.push_str(&text[at..]);
        out
    }

    /// Every run of a line whose damage is partly lost (a decoder wrote
    /// `?` for the bytes windows-1252 has no character for) is repaired,
    /// and each lost character becomes U+FFFD: one run settles the line,
    /// and what is left is U+FFFD, which `replacement_character` reports.
    #[test]
    fn a_line_with_lost_bytes_is_repaired_as_far_as_it_goes() {
        let text = "æ—¥æœ¬èªžã?®æ–‡ç«\u{a0}ã?¯æ¼¢å\u{ad}—ã?¨ã?²ã‚‰ã?Œã?ªã?§ã?™ã€‚\n";
        assert_eq!(every_run_repaired(text), "日本語�文章�漢字��ら����。\n");
    }

    /// Where a decoder dropped the bytes windows-1252 has no character
    /// for, the sequences cut short are lost characters too.
    #[test]
    fn a_line_with_dropped_bytes_is_repaired_as_far_as_it_goes() {
        let text = "æ—¥æœ¬èªžã®æ–‡ç«\u{a0}ã¯æ¼¢å\u{ad}—\n";
        assert_eq!(every_run_repaired(text), "日本語�文章�漢字\n");
    }

    /// A repair writes no code point Unicode has not assigned.
    #[test]
    fn no_repair_writes_an_unassigned_code_point() {
        // `Î‹` is `CE 8B`, U+038B, a hole in the Greek block.
        assert_eq!(repair("ã?Î‹?ª"), None);
    }

    /// A repair writes no letter of a script its line does not use.
    #[test]
    fn no_repair_writes_a_foreign_script() {
        // `ÔØî` is `❌` through cp850; read as Mac Roman it would be `ﯔ`.
        for text in ["a check ÔØî mark", "an English å¢‰ sentence", "Englå¢‰ish"] {
            assert_eq!(repair(text), None, "{text}");
        }
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
            "∆°",
            "pra lá´´",
            "Offering 5×£35",
            "Charlotte Brontë…”",
            "radius of 10 Å—",
            "IL Y MARQUÉ…",
            "SELKÄ\u{A0}EDELLÄ\u{A0}MAAHAN",
            "MISUTÂ\u{A0}AJIKKO",
            "There are a lot of Ã’s in mojibake text",
            "OK??:(   `¬´    ):",
            "BLÅ… PÅ— IRMÃ— MAÇÃ” MAÇÃ»",
            "10 Å² and 10 Å—",
        ] {
            assert_eq!(repair(text), None, "{text}");
        }
    }
}
